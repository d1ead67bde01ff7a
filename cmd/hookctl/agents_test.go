package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agentdata/recipe"
)

// The real agents (tools/agents, `scripts/setup.sh agents`): make test-agents
// sets HOOKSTUDIO_REQUIRE_AGENTS, so a missing install fails there; a plain
// go test skips them.
func agentTool(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "tools", "agents", rel))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("HOOKSTUDIO_REQUIRE_AGENTS") != "" {
			t.Fatalf("%s is not installed (scripts/setup.sh agents): %v", rel, err)
		}
		t.Skipf("%s is not installed (scripts/setup.sh agents)", rel)
	}
	return p
}

// runClaude runs the real Claude Code CLI offline in proj with a throw-away
// HOME against the model endpoint url, sending key as its own API key, and
// returns what it printed on stdout.
func runClaude(t *testing.T, claude, proj, home, url, key string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = proj
	// the recipe's variables (app/agentdata/recipe), the test's own key
	rc, err := recipe.Find("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	// the CLI leaves folders in TMPDIR: the test's own
	cmd.Env = append(os.Environ(), "HOME="+home, "DISABLE_AUTOUPDATER=1", "TMPDIR="+t.TempDir())
	for _, v := range rc.For(url, "").Env {
		if v.Name == "ANTHROPIC_API_KEY" {
			v.Value = key
		}
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	printed, err := cmd.Output()
	if err != nil {
		t.Fatalf("claude -p: %v\n%s%s", err, printed, stderr.Bytes())
	}
	return printed
}

// claudeProject makes a throw-away project with .claude/settings.json, a
// HOME for the CLI and an answers file for capture, all under dir.
func claudeProject(t *testing.T, settings, answersYAML string) (dir, proj, home, answers string) {
	t.Helper()
	dir = t.TempDir()
	proj, home, answers = filepath.Join(dir, "project"), filepath.Join(dir, "home"), filepath.Join(dir, "answers.yaml")
	for _, d := range []string{filepath.Join(proj, ".claude"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range map[string]string{filepath.Join(proj, ".claude", "settings.json"): settings, answers: answersYAML} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, proj, home, answers
}

type capturedDoc struct {
	Requests []struct {
		LLMCalls []struct {
			API      string   `json:"api"`
			Path     string   `json:"path"`
			Status   int      `json:"status"`
			Side     string   `json:"side"`
			Warnings []string `json:"warnings"`
			Messages []struct {
				Role, Content, Origin, Hook string
				IsError                     bool `json:"is_error"`
			} `json:"messages"`
			Tools []string `json:"tools"`
		} `json:"llm_calls"`
	} `json:"requests"`
}

// TestRealAgentClaudeCode: the real Claude Code CLI, offline against hookctl
// capture, runs the project's hooks; the capture shows what the model got
// from each: a UserPromptSubmit hook's context, a PreToolUse exit-2 block in
// the tool result, a Stop hook's decision:block reason.
func TestRealAgentClaudeCode(t *testing.T) {
	claude := agentTool(t, "node_modules/.bin/claude")
	settings := `{"hooks": {
  "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/ups.json\"; echo 'Context from hook: the build folder is shared with CI'"}]}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat > \"$CLAUDE_PROJECT_DIR/pre.json\"; echo 'blocked by test hook' >&2; exit 2"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "f=\"$CLAUDE_PROJECT_DIR/stop.json\"; if [ -e \"$f\" ]; then exit 0; fi; cat > \"$f\"; echo '{\"decision\":\"block\",\"reason\":\"Run the tests before you stop.\"}'"}]}]
}}`
	dir, proj, home, answers := claudeProject(t, settings,
		"answers:\n  - tool_calls: [{name: Bash, arguments: {command: \"rm -rf build\", description: Remove the build folder}}]\n  - content: The hook blocked it.\n  - content: No tests to run.\n")
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "3", "--json", out, "--no-history")

	runClaude(t, claude, proj, home, url, "sk-ant-test-never-stored", "-p", "clean the build folder", "--allowedTools", "Bash")
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	// the hooks ran, with Claude Code's stdin
	for _, f := range []string{"ups.json", "pre.json", "stop.json"} {
		data, err := os.ReadFile(filepath.Join(proj, f))
		if err != nil || !strings.Contains(string(data), `"hook_event_name"`) {
			t.Errorf("%s: %v %s", f, err, data)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "sk-ant-test-never-stored") {
		t.Error("the CLI's key is in the capture")
	}
	var doc capturedDoc
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests) != 1 || len(doc.Requests[0].LLMCalls) != 3 {
		t.Fatalf("capture: %v (%d requests)", err, len(doc.Requests))
	}
	last := doc.Requests[0].LLMCalls[2]
	found := map[string]string{}
	for _, m := range last.Messages {
		if m.Origin == "hook" {
			found[m.Hook] = m.Role + ": " + m.Content
		}
	}
	for hook, want := range map[string]string{
		"UserPromptSubmit": "system: UserPromptSubmit hook success: Context from hook: the build folder is shared with CI",
		"PreToolUse:Bash":  "tool: PreToolUse:Bash hook error: [",
		"Stop":             "user: Stop hook feedback:\nRun the tests before you stop.",
	} {
		if !strings.HasPrefix(found[hook], want) {
			t.Errorf("%s: the model got %q, want it to start %q", hook, found[hook], want)
		}
	}
	if !strings.Contains(found["PreToolUse:Bash"], "]: blocked by test hook") {
		t.Errorf("the block's text: %q", found["PreToolUse:Bash"])
	}
}

// TestRealAgentOpenAIClient: the official OpenAI client streams a tool call
// (with usage) from the capture and sends the tool's result back.
func TestRealAgentOpenAIClient(t *testing.T) {
	script := agentTool(t, "openai-client.mjs")
	agentTool(t, "node_modules/openai")
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - tool_calls: [{name: read_file, arguments: {path: main.go}}]\n  - content: It prints hello.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "capture.json")
	url, wait := startCapture(t, "--answers", answers, "--max-requests", "2", "--json", out, "--no-history")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	printed, err := exec.CommandContext(ctx, "node", script, url).Output()
	if err != nil {
		t.Fatalf("openai client: %v", err)
	}
	if code, stderr := wait(); code != exitOK {
		t.Fatalf("capture exit %d: %s", code, stderr)
	}
	var got struct {
		Calls  []struct{ Name, Arguments string } `json:"calls"`
		Finish string                             `json:"finish"`
		Usage  *struct {
			TotalTokens int `json:"total_tokens"`
		} `json:"usage"`
		Answer string   `json:"answer"`
		Models []string `json:"models"`
	}
	if err := json.Unmarshal(printed, &got); err != nil {
		t.Fatalf("%v: %s", err, printed)
	}
	if len(got.Calls) != 1 || got.Calls[0].Name != "read_file" || got.Calls[0].Arguments != `{"path":"main.go"}` || got.Finish != "tool_calls" ||
		got.Usage == nil || got.Usage.TotalTokens == 0 || got.Answer != "It prints hello." || len(got.Models) == 0 {
		t.Errorf("the client received %s", printed)
	}
	data, _ := os.ReadFile(out)
	var doc capturedDoc
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Requests[0].LLMCalls) != 2 {
		t.Fatalf("capture: %v %s", err, data)
	}
	second := doc.Requests[0].LLMCalls[1].Messages
	if tool := second[len(second)-1]; tool.Role != "tool" || tool.Content != "package main // prints hello" || strings.Contains(string(data), "sk-client-key-never-stored") {
		t.Errorf("recorded %+v", second)
	}
}
