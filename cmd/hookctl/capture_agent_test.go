package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealAgentClaudeCodeForwarded: the real Claude Code CLI against
// hookctl capture --profile, whose profile's endpoint is a second hookctl
// capture playing the provider with a token: the CLI runs its hooks through
// the relay (stream, ?beta=true, its anthropic-* headers), the provider
// only answers the profile's key (its token; the CLI's key would be a 401),
// and the forwarding capture records the provider's answers and what the
// model got from each hook.
func TestRealAgentClaudeCodeForwarded(t *testing.T) {
	claude := agentTool(t, "node_modules/.bin/claude")
	const profileKey = "sk-ant-profile-forward-7c1e"
	settings := `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/pre.json\"; echo 'blocked by test hook' >&2; exit 2"}]}]
}}`
	dir, proj, home, answers := claudeProject(t, settings,
		"answers:\n  - tool_calls: [{name: Bash, arguments: {command: \"rm -rf build\", description: Remove the build folder}}]\n  - content: The hook blocked it, so build stays.\n")
	// the provider: a capture that answers only the profile's key
	provider, providerDone := startCapture(t, "--answers", answers, "--max-requests", "2", "--token", profileKey, "--no-history", "--json", filepath.Join(dir, "provider.json"))
	profilesFile := filepath.Join(dir, "profiles.json")
	if err := os.WriteFile(profilesFile, []byte(`{"version":1,"profiles":[{"name":"forward-e2e","provider":"anthropic","base_url":"`+provider+`","model":"claude-forwarded"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ANTHROPIC_API_KEY", profileKey) // the profile's key: no keyring on a test machine
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--profile", "forward-e2e", "--profiles", profilesFile, "--max-requests", "2", "--json", out, "--no-history")

	printed := runClaude(t, claude, proj, home, url, "sk-ant-cli-never-forwarded", "-p", "clean the build folder", "--allowedTools", "Bash")
	if !strings.Contains(string(printed), "The hook blocked it, so build stays.") {
		t.Errorf("the CLI printed %q, not the provider's answer", printed)
	}
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("forwarding capture exit %d: %s", code, stderr)
	}
	if code, stderr := providerDone(); code != exitOK {
		t.Fatalf("provider exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, "pre.json")); err != nil {
		t.Errorf("the PreToolUse hook did not run: %v", err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{profileKey, "sk-ant-cli-never-forwarded"} {
		if strings.Contains(string(data), key) {
			t.Errorf("key %s is in the capture", key)
		}
	}
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Status   int    `json:"status"`
				Model    string `json:"model"`
				Stream   bool   `json:"stream"`
				Upstream struct {
					Profile, Model string
				} `json:"upstream"`
				Answer struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Name string `json:"name"`
					} `json:"tool_calls"`
				} `json:"answer"`
				Messages []struct {
					Role, Content, Origin, Hook string
				} `json:"messages"`
			} `json:"llm_calls"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests) != 1 || len(doc.Requests[0].LLMCalls) != 2 {
		t.Fatalf("capture: %v\n%s", err, data)
	}
	calls := doc.Requests[0].LLMCalls
	for i, c := range calls {
		if c.Status != 200 || !c.Stream || c.Upstream.Profile != "forward-e2e" || c.Upstream.Model != "claude-forwarded" || c.Model == "claude-forwarded" {
			t.Errorf("call %d: status %d, stream %v, upstream %+v, model %s", i, c.Status, c.Stream, c.Upstream, c.Model)
		}
	}
	if len(calls[0].Answer.ToolCalls) != 1 || calls[0].Answer.ToolCalls[0].Name != "Bash" || calls[1].Answer.Content != "The hook blocked it, so build stays." {
		t.Errorf("answers recorded: %+v / %+v", calls[0].Answer, calls[1].Answer)
	}
	blocked := false
	for _, m := range calls[1].Messages {
		if m.Origin == "hook" && m.Hook == "PreToolUse:Bash" && strings.Contains(m.Content, "blocked by test hook") {
			blocked = true
		}
	}
	if !blocked {
		t.Errorf("the second call does not show the hook's block: %+v", calls[1].Messages)
	}
}
