package ccshape

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/hookout"
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
		checkGuard(d, h, s, add)
	}
	if len(h.Args) == 0 && slices.Contains(d.Guards, h.Event) && hookout.Exit1(h.Command) {
		add(diag.Warning, Exit1Guard, "this %s hook reads as a guard but ends with exit 1, which does not block in %s (%s): the action goes on", h.Event, d.Agent, d.Blocks)
	}
	return out, c.Scripts
}

// blocks: a line or script that blocks as the agents read it.
var blocks = regexp.MustCompile(`\bexit\s+2\b|permissionDecision|"decision"`)

// checkGuard warns when a hook's script reads as a guard but blocks with
// exit 1 and never exit 2.
func checkGuard(d *Dialect, h *Handler, file string, add func(diag.Severity, string, string, ...any)) {
	if !slices.Contains(d.Guards, h.Event) {
		return
	}
	text, ok := Script(file)
	if ok && hookout.Exit1(text) && !blocks.MatchString(text) {
		add(diag.Warning, Exit1Guard, "%s reads as a guard but blocks with exit 1, which does not block in %s (%s): the action goes on", filepath.Base(file), d.Agent, d.Blocks)
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
