package ccshape

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/shellcmd"
)

// CheckCommand reports what makes a command handler misbehave silently: a
// script that is not there or cannot run (the shell exits 127 or 126,
// which the agent treats as a failed, non-blocking hook, so the policy is
// simply off), a guard that blocks with exit 1 (which does not block), a
// line the shell cannot read. root is the project folder the command runs
// in; plugin the folder PluginVar names ("" none).
func CheckCommand(d *Dialect, file string, h *Handler, root, plugin string) []diag.Diagnostic {
	out, _ := Checked(d, file, h, root, plugin)
	return out
}

// Checked is CheckCommand, with the scripts the command runs that are
// there, to read what they print.
func Checked(d *Dialect, file string, h *Handler, root, plugin string) ([]diag.Diagnostic, []string) {
	if h.Type != "command" {
		return nil, nil
	}
	var out []diag.Diagnostic
	add := func(sev diag.Severity, code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: file, Line: h.CmdLine, Column: h.CmdCol, Severity: sev, Code: d.code(code),
			Message: fmt.Sprintf(format, args...)})
	}
	vars := map[string]string{}
	for _, v := range d.ProjectVars {
		vars[v] = root
	}
	if d.PluginVar != "" {
		vars[d.PluginVar] = plugin
	}
	line := h.Command
	if len(h.Args) > 0 { // the program itself, no shell between
		line = "'" + strings.ReplaceAll(h.Command, "'", `'\''`) + "'"
	}
	c := hookdecl.CheckCommand(line, root, hookdecl.Resolver(vars))
	if pe := c.Syntax; pe != nil {
		add(diag.Error, ShellSyntax, "the shell cannot read this command (at %d:%d of it: %s): %s records a failed hook and goes on without it", pe.Line, pe.Col, pe.Msg, d.Agent)
		return out, nil
	}
	where := "relative paths start at the project folder"
	if len(d.ProjectVars) > 0 {
		where += "; use \"$" + d.ProjectVars[0] + "\"/…"
	}
	// a path as the line names it, or where a variable or ~/ leads
	shown := func(tg shellcmd.Target) string {
		if tg.Word.Var != "" || strings.HasPrefix(tg.Word.Text, "~/") {
			return tg.Path
		}
		return tg.Word.Text
	}
	for _, tg := range c.Missing {
		add(diag.Error, MissingScript, "%q does not exist: %s runs the line, the shell exits 127, and %s, so this %s hook silently does nothing; fix the path (%s)", shown(tg), d.Agent, d.Exit, h.Event, where)
	}
	for _, tg := range c.NotExecutable {
		p := shown(tg)
		add(diag.Error, NotExecutable, "%q is not executable: the shell exits 126 and %s, so this %s hook silently does nothing; chmod +x it or run it as sh %s", p, d.Exit, h.Event, p)
	}
	for _, s := range c.Scripts {
		checkGuard(d, h, s, langUnknown, root, plugin, add)
	}
	// a line that runs a script: its exit 1 is about the launch, and the
	// script is what is read
	launches := len(c.Scripts)+len(c.Missing)+len(c.NotExecutable) > 0
	if len(h.Args) == 0 && !launches && slices.Contains(d.Guards, h.Event) && exit1Refusal(langShell, h.Command) {
		add(diag.Warning, Exit1Guard, "this %s hook reads as a guard but ends with exit 1, which does not block in %s (%s): the action goes on", h.Event, d.Agent, d.Blocks)
	}
	return out, c.Scripts
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
