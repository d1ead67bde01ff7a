package capture

import "testing"

// TestToolResultOrigin: a tool result in a hook's words (as claude -p
// words them) is that hook's; the tool's own output, or a hook's bare
// deny reason, which cannot be told apart from it, is the tool's.
func TestToolResultOrigin(t *testing.T) {
	tests := []struct {
		text    string
		isError bool
		origin  string
		hook    string
	}{
		{"PreToolUse:Bash hook error: [./guard.sh]: rm is blocked\n", true, OriginHook, "PreToolUse:Bash"},
		{"Hook PreToolUse:Bash asked for confirmation for this tool", true, OriginHook, "PreToolUse:Bash"},
		{"Hook PreToolUse:Bash asked for confirmation for this tool", false, OriginToolResult, ""},
		{"ls denied by policy", true, OriginToolResult, ""},
		{"total 0\ndrwxr-xr-x 2 root root 40 build", false, OriginToolResult, ""},
	}
	for _, tt := range tests {
		m := toolResult("toolu_1", tt.text, tt.isError)
		if m.Origin != tt.origin || m.Hook != tt.hook {
			t.Errorf("%q (is_error %v): origin %q hook %q, want %q %q", tt.text, tt.isError, m.Origin, m.Hook, tt.origin, tt.hook)
		}
	}
}
