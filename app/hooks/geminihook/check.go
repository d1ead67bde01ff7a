package geminihook

import (
	"fmt"
	"regexp"
	"slices"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/hookout"
)

// blocks says what Gemini CLI does at an event when a hook exits with a
// code other than 0 and 1 (and prints no JSON): it reads stderr as a
// "deny" with stderr as the reason.
func blocks(e Event) string {
	switch e {
	case BeforeTool:
		return "every tool call it matches is blocked (the model reads \"Tool execution blocked: <bash's error>\")"
	case AfterTool:
		return "every result it matches is hidden from the model, replaced by bash's error"
	case BeforeAgent:
		return "every prompt is blocked before the model is asked"
	case AfterAgent:
		return "every answer is rejected and bash's error sent back as a new prompt"
	case BeforeModel, AfterModel:
		return "every model call is blocked and the turn ends without an answer"
	}
	return "it is logged as a failed hook and nothing else happens"
}

// checkHandler checks what a command hook runs: a script that is missing
// or cannot run makes bash exit 127 or 126, which Gemini CLI reads as a
// block (any exit code but 0 and 1), and what its script prints.
func checkHandler(h *Hook, root string) []diag.Diagnostic {
	var out []diag.Diagnostic
	d := func(sev diag.Severity, code, format string, args ...any) {
		out = append(out, diag.Diagnostic{File: h.File, Line: h.cmdLine, Column: h.cmdCol, Severity: sev, Code: code,
			Message: fmt.Sprintf(format, args...)})
	}
	c := hookdecl.CheckCommand(h.Command, root, hookdecl.Resolver(map[string]string{"GEMINI_PROJECT_DIR": root, "GEMINI_CWD": root, "CLAUDE_PROJECT_DIR": root}))
	if pe := c.Syntax; pe != nil {
		d(diag.Error, CodeShellSyntax, "bash -c cannot read this command (at %d:%d of it: %s): it exits 2, which Gemini CLI reads as a block — %s", pe.Line, pe.Col, pe.Msg, blocks(h.Event))
		return out
	}
	for _, tg := range c.Missing {
		d(diag.Error, CodeMissingScript, "%q does not exist: bash exits 127, and Gemini CLI reads that as a block — %s; fix the path (relative paths start at the project folder; \"$GEMINI_PROJECT_DIR\"/… is the project)", tg.Word.Text, blocks(h.Event))
	}
	for _, tg := range c.NotExecutable {
		d(diag.Error, CodeNotExecutable, "%q is not executable: bash exits 126, and Gemini CLI reads that as a block — %s; chmod +x it or run it as bash %s", tg.Word.Text, blocks(h.Event), tg.Word.Text)
	}
	text := hookout.Read(h.Command, c.Scripts)
	checkOutput(h, text, d)
	return out
}

var (
	jsonOutRe  = regexp.MustCompile(`additionalContext|hookSpecificOutput|"decision"|\\"decision\\"|systemMessage|"continue"|jq\b|json\.dumps|JSON\.stringify|^\s*\{`)
	claudeRe   = regexp.MustCompile(`permissionDecision`)
	blockingRe = regexp.MustCompile(`\bexit\s+2\b|"decision"|\\"decision\\"`)
)

// checkOutput reads what the hook's line and scripts print, for the
// mistakes that make a hook silently do nothing in Gemini CLI.
func checkOutput(h *Hook, text string, d func(diag.Severity, string, string, ...any)) {
	context := h.Event == SessionStart || h.Event == BeforeAgent || h.Event == AfterTool
	if context && hookout.Plain(text) && !jsonOutRe.MatchString(text) {
		d(diag.Warning, CodePlainStdout, "this %s hook prints plain text: Gemini CLI shows plain stdout to the user (\"Hook system message\"), never to the model; print JSON {\"hookSpecificOutput\": {\"additionalContext\": \"…\"}} for the model to read it", h.Event)
	}
	if claudeRe.MatchString(text) && !blockingRe.MatchString(text) {
		d(diag.Warning, CodeClaudeOutput, "this hook answers with Claude Code's permissionDecision, which Gemini CLI does not read: the action goes on; print {\"decision\": \"deny\", \"reason\": \"…\"} (or exit 2 with the reason on stderr)")
	}
	if hookout.Field(text, "additionalContext") {
		switch {
		case !slices.Contains(contextEvents, h.Event):
			d(diag.Warning, CodeContextIgnored, "this %s hook answers with additionalContext, which Gemini CLI reads at SessionStart, BeforeAgent and AfterTool only: the model never reads it here (give context from BeforeAgent, or from AfterTool after a tool)", h.Event)
		case !hookout.Field(text, "hookSpecificOutput"):
			d(diag.Warning, CodeContextTopLevel, "this %s hook puts additionalContext at the top level of its JSON: Gemini CLI reads it inside hookSpecificOutput only, so the model never reads it; print {\"hookSpecificOutput\": {\"hookEventName\": %q, \"additionalContext\": \"…\"}}", h.Event, h.Event)
		}
	}
	guard := h.Event == BeforeTool || h.Event == BeforeAgent || h.Event == AfterAgent
	if guard && hookout.Exit1(text) && !blockingRe.MatchString(text) {
		d(diag.Warning, CodeExit1Guard, "this %s hook reads as a guard but blocks with exit 1, which Gemini CLI treats as a warning: the action goes on (exit 2 blocks, or {\"decision\": \"deny\"})", h.Event)
	}
}
