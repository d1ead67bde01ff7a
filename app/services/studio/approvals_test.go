package studio

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/events"
)

const opsYAML = `name: ops
tools:
  - {name: run_command, description: Run a command.}
  - {name: read_file, description: Read a file.}
approval:
  tools: [run_command]
  timeout_ms: TIMEOUT
requests:
  - user: fix it
    planning: {need_tool: true, content: plan}
    rounds:
      - tool_calls: [{name: run_command, arguments: {command: restart}, result: restarted}]
      - tool_calls: [{name: run_command, arguments: {command: status}, result: ok}]
      - content: done
`

func opsService(t *testing.T, timeout string) (*Service, *Operations, *recorder) {
	t.Helper()
	s, rec, ctx := newService(t)
	root := t.TempDir()
	write(t, filepath.Join(root, "ops/hooks/hooks.json"), `{"hooks": []}`)
	write(t, filepath.Join(root, "ops/scenarios/ops.yaml"), strings.Replace(opsYAML, "TIMEOUT", timeout, 1))
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	o := NewOperations(s)
	t.Cleanup(func() { _ = o.Cancel(); o.Wait() })
	return s, o, rec
}

func ended(t *testing.T, rec *recorder) RunEnded {
	t.Helper()
	return rec.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
}

// TestControlledRunAsksTheUser: the run waits at each run_command with
// the exact call, why and a deadline; a denial's feedback is the tool
// message the model reads next, an approval runs the tool.
func TestControlledRunAsksTheUser(t *testing.T) {
	_, o, rec := opsService(t, "30000")
	if err := o.Decide(true, ""); err != ErrNoApproval {
		t.Errorf("decide with nothing pending: %v", err)
	}
	before := time.Now()
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	first := rec.waitFor(t, 0, func(e event) bool { return e.name == EventApproval }).payload.(PendingApproval)
	if first.Tool != "run_command" || first.Arguments["command"] != "restart" || !strings.Contains(first.Reason, "requires approval") ||
		first.Deadline.Before(before.Add(29*time.Second)) || first.TimeoutMS != 30000 {
		t.Fatalf("approval %+v", first)
	}
	if p := o.Pending(); p == nil || p.ID != first.ID {
		t.Fatalf("pending %+v", p)
	}
	// the views can follow the run to the approval: the trace so far, at its step
	w := rec.waitFor(t, 0, func(e event) bool { return e.name == EventRunWaiting }).payload.(RunWaiting)
	if w.Reason != events.WaitApproval || w.Step != first.Step || w.Step != len(w.View.Steps)-1 {
		t.Fatalf("waiting %+v at %d of %d steps", w.Reason, w.Step, len(w.View.Steps))
	}
	// counted before the decision: the run may reach the next approval
	// before Decide returns
	n := rec.len()
	if err := o.Decide(false, "not on prod"); err != nil {
		t.Fatal(err)
	}
	second := rec.waitFor(t, n, func(e event) bool { return e.name == EventApproval }).payload.(PendingApproval)
	if second.Arguments["command"] != "status" {
		t.Fatalf("second approval %+v", second)
	}
	if err := o.Decide(true, ""); err != nil {
		t.Fatal(err)
	}
	end := ended(t, rec)
	if end.Status != "ok" {
		t.Fatalf("ended %s: %s", end.Status, end.Error)
	}
	var tools []string
	for _, m := range end.View.Messages {
		if m.Role == "tool" {
			tools = append(tools, m.Content)
		}
	}
	if len(tools) < 2 || tools[0] != "Tool call run_command was denied by the user: not on prod" || tools[1] != "ok" {
		t.Errorf("tool messages %q", tools)
	}
	var types []events.Type
	for _, e := range rec.all(EventRunEvents) {
		for _, ev := range e.payload.([]events.Event) {
			types = append(types, ev.Type)
		}
	}
	if types[0] != events.WorkflowStarted || types[len(types)-1] != events.WorkflowCompleted {
		t.Errorf("streamed events %v", types)
	}
}

// TestControlledRunTimeout: no decision in time is a denial (timeout).
func TestControlledRunTimeout(t *testing.T) {
	_, o, rec := opsService(t, "30")
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	done := rec.waitFor(t, 0, func(e event) bool { return e.name == EventApprovalDecided }).payload.(ApprovalDone)
	if !done.TimedOut || done.Approved {
		t.Errorf("decision %+v", done)
	}
	end := ended(t, rec)
	found := false
	for _, m := range end.View.Messages {
		if m.Role == "tool" && strings.Contains(m.Content, "(timeout)") {
			found = true
		}
	}
	if end.Status != "ok" || !found {
		t.Errorf("status %s; no timeout denial in a tool message", end.Status)
	}
}

// TestControlledRunPauseCancel: pause holds the run at its next
// checkpoint; cancel while waiting for a decision ends it at once.
func TestControlledRunPauseCancel(t *testing.T) {
	_, o, rec := opsService(t, "30000")
	if err := o.Start(); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, 0, func(e event) bool { return e.name == EventApproval })
	if err := o.Pause(); err != nil {
		t.Fatal(err)
	}
	if err := o.Decide(true, ""); err != nil {
		t.Fatal(err)
	}
	var pausedAt int
	rec.waitFor(t, 0, func(e event) bool {
		if e.name != EventRunEvents {
			return false
		}
		for _, ev := range e.payload.([]events.Event) {
			if ev.Type == events.WorkflowPaused {
				pausedAt = ev.Step
				return true
			}
		}
		return false
	})
	w := rec.waitFor(t, 0, func(e event) bool {
		return e.name == EventRunWaiting && e.payload.(RunWaiting).Reason == events.WaitPaused
	}).payload.(RunWaiting)
	if w.Step != pausedAt || w.Step >= len(w.View.Steps) {
		t.Errorf("paused at step %d; waiting at %d of %d steps", pausedAt, w.Step, len(w.View.Steps))
	}
	if err := o.Cancel(); err != nil {
		t.Fatal(err)
	}
	if end := ended(t, rec); end.Status != "cancelled" {
		t.Errorf("status %s", end.Status)
	}
	if err := o.Pause(); err != ErrNoRun {
		t.Errorf("pause after the end: %v", err)
	}
}

// all returns every event named name.
func (r *recorder) all(name string) []event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []event
	for _, e := range r.events {
		if e.name == name {
			out = append(out, e)
		}
	}
	return out
}

// TestRealRunAsksForApproval: with Operations, a real run's tool calls go
// through the scenario's approval policy; the user's denial is in the
// tool message the model receives in the next request, and the run's
// events stream out.
func TestRealRunAsksForApproval(t *testing.T) {
	var bodies []string
	srv := fakeOpenAI(t, &bodies, false)
	defer srv.Close()
	s, ev, _, root := realService(t, srv.URL)
	write(t, filepath.Join(root, "files/scenarios/real.yaml"), `name: real
tools: [{name: list_dir, description: List a folder, parameters: {type: object, properties: {path: {type: string}}}}]
approval: {tools: [list_dir]}
requests:
  - user: What is in this folder?
`)
	s.Reload(t.Context())
	o := NewOperations(s)
	if err := s.StartRun(RunOptions{Profile: "local"}); err != nil {
		t.Fatal(err)
	}
	p := ev.waitFor(t, 0, func(e event) bool { return e.name == EventApproval }).payload.(PendingApproval)
	if p.Tool != "list_dir" || p.Arguments["path"] != "." || p.Scenario != "real" {
		t.Fatalf("approval %+v", p)
	}
	if w := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunWaiting }).payload.(RunWaiting); w.Step != p.Step || w.Reason != events.WaitApproval || w.Step != len(w.View.Steps)-1 {
		t.Errorf("waiting %s at %d (approval at %d) of %d steps", w.Reason, w.Step, p.Step, len(w.View.Steps))
	}
	if err := o.Pause(); err != nil { // the real run is the one steered
		t.Fatal(err)
	}
	if err := o.Resume(); err != nil {
		t.Fatal(err)
	}
	if err := o.Decide(false, "no listing today"); err != nil {
		t.Fatal(err)
	}
	end := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded }).payload.(RunEnded)
	if end.Status != "ok" || len(bodies) != 3 {
		t.Fatalf("ended %s (%s) after %d requests", end.Status, end.Error, len(bodies))
	}
	if !strings.Contains(bodies[2], "Tool call list_dir was denied by the user: no listing today") {
		t.Errorf("the third request does not carry the denial: %s", bodies[2])
	}
	var types []events.Type
	for _, e := range ev.all(EventRunEvents) {
		for _, x := range e.payload.([]events.Event) {
			types = append(types, x.Type)
		}
	}
	if len(types) == 0 || types[len(types)-1] != events.WorkflowCompleted || !slices.Contains(types, events.ApprovalDecision) {
		t.Errorf("events %v", types)
	}
	if err := o.Pause(); err != ErrNoRun {
		t.Errorf("pause after the end: %v", err)
	}
}
