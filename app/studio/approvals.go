package studio

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"hookstudio/app/engine"
	"hookstudio/app/events"
	"hookstudio/app/history"
	"hookstudio/app/llm"
)

// Events of a controlled run: the selected scenario played on the mock in
// the background with the event stream, pause/resume/cancel and the user
// answering approval requests (seed 002).
const (
	EventRunEvents       = "run:events"        // []events.Event: the next events of the run's stream, in order
	EventApproval        = "run:approval"      // PendingApproval: the run waits for the user's decision
	EventApprovalDecided = "run:approval-done" // ApprovalDone: the decision (or the timeout) came
	EventRunControl      = "run:control"       // RunControl: paused, resumed, cancelling
	// EventRunTrace and EventRunEnded (realrun.go) carry the trace view
	// after each call and how the run ended.
)

// ErrNoApproval is returned when no approval is waiting for a decision.
var ErrNoApproval = errors.New("no approval is waiting for a decision")

// PendingApproval is what the user is asked: the exact tool call, why,
// and the deadline the countdown runs to (no decision by then is a denial).
type PendingApproval struct {
	events.ApprovalRequest
	Scenario string `json:"scenario"`
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
}

// Operations runs the controlled run. It is separate from Service so the
// simulation and the real runs keep their own state; it reads the
// service's folder, selection and settings under its lock.
type Operations struct {
	svc *Service

	mu  sync.Mutex
	run *controlledRun
}

type controlledRun struct {
	ctl      *events.Control
	approver *humanApprover
	done     chan struct{}
}

// NewOperations returns the controlled-run service of svc.
func NewOperations(svc *Service) *Operations { return &Operations{svc: svc} }

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
	p := &PendingApproval{ApprovalRequest: req, Scenario: h.scenario}
	h.mu.Lock()
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
// its approval policy asking the user (Decide) and its budget; events go
// out as EventRunEvents batches, the trace after each call as
// EventRunTrace, the end as EventRunEnded (recorded in the history with
// its events).
func (o *Operations) Start() error {
	s := o.svc
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.run != nil {
		return errors.New("a controlled run is already in progress; cancel it first")
	}
	s.mu.Lock()
	i := slices.IndexFunc(s.scenarios, func(l loadedScenario) bool { return l.info.File == s.selected })
	if i < 0 || !s.scenarios[i].info.Valid {
		s.mu.Unlock()
		return errors.New("select a valid scenario first")
	}
	sc, file, root := s.scenarios[i].sc, s.selected, s.root
	hooks := enabledHooks{s.set, maps.Clone(s.disabled)}
	base := s.base
	s.mu.Unlock()
	if base == nil {
		base = context.Background()
	}
	emit := s.cfg.Emit
	ctl := events.NewControl()
	h := &humanApprover{emit: emit, scenario: sc.Name}
	r := &controlledRun{ctl: ctl, approver: h, done: make(chan struct{})}
	o.run = r

	st := events.NewStream(events.StreamOptions{})
	opts := events.Options{Stream: st}.ForScenario(sc)
	opts.Approver, opts.Control, opts.Tokens = h, ctl, s.cfg.Tokens
	cfg := engine.Config{Model: llm.NewMock(sc), ModelName: sc.Model, Session: sc.Name,
		AfterCall: func(t *engine.Trace, c int) { emit(EventRunTrace, buildView(t, file, s.cfg.Tokens)) }}
	mon := events.Attach(&cfg, opts)
	ctx, release := ctl.Context(base)
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		st.Pump(func(evs []events.Event) { emit(EventRunEvents, evs) })
	}()
	emit(EventRunControl, RunControl{Running: true})
	started := time.Now()
	go func() {
		defer close(r.done)
		defer release()
		tr, runErr := engine.Run(ctx, sc, hooks, cfg)
		mon.Finish(tr, runErr)
		st.Close()
		<-pumped
		end := RunEnded{Status: string(tr.Status), View: buildView(tr, file, s.cfg.Tokens)}
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
		emit(EventRunControl, RunControl{Running: false, ControlState: ctl.State()})
		emit(EventRunEnded, end)
	}()
	return nil
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
	o.svc.cfg.Emit(EventRunControl, RunControl{Running: true, ControlState: r.ctl.State()})
	<-r.done
	return nil
}

func (o *Operations) control(fn func(*events.Control)) error {
	r, err := o.current()
	if err != nil {
		return err
	}
	fn(r.ctl)
	o.svc.cfg.Emit(EventRunControl, RunControl{Running: true, ControlState: r.ctl.State()})
	return nil
}

// Decide answers the pending approval: approve, or deny with feedback the
// model reads in the tool message.
func (o *Operations) Decide(approve bool, feedback string) error {
	r, err := o.current()
	if err != nil {
		return ErrNoApproval
	}
	return r.approver.decide(approve, feedback)
}

// Pending is the approval waiting for a decision, nil when none is.
func (o *Operations) Pending() *PendingApproval {
	r, err := o.current()
	if err != nil {
		return nil
	}
	r.approver.mu.Lock()
	defer r.approver.mu.Unlock()
	if r.approver.pending == nil {
		return nil
	}
	p := *r.approver.pending
	return &p
}

// Wait blocks until the controlled run (if any) has ended.
func (o *Operations) Wait() {
	if r, err := o.current(); err == nil {
		<-r.done
	}
}
