package ccshape

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/shellcmd"
)

// CheckCommand reports what makes a command handler misbehave silently: a
// script that is not there or cannot run (the shell exits 127 or 126,
// which the agent treats as a failed, non-blocking hook, so the policy is
// simply off), a guard that blocks with exit 1 (which does not block), a
// line the shell cannot read. root is the project folder the command runs
// in; plugin the folder PluginVar names ("" none).
func CheckCommand(d *Dialect, file string, h *Handler, root, plugin string) []diag.Diagnostic {
	if h.Type != "command" {
		return nil
	}
	var out []diag.Diagnostic
	add := func(sev diag.Severity, code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: file, Line: h.CmdLine, Column: h.CmdCol, Severity: sev, Code: d.code(code),
			Message: fmt.Sprintf(format, args...)})
	}
	resolve := func(w shellcmd.Word) (string, bool) {
		switch {
		case !w.Sure:
			return "", false
		case w.Var != "" && slices.Contains(d.ProjectVars, w.Var):
			return filepath.Join(root, w.Text), true
		case w.Var != "" && w.Var == d.PluginVar:
			if plugin == "" {
				return "", false
			}
			return filepath.Join(plugin, w.Text), true
		case w.Var != "":
			return "", false
		case strings.HasPrefix(w.Text, "~/"):
			home, err := os.UserHomeDir()
			return filepath.Join(home, w.Text[2:]), err == nil
		}
		return w.Text, true
	}
	var progs []shellcmd.Program
	if len(h.Args) > 0 {
		progs = []shellcmd.Program{{Word: shellcmd.Word{Text: h.Command, Sure: true}}}
	} else {
		cmd, err := shellcmd.Parse(h.Command)
		var pe *shellcmd.ParseError
		if errors.As(err, &pe) {
			add(diag.Error, ShellSyntax, "the shell cannot read this command (at %d:%d of it: %s): %s records a failed hook and goes on without it", pe.Line, pe.Col, pe.Msg, d.Agent)
			return out
		}
		progs = cmd.Programs
	}
	where := "relative paths start at the project folder"
	if len(d.ProjectVars) > 0 {
		where += "; use \"$" + d.ProjectVars[0] + "\"/…"
	}
	missing := func(p string) {
		add(diag.Error, MissingScript, "%q does not exist: %s runs the line, the shell exits 127, and %s, so this %s hook silently does nothing; fix the path (%s)", p, d.Agent, d.Exit, h.Event, where)
	}
	launches := false // the line runs a script: its exit 1 is about the launch
	for _, p := range progs {
		prog, ok := resolve(p.Word)
		if !ok || p.Builtin {
			continue
		}
		if strings.Contains(prog, "/") {
			launches = true
			file := prog
			if !filepath.IsAbs(file) {
				file = filepath.Join(root, file)
			}
			fi, err := os.Stat(file)
			if err != nil {
				missing(prog)
				continue
			}
			if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
				add(diag.Error, NotExecutable, "%q is not executable: the shell exits 126 and %s, so this %s hook silently does nothing; chmod +x it or run it as sh %s", prog, d.Exit, h.Event, prog)
				continue
			}
			checkGuard(d, h, file, langUnknown, root, plugin, add)
			continue
		}
		l, i := interpreterOf(p)
		if i < 0 {
			continue
		}
		launches = true
		if script, ok := resolve(p.Args[i]); ok {
			file := script
			if !filepath.IsAbs(file) {
				file = filepath.Join(root, file)
			}
			if _, err := os.Stat(file); err != nil {
				missing(script)
			} else {
				checkGuard(d, h, file, l, root, plugin, add)
			}
		}
	}
	if len(h.Args) == 0 && !launches && slices.Contains(d.Guards, h.Event) && exit1Refusal(langShell, h.Command) {
		add(diag.Warning, Exit1Guard, "this %s hook reads as a guard but ends with exit 1, which does not block in %s (%s): the action goes on", h.Event, d.Agent, d.Blocks)
	}
	return out
}

// exits are how each language exits 1, as the warning names it.
var exits = map[lang]string{langShell: "exit 1", langPython: "sys.exit(1)", langJS: "process.exit(1)"}

// checkGuard warns when the script a hook runs (in language l, or the
// language its shebang or name tells) reads as a guard that blocks with
// exit 1 and never with exit 2; a shell script that launches another
// script is judged by that one.
func checkGuard(d *Dialect, h *Handler, file string, l lang, root, plugin string, add func(diag.Severity, string, string, ...any)) {
	if !slices.Contains(d.Guards, h.Event) {
		return
	}
	text, ok := Script(file)
	if !ok {
		return
	}
	l = langOf(file, text, l)
	if l == langShell {
		if next, nl := launched(d, text, filepath.Dir(file), root, plugin); next != "" {
			if text, ok = Script(next); !ok {
				return
			}
			file, l = next, langOf(next, text, nl)
		}
	}
	if exit1Refusal(l, text) {
		add(diag.Warning, Exit1Guard, "%s reads as a guard but blocks with %s, which does not block in %s (%s): the action goes on", filepath.Base(file), exits[l], d.Agent, d.Blocks)
	}
}

// Script is the text of a hook's script when it is small enough to read.
func Script(file string) (string, bool) {
	data, err := os.ReadFile(file)
	if err != nil || len(data) > 256<<10 {
		return "", false
	}
	return string(data), true
}

// ScriptOf is the file a command runs (a script by path, or the file an
// interpreter runs: sh, python3, node, uv run…), resolved in root ("" none
// or unsure).
func ScriptOf(d *Dialect, command, root string) string {
	cmd, err := shellcmd.Parse(command)
	if err != nil {
		return ""
	}
	for _, p := range cmd.Programs {
		w := p.Word
		if _, i := interpreterOf(p); i >= 0 {
			w = p.Args[i]
		}
		if !w.Sure || (w.Var != "" && !slices.Contains(d.ProjectVars, w.Var)) || !strings.Contains(w.Text, "/") && w.Var == "" {
			continue
		}
		file := w.Text
		if w.Var != "" || !filepath.IsAbs(file) {
			file = filepath.Join(root, file)
		}
		return file
	}
	return ""
}
