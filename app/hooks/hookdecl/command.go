package hookdecl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"hookstudio/app/hooks/shellcmd"
)

// Command is what a hook's command line runs, checked on disk: what the
// validators of every agent report (each in its agent's words) and read.
type Command struct {
	// Syntax is set when the shell cannot read the line (it exits 2).
	Syntax *shellcmd.ParseError
	// Parsed is the line read (nil with Syntax).
	Parsed *shellcmd.Command
	// Missing are the files it runs that are not there (the shell exits
	// 127); NotExecutable the programs named by a path that cannot run (126).
	Missing, NotExecutable []shellcmd.Target
	// Scripts are the files it runs that are there, to read what they
	// print: never a conversion's adapter (Adapted), whose text names
	// every field it maps, not what the hook prints.
	Scripts []string
	// Adapted says the line runs a converted hook through the adapter
	// Hook Studio's convert wrote: what the hook prints reaches the agent
	// as the adapter maps it.
	Adapted bool
}

// AdapterMark is the line the conversion's adapter script carries, which
// tells it from a hook's own script.
const AdapterMark = "# Written by Hook Studio's convert"

// CheckCommand reads line as the shell will and checks each file it runs
// for sure — a program named by a path, the script an interpreter is
// handed — resolved by resolve and made absolute against dir.
func CheckCommand(line, dir string, resolve func(shellcmd.Word) (string, bool)) Command {
	var c Command
	cmd, err := shellcmd.Parse(line)
	var pe *shellcmd.ParseError
	if errors.As(err, &pe) {
		c.Syntax = pe
		return c
	}
	c.Parsed = cmd
	for _, tg := range shellcmd.Targets(cmd, dir, resolve) {
		fi, err := os.Stat(tg.Path)
		switch {
		case err != nil:
			c.Missing = append(c.Missing, tg)
		case !tg.Script && (fi.IsDir() || fi.Mode().Perm()&0o111 == 0):
			c.NotExecutable = append(c.NotExecutable, tg)
		case isAdapter(tg.Path):
			c.Adapted = true
		default:
			c.Scripts = append(c.Scripts, tg.Path)
		}
	}
	return c
}

// isAdapter says whether file is the conversion's adapter: its mark in
// its first lines.
func isAdapter(file string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 1024)
	n, _ := f.Read(head)
	return strings.Contains(string(head[:n]), AdapterMark)
}

// Resolver resolves a word of a hook's line: a path under one of vars
// (a variable the agent sets to a folder) against that folder, ~/ against
// the home folder, a literal as it is; false for what is only known when
// it runs.
func Resolver(vars map[string]string) func(shellcmd.Word) (string, bool) {
	return func(w shellcmd.Word) (string, bool) {
		switch {
		case !w.Sure:
			return "", false
		case w.Var != "":
			dir, ok := vars[w.Var]
			if !ok || dir == "" {
				return "", false
			}
			return filepath.Join(dir, w.Text), true
		case strings.HasPrefix(w.Text, "~/"):
			home, err := os.UserHomeDir()
			return filepath.Join(home, w.Text[2:]), err == nil
		}
		return w.Text, true
	}
}
