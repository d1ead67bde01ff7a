package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type searchHit struct {
	Key     string `json:"key"`
	Source  string `json:"source"`
	Run     int64  `json:"run"`
	File    string `json:"file"`
	Agent   string `json:"agent"`
	Kind    string `json:"kind"`
	Call    int    `json:"call"`
	Message int    `json:"message"`
	Event   string `json:"event"`
	Outcome string `json:"outcome"`
	Snippet []struct {
		Text string `json:"text"`
		Hit  bool   `json:"hit"`
	} `json:"snippet"`
}

type searchResults struct {
	Hits  []searchHit `json:"hits"`
	Total int         `json:"total"`
}

// TestSessionsSearch: hookctl sessions search indexes the sessions on disk
// and the history's runs before it searches; a session found on disk is
// found in its run once imported, at the same call and message; a
// simulation's words are found too; filters, pages, --file, and a bad
// search is a usage error that says what is wrong.
func TestSessionsSearch(t *testing.T) {
	projects, files := sessionsHome(t)
	dir := t.TempDir()
	db, idx := filepath.Join(dir, "history.db"), filepath.Join(dir, "search.db")
	where := []string{"--claude-dir", projects, "--codex-dir", "", "--db", db, "--index", idx}
	search := func(args ...string) (int, string, string) {
		t.Helper()
		return runHookctl(t, append(append([]string{"sessions", "search"}, args...), where...)...)
	}
	searchJSON := func(args ...string) searchResults {
		t.Helper()
		code, out, stderr := search(append(args, "--json")...)
		var res searchResults
		if code != exitOK || json.Unmarshal([]byte(out), &res) != nil {
			t.Fatalf("search %q: exit %d: %s%s", args, code, out, stderr)
		}
		return res
	}

	// where did my guard block something? both sessions, not imported yet
	blocks := searchJSON("rm -rf", "--outcome", "blocked", "--event", "PreToolUse")
	byFile := map[string]searchHit{}
	for _, h := range blocks.Hits {
		if h.Run != 0 || h.Source != "disk" || h.Outcome != "blocked" || !strings.HasPrefix(h.Event, "PreToolUse") || h.Call < 0 {
			t.Errorf("hit %+v", h)
		}
		if h.Kind == "message" {
			byFile[h.File] = h
		}
	}
	if len(byFile) != 2 {
		t.Fatalf("the guard's words found in %d sessions, want 2: %+v", len(byFile), blocks.Hits)
	}

	// imported: found in its run, at the same call and message
	if code, _, stderr := runHookctl(t, "sessions", "import", files["2.1.332"], "--db", db); code != exitOK {
		t.Fatalf("import: %s", stderr)
	}
	before := byFile[files["2.1.332"]]
	found := false
	for _, h := range searchJSON("rm -rf", "--outcome", "blocked", "--kind", "message").Hits {
		if h.File == files["2.1.332"] {
			found = true
			if h.Run != 1 || h.Source != "session" || h.Call != before.Call || h.Message != before.Message {
				t.Errorf("after the import %+v, before %+v", h, before)
			}
		}
	}
	if !found {
		t.Error("the imported session is not found")
	}

	// a simulation's words, by source
	root := filepath.Join(dir, "skills")
	copyTree(t, filepath.Join("..", "..", "skills"), root)
	if code, _, stderr := runHookctl(t, "simulate", "--skills", root, "--db", db, filepath.Join(root, "file-tools", "scenarios", "fix-line-limit.yaml")); code != exitOK {
		t.Fatalf("simulate: %s", stderr)
	}
	sim := searchJSON("truncated", "--source", "cli")
	if len(sim.Hits) == 0 || sim.Hits[0].Run != 2 {
		t.Errorf("the simulation's words: %+v", sim)
	}

	// a file's text: each line a phrase
	text := filepath.Join(dir, "context.txt")
	if err := os.WriteFile(text, []byte("session start context:\nthe repo is a monorepo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if res := searchJSON("--file", text, "--kind", "message"); res.Total != 2 {
		t.Errorf("--file: %d hits, want the two sessions' SessionStart context: %+v", res.Total, res.Hits)
	}

	// in words: where, what, the matched words marked; a page and the next
	code, out, _ := search("rm -rf", "--outcome", "blocked", "--limit", "1", "--no-index")
	if code != exitOK || !strings.Contains(out, "«rm -rf»") || !strings.Contains(out, "hits 1–1 of ") || !strings.Contains(out, "--offset 1") {
		t.Errorf("text: exit %d:\n%s", code, out)
	}
	if code, out, _ = search("rm -rf", "--outcome", "blocked", "--limit", "1", "--offset", "1", "--no-index"); code != exitOK || !strings.Contains(out, "hits 2–2 of ") {
		t.Errorf("the next page: exit %d:\n%s", code, out)
	}
	if code, out, _ = search("zebra xylophone", "--no-index"); code != exitOK || !strings.Contains(out, "no hits") {
		t.Errorf("nothing found: exit %d:\n%s", code, out)
	}

	// a bad search says every problem
	code, _, stderr := search("OR since:tomorrow", "--kind", "file")
	if code != exitUsage || !strings.Contains(stderr, "OR stands between") || !strings.Contains(stderr, "since:tomorrow") || !strings.Contains(stderr, `kind "file"`) {
		t.Errorf("bad search: exit %d: %s", code, stderr)
	}
	if code, _, stderr = search("rm", "--since", "May"); code != exitUsage || !strings.Contains(stderr, "--since") {
		t.Errorf("bad date: exit %d: %s", code, stderr)
	}
}

// TestSearchWithoutFTS5IsAClearError: hookctl built without the
// sqlite_fts5 tag (SQLite without FTS5) says so and how to build it,
// rather than finding nothing.
func TestSearchWithoutFTS5IsAClearError(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "hookctl-no-fts5")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build without the tag: %v\n%s", err, out)
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "sessions", "search", "rm", "--index", filepath.Join(dir, "search.db"), "--db", filepath.Join(dir, "history.db"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitProblems {
		t.Fatalf("exit: %v", err)
	}
	if !strings.Contains(stderr.String(), "no full-text search") || !strings.Contains(stderr.String(), "-tags sqlite_fts5") {
		t.Errorf("stderr: %s", stderr.String())
	}
}
