package shellcmd

import (
	"path/filepath"
	"strings"
)

// Target is a file a command line runs that can be checked on disk: a
// program named by a path, or the script an interpreter is handed.
type Target struct {
	// Word is how the line names it.
	Word Word
	// Path is where it is: resolved, made absolute against the folder the
	// line runs in.
	Path string
	// Script says an interpreter runs it (sh x.sh): it need not be executable.
	Script bool
}

// interpreters run the script named by their first argument.
var interpreters = []string{"sh", "bash", "zsh", "dash", "python3", "python", "node", "ruby", "perl"}

// Targets lists the files cmd runs that its words name for sure — each
// program given by a path, and the script after an interpreter — resolved
// by resolve (a hook-dir variable, ~/; false: cannot tell) and made
// absolute against dir. Builtins and programs looked up on PATH are left
// out: a system checks what it can report with a position.
func Targets(cmd *Command, dir string, resolve func(Word) (string, bool)) []Target {
	var out []Target
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	for _, p := range cmd.Programs {
		if p.Builtin {
			continue
		}
		prog, ok := resolve(p.Word)
		if !ok {
			continue
		}
		if strings.Contains(prog, "/") {
			out = append(out, Target{Word: p.Word, Path: abs(prog)})
			continue
		}
		if !contains(interpreters, filepath.Base(prog)) || len(p.Args) == 0 || strings.HasPrefix(p.Args[0].Text, "-") {
			continue
		}
		if script, ok := resolve(p.Args[0]); ok {
			out = append(out, Target{Word: p.Args[0], Path: abs(script), Script: true})
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
