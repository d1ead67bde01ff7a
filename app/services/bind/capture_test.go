package bind

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture"
	"hookstudio/app/store/history"
)

// TestCaptureSaveScenario: a capture kept in the history saves as a
// scenario — the capture just stopped from its calls, a run of an older
// session from the history — and a run that is not a capture is refused.
func TestCaptureSaveScenario(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - tool_calls: [{name: Bash, arguments: {command: ls}}]\n  - content: two files\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := NewCapture(func(string, any) {}, store, counter)
	st, err := c.Start(capture.SessionOptions{AnswersFile: answers})
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"}]}`,
		`{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01_1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","content":"a b"}]}]}`,
	} {
		res, err := http.Post(st.BaseURL+"/v1/messages", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	st, err = c.Stop()
	if err != nil || st.RunID == 0 {
		t.Fatalf("stop: %v %+v", err, st)
	}
	fresh := NewCapture(func(string, any) {}, store, counter) // an app started later: the run comes from the history
	for _, tt := range []struct {
		name string
		c    *Capture
	}{{"the capture just stopped", c}, {"from the history", fresh}} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "replay.yaml")
			saved, err := tt.c.SaveScenario(st.RunID, path)
			if err != nil || saved.Path != path {
				t.Fatalf("save: %v %+v", err, saved)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := scenario.Parse(path, data)
			if sc == nil || sc.Name != "capture: list" || len(sc.Requests) != 1 || len(sc.Requests[0].Rounds) != 2 ||
				sc.Requests[0].Rounds[0].ToolCalls[0].Result != "a b" || sc.Requests[0].Rounds[1].Content != "two files" {
				t.Errorf("saved:\n%s", data)
			}
		})
	}
	if _, err := fresh.SaveScenario(st.RunID, "relative.yaml"); err == nil {
		t.Error("a relative path was accepted")
	}
	if _, err := fresh.SaveScenario(st.RunID+99, filepath.Join(dir, "x.yaml")); err == nil {
		t.Error("a missing run was saved")
	}
}

// A capture opened from the history is drawn on the loop of the agent that
// sent its calls (told from their headers), or on the generic one when
// they do not tell.
func TestHistoryDrawsACaptureOnItsAgentsLoop(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := history.Open(ctx, filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte("answers:\n  - tool_calls: [{name: Bash, arguments: {command: ls}}]\n  - content: two files\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hist := NewHistory(store, counter, NewCounting(func(string, any) {}, store, counter))
	for _, tt := range []struct{ userAgent, loop string }{
		{"claude-cli/2.1.197 (external, sdk-cli)", "claude-code"},
		{"", "agent"},
	} {
		c := NewCapture(func(string, any) {}, store, counter)
		st, err := c.Start(capture.SessionOptions{AnswersFile: answers})
		if err != nil {
			t.Fatal(err)
		}
		for _, body := range []string{
			`{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"}]}`,
			`{"model":"m","tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01_1","name":"Bash","input":{"command":"ls"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","content":"a b"}]}]}`,
		} {
			req, _ := http.NewRequest(http.MethodPost, st.BaseURL+"/v1/messages", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if tt.userAgent != "" {
				req.Header.Set("User-Agent", tt.userAgent)
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
		st, err = c.Stop()
		if err != nil || st.RunID == 0 {
			t.Fatalf("stop: %v %+v", err, st)
		}
		v := openWhole(t, hist, st.RunID)
		if v.Head.Loop.ID != tt.loop {
			t.Errorf("User-Agent %q: drawn on %s (%s)", tt.userAgent, v.Head.Loop.ID, v.Head.Why)
		}
		if n := v.node(v.Calls[1].Step); n != "model" {
			t.Errorf("User-Agent %q: the second call at node %q", tt.userAgent, n)
		}
	}
}
