package copilothook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/hookout"
	"hookstudio/app/hooks/shellcmd"
)

// failing says what Copilot CLI does when the hook's command fails
// (exit 126/127: a script missing or not executable).
func failing(e Event) string {
	if e.Base() == PreToolUse {
		return "Copilot CLI then denies every tool call it sees (the model reads \"Denied by preToolUse hook from … (hook errored)\", seen)"
	}
	return "Copilot CLI logs the failed hook and goes on, so this hook silently does nothing"
}

// dir is where the hook's command runs: its cwd, against the repository
// root — a plugin's hooks against the plugin's folder (seen).
func (h *Hook) dir(root string) string {
	base := root
	if h.Plugin != "" {
		base = h.Plugin
	}
	if h.Cwd == "" {
		return base
	}
	if filepath.IsAbs(h.Cwd) {
		return h.Cwd
	}
	return filepath.Join(base, h.Cwd)
}

// origin is how Copilot CLI names where a hook comes from in its words
// ("Denied by preToolUse hook from …"): a plugin by its name (seen), a
// file by its path.
func (h *Hook) origin() string {
	if h.Plugin == "" {
		return h.File
	}
	var m struct {
		Name string `json:"name"`
	}
	if data, err := os.ReadFile(filepath.Join(h.Plugin, PluginManifest)); err == nil && json.Unmarshal(data, &m) == nil && m.Name != "" {
		return m.Name
	}
	return filepath.Base(h.Plugin)
}

// checkHandler checks what a command hook runs and what its script prints.
func checkHandler(h *Hook, root string) []diag.Diagnostic {
	if h.Type != TypeCommand || h.Bash == "" {
		return nil
	}
	var out []diag.Diagnostic
	d := func(sev diag.Severity, code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: h.File, Line: h.cmdLine, Column: h.cmdCol, Severity: sev, Code: code,
			Message: fmt.Sprintf(format, args...)})
	}
	c := hookdecl.CheckCommand(h.Bash, h.dir(root), hookdecl.Resolver(nil))
	if pe := c.Syntax; pe != nil {
		d(diag.Error, CodeShellSyntax, "bash cannot read this command (at %d:%d of it: %s): it exits 2 — %s", pe.Line, pe.Col, pe.Msg, failing(h.Event))
		return out
	}
	for _, tg := range c.Missing {
		d(diag.Error, CodeMissingScript, "%q does not exist: bash exits 127 — %s; fix the path (relative paths start at the repository root — a plugin's at its folder — or at the hook's cwd)", tg.Word.Text, failing(h.Event))
	}
	scripts := c.Scripts
	first := firstWord(c.Parsed, h.Bash)
	for _, tg := range c.NotExecutable {
		if hookdecl.Regular(tg.Path) && first != nil && tg.Word == *first {
			d(diag.Warning, CodeMadeExecutable, "%q is not executable: Copilot CLI makes it so (chmod +x, seen) before it runs it, which changes the file in your repository — and another agent or a plain shell exits 126 on it; chmod +x it yourself", tg.Word.Text)
			scripts = append(scripts, tg.Path)
			continue
		}
		d(diag.Error, CodeNotExecutable, "%q is not executable: bash exits 126 — %s; chmod +x it or run it as bash %s", tg.Word.Text, failing(h.Event), tg.Word.Text)
	}
	text := hookout.Read(h.Bash, scripts)
	checkOutput(h, text, d)
	return out
}

var (
	jsonOutRe = regexp.MustCompile(`additionalContext|permissionDecision|"decision"|\\"decision\\"|modifiedArgs|jq\b|json\.dumps|JSON\.stringify`)
	nestedRe  = regexp.MustCompile(`hookSpecificOutput`)
	blockRe   = regexp.MustCompile(`"decision"|\\"decision\\"`)
)

// checkOutput reads what the hook prints, for the mistakes that make a
// hook silently do nothing in Copilot CLI.
func checkOutput(h *Hook, text string, d func(diag.Severity, string, string, ...any)) {
	base := h.Event.Base()
	context := base == SessionStart || base == UserPromptSubmitted || base == PreToolUse || base == PostToolUse || base == PostToolUseFailure
	if context && hookout.Plain(text) && !jsonOutRe.MatchString(text) && !nestedRe.MatchString(text) {
		d(diag.Warning, CodePlainStdout, "this %s hook prints plain text: Copilot CLI ignores plain stdout (seen); print JSON {\"additionalContext\": \"…\"} for the model to read it", h.Event)
	}
	if !(h.Event.Compat() && base == PreToolUse) && nestedRe.MatchString(text) {
		d(diag.Warning, CodeNestedOutput, "this hook answers in Claude Code's hookSpecificOutput: Copilot CLI reads additionalContext, permissionDecision and modifiedArgs at the top level of the JSON for %s, and ignores the nested ones (seen; a PascalCase PreToolUse alone reads them)", h.Event)
	}
	if base == AgentStop && hookout.Exit1(text) && !blockRe.MatchString(text) {
		d(diag.Warning, CodeExit1Guard, "this agentStop hook reads as a guard but ends with exit 1, which Copilot CLI only logs: the agent stops anyway; print {\"decision\": \"block\", \"reason\": \"…\"} to make it go on")
	}
}

// firstWord is the line's first word when it is the first program the
// line runs ("./x.sh arg", not "FOO=1 ./x.sh" nor "exec ./x.sh"): the
// file Copilot CLI makes executable before it runs the line (seen: a
// first word naming a file without its executable bits gets them,
// chmod +x; a program later in the line does not). nil: none.
func firstWord(cmd *shellcmd.Command, line string) *shellcmd.Word {
	if len(cmd.Programs) == 0 {
		return nil
	}
	w := cmd.Programs[0].Word
	lead := line[:len(line)-len(strings.TrimLeft(line, " \t\n"))]
	if w.Line != 1+strings.Count(lead, "\n") || w.Col != 1+len(lead)-max(0, strings.LastIndex(lead, "\n")+1) {
		return nil
	}
	return &w
}

// makeExecutable does what Copilot CLI does to the file the line's first
// word names before it runs the line: it adds the executable bits the
// file lacks (644 becomes 755, 600 becomes 711; seen). It says which file
// it changed ("" none).
func (h *Hook) makeExecutable(root string) string {
	cmd, err := shellcmd.Parse(h.Bash)
	if err != nil {
		return ""
	}
	w := firstWord(cmd, h.Bash)
	if w == nil || !w.Sure || w.Var != "" || !strings.Contains(w.Text, "/") {
		return ""
	}
	p := w.Text
	if strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		p = filepath.Join(home, p[2:])
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(h.dir(root), p)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 != 0 {
		return ""
	}
	if os.Chmod(p, fi.Mode().Perm()|0o111) != nil {
		return ""
	}
	return p
}
