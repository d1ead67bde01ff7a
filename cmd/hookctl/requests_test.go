package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSimulateRequestHooks: a folder's request hooks run only with
// --trust; a retried request's attempts reach the trace and the history
// (usage per model, per-hook metrics); a denied model fails the run with
// the policy's status and the end hooks still run.
func TestSimulateRequestHooks(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "requests"), root)
	db := filepath.Join(t.TempDir(), "h.db")
	retried := filepath.Join(root, "ops", "scenarios", "retried.yaml")

	_, stderr, code := runCLI(t, "simulate", "--skills", root, "--db", db, retried)
	if code != exitNotTrusted || !strings.Contains(stderr, "request: request_start") || !strings.Contains(stderr, "--trust") {
		t.Fatalf("untrusted: exit %d: %s", code, stderr)
	}
	out, stderr, code := runCLI(t, "simulate", "--skills", root, "--db", db, "--trust", "--json", retried)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Steps []struct {
			HookCall *struct {
				System string          `json:"system"`
				Event  string          `json:"event"`
				Hook   string          `json:"hook"`
				Input  json.RawMessage `json:"input"`
			} `json:"hook_call"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var hooks []string
	var planningEnd string
	for _, s := range doc.Steps {
		if hc := s.HookCall; hc != nil && hc.System == "request" {
			hooks = append(hooks, hc.Event+":"+hc.Hook)
			if hc.Hook == "audit-end" && planningEnd == "" {
				planningEnd = string(hc.Input)
			}
		}
	}
	want := "request_start:audit request_end:usage_stats request_end:audit-end"
	if got := strings.Join(hooks, " "); got != strings.Repeat(want+" ", 2)+want {
		t.Errorf("request hooks %s", got)
	}
	var rc struct {
		Attempts []struct {
			StatusCode int    `json:"status_code"`
			Reason     string `json:"reason"`
		} `json:"attempts"`
	}
	if err := json.Unmarshal([]byte(planningEnd), &rc); err != nil || len(rc.Attempts) != 2 || rc.Attempts[0].StatusCode != 429 ||
		rc.Attempts[0].Reason != "rate limited" || rc.Attempts[1].StatusCode != 200 {
		t.Errorf("planning end context %s (%v)", planningEnd, err)
	}
	if log, _ := os.ReadFile(filepath.Join(root, "requests.log")); strings.Count(string(log), "start") != 3 || strings.Count(string(log), "end") != 3 {
		t.Errorf("hooks ran:\n%s", log)
	}

	text, _, code := runCLI(t, "history", "show", "1", "--db", db)
	if code != exitOK || !strings.Contains(text, "EXECUTABLE HOOK") || !strings.Contains(text, "audit-end") ||
		!strings.Contains(text, "ATTEMPTS") || !regexpLine(text, `mock\s+3\s+3\s+0\s+4\s`) {
		t.Errorf("history show:\n%s", text)
	}

	_, stderr, code = runCLI(t, "simulate", "--skills", root, "--db", db, "--trust", filepath.Join(root, "ops", "scenarios", "denied-model.yaml"))
	if code != exitProblems || !strings.Contains(stderr, "request denied by policy (403)") || !strings.Contains(stderr, "gpt-4o-mini") {
		t.Errorf("denied model: exit %d: %s", code, stderr)
	}
	if log, _ := os.ReadFile(filepath.Join(root, "requests.log")); strings.Count(string(log), "end") != 4 || strings.Count(string(log), "start") != 3 {
		t.Errorf("after the denial (no start hook after the policy, one end):\n%s", log)
	}
}

// regexpLine says whether some line of text matches pattern.
func regexpLine(text, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, l := range strings.Split(text, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// TestValidateRequestHooks: hookctl validate reports request-hooks.yaml
// problems with their positions.
func TestValidateRequestHooks(t *testing.T) {
	root := t.TempDir()
	copyTree(t, filepath.Join("testdata", "requests"), root)
	if err := os.WriteFile(filepath.Join(root, "ops", "hooks", "request-hooks.yaml"), []byte("start:\n  - timeout: 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := runCLI(t, "validate", root)
	if code != exitProblems || !strings.Contains(out, "ops/hooks/request-hooks.yaml:2:5: error: start[0] has no command") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
