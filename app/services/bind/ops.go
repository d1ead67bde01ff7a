package bind

import (
	"context"

	"hookstudio/app/agent/events"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// EventSource is where stored runs' events come from (history.Store).
type EventSource interface {
	Events(ctx context.Context, run history.RunID) ([]events.Event, error)
}

// Ops is bound as window.go.bind.Ops: the controlled run of seed 002 —
// its event stream, pause/resume/cancel and the user's approvals — and the
// events of stored runs. Events arrive as studio.EventRunEvents,
// EventApproval, EventApprovalDecided, EventRunControl, EventRunTrace and
// EventRunEnded.
type Ops struct {
	ops   *studio.Operations
	store EventSource
}

// NewOps binds ops; store may be nil when there is no history.
func NewOps(ops *studio.Operations, store EventSource) *Ops { return &Ops{ops: ops, store: store} }

// StopOps cancels a controlled run still going when the app quits. It is
// a function, not a method, so that Wails does not offer it to the frontend.
func StopOps(o *Ops) { _ = o.ops.Cancel() }

// StartControlledRun plays the selected scenario on the mock with its
// approval policy and budget, asking the user for each approval.
func (o *Ops) StartControlledRun() error { return o.ops.Start() }

// PauseRun pauses the controlled run at its next checkpoint.
func (o *Ops) PauseRun() error { return o.ops.Pause() }

// ResumeRun resumes a paused controlled run.
func (o *Ops) ResumeRun() error { return o.ops.Resume() }

// CancelControlledRun ends the controlled run at its next checkpoint.
func (o *Ops) CancelControlledRun() error { return o.ops.Cancel() }

// DecideApproval answers the pending approval; a denial's feedback is what
// the model reads in the tool message.
func (o *Ops) DecideApproval(approve bool, feedback string) error {
	return o.ops.Decide(approve, feedback)
}

// PendingApproval is the approval waiting for the user, nil when none.
func (o *Ops) PendingApproval() (*studio.PendingApproval, error) { return o.ops.Pending(), nil }

// RunEvents returns a stored run's events (the timeline of a past run).
func (o *Ops) RunEvents(runID int64) ([]events.Event, error) {
	if o.store == nil {
		return []events.Event{}, nil
	}
	return o.store.Events(context.Background(), history.RunID(runID))
}
