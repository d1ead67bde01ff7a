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

// interpreters run the script named by their first argument that is no
// option (uv and deno after "run").
var interpreters = []string{"sh", "bash", "zsh", "dash", "python3", "python", "uv", "node", "bun", "deno", "tsx", "ts-node", "ruby", "perl"}

// ScriptArg is the index of the argument naming the file p's program, an
// interpreter, runs (uv run [--script] FILE, deno run FILE, python3 -u
// FILE), or -1: no interpreter, or one given its code inline (-c, -e) or
// a module (-m). sure is false when options stood before it: one of them
// may take the next word as its value.
func ScriptArg(p Program) (i int, sure bool) {
	name := filepath.Base(p.Text)
	if !contains(interpreters, name) || !p.Sure {
		return -1, false
	}
	if name == "uv" || name == "deno" {
		if len(p.Args) == 0 || p.Args[0].Text != "run" {
			return -1, false
		}
		i = 1
	}
	first := i
	for i < len(p.Args) && strings.HasPrefix(p.Args[i].Text, "-") {
		if t := p.Args[i].Text; t == "-c" || t == "-e" || t == "-m" {
			return -1, false
		}
		i++
	}
	if i >= len(p.Args) {
		return -1, false
	}
	return i, i == first
}

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
		i, sure := ScriptArg(p)
		if i < 0 || !sure {
			continue
		}
		if script, ok := resolve(p.Args[i]); ok {
			out = append(out, Target{Word: p.Args[i], Path: abs(script), Script: true})
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
