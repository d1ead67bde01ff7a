package diag

import "testing"

func TestSuggest(t *testing.T) {
	events := []string{"pre_tool_execution", "post_tool_execution", "agent.tool.exec_start", "before_first_agent", "before_each_agent"}
	tests := []struct{ in, want string }{
		{"PreToolExecution", "pre_tool_execution"},         // case and separators ignored
		{"agent-tool-exec-start", "agent.tool.exec_start"}, // dots are separators too
		{"pre_tol_execution", "pre_tool_execution"},        // a typo
		{"before_first", "before_first_agent"},             // a truncated word names the one it starts
		{"before", ""},                                     // ambiguous prefix, too far for a typo
		{"xyz", ""},                                        // a different word
	}
	for _, tt := range tests {
		if got := Suggest(tt.in, events); got != tt.want {
			t.Errorf("Suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if DidYouMean("xyz", events) != "" || DidYouMean("pre_tol_execution", events) == "" {
		t.Errorf("DidYouMean disagrees with Suggest")
	}
}
