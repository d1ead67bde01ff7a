package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/capture"
)

// The real Codex CLI and Gemini CLI against a capture (the Responses API
// and the Gemini API): each prints the scripted answer and completes a
// tool round trip — it runs the command the first answer asked for and
// sends its output back. Run with the agents installed (scripts/setup.sh
// agents); HOOKSTUDIO_REQUIRE_AGENTS makes a missing install fail.

// agentAnswers are the scripted answers: run a command, then the answer.
const agentAnswers = `answers:
  - content: "I will run it."
    tool_calls: [{name: %s, arguments: {%s: "echo TOOL-RAN-42"}}]
  - content: "CAPTURED-FINAL-ANSWER"
`

// captureAgent runs agent (its command line, env and dir made by setup
// from the capture's URL) against a capture answering script, and returns
// what it printed and the calls recorded.
func captureAgent(t *testing.T, script string, setup func(url string) *exec.Cmd) (string, []capture.Call) {
	t.Helper()
	sc, err := capture.ParseScript("answers.yaml", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := capture.Listen(capture.Options{Answerer: sc})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := setup(srv.URL())
	agent := exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	agent.Dir, agent.Env = cmd.Dir, cmd.Env
	printed, err := agent.CombinedOutput()
	if cerr := srv.Close(); cerr != nil {
		t.Error(cerr)
	}
	calls := srv.Calls()
	if err != nil {
		t.Fatalf("%s: %v\n%s\ncalls: %d", filepath.Base(cmd.Path), err, printed, len(calls))
	}
	return string(printed), calls
}

// checkRoundTrip: the agent printed the final answer, and a main call sent
// back the command's output as the result of the scripted call.
func checkRoundTrip(t *testing.T, printed string, calls []capture.Call, api capture.API) {
	t.Helper()
	if !strings.Contains(printed, "CAPTURED-FINAL-ANSWER") {
		t.Errorf("the agent did not print the scripted answer:\n%s", printed)
	}
	var ran bool
	for _, c := range calls {
		if c.API != api || c.Status != 200 || len(c.Warnings) > 0 {
			t.Errorf("call #%d: %s %d %q", c.N+1, c.API, c.Status, c.Warnings)
		}
		for _, m := range c.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, "TOOL-RAN-42") && strings.HasPrefix(m.ToolCallID, "call_") {
				ran = true
			}
		}
	}
	if !ran {
		t.Errorf("no call carries the command's output as a tool result (%d calls)", len(calls))
	}
}

func TestRealAgentCodexCapture(t *testing.T) {
	codex := agentTool(t, "node_modules/.bin/codex")
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{filepath.Join(home, ".codex"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	printed, calls := captureAgent(t, fmt.Sprintf(agentAnswers, "exec_command", "cmd"), func(url string) *exec.Cmd {
		config := `model = "gpt-5-codex"
model_provider = "local"
[model_providers.local]
name = "local"
base_url = "` + url + `/v1"
wire_api = "responses"
env_key = "LOCAL_API_KEY"
request_max_retries = 0
stream_max_retries = 0
[analytics]
enabled = false
[feedback]
enabled = false
`
		if err := os.WriteFile(filepath.Join(home, ".codex", "config.toml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		// the sandbox's helper is not made under a temporary folder: the
		// command runs unsandboxed, in the throw-away project
		cmd := exec.Command(codex, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "run the echo")
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "HOME="+home, "CODEX_HOME="+filepath.Join(home, ".codex"), "LOCAL_API_KEY=sk-codex-local")
		return cmd
	})
	checkRoundTrip(t, printed, calls, capture.Responses)
	if len(calls) != 2 {
		t.Errorf("%d calls, want the turn's two", len(calls))
	}
}

func TestRealAgentGeminiCapture(t *testing.T) {
	gemini := agentTool(t, "node_modules/.bin/gemini")
	dir := t.TempDir()
	home, proj := filepath.Join(dir, "home"), filepath.Join(dir, "project")
	for _, d := range []string{filepath.Join(home, ".gemini"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	settings := `{"security": {"auth": {"selectedType": "gemini-api-key"}}, "telemetry": {"enabled": false},
 "privacy": {"usageStatisticsEnabled": false}, "general": {"disableAutoUpdate": true, "disableUpdateNag": true}}`
	if err := os.WriteFile(filepath.Join(home, ".gemini", "settings.json"), []byte(settings), 0o644); err != nil {
		t.Fatal(err)
	}
	printed, calls := captureAgent(t, fmt.Sprintf(agentAnswers, "run_shell_command", "command"), func(url string) *exec.Cmd {
		cmd := exec.Command(gemini, "-p", "run the echo", "--yolo")
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "HOME="+home, "GOOGLE_GEMINI_BASE_URL="+url, "GEMINI_API_KEY=sk-gemini-local",
			"GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_CLI_TRUST_WORKSPACE=true")
		return cmd
	})
	checkRoundTrip(t, printed, calls, capture.Gemini)
	main, side := 0, 0
	for _, c := range calls {
		if c.Side != "" {
			side++
		} else {
			main++
		}
	}
	// the model router's call is a side request: one scripted answer per turn is enough
	if main != 2 || side == 0 || strings.Contains(printed, "ZodError") {
		t.Errorf("%d main calls, %d side requests:\n%s", main, side, printed)
	}
}
