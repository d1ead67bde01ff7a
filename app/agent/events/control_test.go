package events

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// everyPoint is a scenario that reaches every engine point: tools, a
// compaction before round 2, a final answer (stop).
func everyPoint(t *testing.T) *scenario.Scenario {
	sc := parseText(t, "every.yaml", `name: every
enable_tools: true
tools:
  - {name: read_file, description: Read a file.}
  - {name: run_command, description: Run a command.}
requests:
  - user: look around
    planning: {need_tool: true, content: plan}
    rounds:
      - tool_calls:
          - {name: read_file, arguments: {path: a}, result: A}
      - tool_calls:
          - {name: run_command, arguments: {command: ls}, result: "a b"}
      - content: done
`)
	sc.Requests[0].Rounds[1].Compact = &scenario.Compact{Kind: "micro"}
	return sc
}

// watchedPoints are the points a monitor sees: a sub-agent's are not
// (engine's subagent.go runs it without watchers).
func watchedPoints() []engine.Point {
	return slices.DeleteFunc(slices.Clone(engine.Points), func(p engine.Point) bool {
		return p == engine.PointSubagentStart || p == engine.PointSubagentStop
	})
}

// afterPoints are the points where handlers run outermost last.
var afterPoints = []engine.Point{engine.PointAfterLLM, engine.PointAfterTool, engine.PointAfterCompact,
	engine.PointSessionEnd, engine.PointAfterSend, engine.PointStop, engine.PointAfterTools}

// trigger calls act the first time the run reaches at. It is Quiet, so
// traces with and without it compare equal.
type trigger struct {
	at    engine.Point
	after bool // put after the monitor: for after-points (reverse order)
	act   func()
	done  bool
}

func (tr *trigger) Quiet() {}
func (tr *trigger) Handle(_ context.Context, ev *engine.Event) error {
	if ev.Point == tr.at && !tr.done && tr.after == slices.Contains(afterPoints, ev.Point) {
		tr.done = true
		tr.act()
	}
	return nil
}

// runWith runs sc with a monitor between two triggers, so act happens just
// before the monitor's checkpoint at p whichever way p runs its handlers.
func runWith(t *testing.T, sc *scenario.Scenario, ctl *Control, p engine.Point, act func(), st *Stream) (*engine.Trace, error) {
	t.Helper()
	ctx, release := ctl.Context(context.Background())
	defer release()
	cfg := engine.Config{Model: mockOf(sc), Handlers: []engine.Handler{&trigger{at: p, act: act}}}
	m := Attach(&cfg, Options{Stream: st, Control: ctl, Now: fixedClock()})
	cfg.Handlers = append(cfg.Handlers, &trigger{at: p, after: true, act: act})
	tr, err := engine.Run(ctx, sc, noHooks{}, cfg)
	m.Finish(tr, err)
	st.Close()
	return tr, err
}

func docJSON(tr *engine.Trace) []byte {
	b, _ := json.Marshal(tr.Document())
	return b
}

// TestPauseResumeAtEveryPoint: a pause asked at any point stops the run
// there (nothing more is recorded while paused), resume goes on, and the
// run ends exactly as it would have without the pause.
func TestPauseResumeAtEveryPoint(t *testing.T) {
	sc := everyPoint(t)
	plain, err := runWith(t, sc, NewControl(), "", func() {}, NewStream(StreamOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range watchedPoints() {
		t.Run(string(p), func(t *testing.T) {
			ctl := NewControl()
			st := NewStream(StreamOptions{})
			done := make(chan struct{})
			var tr *engine.Trace
			go func() {
				defer close(done)
				tr, err = runWith(t, sc, ctl, p, func() { ctl.Pause("test") }, st)
			}()
			paused := waitFor(t, st, WorkflowPaused)
			if paused.Payload["checkpoint"] != string(p) {
				t.Fatalf("paused at %v, want %s", paused.Payload["checkpoint"], p)
			}
			// While paused, the run does not move on.
			n := st.Published()
			time.Sleep(30 * time.Millisecond)
			if st.Published() != n {
				t.Fatal("events were published while paused")
			}
			select {
			case <-done:
				t.Fatal("the run ended while paused")
			default:
			}
			ctl.Resume()
			<-done
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			evs := st.Persistent()
			i := slices.IndexFunc(evs, func(e Event) bool { return e.Type == WorkflowPaused })
			if i+1 >= len(evs) || evs[i+1].Type != WorkflowResumed || evs[i+1].Payload["checkpoint"] != string(p) {
				t.Errorf("the event after WORKFLOW_PAUSED is not WORKFLOW_RESUMED at %s", p)
			}
			if !bytes.Equal(docJSON(tr), docJSON(plain)) {
				t.Error("the paused run's trace differs from the plain run's")
			}
		})
	}
}

// TestCancelAtEveryPoint: a cancel asked at any point ends the run there:
// status cancelled, WORKFLOW_CANCELLED last, and no step recorded after
// the point.
func TestCancelAtEveryPoint(t *testing.T) {
	sc := everyPoint(t)
	for _, p := range watchedPoints() {
		t.Run(string(p), func(t *testing.T) {
			ctl := NewControl()
			st := NewStream(StreamOptions{})
			tr, err := runWith(t, sc, ctl, p, func() { ctl.Cancel("test") }, st)
			if !errors.Is(err, context.Canceled) || tr.Status != engine.StatusCancelled {
				t.Fatalf("err %v, status %s", err, tr.Status)
			}
			evs := st.Persistent()
			last := evs[len(evs)-1]
			if last.Type != WorkflowCancelled || last.Payload["checkpoint"] != string(p) || last.Payload["reason"] != "test" {
				t.Fatalf("last event %s %v", last.Type, last.Payload)
			}
			if tr.NumSteps()-1 != last.Step {
				t.Errorf("cancelled at step %d, but the trace has %d steps", last.Step, tr.NumSteps())
			}
			if n := slices.IndexFunc(evs, func(e Event) bool { return e.Type == WorkflowCancelled }); n != len(evs)-1 {
				t.Errorf("WORKFLOW_CANCELLED is not the last event: %d of %d", n, len(evs))
			}
		})
	}
}

// TestCancelWhilePaused: cancel wakes a paused run, which ends at once.
func TestCancelWhilePaused(t *testing.T) {
	sc := everyPoint(t)
	ctl := NewControl()
	st := NewStream(StreamOptions{})
	done := make(chan error)
	go func() {
		tr, err := runWith(t, sc, ctl, engine.PointBeforeTool, func() { ctl.Pause("") }, st)
		if tr.Status != engine.StatusCancelled {
			err = errors.New("status " + string(tr.Status))
		}
		done <- err
	}()
	waitFor(t, st, WorkflowPaused)
	ctl.Cancel("user")
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	var types []Type
	for _, e := range st.Persistent() {
		types = append(types, e.Type)
	}
	if types[len(types)-2] != WorkflowPaused || types[len(types)-1] != WorkflowCancelled {
		t.Errorf("events end with %v", types[len(types)-3:])
	}
}

// waitFor reads the stream until an event of type ty.
func waitFor(t *testing.T, st *Stream, ty Type) Event {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		for _, e := range st.Persistent() {
			if e.Type == ty {
				return e
			}
		}
		select {
		case <-deadline:
			t.Fatalf("no %s", ty)
		case <-time.After(2 * time.Millisecond):
		}
	}
}
