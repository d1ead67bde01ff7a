package main

import (
	"fmt"
	"hookstudio/app/hooks/registry"
	"io"
)

// notTrusted says why simulate or test ran nothing: the folder's
// executable hooks run only with --trust. It lists what would run as the
// app's trust prompt does, and returns the exit status that means it.
func notTrusted(w io.Writer, root string, cmds []registry.Command) int {
	fmt.Fprintf(w, "hookctl: not run: %s has executable hooks, which run only with --trust; these %d command(s) would run (file:line  event  command, as the app's trust prompt lists them):\n", root, len(cmds))
	for _, c := range cmds {
		fmt.Fprintf(w, "  %s  %s  %s\n", c.Source, c.Event, c.Command)
	}
	fmt.Fprintln(w, "hookctl: read them, then pass --trust to run them")
	return exitNotTrusted
}
