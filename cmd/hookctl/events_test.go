package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/runs"
)

// pitfallsOnly copies the pitfalls example skill (no executable hooks) to
// a fresh root and returns the root and its ops-policy scenario.
func pitfallsOnly(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "pitfalls"), os.DirFS("../../skills/pitfalls")); err != nil {
		t.Fatal(err)
	}
	return root, filepath.Join(root, "pitfalls", "scenarios", "ops-policy.yaml")
}

func jsonLines(t *testing.T, out string) []events.Event {
	t.Helper()
	var evs []events.Event
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e events.Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("not JSON Lines: %q: %v", sc.Text(), err)
		}
		evs = append(evs, e)
	}
	return evs
}

// TestSimulateEventsAndHistory: --events prints the run's events as JSON
// Lines; the stored ones (history events) are the same.
func TestSimulateEventsAndHistory(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	root, file := pitfallsOnly(t)
	out, stderr, code := runCLI(t, "simulate", "--events", "--db", db, "--skills", root, file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	evs := jsonLines(t, out)
	var types []events.Type
	for i, e := range evs {
		types = append(types, e.Type)
		if e.Seq != uint64(i+1) {
			t.Errorf("event %d has seq %d", i, e.Seq)
		}
	}
	if types[0] != events.WorkflowStarted || types[len(types)-1] != events.WorkflowCompleted ||
		!slices.Contains(types, events.ApprovalDecision) || !slices.Contains(types, events.BudgetThreshold) {
		t.Errorf("events %v", types)
	}
	stored, stderr, code := runCLI(t, "history", "events", "1", "--db", db)
	if code != exitOK {
		t.Fatalf("history events: exit %d: %s", code, stderr)
	}
	back := jsonLines(t, stored)
	if len(back) != len(evs) {
		t.Fatalf("%d stored events, %d printed", len(back), len(evs))
	}
	for i := range back {
		if back[i].Seq != evs[i].Seq || back[i].Type != evs[i].Type || back[i].Message != evs[i].Message || back[i].Step != evs[i].Step {
			t.Errorf("stored %+v, printed %+v", back[i], evs[i])
		}
	}
	if _, _, code := runCLI(t, "simulate", "--events", "--json", "--no-history", "--skills", root, file); code != exitUsage {
		t.Errorf("--events with --json: exit %d, want usage", code)
	}
}

// pauseAtFirstTool is a hook that pauses the run at the first before_tool.
type pauseAtFirstTool struct {
	e    **eventRun
	done bool
}

func (p *pauseAtFirstTool) Handle(_ context.Context, ev *engine.Event) error {
	if ev.Point == engine.PointBeforeTool && !p.done {
		p.done = true
		(*p.e).ctl.Pause("test")
	}
	return nil
}

// onPaused is the event stream's output: once it carries WORKFLOW_PAUSED —
// the run waits at its checkpoint — it interrupts hookctl as SIGINT does.
// (Interrupting together with the pause raced the checkpoint: a cancel
// seen first ends the run without ever pausing.)
type onPaused struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	interrupt context.CancelFunc
}

func (w *onPaused) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if bytes.Contains(p, []byte(`"type":"`+string(events.WorkflowPaused)+`"`)) {
		w.interrupt()
	}
	return w.buf.Write(p)
}

func (w *onPaused) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// handlerHooks attaches one handler to a run, as a hook system would.
type handlerHooks struct{ h engine.Handler }

func (hh handlerHooks) Attach(cfg *engine.Config, _ registry.Run) (registry.Attached, error) {
	cfg.Handlers = append(cfg.Handlers, hh.h)
	return nil, nil
}

// TestInterruptCancelsAtCheckpoint: an interrupt (the context main cancels
// on SIGINT) wakes the paused run, which ends at that checkpoint with
// WORKFLOW_CANCELLED; the run's status is cancelled.
func TestInterruptCancelsAtCheckpoint(t *testing.T) {
	root, file := pitfallsOnly(t)
	sc, _, err := loadScenario(root, file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, interrupt := context.WithCancel(context.Background())
	defer interrupt()
	var e *eventRun
	run := &providerRun{ctx: context.Background()}
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	spec := runs.Spec{Scenario: sc, Prompt: set, Hooks: handlerHooks{&pauseAtFirstTool{e: &e}}}
	on := true
	ctl := ""
	out := &onPaused{interrupt: interrupt}
	var errOut bytes.Buffer
	e, err = (&eventFlags{events: &on, control: &ctl}).start(ctx, run, &spec, out, &errOut, false)
	if err != nil {
		t.Fatal(err)
	}
	defer e.stop()
	r, err := runs.Assemble(spec)
	if err != nil {
		t.Fatal(err)
	}
	tr, runErr := r.Execute(e.ctx)
	e.finish()
	if tr.Status != engine.StatusCancelled {
		t.Fatalf("status %s (%v)", tr.Status, runErr)
	}
	evs := jsonLines(t, out.String())
	last := evs[len(evs)-1]
	if last.Type != events.WorkflowCancelled || last.Payload["reason"] != "interrupted (SIGINT)" || last.Payload["checkpoint"] != "before_tool" {
		t.Errorf("last event %+v", last)
	}
	if evs[len(evs)-2].Type != events.WorkflowPaused {
		t.Errorf("before the cancel: %s", evs[len(evs)-2].Type)
	}
}

// TestControlLines: pause, resume and cancel lines steer the control.
func TestControlLines(t *testing.T) {
	var errOut bytes.Buffer
	e := &eventRun{ctl: events.NewControl(), stderr: &errOut}
	e.readControl(strings.NewReader("pause\n"))
	if !e.ctl.State().Paused {
		t.Error("pause did not pause")
	}
	e.readControl(strings.NewReader("resume\n  \nbogus\ncancel\n"))
	if st := e.ctl.State(); st.Paused || !st.Cancelled {
		t.Errorf("state %+v", st)
	}
	if !strings.Contains(errOut.String(), `unknown command "bogus"`) {
		t.Errorf("stderr %q", errOut.String())
	}
}
