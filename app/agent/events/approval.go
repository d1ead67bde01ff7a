package events

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// DefaultApprovalTimeout is how long a requested approval waits for a
// decision when the policy does not say.
const DefaultApprovalTimeout = 30 * time.Second

// Policy says which tool calls need a human's approval. It is asked at
// approve_tool after every hook system (a process hook's approve_tool
// decides first; a call it denied is not asked about again).
type Policy struct {
	Tools          []string      // these tools always need approval
	BudgetExceeded bool          // once the token budget is used up, every tool call does
	Timeout        time.Duration // no decision within it is a denial (DefaultApprovalTimeout)
}

// PolicyOf is the scenario's approval policy, nil when it has none.
func PolicyOf(sc *scenario.Scenario) *Policy {
	a := sc.Approval
	if a == nil {
		return nil
	}
	return &Policy{Tools: slices.Clone(a.Tools), BudgetExceeded: a.BudgetExceeded, Timeout: time.Duration(a.TimeoutMS) * time.Millisecond}
}

func (p *Policy) timeout() time.Duration {
	if p.Timeout > 0 {
		return p.Timeout
	}
	return DefaultApprovalTimeout
}

// ApprovalRequest is what a human is asked: the exact tool call and why.
type ApprovalRequest struct {
	ID         string         `json:"id"` // approval-1, approval-2, ... per run
	Tool       string         `json:"tool"`
	ToolCallID string         `json:"tool_call_id"`
	Arguments  map[string]any `json:"arguments"`
	Reason     string         `json:"reason"`
	TimeoutMS  int64          `json:"timeout_ms"`
	Deadline   time.Time      `json:"deadline"` // for the countdown
	Step       int            `json:"step"`
	// Hooks are what the executable hooks answered about this call before
	// the policy asks (before_tool, approve_tool: a process hook's
	// approval, a Claude Code hook that asked): the human sees them with
	// the question, APPROVAL_REQUESTED carries them. Not in the trace's
	// copy of the request: those hook calls are steps of their own.
	Hooks []HookAnswer `json:"-"`
}

// HookAnswer is one hook's answer about a tool call, as the trace keeps
// it.
type HookAnswer struct {
	System  string         `json:"system"`
	Event   string         `json:"event"`
	Hook    string         `json:"hook"`
	Outcome engine.Outcome `json:"outcome"`
	// Answer is what it answered: its output (JSON or text), or its error.
	Answer string `json:"answer,omitempty"`
}

// answerOf is call as a HookAnswer.
func answerOf(call *engine.HookCall) HookAnswer {
	a := HookAnswer{System: call.System, Event: call.Event, Hook: call.Hook, Outcome: call.Outcome, Answer: call.OutputText}
	switch {
	case len(call.Output) > 0:
		a.Answer = string(call.Output)
	case call.Error != "":
		a.Answer = call.Error
	}
	return a
}

// Decision is a human's answer.
type Decision struct {
	Approved bool   `json:"approved"`
	Feedback string `json:"feedback,omitempty"` // why, for the model to read on a denial
	TimedOut bool   `json:"timed_out,omitempty"`
}

// Approver answers approval requests: headless, the scenario's scripted
// decisions; in the app, the user. Approve returns when it has a decision
// or ctx ends (its deadline is the request's: then the Monitor denies
// with reason "timeout").
type Approver interface {
	Approve(ctx context.Context, req ApprovalRequest) (Decision, error)
}

// Scripted answers with a scenario's approvals: list, in order: each
// request takes the first unused decision for its tool (or for any tool).
// A "timeout" decision, or none left, is a timeout at once: headless runs
// never wait for the clock.
type Scripted struct {
	mu   sync.Mutex
	list []scenario.ApprovalDecision
	used []bool
}

// NewScripted returns the approver of a scenario's scripted decisions.
func NewScripted(list []scenario.ApprovalDecision) *Scripted {
	return &Scripted{list: list, used: make([]bool, len(list))}
}

// Approve implements Approver.
func (s *Scripted) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	if err := ctx.Err(); err != nil {
		return Decision{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, d := range s.list {
		if s.used[i] || (d.Tool != "" && d.Tool != req.Tool) {
			continue
		}
		s.used[i] = true
		switch d.Decision {
		case scenario.DecisionApprove:
			return Decision{Approved: true, Feedback: d.Feedback}, nil
		case scenario.DecisionDeny:
			return Decision{Feedback: d.Feedback}, nil
		default:
			return Decision{TimedOut: true, Feedback: d.Feedback}, nil
		}
	}
	return Decision{TimedOut: true, Feedback: "no scripted decision left for " + req.Tool}, nil
}

// denialText is what the model reads in the tool message of a denied call.
func denialText(tool string, d Decision, timeout time.Duration) string {
	switch {
	case d.TimedOut:
		return fmt.Sprintf("Tool call %s was denied: no approval decision within %s (timeout).", tool, timeout)
	case d.Feedback != "":
		return fmt.Sprintf("Tool call %s was denied by the user: %s", tool, d.Feedback)
	}
	return fmt.Sprintf("Tool call %s was denied by the user.", tool)
}
