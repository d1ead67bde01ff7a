package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// recordedRuns keeps the runs the app stores in its history.
type recordedRuns struct {
	mu   sync.Mutex
	runs []history.RunInput
}

func (r *recordedRuns) SaveRun(_ context.Context, in history.RunInput) (history.RunID, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs = append(r.runs, in)
	return history.RunID(len(r.runs)), nil
}

// after waits for a run of file stored after the first n runs.
func (r *recordedRuns) after(t *testing.T, n int, file string) history.RunInput {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // only for failing: the hooks are real processes
	for time.Now().Before(deadline) {
		r.mu.Lock()
		for _, in := range r.runs[min(n, len(r.runs)):] {
			if in.ScenarioFile == file {
				r.mu.Unlock()
				return in
			}
		}
		r.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the app stored no run of %s", file)
	return history.RunInput{}
}

func (r *recordedRuns) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.runs)
}

// TestAppAndHookctlGiveOneTrace: every example scenario, simulated by the
// app (its live simulation of a trusted folder, as main.go wires it) and
// by hookctl simulate --trust, gives the same trace, byte for byte once
// the volatile fields are zeroed — both assemble their runs in
// app/services/runs.
func TestAppAndHookctlGiveOneTrace(t *testing.T) {
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range traceCases(t) {
		if !strings.HasPrefix(c.name, "skills.") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			home, base := t.TempDir(), t.TempDir()
			t.Setenv("HOME", home) // the app's hooks see the same HOME as hookctl's below
			copyTree(t, c.base, base)
			root := filepath.Join(base, c.root)
			stdout, stderr, code := runCLIEnv(t, []string{"HOME=" + home, "HOOKSTUDIO_DATA_DIR=" + filepath.Join(home, "data")},
				"simulate", "--json", "--trust", "--no-history", "--skills", root, filepath.Join(base, c.scenario))
			if code != exitOK && code != exitProblems {
				t.Fatalf("hookctl: exit %d: %s", code, stderr)
			}
			cli := normalizeTrace(t, []byte(stdout), root)

			rec := &recordedRuns{}
			reg := hooksets.Registry(hooksets.RegistryOptions{ReuseResults: true})
			svc, err := studio.New(studio.Config{DataDir: filepath.Join(home, "app"), Tokens: counter, Emit: func(string, any) {},
				History: rec, Hooks: reg, ExecHooks: studio.HooksetsLoader(reg, nil)})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); svc.Close() }()
			if err := svc.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Open(ctx, root); err != nil {
				t.Fatal(err)
			}
			rel, err := filepath.Rel(root, filepath.Join(base, c.scenario))
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.ToSlash(rel)
			if _, err := svc.Select(ctx, file); err != nil {
				t.Fatal(err)
			}
			n := rec.len()
			if _, err := svc.TrustFolder(ctx); err != nil { // the example folder has executable hooks
				t.Fatal(err)
			}
			in := rec.after(t, n, file)
			data, err := json.Marshal(in.Trace.Document())
			if err != nil {
				t.Fatal(err)
			}
			app := normalizeTrace(t, data, root)
			if !bytes.Equal(app, cli) {
				t.Errorf("the app's trace differs from hookctl's:\n%s", firstDifference(string(cli), string(app)))
			}
		})
	}
}
