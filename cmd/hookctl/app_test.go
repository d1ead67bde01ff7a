package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/events"
	"hookstudio/app/agent/scenario"
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

// after waits for a run of file stored after the first n runs, from
// source (any when ""); a message on failed ends the wait as a failure.
func (r *recordedRuns) after(t *testing.T, n int, file string, source history.Source, failed <-chan string) history.RunInput {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second) // only for failing: the hooks are real processes
	for time.Now().Before(deadline) {
		select {
		case why := <-failed:
			t.Fatal(why)
		default:
		}
		r.mu.Lock()
		for _, in := range r.runs[min(n, len(r.runs)):] {
			if in.ScenarioFile == file && (source == "" || in.Source == source) {
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

// scriptedPerson answers a controlled run's approvals as the scenario's
// approvals: list answers the live simulation's and hookctl's — a person
// deciding the same, through Ops.Decide.
type scriptedPerson struct {
	ops    *studio.Operations
	script *events.Scripted
	failed chan string // a decision the person cannot give (a timeout)
}

func (s *scriptedPerson) emit(name string, payload any) {
	p, ok := payload.(studio.PendingApproval)
	if name != studio.EventApproval || !ok {
		return
	}
	d, _ := s.script.Approve(context.Background(), p.ApprovalRequest)
	if d.TimedOut {
		s.failed <- fmt.Sprintf("approval %s of %s: the script lets it time out, which a controlled run waits %d ms for", p.ID, p.Tool, p.TimeoutMS)
		return
	}
	go func() { _ = s.ops.Decide(d.Approved, d.Feedback) }() // as the user's click: not on the run's goroutine
}

// TestAppAndHookctlGiveOneTrace: every example scenario, simulated by the
// app (its live simulation of a trusted folder, as main.go wires it), run
// by the app as a controlled run (Run with approvals: the event stream,
// pause/resume/cancel, its approvals answered as the scenario scripts
// them) and by hookctl simulate --trust (which runs the same event stream
// and control as simulate --events) gives the same trace, byte for byte
// once the volatile fields are zeroed — all three assemble their runs in
// app/services/runs and attach the folder's hooks the same way.
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
			file := filepath.ToSlash(mustRel(t, root, filepath.Join(base, c.scenario)))
			sc, ds, err := scenario.LoadFile(root, file)
			if err != nil || sc == nil {
				t.Fatalf("%v %v", err, ds)
			}
			person := &scriptedPerson{script: events.NewScripted(sc.Approvals), failed: make(chan string, 1)}
			svc, err := studio.New(studio.Config{DataDir: filepath.Join(home, "app"), Tokens: counter, Emit: person.emit,
				History: rec, Hooks: reg, ExecHooks: studio.HooksetsLoader(reg, nil)})
			if err != nil {
				t.Fatal(err)
			}
			person.ops = studio.NewOperations(svc)
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); svc.Close() }()
			if err := svc.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Open(ctx, root); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Select(ctx, file); err != nil {
				t.Fatal(err)
			}
			n := rec.len()
			if _, err := svc.TrustFolder(ctx); err != nil { // the example folder has executable hooks
				t.Fatal(err)
			}
			in := rec.after(t, n, file, history.SourceLive, nil)
			app := normalizeTrace(t, document(t, in), root)
			if !bytes.Equal(app, cli) {
				t.Errorf("the app's trace differs from hookctl's:\n%s", firstDifference(string(cli), string(app)))
			}

			n = rec.len()
			if err := person.ops.Start(); err != nil {
				t.Fatal(err)
			}
			in = rec.after(t, n, file, history.SourceApp, person.failed)
			controlled := normalizeTrace(t, document(t, in), root)
			if !bytes.Equal(controlled, app) {
				t.Errorf("the controlled run's trace differs from the live simulation's:\n%s", firstDifference(string(app), string(controlled)))
			}
		})
	}
}

// document is a stored run's trace as hookctl prints it.
func document(t *testing.T, in history.RunInput) []byte {
	t.Helper()
	data, err := json.Marshal(in.Trace.Document())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func mustRel(t *testing.T, base, path string) string {
	t.Helper()
	rel, err := filepath.Rel(base, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
