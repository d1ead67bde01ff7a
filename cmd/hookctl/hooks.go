package main

import (
	"flag"

	"hookstudio/app/hooks/registry"
)

// addUserFileFlags adds a flag for each hook system's user-level file
// (registry.UserFile: --user-hooks, --claude-user-settings, …); the
// function it returns gives the files by system name.
func addUserFileFlags(fs *flag.FlagSet, reg *registry.Registry) func() map[string]string {
	vals := map[string]*string{}
	for _, sys := range reg.Systems() {
		if sys.User != nil {
			vals[sys.Name] = fs.String(sys.User.Flag, "", sys.User.Usage)
		}
	}
	return func() map[string]string {
		out := map[string]string{}
		for name, v := range vals {
			out[name] = *v
		}
		return out
	}
}
