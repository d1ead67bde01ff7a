package identify

import (
	"net/http"
	"testing"
)

// The headers are those each agent sent hookctl capture (docs/agents/).
func TestRequest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		headers map[string]string
		system  string
		want    Agent
	}{
		{"claude code", map[string]string{"User-Agent": "claude-cli/2.1.197 (external, sdk-cli)", "X-App": "cli"}, "You are Claude Code",
			Agent{"claude-code", "2.1.197", "user-agent"}},
		{"qwen code", map[string]string{"User-Agent": "QwenCode/0.24.4 (linux; x64)"}, "You are Qwen Code",
			Agent{"qwen-code", "0.24.4", "user-agent"}},
		{"copilot, chat completions", map[string]string{"User-Agent": "OpenAI/JS 5.20.1", "X-Initiator": "user", "X-Interaction-Type": "conversation-user"}, "",
			Agent{"copilot-cli", "", "headers"}},
		{"copilot, messages, a tool round", map[string]string{"User-Agent": "Anthropic/JS 0.94.0", "X-Initiator": "agent"}, "",
			Agent{"copilot-cli", "", "headers"}},
		{"copilot by its prompt", map[string]string{"User-Agent": "OpenAI/JS 5.20.1"}, "You are the GitHub Copilot CLI, a terminal assistant",
			Agent{"copilot-cli", "", "system prompt"}},
		{"codex", map[string]string{"User-Agent": "codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)", "Originator": "codex_exec"}, "",
			Agent{"codex", "0.171.0", "user-agent"}},
		{"gemini cli", map[string]string{"User-Agent": "GeminiCLI-tui/0.61.0/gemini-3.1-pro-preview (linux; x64; terminal)", "X-Goog-Api-Client": "google-genai-sdk/1.30.0 gl-node/v20.20.2"}, "",
			Agent{"gemini-cli", "0.61.0", "user-agent"}},
		{"factory droid", map[string]string{"User-Agent": "factory-cli/0.225.2"}, "", Agent{"factory-droid", "0.225.2", "user-agent"}},
		{"opencode", map[string]string{"User-Agent": "opencode/1.18.33 ai-sdk/provider-utils/4.0.23 runtime/bun/1.3.14"}, "",
			Agent{"opencode", "1.18.33", "user-agent"}},
		{"cline", map[string]string{"User-Agent": "ai-sdk/openai-compatible/3.0.37 ai-sdk/provider-utils/5.0.30 runtime/bun/1.3.13"}, "\nYou are Cline, an AI coding agent.",
			Agent{"cline", "", "system prompt"}},
		{"an sdk script", map[string]string{"User-Agent": "OpenAI/JS 6.9.0"}, "You are a helpful assistant.", Agent{}},
		{"nothing", nil, "", Agent{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tc.headers {
				h.Set(k, v)
			}
			if got := Request(h, tc.system); got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
