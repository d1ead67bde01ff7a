package ccshape

import (
	"slices"
	"testing"
)

// TestMatchers: each agent's reading of one matcher, from its source
// (Claude Code as measured; codex-rs/hooks events/common.rs; Qwen Code
// 0.24.4 hooks/hook-matcher.ts).
func TestMatchers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		compile func(string) (Match, error)
		matcher string
		subject string
		aliases []string
		want    bool
	}{
		{"claude", ClaudeMatcher, "", "Bash", nil, true},
		{"claude", ClaudeMatcher, "Edit, Write", "Edit", nil, true},
		{"claude", ClaudeMatcher, "Edit.*", "NotebookEdit", nil, true},
		{"claude", ClaudeMatcher, "Read", "Reader", nil, false},
		{"codex", CodexMatcher, "*", "Bash", nil, true},
		{"codex", CodexMatcher, "Bash", "BashOutput", nil, false},
		{"codex", CodexMatcher, "Edit|Write", "Write", nil, true},
		// a space or a comma is no list in Codex: a regular expression
		{"codex", CodexMatcher, "Edit, Write", "Edit", nil, false},
		{"codex", CodexMatcher, "^Bash", "BashOutput", nil, true},
		{"codex", CodexMatcher, "shell", "Bash", []string{"shell"}, true},
		{"qwen", QwenMatcher, ".*", "run_shell_command", nil, true},
		{"qwen", QwenMatcher, "Bash", "run_shell_command", []string{"Bash", "Shell"}, true},
		{"qwen", QwenMatcher, " Bash ", "run_shell_command", []string{"Bash"}, true},
		{"qwen", QwenMatcher, "Edit|Bash", "run_shell_command", []string{"Bash"}, true},
		{"qwen", QwenMatcher, "run_", "run_shell_command", nil, true}, // a regular expression, unanchored
		{"qwen", QwenMatcher, "^read", "run_shell_command", nil, false},
	} {
		m, err := tc.compile(tc.matcher)
		if err != nil || m(tc.subject, tc.aliases...) != tc.want {
			t.Errorf("%s matcher %q on %q %v: %v, want %v", tc.name, tc.matcher, tc.subject, tc.aliases, err, tc.want)
		}
	}
	if _, err := CodexMatcher("["); err == nil {
		t.Error("Codex reads [ as a regular expression and refuses it")
	}
}

var testDialect = Dialect{
	Agent: "Test", Code: "test", Fires: []string{"PreToolUse", "Stop"}, Elsewhere: []string{"SubagentStop"},
	Foreign:    map[string]string{"BeforeTool": "Gemini CLI"},
	HasMatcher: func(e string) bool { return e == "PreToolUse" }, Compile: CodexMatcher,
	GroupFields: []string{"matcher", "hooks"}, HandlerFields: []string{"type", "command", "timeout"},
	Types: []string{"command", "prompt"}, IntTimeout: true,
	Runs: func(typ string) (bool, string) {
		return typ == "command", "Test runs only command hooks: this one never runs"
	},
}

// TestReaderReportsEverything: one file's every problem at once, each at
// its position, with the dialect's codes.
func TestReaderReportsEverything(t *testing.T) {
	data := []byte(`{"hooks": {
  "BeforeTool": [],
  "PreToolUse": [{"matcher": "[", "hooks": [{"type": "command", "command": "x", "timeout": 1.5, "shell": "bash"}]}],
  "Stop": [{"matcher": "x", "hooks": [{"type": "prompt"}, {"type": "http"}, {}]}],
  "SubagentStop": [{"hooks": [{"type": "command", "command": "y"}]}]
}}`)
	r := NewReader("h.json", data, &testDialect)
	hs := r.Document(data, "a hooks file")
	var got []string
	for _, d := range r.Diags {
		got = append(got, d.Code)
		if d.Line == 0 {
			t.Errorf("%s has no position", d.Code)
		}
	}
	want := []string{"test-unknown-event", "test-bad-matcher", "test-shape", "test-unknown-field", "test-matcher-ignored",
		"test-not-run", "test-unknown-type", "test-shape", "test-not-simulated"}
	if !slices.Equal(got, want) {
		t.Errorf("codes %q\nwant  %q", got, want)
	}
	if len(hs) != 3 || !hs[0].Runs || hs[1].Runs || hs[2].Runs {
		t.Errorf("handlers %+v: the first matches nothing, the prompt and SubagentStop ones do not run", hs)
	}
	if hs[0].Match("Bash") {
		t.Error("a matcher the agent cannot read matches nothing")
	}
}
