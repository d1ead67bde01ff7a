package events

import (
	"context"
	"sync"
)

// Control steers a run from outside it: pause, resume and cancel, asked
// from any goroutine, take effect at the run's next checkpoint (every
// engine point is one; the Monitor checks). Cancel also cancels the
// context from Context, so a model request or a wait in flight (a tool
// answer, an approval) ends at once instead of at the next point.
type Control struct {
	mu        sync.Mutex
	paused    bool
	reason    string
	cancelled bool
	why       string
	wake      chan struct{} // closed and replaced at every change
	cancel    context.CancelFunc
}

// NewControl returns a control for one run, running.
func NewControl() *Control { return &Control{wake: make(chan struct{})} }

// Context returns a context for the run that Cancel cancels; release it
// with the returned function when the run is over.
func (c *Control) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	c.mu.Lock()
	c.cancel = cancel
	cancelled := c.cancelled
	c.mu.Unlock()
	if cancelled {
		cancel()
	}
	return ctx, cancel
}

// changed wakes a checkpoint waiting on the state; c.mu is held.
func (c *Control) changed() {
	close(c.wake)
	c.wake = make(chan struct{})
}

// Pause asks the run to stop at its next checkpoint until Resume or Cancel.
func (c *Control) Pause(reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.paused || c.cancelled {
		return
	}
	c.paused, c.reason = true, reason
	c.changed()
}

// Resume lets a paused run go on.
func (c *Control) Resume() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.paused {
		return
	}
	c.paused, c.reason = false, ""
	c.changed()
}

// Cancel ends the run at its next checkpoint, aborting what is in flight.
func (c *Control) Cancel(reason string) {
	c.mu.Lock()
	if c.cancelled {
		c.mu.Unlock()
		return
	}
	c.cancelled, c.why = true, reason
	c.changed()
	cancel := c.cancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// ControlState is what Control was asked.
type ControlState struct {
	Paused      bool   `json:"paused"`
	PauseReason string `json:"pause_reason,omitempty"`
	Cancelled   bool   `json:"cancelled"`
	CancelledBy string `json:"cancel_reason,omitempty"`
}

// State says what the control was asked so far.
func (c *Control) State() ControlState {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ControlState{Paused: c.paused, PauseReason: c.reason, Cancelled: c.cancelled, CancelledBy: c.why}
}

func (c *Control) snapshot() (ControlState, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return ControlState{Paused: c.paused, PauseReason: c.reason, Cancelled: c.cancelled, CancelledBy: c.why}, c.wake
}
