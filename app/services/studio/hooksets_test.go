package studio

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// waitTrace waits for a matching trace for up to 60 s: these runs start real
// processes, which a busy machine (a race-detector build, parallel
// packages) can slow down a lot.
func waitTrace(t *testing.T, rec *recorder, from int, match func(TraceView) bool) TraceView {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		rec.mu.Lock()
		for _, e := range rec.events[min(from, len(rec.events)):] {
			if v, ok := e.payload.(TraceView); ok && e.name == EventTrace && match(v) {
				rec.mu.Unlock()
				return v
			}
		}
		rec.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no matching trace within 60 s")
	return TraceView{}
}

// copyTree copies the example skill dir into root.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o755)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGuardRailsInTheApp runs the example command hooks for real: nothing
// before trust, every event after it, the rm -rf skipped with its stdin and
// stdout kept, results reused when nothing changed, and a script edit
// re-simulated with its effect.
func TestGuardRailsInTheApp(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../../../skills/guard-rails", filepath.Join(root, "guard-rails"))
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := s.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exec.Present || st.Exec.Trusted || len(st.Exec.Commands) == 0 || len(st.Exec.Hooks) == 0 {
		t.Fatalf("exec state %+v", st.Exec)
	}
	var register bool
	for _, c := range st.Exec.Commands {
		register = register || strings.Contains(c.Command, "Reminder: run the tests")
	}
	if !register {
		t.Fatalf("the scenario's register_hook command is not listed: %+v", st.Exec.Commands)
	}
	if v := s.Trace(); v.Exec.NotRun != NotRunUntrusted || len(hookCallSteps(v)) != 0 {
		t.Fatalf("untrusted run: %+v, %d hook calls", v.Exec, len(hookCallSteps(v)))
	}

	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v := waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending })
	if v.Status != "ok" || !v.Exec.Ran {
		t.Fatalf("status %s %s exec %+v", v.Status, v.Error, v.Exec)
	}
	var guard *engine.HookCall
	for _, st := range hookCallSteps(v) {
		if st.HookCall.Hook == "block-rm-rf" && st.HookCall.Outcome == engine.OutcomeSkipped {
			guard = st.HookCall
		}
	}
	if guard == nil || !strings.Contains(string(guard.Input), "rm -rf build/") || !strings.Contains(string(guard.Output), `"skip"`) {
		t.Fatalf("block-rm-rf: %+v", guard)
	}
	if len(v.Exec.Metrics) == 0 {
		t.Fatal("no metrics")
	}

	// Saving a prompt-free change elsewhere re-simulates; unchanged hooks are reused.
	from = rec.len()
	write(t, filepath.Join(root, "guard-rails/README.md"), "changed\n")
	v2 := waitTrace(t, rec, from, func(x TraceView) bool { return !x.Pending && x.Revision > v.Revision })
	reused := 0
	for _, st := range hookCallSteps(v2) {
		if st.HookCall.Reused {
			reused++
		}
	}
	if reused == 0 {
		t.Fatal("no hook result was reused between two runs with the same files")
	}

	// Editing the guard script: it now lets rm -rf through; the view follows.
	from = rec.len()
	write(t, filepath.Join(root, "guard-rails/hooks/block-rm-rf.sh"), "#!/bin/sh\ncat >/dev/null\necho '{}'\n")
	v3 := waitTrace(t, rec, from, func(x TraceView) bool { return !x.Pending && x.Revision > v2.Revision })
	for _, st := range hookCallSteps(v3) {
		if st.HookCall.Hook == "block-rm-rf" && st.HookCall.Outcome == engine.OutcomeSkipped {
			t.Fatal("the edited script still skips")
		}
	}
}
