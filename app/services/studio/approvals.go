package studio

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/services/runs"
	"hookstudio/app/store/history"
)

// Events of a controlled run: the selected scenario played on the mock in
// the background with the event stream, pause/resume/cancel and the user
// answering approval requests (seed 002).
const (
	EventRunEvents       = "run:events"        // []events.Event: the next events of the run's stream, in order
	EventApproval        = "run:approval"      // PendingApproval: the run waits for the user's decision
	EventApprovalDecided = "run:approval-done" // ApprovalDone: the decision (or the timeout) came
	EventRunControl      = "run:control"       // RunControl: paused, resumed, cancelling
	EventRunWaiting      = "run:waiting"       // RunWaiting: the run waits for the user (paused, an approval) at this step
	// EventRunTrace and EventRunEnded (realrun.go) carry the trace view
	// after each call and how the run ended.
)

// ErrNoApproval is returned when no approval is waiting for a decision.
var ErrNoApproval = errors.New("no approval is waiting for a decision")

// PendingApproval is what the user is asked: the exact tool call, why,
// and the deadline the countdown runs to (no decision by then is a denial).
type PendingApproval struct {
	events.ApprovalRequest
	// Hooks are what the executable hooks answered about the call
	// (ApprovalRequest.Hooks), shown with the question.
	Hooks    []events.HookAnswer `json:"hooks,omitempty"`
	Scenario string              `json:"scenario"`
}

// RunWaiting is where a run waits for the user, with its trace so far, so
// the step list, flowchart and message list can show that point.
type RunWaiting struct {
	Step   int               `json:"step"`
	Reason events.WaitReason `json:"reason"`
	View   TraceView         `json:"view"`
}

// onWait returns the events.Options.OnWait that sends RunWaiting.
func onWait(emit func(string, any), view func(*engine.Trace) TraceView) func(*engine.Trace, int, events.WaitReason) {
	return func(t *engine.Trace, step int, why events.WaitReason) {
		emit(EventRunWaiting, RunWaiting{Step: step, Reason: why, View: view(t)})
	}
}

// ApprovalDone says how a pending approval ended.
type ApprovalDone struct {
	ID       string `json:"id"`
	Approved bool   `json:"approved"`
	Feedback string `json:"feedback,omitempty"`
	TimedOut bool   `json:"timed_out,omitempty"`
}

// RunControl is the controlled run's state, after every change.
type RunControl struct {
	Running bool `json:"running"`
	events.ControlState
	// HooksNotRun says why the folder's executable hooks take no part in
	// the run ("folder not trusted"), as the live simulation says it.
	HooksNotRun string `json:"hooks_not_run,omitempty"`
}

// Operations runs the controlled run. It is separate from Service so the
// simulation and the real runs keep their own state; it reads the
// service's folder, selection and settings under its lock.
type Operations struct {
	svc      *Service
	approver *humanApprover // one at a time: a controlled run's or a real run's

	mu  sync.Mutex
	run *controlledRun // the run pause, resume and cancel steer
}

type controlledRun struct {
	ctl    *events.Control
	done   chan struct{}
	notRun string // why the executable hooks take no part (RunControl.HooksNotRun)
}

// state is the run's RunControl.
func (r *controlledRun) state(running bool) RunControl {
	return RunControl{Running: running, ControlState: r.ctl.State(), HooksNotRun: r.notRun}
}

// NewOperations returns the controlled-run service of svc; svc's real runs
// then get the event stream, control and approvals too.
func NewOperations(svc *Service) *Operations {
	o := &Operations{svc: svc, approver: &humanApprover{emit: svc.cfg.Emit}}
	svc.mu.Lock()
	svc.ops = o
	svc.mu.Unlock()
	return o
}

// humanApprover asks the user through events and waits for Decide.
type humanApprover struct {
	emit     func(string, any)
	scenario string

	mu      sync.Mutex
	pending *PendingApproval
	answer  chan events.Decision // capacity 1, set while pending
}

// Approve implements events.Approver: it announces the request and waits
// for Decide or the request's deadline (ctx), whichever comes first.
func (h *humanApprover) Approve(ctx context.Context, req events.ApprovalRequest) (events.Decision, error) {
	answer := make(chan events.Decision, 1)
	h.mu.Lock()
	p := &PendingApproval{ApprovalRequest: req, Hooks: req.Hooks, Scenario: h.scenario}
	h.pending, h.answer = p, answer
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.pending, h.answer = nil, nil
		h.mu.Unlock()
	}()
	h.emit(EventApproval, *p)
	select {
	case d := <-answer:
		h.emit(EventApprovalDecided, ApprovalDone{ID: req.ID, Approved: d.Approved, Feedback: d.Feedback})
		return d, nil
	case <-ctx.Done():
		h.emit(EventApprovalDecided, ApprovalDone{ID: req.ID, TimedOut: errors.Is(ctx.Err(), context.DeadlineExceeded)})
		return events.Decision{}, ctx.Err()
	}
}

func (h *humanApprover) setScenario(name string) {
	h.mu.Lock()
	h.scenario = name
	h.mu.Unlock()
}

// decide hands the user's decision to the waiting request.
func (h *humanApprover) decide(approve bool, feedback string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.answer == nil {
		return ErrNoApproval
	}
	select {
	case h.answer <- events.Decision{Approved: approve, Feedback: feedback}:
		h.answer = nil // one decision per request
		return nil
	default:
		return ErrNoApproval
	}
}

// eventStore is the part of the history that keeps events.
type eventStore interface {
	SaveEvents(ctx context.Context, run history.RunID, evs []events.Event) error
}

// Start plays the selected scenario on the mock in the background, with
// the folder's executable hooks as the live simulation attaches them
// (runHooksLocked: all of them once the folder is trusted, none and why
// otherwise), its approval policy asking the user (Decide) and its budget;
// events go out as EventRunEvents batches, the trace as EventRunTrace
// (after each call, and as hooks run), the end as EventRunEnded (recorded
// in the history with its events).
func (o *Operations) Start() error {
	s := o.svc
	// Lock order: s.mu, then o.mu (StartRun holds s.mu when it calls watchRun).
	s.mu.Lock()
	i := slices.IndexFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == s.selected })
	if i < 0 || !s.scenarios[i].info.Valid {
		s.mu.Unlock()
		return errors.New("select a valid scenario first")
	}
	sc, file, root := s.scenarios[i].sc, s.selected, s.root
	prompt := enabledHooks{s.set, maps.Clone(s.disabled)}
	hooks := s.runHooksLocked(i)
	// the agents' hook output rendered as the live simulation renders it
	profiles, err := s.cfg.Agents.runProfiles("", sc)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	base := s.base
	ctl := events.NewControl()
	r := &controlledRun{ctl: ctl, done: make(chan struct{}), notRun: hooks.exec.NotRun}
	o.mu.Lock()
	if o.run != nil {
		o.mu.Unlock()
		s.mu.Unlock()
		return errors.New("a run is already in progress; cancel it first")
	}
	if base == nil {
		base = context.Background()
	}
	if base.Err() != nil { // Close began: it waits for no run started now
		o.mu.Unlock()
		s.mu.Unlock()
		return errors.New("the app is closing")
	}
	o.run = r
	o.mu.Unlock()
	s.workers.Add(1) // Close waits for the run and its hooks to end
	s.mu.Unlock()
	emit := s.cfg.Emit
	h := o.approver
	h.setScenario(sc.Name)

	st := events.NewStream(events.StreamOptions{})
	opts := events.Options{Stream: st}.ForScenario(sc)
	opts.Approver, opts.Control, opts.Tokens = h, ctl, s.cfg.Tokens
	exec := hooks.exec
	view := func(t *engine.Trace) TraceView {
		v := buildView(t, file, s.cfg.Tokens)
		v.Exec = exec
		return v
	}
	opts.OnWait = onWait(emit, view)
	f := &follower{send: func(t *engine.Trace) { emit(EventRunTrace, view(t)) }}
	// Every hook runs afresh, as in a real run: the user watches the hooks
	// run (and can pause or cancel them), not results reused from the
	// simulation before.
	spec := runs.Spec{Scenario: sc, Prompt: prompt, Events: &opts, Tokens: s.cfg.Tokens, Fresh: true,
		AfterCall: func(t *engine.Trace, _ int) { f.now(t) }, Wrap: f.wrap, Profiles: profiles}
	hooks.attach(&spec)
	run, err := runs.Assemble(spec)
	if err != nil {
		o.mu.Lock()
		o.run = nil
		o.mu.Unlock()
		s.workers.Done()
		return fmt.Errorf("load executable hooks: %w", err)
	}
	ctx, release := ctl.Context(base)
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		st.Pump(func(evs []events.Event) { emit(EventRunEvents, evs) })
	}()
	emit(EventRunControl, r.state(true))
	started := time.Now()
	go func() {
		defer s.workers.Done()
		defer close(r.done)
		defer release()
		// Execute closes the hooks when the run ends, killing whatever
		// they still run: a cancelled run leaves no process behind.
		tr, runErr := run.Execute(ctx)
		exec = hooks.ran(run.Metrics(), time.Since(started))
		st.Close()
		<-pumped
		end := RunEnded{Status: string(tr.Status), View: view(tr)}
		if runErr != nil {
			end.Error = runErr.Error()
		}
		if rec := s.cfg.History; rec != nil {
			data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
			sctx := context.WithoutCancel(base)
			id, err := rec.SaveRun(sctx, history.RunInput{Trace: tr, ScenarioFile: file, ScenarioData: data,
				Backend: "mock", Source: history.SourceApp, Started: started, Ended: time.Now(), Tokens: s.cfg.Tokens})
			if err == nil {
				end.RunID = int64(id)
				if es, ok := rec.(eventStore); ok {
					_ = es.SaveEvents(sctx, id, st.Persistent())
				}
			}
		}
		o.mu.Lock()
		o.run = nil
		o.mu.Unlock()
		emit(EventRunControl, r.state(false))
		emit(EventRunEnded, end)
	}()
	return nil
}

// follower sends a controlled run's trace as it grows: after each LLM call
// and after a hook system's handler recorded invocations, at most every
// followEvery for the latter (a wait or the end sends the whole trace
// anyway). It runs on the run's goroutine only, where the trace may be
// read.
type follower struct {
	send  func(*engine.Trace)
	calls int // hook calls in the trace last sent
	last  time.Time
}

// followEvery bounds how often hook invocations send the trace.
const followEvery = 100 * time.Millisecond

func (f *follower) now(t *engine.Trace) {
	f.calls, f.last = len(t.HookCalls), time.Now()
	f.send(t)
}

func (f *follower) wrap(h engine.Handler) engine.Handler { return followed{h: h, f: f} }

// followed is a hook system's handler whose invocations the follower sends.
type followed struct {
	h engine.Handler
	f *follower
}

func (w followed) Handle(ctx context.Context, ev *engine.Event) error {
	err := w.h.Handle(ctx, ev)
	if t := ev.Trace(); t != nil && len(t.HookCalls) > w.f.calls && time.Since(w.f.last) >= followEvery {
		w.f.now(t)
	}
	return err
}

func (o *Operations) current() (*controlledRun, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.run == nil {
		return nil, ErrNoRun
	}
	return o.run, nil
}

// Pause stops the controlled run at its next checkpoint.
func (o *Operations) Pause() error {
	return o.control(func(c *events.Control) { c.Pause("paused by the user") })
}

// Resume lets a paused controlled run go on.
func (o *Operations) Resume() error { return o.control(func(c *events.Control) { c.Resume() }) }

// Cancel ends the controlled run at its next checkpoint (a pending
// approval ends at once) and waits for it to end.
func (o *Operations) Cancel() error {
	r, err := o.current()
	if err != nil {
		return err
	}
	r.ctl.Cancel("cancelled by the user")
	o.svc.cfg.Emit(EventRunControl, r.state(true))
	<-r.done
	return nil
}

func (o *Operations) control(fn func(*events.Control)) error {
	r, err := o.current()
	if err != nil {
		return err
	}
	fn(r.ctl)
	o.svc.cfg.Emit(EventRunControl, r.state(true))
	return nil
}

// Decide answers the pending approval: approve, or deny with feedback the
// model reads in the tool message.
func (o *Operations) Decide(approve bool, feedback string) error {
	return o.approver.decide(approve, feedback)
}

// Pending is the approval waiting for a decision, nil when none is.
func (o *Operations) Pending() *PendingApproval {
	h := o.approver
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == nil {
		return nil
	}
	p := *h.pending
	return &p
}

// Wait blocks until the controlled run (if any) has ended.
func (o *Operations) Wait() {
	if r, err := o.current(); err == nil {
		<-r.done
	}
}

// watchedRun is the event stream of a run the service started itself (a
// real run): events as EventRunEvents, the scenario's budget, and with
// Operations its approvals asked of the user and pause/resume/cancel.
type watchedRun struct {
	o       *Operations // nil: events and budget only
	run     *controlledRun
	st      *events.Stream
	pumped  chan struct{}
	release context.CancelFunc
}

// watchRun puts the event stream on spec (the assembler attaches it last).
// Call context on the run's context, finish after the run and save once
// the run is stored, or abandon if it never runs. notRun says why the
// executable hooks take no part (RunControl.HooksNotRun). s.mu is held
// (StartRun).
func (s *Service) watchRun(spec *runs.Spec, view func(*engine.Trace) TraceView, notRun string) *watchedRun {
	o := s.ops
	sc := spec.Scenario
	w := &watchedRun{st: events.NewStream(events.StreamOptions{}), pumped: make(chan struct{}), release: func() {}}
	opts := events.Options{Stream: w.st}.ForScenario(sc)
	opts.Tokens, opts.Approver, opts.Policy = s.cfg.Tokens, nil, nil
	opts.OnWait = onWait(s.cfg.Emit, view)
	if o != nil {
		o.mu.Lock()
		if o.run == nil { // a controlled run would own the approvals and the control
			w.o, w.run = o, &controlledRun{ctl: events.NewControl(), done: make(chan struct{}), notRun: notRun}
			o.run = w.run
			o.approver.setScenario(sc.Name)
			opts.Policy, opts.Approver, opts.Control = events.PolicyOf(sc), o.approver, w.run.ctl
		}
		o.mu.Unlock()
	}
	spec.Events = &opts
	go func() {
		defer close(w.pumped)
		w.st.Pump(func(evs []events.Event) { s.cfg.Emit(EventRunEvents, evs) })
	}()
	if w.run != nil {
		s.cfg.Emit(EventRunControl, w.run.state(true))
	}
	return w
}

// context is the run's context, which the control's cancel also ends.
func (w *watchedRun) context(ctx context.Context) context.Context {
	if w.run == nil {
		return ctx
	}
	ctx, w.release = w.run.ctl.Context(ctx)
	return ctx
}

// finish waits for the last events (the run said how it ended) to go out
// and gives the control back.
func (w *watchedRun) finish() {
	w.st.Close()
	<-w.pumped
	w.release()
	if w.run != nil {
		w.o.mu.Lock()
		w.o.run = nil
		w.o.mu.Unlock()
		close(w.run.done)
		w.o.svc.cfg.Emit(EventRunControl, w.run.state(false))
	}
}

// abandon ends the stream of a run that never started.
func (w *watchedRun) abandon() { w.finish() }

// save stores the run's events with the stored run.
func (w *watchedRun) save(ctx context.Context, rec Recorder, id history.RunID) {
	if es, ok := rec.(eventStore); ok {
		_ = es.SaveEvents(ctx, id, w.st.Persistent())
	}
}
