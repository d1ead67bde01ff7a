package bind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/services/studio"
	"hookstudio/app/services/tokenjobs"
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
	h := NewHistory(store, counter, nil)
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
	v := openWhole(t, h, int64(runs[1].ID))
	if v.Head.Scenario != "demo" || len(v.Calls) != 1 || v.Head.Messages == 0 {
		t.Fatalf("open run: %+v", v.PagedRun)
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

	none := NewHistory(nil, counter, nil)
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

// tokenEvents passes on the history:tokens a binding emits.
type tokenEvents struct{ ch chan TokensProgress }

func (e *tokenEvents) emit(name string, payload any) {
	if p, ok := payload.(TokensProgress); ok && name == EventTokens {
		e.ch <- p
	}
}

// TestSessionOpensBeforeItIsCounted: a session imported through the app is
// kept at once and opens in pages with its messages pending; its texts are
// counted in the background, the open run's figures fill in as the counts
// arrive (history:tokens says so), and the settled run opens with the
// counts stored with it, counting nothing again.
func TestSessionOpensBeforeItIsCounted(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	store, err := history.Open(ctx, filepath.Join(dataDir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	ev := &tokenEvents{ch: make(chan TokensProgress, 64)}
	// the counts wait until the run is open: a Counting of the test's own,
	// started once the pages are looked at
	gate := &gatedStore{Store: store, open: make(chan struct{})}
	counting := &Counting{emit: ev.emit, pages: map[history.RunID]map[*studio.Pages]bool{}}
	counting.runner = tokenjobs.NewRunner(gate, counter, 0, counting.progress)
	defer StopCounting(counting)
	s := NewSessions(func(string, any) {}, store, counter, counting, dataDir)
	h := NewHistory(store, counter, counting)
	imp, err := s.Import(filepath.Join("..", "..", "capture", "sessions", "testdata", "claude-code-2.1.332.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	head, err := h.Open(imp.Run)
	if err != nil {
		t.Fatal(err)
	}
	if head.Head.Tokens.Pending == 0 || head.Head.Run.TokensPending == 0 {
		t.Fatalf("kept counted: %+v", head.Head.Tokens)
	}
	last := head.Head.Steps - 1
	if l, err := h.List(head.Handle, last); err != nil || l.Pending == 0 || l.Tokens != 0 {
		t.Fatalf("the last list before counting: %+v %v", l, err)
	}
	close(gate.open)
	for p := range ev.ch {
		if p.Error != "" {
			t.Fatal(p.Error)
		}
		if p.Done {
			break
		}
	}
	l, err := h.List(head.Handle, last)
	if err != nil || l.Pending != 0 || l.Tokens == 0 {
		t.Fatalf("the last list once counted: %+v %v", l, err)
	}
	rows, err := h.Rows(head.Handle, last, 0, l.Rows)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for _, r := range rows {
		text := r.Message.Content
		if r.Message.Size > len(text) { // a preview: the count is the whole text's
			if text, err = h.Text(head.Handle, r.Message.ID); err != nil {
				t.Fatal(err)
			}
		}
		if want := counter.CountMessage(r.Message.Role, text); r.Message.Tokens != want || r.Message.Pending {
			t.Fatalf("message %d: %d tokens (pending %v), %d counted", r.Message.ID, r.Message.Tokens, r.Message.Pending, want)
		}
		sum += r.Message.Tokens
	}
	if sum != l.Tokens {
		t.Fatalf("list says %d tokens, its rows %d", l.Tokens, sum)
	}
	// opened again: the stored counts, nothing counted
	again := NewHistory(store, noCount{t}, nil)
	w := openWhole(t, again, imp.Run)
	if w.Head.Tokens.Pending != 0 || w.Head.Run.TokensPending != 0 {
		t.Fatalf("settled run still pending: %+v", w.Head.Tokens)
	}
	for _, c := range w.Calls {
		if c.Pending || c.Tokens == 0 {
			t.Fatalf("call %d: %d tokens, pending %v", c.Index, c.Tokens, c.Pending)
		}
	}
}

// gatedStore holds the counts back until open is closed.
type gatedStore struct {
	*history.Store
	open chan struct{}
}

func (g *gatedStore) PendingTexts(ctx context.Context, id history.RunID, fn func(history.TextID, string) error) (int, error) {
	select {
	case <-g.open:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	return g.Store.PendingTexts(ctx, id, fn)
}
