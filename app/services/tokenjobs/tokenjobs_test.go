package tokenjobs

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/store/history"
)

var sharedCounter = sync.OnceValues(tokens.NewCounter)

func counter(t *testing.T) *tokens.Counter {
	c, err := sharedCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// keep imports a real Claude Code session into a new history, counted
// before it is kept or (deferred) not at all.
func keep(t *testing.T, cc history.ContentCounter, deferred bool) (*history.Store, history.RunID) {
	t.Helper()
	ctx := context.Background()
	st, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	im, err := sessions.ImportFile(ctx, filepath.Join("..", "..", "capture", "sessions", "testdata", "claude-code-2.1.332.jsonl"), sessions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := im.Trace()
	if err != nil {
		t.Fatal(err)
	}
	id, err := st.SaveRun(ctx, history.RunInput{Trace: tr, ScenarioFile: "s.jsonl", Source: history.SourceSession, Tokens: cc, DeferTokens: deferred,
		Started: time.Unix(1, 0), Ended: time.Unix(2, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return st, id
}

// figures are what the history says of a run's tokens.
func figures(t *testing.T, st *history.Store, id history.RunID) (history.RunSummary, []int, []history.CallMetrics, []history.HookMetrics) {
	t.Helper()
	r, err := st.LoadRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	r.ID = 0
	return r.RunSummary, r.MessageTokens, r.Calls, r.Hooks
}

// TestCountSettlesAsIfCountedFirst: a run kept before its texts were
// counted, once counted in the background, has the figures of the same run
// counted before it was kept; the progress told along the way adds up.
func TestCountSettlesAsIfCountedFirst(t *testing.T) {
	cc := counter(t)
	ref, refID := keep(t, cc, false)
	st, id := keep(t, cc, true)
	sum, _, _, _ := figures(t, st, id)
	if sum.TokensPending == 0 {
		t.Fatal("a deferred run is not pending")
	}
	var got []Progress
	if err := Count(context.Background(), st, cc, id, 2, func(p Progress) { got = append(got, p) }); err != nil {
		t.Fatal(err)
	}
	counted := 0
	for _, p := range got[:len(got)-1] {
		counted += len(p.Counts)
		if p.Counted != counted || p.Done {
			t.Fatalf("progress %+v after %d counts", p, counted)
		}
	}
	if last := got[len(got)-1]; !last.Done || last.Counted != counted || counted != sum.TokensPending {
		t.Fatalf("last progress %+v; counted %d of %d pending", last, counted, sum.TokensPending)
	}
	ws, wm, wc, wh := figures(t, ref, refID)
	gs, gm, gc, gh := figures(t, st, id)
	if !reflect.DeepEqual(gs, ws) || !reflect.DeepEqual(gm, wm) || !reflect.DeepEqual(gc, wc) || !reflect.DeepEqual(gh, wh) {
		t.Fatalf("settled figures differ:\n%+v\n%v\nwant\n%+v\n%v", gs, gh, ws, wh)
	}
	// counted once: a second count finds nothing to count
	var calls atomic.Int32
	if err := Count(context.Background(), st, countingCounter{cc, &calls}, id, 2, nil); err != nil || calls.Load() != 0 {
		t.Fatalf("count again: %v, %d texts counted", err, calls.Load())
	}
}

type countingCounter struct {
	*tokens.Counter
	n *atomic.Int32
}

func (c countingCounter) Count(text string) int { c.n.Add(1); return c.Counter.Count(text) }

// blockingCounter holds every Count until released, and records how many
// ran at once.
type blockingCounter struct {
	*tokens.Counter
	release chan struct{}
	mu      sync.Mutex
	in, top int
	entered chan struct{}
}

func (b *blockingCounter) Count(text string) int {
	b.mu.Lock()
	b.in++
	b.top = max(b.top, b.in)
	b.mu.Unlock()
	b.entered <- struct{}{}
	<-b.release
	b.mu.Lock()
	b.in--
	b.mu.Unlock()
	return len(text)
}

// TestCountIsBoundedAndCancellable: no more texts are counted at once than
// there are workers, and a count cancelled midway returns (its goroutines
// gone: Count waits for them) keeping what it had kept; a Runner's Stop
// does the same for the job it runs.
func TestCountIsBoundedAndCancellable(t *testing.T) {
	cc := counter(t)
	st, id := keep(t, cc, true)
	b := &blockingCounter{Counter: cc, release: make(chan struct{}), entered: make(chan struct{}, 64)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Count(ctx, st, b, id, 2, nil) }()
	<-b.entered
	<-b.entered // both workers counting, the third text waits for one of them
	cancel()
	close(b.release)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled count returned %v", err)
	}
	if b.top != 2 {
		t.Fatalf("%d texts counted at once by 2 workers", b.top)
	}
	if s, _, _, _ := figures(t, st, id); s.TokensPending == 0 {
		t.Fatal("a cancelled count settled the run")
	}

	// the Runner: stopped in the middle of a job, it waits for it
	b2 := &blockingCounter{Counter: cc, release: make(chan struct{}), entered: make(chan struct{}, 64)}
	r := NewRunner(st, b2, 1, nil)
	r.Count(id)
	<-b2.entered
	stopped := make(chan struct{})
	go func() { r.Stop(); close(stopped) }()
	close(b2.release)
	<-stopped
	r.Count(id) // after Stop: ignored
	r.Stop()

	// and a runner that is let finish settles the run
	var last Progress
	var mu sync.Mutex
	finished := make(chan struct{})
	r = NewRunner(st, cc, 0, func(p Progress) {
		mu.Lock()
		last = p
		mu.Unlock()
		if p.Done {
			close(finished)
		}
	})
	defer r.Stop()
	r.Count(id)
	<-finished
	if s, _, _, _ := figures(t, st, id); s.TokensPending != 0 || !last.Done {
		t.Fatalf("after the runner: pending %d, last %+v", s.TokensPending, last)
	}
}
