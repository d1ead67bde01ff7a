package capture

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/store/history"
)

func openHistory(t *testing.T) *history.Store {
	t.Helper()
	store, err := history.Open(context.Background(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

// captureRuns are the history's capture runs.
func captureRuns(t *testing.T, store *history.Store) []history.RunSummary {
	t.Helper()
	runs, err := store.ListRuns(context.Background(), history.Filter{Source: history.SourceCapture})
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestKeeper: a capture's calls go into the history's journal as they are
// answered and its run is built from them; the run stands in for itself
// under one id as calls come, and Close leaves it holding every call.
func TestKeeper(t *testing.T) {
	store := openHistory(t)
	k := NewKeeper(store, nil, time.Now())
	saved := make(chan int64, 16)
	k.OnSaved = func(id int64, err error) {
		if err != nil {
			t.Error(err)
		}
		saved <- id
	}
	srv := start(t, Options{Journal: k.Journal(), OnCall: k.Add})
	post(t, srv.URL()+"/v1/messages", claudeFirst, nil)
	first := <-saved
	if runs := captureRuns(t, store); len(runs) != 1 || runs[0].ID != history.RunID(first) || runs[0].LLMCalls != 1 {
		t.Fatalf("after the first call: %+v", runs)
	}
	post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	id, err := k.Close()
	if err != nil || id != first {
		t.Fatalf("close: run %d (%v), the first save made %d", id, err, first)
	}
	runs := captureRuns(t, store)
	if len(runs) != 1 || runs[0].LLMCalls != 2 || runs[0].Scenario != "capture: clean the build" {
		t.Fatalf("runs %+v", runs)
	}
	calls, err := CallsOfRun(context.Background(), store, id, nil)
	if err != nil || len(calls) != 2 || calls[1].Answer.Content != "Blocked, so I left build alone. Déjà vu: nothing removed." ||
		len(calls[0].Tools) != 2 || calls[0].Headers["user-agent"] == "" || len(calls[1].Messages) != len(srv.Calls()[1].Messages) {
		t.Fatalf("the calls read back from the history: %v %+v", err, calls)
	}
}

// TestRecover: a capture whose process died after answering (its journal
// written, its run not built since) is rebuilt by the next process that
// opens the history: the run holds every call answered.
func TestRecover(t *testing.T) {
	store := openHistory(t)
	j := newJournal(store, time.Now(), func(err error) { t.Error(err) })
	srv := start(t, Options{Journal: j})
	for _, body := range []string{claudeFirst, claudeSecond, `{"model":`} {
		post(t, srv.URL()+"/v1/messages", body, nil)
	}
	if len(captureRuns(t, store)) != 0 {
		t.Fatal("a run before any was built")
	}
	n, err := Recover(context.Background(), store, nil)
	if err != nil || n != 1 {
		t.Fatalf("recovered %d: %v", n, err)
	}
	runs := captureRuns(t, store)
	if len(runs) != 1 || runs[0].LLMCalls != 3 {
		t.Fatalf("runs %+v", runs)
	}
	if n, err := Recover(context.Background(), store, nil); err != nil || n != 0 {
		t.Errorf("a second recovery rebuilt %d (%v)", n, err)
	}
	calls, err := CallsOfRun(context.Background(), store, int64(runs[0].ID), nil)
	if err != nil || len(calls) != 3 || calls[2].Status != 400 || calls[2].RawBody != `{"model":` || calls[1].Messages[len(calls[1].Messages)-1].Hook != "Stop" {
		t.Fatalf("calls %v %+v", err, calls)
	}
}

// TestRecoverForwarded: a forwarding capture's calls are in the journal
// with the bytes relayed, so a capture killed after the answer is rebuilt
// with the provider's answer and token counts.
func TestRecoverForwarded(t *testing.T) {
	up, _ := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, strings.Join(anthropicSSE, ""))
	})
	store := openHistory(t)
	j := newJournal(store, time.Now(), func(err error) { t.Error(err) })
	srv := start(t, Options{Journal: j, Upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "claude-up", Key: profileKey}})
	if res, body := post(t, srv.URL()+"/v1/messages", claudeFirst, map[string]string{"x-api-key": clientKey}); res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if n, err := Recover(context.Background(), store, nil); err != nil || n != 1 {
		t.Fatalf("recovered %d: %v", n, err)
	}
	calls, err := CallsOfRun(context.Background(), store, int64(captureRuns(t, store)[0].ID), nil)
	if err != nil || len(calls) != 1 {
		t.Fatalf("%v %d", err, len(calls))
	}
	c := calls[0]
	if c.Answer == nil || c.Answer.Content != "I will list the files." || len(c.Answer.ToolCalls) != 1 || c.InputTokens != 812 || c.OutputTokens != 37 || c.Upstream.Profile != "claude" {
		t.Errorf("recovered %+v %+v", c, c.Answer)
	}
	all, _ := json.Marshal(calls)
	if strings.Contains(string(all), profileKey) || strings.Contains(string(all), clientKey) {
		t.Error("a key is in the journal")
	}
}
