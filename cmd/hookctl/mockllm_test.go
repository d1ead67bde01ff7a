package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/llm/mockllm"
)

// TestSimulateAgainstMockLLM runs `hookctl simulate --provider` against
// @dwmkerr/mock-llm, a third-party OpenAI-compatible server, with the
// rules and scenarios of app/agent/llm/testdata/mock-llm.
func TestSimulateAgainstMockLLM(t *testing.T) {
	data := filepath.Join("..", "..", "app", "agent", "llm", "testdata", "mock-llm")
	srv := mockllm.Start(t, filepath.Join(data, "rules.yaml"))
	dir := t.TempDir()
	skillsDir := filepath.Join(dir, "skills")
	if err := os.MkdirAll(skillsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "profiles.json")
	if err := os.WriteFile(prof, []byte(`{"version":1,"profiles":[{"name":"mock-llm","provider":"openai","base_url":"`+srv.URL+`/v1","model":"mock","timeout":"20s"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	simulate := func(scenario string) (string, string, int) {
		srv.Reset(t)
		return runProvider(t, dir, "simulate", "--skills", skillsDir, "--provider", "mock-llm", "--profiles", prof, "--no-history", filepath.Join(data, scenario))
	}

	t.Run("answers, a retried 429 and a warned empty answer", func(t *testing.T) {
		stdout, stderr, code := simulate("mockllm-ok.yaml")
		if code != exitOK {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		for _, want := range []string{
			`reply: {"need_tool": false, "answer": "Four."}`,
			"reply: The module is called demo and needs Go 1.26.",
			`reply: {"need_tool": false, "answer": "Answered after the rate limit."}`,
		} {
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
		}
		// The empty answer is the last call's, and only it is warned.
		if n := strings.Count(stdout, "warning: "+llm.EmptyAnswer); n != 1 {
			t.Errorf("%d empty-answer warnings, want 1:\n%s", n, stdout)
		}
		last := stdout[strings.LastIndex(stdout, "LLM call #"):]
		if !strings.Contains(last, "warning: "+llm.EmptyAnswer) {
			t.Errorf("the warning is not on the last call:\n%s", last)
		}
		retry := regexp.MustCompile(`attempt 1 failed \(rate limited \(429\) by ` + regexp.QuoteMeta(srv.Host) + ` in the stream: Rate limit reached`)
		if !retry.MatchString(stderr) || strings.Count(stderr, "retrying in") != 1 {
			t.Errorf("stderr does not report the one retry of the 429:\n%s", stderr)
		}
	})

	t.Run("mock-llm's own 500 after the retries", func(t *testing.T) {
		stdout, stderr, code := simulate("mockllm-echo.yaml")
		if code != exitProblems {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitProblems, stdout, stderr)
		}
		headline := regexp.MustCompile(`server error 500 from ` + regexp.QuoteMeta(srv.Host) + `: Bad control character in string literal in JSON at position \d+[^\n]* \(gave up after 3 attempts\)`)
		if !headline.MatchString(stderr) || !headline.MatchString(stdout) {
			t.Errorf("the 500 is not reported with host and message on stdout and stderr:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
		if n := strings.Count(stderr, "retrying in"); n != 2 {
			t.Errorf("%d retries reported, want 2:\n%s", n, stderr)
		}
		for _, bad := range []string{"malformed", "apierror", "unmarshal"} {
			if strings.Contains(stdout+stderr, bad) {
				t.Errorf("output says %q:\n%s\n%s", bad, stdout, stderr)
			}
		}
	})
}
