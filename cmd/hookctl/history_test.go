package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if filepath.Ext(p) == ".go" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, info.Mode().Perm()|0o600) // scripts stay executable
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestHistoryEndToEnd simulates a scenario, edits a hook, simulates again,
// and reads both runs back with history list, show and diff.
func TestHistoryEndToEnd(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "skills")
	copyTree(t, filepath.Join("..", "..", "skills"), root)
	db := filepath.Join(dir, "history.db")
	scen := filepath.Join(root, "file-tools", "scenarios", "fix-line-limit.yaml")

	simulate := func() {
		t.Helper()
		_, stderr, code := runCLI(t, "simulate", "--skills", root, "--db", db, scen)
		if code != exitOK || stderr != "" {
			t.Fatalf("simulate: exit %d, stderr %q", code, stderr)
		}
	}
	simulate()
	md := filepath.Join(root, "file-tools", "hooks", "truncated-content-hint.md")
	old, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(md, append(old, "\nRead the rest before you edit."...), 0o644); err != nil {
		t.Fatal(err)
	}
	simulate()
	// --no-history records nothing.
	if _, _, code := runCLI(t, "simulate", "--skills", root, "--db", db, "--no-history", scen); code != exitOK {
		t.Fatalf("simulate --no-history: exit %d", code)
	}

	out, stderr, code := runCLI(t, "history", "list", "--db", db, "--json")
	if code != exitOK {
		t.Fatalf("history list: exit %d: %s", code, stderr)
	}
	var list struct {
		Runs []struct {
			ID           int64  `json:"id"`
			Scenario     string `json:"scenario"`
			ScenarioFile string `json:"scenario_file"`
			Source       string `json:"source"`
			Status       string `json:"status"`
			LLMCalls     int    `json:"llm_calls"`
			TokensIn     int    `json:"tokens_in"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(list.Runs) != 2 {
		t.Fatalf("%d runs listed, want 2:\n%s", len(list.Runs), out)
	}
	newer, older := list.Runs[0], list.Runs[1]
	if newer.Scenario != "fix-line-limit" || newer.ScenarioFile != "file-tools/scenarios/fix-line-limit.yaml" ||
		newer.Source != "cli" || newer.Status != "ok" || newer.TokensIn <= older.TokensIn {
		t.Errorf("runs %+v", list.Runs)
	}
	a, b := strconv.FormatInt(older.ID, 10), strconv.FormatInt(newer.ID, 10)

	// Filters.
	for _, tt := range []struct {
		args []string
		want int
	}{
		{[]string{"--scenario", "fix-line-limit"}, 2},
		{[]string{"--skill", "file-tools"}, 2},
		{[]string{"--skill", "planner"}, 0},
		{[]string{"--since", "2000-01-01", "--limit", "1"}, 1},
		{[]string{"--until", "2000-01-01"}, 0},
	} {
		out, _, code := runCLI(t, append([]string{"history", "list", "--db", db, "--json"}, tt.args...)...)
		list.Runs = nil
		if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list.Runs) != tt.want {
			t.Errorf("list %v: exit %d, %d runs, want %d", tt.args, code, len(list.Runs), tt.want)
		}
	}

	out, _, code = runCLI(t, "history", "diff", a, b, "--db", db, "--json")
	if code != exitOK {
		t.Fatalf("history diff: exit %d", code)
	}
	var cmp struct {
		TokenDelta   int `json:"token_delta"`
		ChangedCalls int `json:"changed_calls"`
		Calls        []struct {
			Status   string `json:"status"`
			Messages []struct {
				Op  string `json:"op"`
				Tag string `json:"tag"`
			} `json:"messages"`
		} `json:"calls"`
	}
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	if cmp.TokenDelta <= 0 || cmp.ChangedCalls == 0 || cmp.ChangedCalls == len(cmp.Calls) {
		t.Errorf("diff: delta %d, %d of %d calls changed", cmp.TokenDelta, cmp.ChangedCalls, len(cmp.Calls))
	}
	for _, c := range cmp.Calls {
		for _, m := range c.Messages {
			if m.Op != "changed" || m.Tag != "hook:truncated-content-hint" {
				t.Errorf("unexpected message change %+v", m)
			}
		}
	}

	text, _, code := runCLI(t, "history", "diff", a, b, "--db", db)
	if code != exitOK || !strings.Contains(text, "~ changed hook:truncated-content-hint (system) +") || !strings.Contains(text, "calls differ") {
		t.Errorf("diff text (exit %d):\n%s", code, text)
	}
	text, _, code = runCLI(t, "history", "list", "--db", db)
	if code != exitOK || !strings.Contains(text, "fix-line-limit") || !strings.Contains(text, "TOKENS IN") {
		t.Errorf("list text (exit %d):\n%s", code, text)
	}
	text, _, code = runCLI(t, "history", "show", b, "--db", db)
	if code != exitOK || !strings.Contains(text, "file-tools/truncated-content-hint") || !strings.Contains(text, "LLM calls") {
		t.Errorf("show text (exit %d):\n%s", code, text)
	}
	out, _, code = runCLI(t, "history", "show", b, "--db", db, "--json", "--trace")
	var shown struct {
		ID    int64 `json:"id"`
		Hooks []struct {
			Hook     string `json:"hook"`
			Injected int    `json:"injected"`
		} `json:"hooks"`
		Trace struct {
			Requests []json.RawMessage `json:"requests"`
		} `json:"trace"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &shown) != nil || shown.ID != newer.ID || len(shown.Hooks) == 0 || len(shown.Trace.Requests) == 0 {
		t.Errorf("show --json (exit %d): %.300s", code, out)
	}
}

func TestHistoryExitCodes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "history.db")
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no subcommand", []string{"history"}, exitUsage},
		{"unknown subcommand", []string{"history", "frob"}, exitUsage},
		{"list on an empty history", []string{"history", "list", "--db", db}, exitOK},
		{"bad --since", []string{"history", "list", "--db", db, "--since", "yesterday"}, exitUsage},
		{"bad --limit", []string{"history", "list", "--db", db, "--limit", "-1"}, exitUsage},
		{"show without run", []string{"history", "show", "--db", db}, exitUsage},
		{"show not a number", []string{"history", "show", "abc", "--db", db}, exitUsage},
		{"show missing run", []string{"history", "show", "42", "--db", db}, exitProblems},
		{"diff one run", []string{"history", "diff", "1", "--db", db}, exitUsage},
		{"diff missing runs", []string{"history", "diff", "1", "2", "--db", db}, exitProblems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
		})
	}
}

// TestSimulateHistoryProblemsAreWarnings: an unusable history never fails
// a simulation; a damaged one is replaced with a notice.
func TestSimulateHistoryProblemsAreWarnings(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join("..", "..", "skills", "planner", "scenarios", "answer-without-tools.yaml")
	skills := filepath.Join("..", "..", "skills")

	// A folder where the database should be: it cannot be opened.
	blocked := filepath.Join(dir, "blocked.db")
	os.MkdirAll(blocked, 0o755)
	_, stderr, code := runCLI(t, "simulate", "--skills", skills, "--db", blocked, scen)
	if code != exitOK || !strings.Contains(stderr, "warning: run not recorded") {
		t.Errorf("unusable history: exit %d, stderr %q", code, stderr)
	}

	damaged := filepath.Join(dir, "damaged.db")
	os.WriteFile(damaged, []byte(strings.Repeat("garbage ", 1000)), 0o644)
	_, stderr, code = runCLI(t, "simulate", "--skills", skills, "--db", damaged, scen)
	if code != exitOK || !strings.Contains(stderr, "moved to "+damaged+".corrupt-") {
		t.Errorf("damaged history: exit %d, stderr %q", code, stderr)
	}
	out, _, _ := runCLI(t, "history", "list", "--db", damaged, "--json")
	if !strings.Contains(out, `"answer-without-tools"`) {
		t.Errorf("the run went nowhere: %s", out)
	}
}
