package bind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

func TestHistoryBinding(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := studio.New(studio.Config{DataDir: t.TempDir(), Tokens: counter, Emit: func(string, any) {}, History: store})
	if err != nil {
		t.Fatal(err)
	}
	s := NewStudio(svc)
	if err := Start(ctx, s, &fakeWindow{}); err != nil {
		t.Fatal(err)
	}
	defer Stop(s)
	h := NewHistory(store, counter)
	StartHistory(ctx, h)

	root := skillsFolder(t)
	if _, err := s.OpenFolder(root); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "s/hooks/h.md"), []byte("Be very brief, and cite sources."), 0o644); err != nil {
		t.Fatal(err)
	}
	// The watcher sees the save and re-simulates (a Reload here as well
	// would record a third run whenever the watcher is the slower).
	var runs []history.RunSummary
	deadline := time.Now().Add(30 * time.Second)
	for {
		runs, err = h.Runs(history.Filter{Scenario: "demo"})
		if err == nil && len(runs) >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %d, %v", len(runs), err)
	}
	v, err := h.Run(int64(runs[1].ID))
	if err != nil || v.Scenario != "demo" || len(v.Calls) != 1 || len(v.Messages) == 0 {
		t.Fatalf("open run: %v %+v", err, v.Scenario)
	}
	cmp, err := h.Compare(int64(runs[1].ID), int64(runs[0].ID))
	if err != nil || cmp.ChangedCalls != 1 || cmp.TokenDelta <= 0 {
		t.Errorf("compare: %v changed=%d delta=%d", err, cmp.ChangedCalls, cmp.TokenDelta)
	}
	pts, err := h.HookCost("s/h", 10)
	if err != nil || len(pts) != 2 || pts[0].ContentHash == pts[1].ContentHash {
		t.Errorf("hook cost: %v %+v", err, pts)
	}
	if sizes, err := h.PromptSizes("demo", 10); err != nil || len(sizes) != 2 {
		t.Errorf("prompt sizes: %v %d", err, len(sizes))
	}

	none := NewHistory(nil, counter)
	if _, err := none.Runs(history.Filter{}); !errors.Is(err, ErrNoHistory) {
		t.Errorf("no store: %v", err)
	}
}

// noCount fails a test that counts: every count should come from the run.
type noCount struct{ t *testing.T }

func (n noCount) CountMessage(role, content string) int {
	n.t.Errorf("counted %s %.40q again", role, content)
	return 0
}

// TestHistoryRunUsesStoredCounts: a stored run opens with the token counts
// stored with it, not by counting its text again (a 50 MB session's view).
func TestHistoryRunUsesStoredCounts(t *testing.T) {
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	im, err := sessions.ImportFile(ctx, filepath.Join("..", "..", "capture", "sessions", "testdata", "claude-code-2.1.332.jsonl"), sessions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	id, err := sessions.Keep(ctx, store, im, sessions.NewCounts(counter))
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewHistory(store, noCount{t}).Run(int64(id))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range got.Messages {
		if want := counter.CountMessage(m.Role, m.Content); m.Tokens != want {
			t.Fatalf("message %d: %d tokens from the run, %d counted", i, m.Tokens, want)
		}
	}
}
