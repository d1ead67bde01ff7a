package calibrate

import (
	"strings"
	"testing"

	"hookstudio/app/agentdata/profile"
)

func TestSplitWrapper(t *testing.T) {
	for _, tc := range []struct{ text, open, body, close string }{
		{"<hook_context>{text}</hook_context>", "<hook_context>", "{text}", "</hook_context>"},
		{"<qwen:session-start-context hidden=\"true\">\n{event} additional context:\n{text}\n</qwen:session-start-context>",
			"<qwen:session-start-context hidden=\"true\">\n", "{event} additional context:\n{text}", "\n</qwen:session-start-context>"},
		{"<hook_prompt hook_run_id=\"{hook_id}\">{text}</hook_prompt>", "", "", ""}, // a placeholder in the tag: the hook's part
		{"Denied by {event} hook: {text}", "", "", ""},
		{"<a>{text}</b>", "", "", ""},
	} {
		r := profile.Rendering{Text: tc.text}
		splitWrapper(&r)
		switch {
		case tc.open == "" && r.Wrapper != nil:
			t.Errorf("%q: wrapper %+v", tc.text, r.Wrapper)
		case tc.open != "" && (r.Wrapper == nil || r.Wrapper.Open != tc.open || r.Wrapper.Close != tc.close || r.Text != tc.body):
			t.Errorf("%q: %+v %q", tc.text, r.Wrapper, r.Text)
		}
	}
}

func TestToolWord(t *testing.T) {
	if got := toolWord(`Tool "bash" succeeded. Additional guidance from {event} hooks:`+"\n{text}", "bash"); got != `Tool "{tool}" succeeded. Additional guidance from {event} hooks:`+"\n{text}" {
		t.Error(got)
	}
	if got := toolWord("bashful {text}", "bash"); got != "bashful {text}" {
		t.Error(got)
	}
}

// The probe script's arms: a tool event's hook answers each call by its
// marker, a stop's by how many times it ran, the others always.
func TestAgentRuns(t *testing.T) {
	runs := agentRuns(agentSpecs()["qwen-code"], "0000", "sh probe.sh")
	if len(runs) != 2 || runs[0].name != "main" || runs[1].name != "stdout" {
		t.Fatalf("runs %+v", runs)
	}
	arms := strings.Join(runs[0].arms, "\n")
	for _, want := range []string{
		`pretooluse-a) case "$in" in *hsp-pre-exit2*) printf '%s' 'HSP0000 PreToolUse exit2 a' >&2; exit 2;; *hsp-pre-deny*) printf`,
		`stop-a) n=$(( $(cat "$dir/.probe-stops") + 1 )); echo $n > "$dir/.probe-stops"; case $n in 1) printf`,
		`sessionstart-context-a) printf '%s\n' '{"hookSpecificOutput":{"additionalContext":"HSP0000 SessionStart context a \u003cm\u0026\u003e"`,
	} {
		if !strings.Contains(arms, want) {
			t.Errorf("no %q in\n%s", want, arms)
		}
	}
	if got := runs[0].byEvent["UserPromptSubmit"]; len(got) != 2 {
		t.Errorf("UserPromptSubmit hooks %v: two, to see how they join", got)
	}
	// the answers: one tool call per probe that needs one, then texts
	if a := runs[0].answers; len(a) != 3+4 || a[0].ToolCalls[0].Name != "run_shell_command" || a[3].Content == "" {
		t.Errorf("answers %+v", a)
	}
}
