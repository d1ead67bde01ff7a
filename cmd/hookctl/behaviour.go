package main

import (
	"flag"
	"fmt"

	"hookstudio/app/hooks/hostmode"
)

// addBehaviourFlag adds --host-behaviour; the function it returns reads it
// ("" leaves the choice to the folder's setting, code when it has none).
func addBehaviourFlag(fs *flag.FlagSet) func() (hostmode.Mode, error) {
	v := fs.String("host-behaviour", "", "where a hosted program's code and its document disagree, follow the code (default) or the document; default: the folder's "+hostmode.File)
	return func() (hostmode.Mode, error) {
		if *v == "" {
			return "", nil
		}
		m, err := hostmode.Parse(*v)
		if err != nil {
			return "", fmt.Errorf("%w: --host-behaviour: %w", errUsage, err)
		}
		return m, nil
	}
}
