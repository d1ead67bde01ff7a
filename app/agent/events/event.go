// Package events is the run's event stream and its control (seed 002,
// Shannon): typed events with a per-run sequence number, pause, resume and
// cancel at the engine's points, human approval of tool calls and a token
// budget. Everything is an engine.Handler (Monitor) plus the Config hooks
// real runs already have (BeforeCall, OnStream); the run never waits on a
// consumer of the stream (Stream).
package events

import (
	"time"
)

// Type is an event's kind, named as Shannon names them.
type Type string

// Shannon's event types (seed 002, 6.2), plus WORKFLOW_FAILED and the
// ephemeral HEARTBEAT that its persistence rules name.
const (
	WorkflowStarted   Type = "WORKFLOW_STARTED"
	WorkflowCompleted Type = "WORKFLOW_COMPLETED"
	WorkflowFailed    Type = "WORKFLOW_FAILED"
	AgentStarted      Type = "AGENT_STARTED"
	AgentCompleted    Type = "AGENT_COMPLETED"
	AgentThinking     Type = "AGENT_THINKING"
	ToolInvoked       Type = "TOOL_INVOKED"
	ToolObservation   Type = "TOOL_OBSERVATION"
	ErrorOccurred     Type = "ERROR_OCCURRED"
	WorkflowPaused    Type = "WORKFLOW_PAUSED"
	WorkflowResumed   Type = "WORKFLOW_RESUMED"
	WorkflowCancelled Type = "WORKFLOW_CANCELLED"
	ApprovalRequested Type = "APPROVAL_REQUESTED"
	ApprovalDecision  Type = "APPROVAL_DECISION"
	LLMPrompt         Type = "LLM_PROMPT"
	LLMPartial        Type = "LLM_PARTIAL"
	LLMOutput         Type = "LLM_OUTPUT"
	BudgetThreshold   Type = "BUDGET_THRESHOLD"
	Heartbeat         Type = "HEARTBEAT"
)

// Types lists every type, in the order a run meets them.
var Types = []Type{WorkflowStarted, AgentStarted, AgentThinking, LLMPrompt, LLMPartial, LLMOutput,
	ToolInvoked, ApprovalRequested, ApprovalDecision, ToolObservation, BudgetThreshold,
	WorkflowPaused, WorkflowResumed, WorkflowCancelled, ErrorOccurred, AgentCompleted,
	WorkflowCompleted, WorkflowFailed, Heartbeat}

// Ephemeral says whether events of type t are only worth seeing live:
// they are never stored, and a full queue drops them (Shannon's
// shouldPersistEvent: LLM_PARTIAL, HEARTBEAT, PING).
func Ephemeral(t Type) bool { return t == LLMPartial || t == Heartbeat || t == "PING" }

// Event is one event of a run.
type Event struct {
	Seq       uint64    `json:"seq"` // 1, 2, ... per run, in emission order; ephemeral events count too
	Type      Type      `json:"type"`
	AgentID   string    `json:"agent_id"`
	Message   string    `json:"message"` // for people
	Timestamp time.Time `json:"timestamp"`
	// Step is the trace step the event belongs to (the app moves its step
	// cursor there); -1 when there is none yet.
	Step    int            `json:"step"`
	Payload map[string]any `json:"payload,omitempty"`
}
