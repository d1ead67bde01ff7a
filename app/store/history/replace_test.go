package history

import (
	"context"
	"testing"
	"time"
)

// TestSaveRunReplaces: a run kept while it goes on is saved again under
// its id — one row, the newer content, the texts only the older version
// used collected, the other runs untouched.
func TestSaveRunReplaces(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	sim := simulate(t, examplesRoot, "file-tools/scenarios/fix-line-limit.yaml")
	other, err := s.SaveRun(ctx, input(sim, SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	base := countRows(t, s, "blobs")
	edited := sim
	edited.tr = editHook(t, sim.tr, "truncated-content-hint", "A text only the first version has.")
	id, err := s.SaveRun(ctx, input(edited, SourceCapture, t0.Add(time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "blobs"); n != base+1 {
		t.Fatalf("%d blobs, want %d", n, base+1)
	}
	again := input(sim, SourceCapture, t0.Add(time.Second))
	again.Replaces = id
	got, err := s.SaveRun(ctx, again)
	if err != nil || got != id {
		t.Fatalf("replaced as %d (%v), want %d", got, err, id)
	}
	if n := countRows(t, s, "runs"); n != 2 {
		t.Errorf("%d runs, want 2", n)
	}
	if n := countRows(t, s, "blobs"); n != base {
		t.Errorf("%d blobs after the replace, want %d (the first version's own text collected)", n, base)
	}
	run, err := s.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trace.Calls) != len(sim.tr.Calls) || run.Source != SourceCapture {
		t.Errorf("loaded %d calls, source %s", len(run.Trace.Calls), run.Source)
	}
	for _, h := range run.Trace.Hooks {
		if h.Content == "A text only the first version has." {
			t.Error("the replaced run's text is still there")
		}
	}
	if _, err := s.LoadRun(ctx, other); err != nil {
		t.Errorf("the other run: %v", err)
	}
}
