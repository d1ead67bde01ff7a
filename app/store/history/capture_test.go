package history

import (
	"context"
	"testing"
	"time"
)

// TestCaptureJournal: a capture's calls are kept one transaction at a
// time; the capture is unfolded until a run built from all of them is
// saved; a fold holding no more calls than the last writes nothing, a
// later one stands in for the run under its id; deleting the run deletes
// the journal.
func TestCaptureJournal(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	sim := simulate(t, examplesRoot, "file-tools/scenarios/fix-line-limit.yaml")
	keep := func(calls ...string) {
		t.Helper()
		var cs []CaptureCall
		for _, c := range calls {
			cs = append(cs, CaptureCall{Call: []byte(`{"n":"` + c + `"}`), Body: []byte(`{"model":"m"}`)})
		}
		if err := s.KeepCaptureCalls(ctx, "cap-1", t0, cs); err != nil {
			t.Fatal(err)
		}
	}
	keep("0")
	keep("1", "2")
	unfolded, err := s.UnfoldedCaptures(ctx)
	if err != nil || len(unfolded) != 1 || unfolded[0] != (CaptureState{ID: "cap-1", Started: time.UnixMilli(t0.UnixMilli()), Calls: 3}) {
		t.Fatalf("unfolded %+v %v", unfolded, err)
	}
	fold := func(calls int) RunID {
		t.Helper()
		in := input(sim, SourceCapture, t0)
		in.Capture = &CaptureFold{ID: "cap-1", Calls: calls}
		id, err := s.SaveRun(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id := fold(2)
	if unfolded, _ := s.UnfoldedCaptures(ctx); len(unfolded) != 1 || unfolded[0].Run != id || unfolded[0].Folded != 2 {
		t.Fatalf("after a fold of 2: %+v", unfolded)
	}
	if again := fold(3); again != id {
		t.Fatalf("the next fold made run %d, not %d", again, id)
	}
	if stale := fold(1); stale != id || countRows(t, s, "runs") != 1 {
		t.Fatalf("a stale fold: run %d, %d runs", stale, countRows(t, s, "runs"))
	}
	if unfolded, _ := s.UnfoldedCaptures(ctx); len(unfolded) != 0 {
		t.Fatalf("still unfolded: %+v", unfolded)
	}
	calls, err := s.CaptureCalls(ctx, "cap-1")
	if err != nil || len(calls) != 3 || string(calls[2].Call) != `{"n":"2"}` || string(calls[0].Body) != `{"model":"m"}` || calls[0].Answer != nil {
		t.Fatalf("calls %+v %v", calls, err)
	}
	if cid, err := s.CaptureOfRun(ctx, id); cid != "cap-1" || err != nil {
		t.Fatalf("capture of run %d: %q %v", id, cid, err)
	}
	if err := s.DeleteRun(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "capture_calls"); n != 0 {
		t.Errorf("%d journal rows left after the run was deleted", n)
	}
}
