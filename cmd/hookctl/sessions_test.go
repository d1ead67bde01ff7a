package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
)

// sessionsHome is a Claude Code projects folder holding the package's
// fixtures, as ~/.claude/projects would.
func sessionsHome(t *testing.T) (projects string, files map[string]string) {
	t.Helper()
	hermeticSessions(t)
	projects = filepath.Join(t.TempDir(), "projects")
	files = map[string]string{}
	for _, v := range []string{"2.1.197", "2.1.332"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "app", "capture", "sessions", "testdata", "claude-code-"+v+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(projects, "-home-user-project-"+v)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		files[v] = filepath.Join(dir, "s-"+v+".jsonl")
		if err := os.WriteFile(files[v], data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return projects, files
}

// hermeticSessions points the agents' default session folders at an
// empty one: the machine's own sessions are not the test's.
func hermeticSessions(t *testing.T) {
	t.Helper()
	empty := t.TempDir()
	for _, env := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME", "COPILOT_HOME"} {
		t.Setenv(env, filepath.Join(empty, env))
	}
}

func runHookctl(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestSessionsCommands: hookctl sessions lists the sessions of a folder,
// imports one into the history and prints the run as history show --json
// --trace does, prints a recorded request, and saves a session as a
// scenario.
func TestSessionsCommands(t *testing.T) {
	projects, files := sessionsHome(t)
	db := filepath.Join(t.TempDir(), "history.db")

	code, out, _ := runHookctl(t, "sessions", "list", "--claude-dir", projects, "--codex-dir", "", "--json")
	var list struct {
		Sessions []struct {
			ID, Version, Prompt string
			Calls               int
		} `json:"sessions"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list.Sessions) != 2 || list.Sessions[0].Version != "2.1.332" || list.Sessions[0].Calls != 4 {
		t.Fatalf("list: exit %d: %s", code, out)
	}
	if code, out, _ = runHookctl(t, "sessions", "list", "--claude-dir", projects, "--codex-dir", "", "--search", "2.1.197"); code != exitOK ||
		!strings.Contains(out, "claude-code@2.1.197") || strings.Contains(out, "2.1.332") {
		t.Errorf("list --search: exit %d:\n%s", code, out)
	}

	// by id (a prefix will do), as JSON: the run as history show prints it
	id := list.Sessions[0].ID
	code, imported, stderr := runHookctl(t, "sessions", "import", id[:8], "--claude-dir", projects, "--json", "--db", db)
	if code != exitOK {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	var run struct {
		ID      int    `json:"id"`
		Source  string `json:"source"`
		Backend string `json:"backend"`
	}
	if err := json.Unmarshal([]byte(imported), &run); err != nil || run.Source != "session" || run.Backend != "claude-code@2.1.332" {
		t.Fatalf("import --json: %v %+v", err, run)
	}
	_, shown, _ := runHookctl(t, "history", "show", "1", "--json", "--trace", "--db", db)
	if shown != imported {
		t.Error("sessions import --json differs from history show --json --trace of its run")
	}

	// in words, with what is rebuilt noted; a second import stands in for the first
	code, out, stderr = runHookctl(t, "sessions", "import", files["2.1.197"], "--db", db)
	if code != exitOK || !strings.Contains(out, "4 model calls (0 exact, 4 rebuilt)") || !strings.Contains(out, "kept as run 2") ||
		!strings.Contains(stderr, "rebuilt from the transcript's records") {
		t.Errorf("import: exit %d:\n%s%s", code, out, stderr)
	}
	if _, out, _ = runHookctl(t, "sessions", "import", files["2.1.197"], "--db", db); !strings.Contains(out, "kept as run 2") {
		t.Errorf("imported again:\n%s", out)
	}

	// a recorded request, as sent; a rebuilt one has none
	code, out, _ = runHookctl(t, "sessions", "request", files["2.1.332"], "2")
	var body struct {
		Model    string            `json:"model"`
		Messages []json.RawMessage `json:"messages"`
		Tools    []json.RawMessage `json:"tools"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &body) != nil || body.Model == "" || len(body.Messages) == 0 || len(body.Tools) == 0 {
		t.Errorf("request: exit %d: %.300s", code, out)
	}
	if code, _, stderr = runHookctl(t, "sessions", "request", files["2.1.197"], "2"); code != exitProblems || !strings.Contains(stderr, "rebuilt") {
		t.Errorf("request of a rebuilt call: exit %d: %s", code, stderr)
	}

	// saved as a scenario
	sc := filepath.Join(t.TempDir(), "replay.yaml")
	if code, _, stderr = runHookctl(t, "sessions", "import", files["2.1.332"], "--db", db, "--save-scenario", sc); code != exitOK {
		t.Fatalf("--save-scenario: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(sc)
	if err != nil {
		t.Fatal(err)
	}
	if parsed, diags := scenario.Parse(sc, data); len(diags) > 0 || len(parsed.Requests) == 0 {
		t.Errorf("the saved scenario: %v", diags)
	}
	// replayed against a folder's hooks (none here), and compared call by call with the session
	if code, _, stderr = runHookctl(t, "simulate", "--skills", t.TempDir(), sc, "--db", db); code != exitOK {
		t.Fatalf("simulate the saved scenario: exit %d: %s", code, stderr)
	}
	code, out, stderr = runHookctl(t, "history", "diff", "1", "3", "--db", db, "--json")
	var cmp struct {
		Calls []struct {
			Status string `json:"status"`
		} `json:"calls"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &cmp) != nil || len(cmp.Calls) < 4 {
		t.Errorf("history diff of the session and its replay: exit %d: %s%.300s", code, stderr, out)
	}
}

func TestSessionsExitCodes(t *testing.T) {
	projects, _ := sessionsHome(t)
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"sessions"}, exitUsage},
		{[]string{"sessions", "nope"}, exitUsage},
		{[]string{"sessions", "list", "--agent", "gemini"}, exitUsage},
		{[]string{"sessions", "import"}, exitUsage},
		{[]string{"sessions", "request", "x"}, exitUsage},
		{[]string{"sessions", "request", "x", "0"}, exitUsage},
		{[]string{"sessions", "import", "no-such-session", "--claude-dir", projects, "--codex-dir", ""}, exitProblems},
	} {
		if code, _, stderr := runHookctl(t, tc.args...); code != tc.code {
			t.Errorf("%v: exit %d, want %d: %s", tc.args, code, tc.code, stderr)
		}
	}
}
