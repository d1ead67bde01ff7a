package engine

import (
	"context"
	"encoding/json"

	"hookstudio/app/agent/scenario"
)

// Point is a place in the flow where executable hooks fire. Each hook
// system maps points to its own native event names (jcli's pre_llm_request,
// PicoClaw's hook.before_llm, a request hook's start) and subscribes as a
// Handler; the flow code knows points only, never hook kinds.
type Point string

const (
	PointSessionStart  Point = "session_start" // once, before request 1
	PointSessionEnd    Point = "session_end"   // once, after the last request (also after a stop or failure)
	PointBeforeSend    Point = "before_send"   // the user input, before the message list is built
	PointAfterSend     Point = "after_send"    // notification: the list is built
	PointBeforeLLM     Point = "before_llm"    // after seed-000 injected for the call, before the model
	PointAfterLLM      Point = "after_llm"     // the model answered (or failed: Event.Err)
	PointBeforeTool    Point = "before_tool"   // a tool call, before approval and execution
	PointApproveTool   Point = "approve_tool"  // may the tool run
	PointAfterTool     Point = "after_tool"    // the tool ran (or failed: Event.Tool.Error)
	PointAfterTools    Point = "after_tools"   // every tool call of the answer ran (Event.ToolCalls)
	PointStop          Point = "stop"          // an agent answer without tool calls, before the loop ends
	PointBeforeCompact Point = "before_compact"
	PointAfterCompact  Point = "after_compact"
)

// Points lists every point in flow order.
var Points = []Point{PointSessionStart, PointBeforeSend, PointAfterSend, PointBeforeLLM, PointAfterLLM,
	PointBeforeTool, PointApproveTool, PointAfterTool, PointAfterTools, PointStop, PointBeforeCompact, PointAfterCompact, PointSessionEnd}

// before says whether hooks at p wrap inward (declaration order) or, after
// the model or tool ran, outward (reverse order), like middleware.
func (p Point) before() bool {
	switch p {
	case PointAfterLLM, PointAfterTool, PointAfterTools, PointAfterCompact, PointSessionEnd, PointAfterSend, PointStop:
		return false
	}
	return true
}

// Handler is a hook system. The engine calls every handler at every point;
// a handler that has nothing for the point returns at once. Handlers run
// in Config.Handlers order at "before" points and in reverse at "after"
// points. A handler invokes its hooks one by one and reports each through
// ev.Apply, so the next hook in the chain sees what the previous changed.
// An error ends the run (use it for cancellation, not for a failing hook:
// a failing hook is an outcome).
type Handler interface {
	Handle(ctx context.Context, ev *Event) error
}

// Compaction is what a compaction point is about.
type Compaction string

const (
	CompactMicro Compaction = "micro" // older tool results are shortened
	CompactAuto  Compaction = "auto"  // the conversation is replaced by a summary
)

// Event is one firing of a point: where it is in the flow, what hooks may
// read, and (through Apply) how they change the run. Fields that do not
// apply to the point are zero.
type Event struct {
	Point   Point
	Request int
	Phase   Phase
	Round   int // -1 outside the agent loop
	Call    int // LLM call index at before_llm/after_llm, else -1
	Session string

	UserInput string // the request's user input (as hooks left it)
	Model     string // the model of the call (before_llm may change it)
	Tools     []scenario.Tool
	Answer    string     // after_llm, stop: the assistant's text
	ToolCalls []ToolCall // after_llm: the answer's tool calls, named (process hooks may rewrite them); after_tools: as they ran
	Tool      *ToolCall  // tool points: the call (arguments as hooks left them; Result/Error after the tool)
	Compact   Compaction
	Err       error  // after_llm: the model failed; request hooks still see the end
	Usage     *Usage // after_llm: the provider's reported usage (nil: none)
	// AnsweredBy is, at after_llm, the hook that answered in the model's
	// place at before_llm (Effect.Answer): the model was not asked.
	AnsweredBy string

	// Stream receives an after_llm answer's text as it arrives, for
	// observers; it is nil at other points.
	Stream func(text string)

	r     *runner
	state *eventState
}

// eventState is what a point's hooks decided, read by the flow afterwards.
type eventState struct {
	stopped    string // hook that stopped the request ("" none)
	hardAbort  string // hook that ended the run
	skipped    string // tool skipped/denied: by this hook
	deny       string // the text the tool message gets
	respond    *string
	respondBy  string
	replacedBy int32        // the hook call (index+1) whose deny or answer the tool message holds
	retry      []NewMessage // retry_feedback messages, in order
	approved   *bool
	addTools   []scenario.Tool
	withheld   []string // before_llm: tools a hook took out of this call's offer
	answer     *string  // before_llm: a hook answered in the model's place
	answerBy   string
	toolCalls  bool // after_llm: a hook replaced the answer's tool calls
}

// EnabledSkills is the current request's skill selection (nil: every
// skill). Hooks a skill declares are active only while it is enabled.
func (e *Event) EnabledSkills() []string {
	if e.r == nil {
		return nil
	}
	if n := len(e.r.t.Requests); n > 0 {
		return e.r.t.Requests[n-1].EnabledSkills
	}
	return e.r.sc.EnabledSkills
}

// Messages is the current message list of the request (for before_llm:
// what the model will receive, with the hooks' changes so far).
func (e *Event) Messages() []Message {
	if e.r == nil {
		return nil
	}
	return e.r.t.MessagesAt(len(e.r.t.steps) - 1)
}

// Trace is the run's trace so far, for an observer that shows it while the
// run waits at this event (a pause, an approval). Read it only within the
// handler's call: the run goes on changing it afterwards.
func (e *Event) Trace() *Trace {
	if e.r == nil {
		return nil
	}
	return e.r.t
}

// Step is the index of the trace's last recorded step when the event fires
// (-1 before the first), so observers can point at the step (app/agent/events).
func (e *Event) Step() int {
	if e.r == nil {
		return -1
	}
	return len(e.r.t.steps) - 1
}

// Quiet marks a Handler that only watches the run (the event stream,
// control, approvals): with no other handler, LLM calls are recorded as in
// a prompt-only run (no model name), so such traces stay as they were.
type Quiet interface {
	Handler
	Quiet()
}

// SystemPrompt is the content of the list's first system-prompt message, or
// the scenario's system prompt when the list is not built yet.
func (e *Event) SystemPrompt() string {
	if e.r == nil {
		return ""
	}
	if id, ok := e.r.systemID(); ok {
		return e.r.t.msgs[id].content
	}
	return e.r.sc.SystemPrompt
}

// Stopped says whether an earlier hook of this point stopped the request,
// skipped the tool or ended the run: later hooks of the chain do not run.
func (e *Event) Stopped() bool {
	s := e.state
	return s != nil && (s.stopped != "" || s.hardAbort != "" || s.skipped != "" || s.respond != nil)
}

// Action is a hook's decision about the flow.
type Action string

const (
	ActionNone      Action = ""
	ActionStop      Action = "stop"       // end the request (jcli stop, PicoClaw abort_turn)
	ActionSkip      Action = "skip"       // skip the tool; Deny is its message
	ActionDeny      Action = "deny"       // deny the tool (deny_tool, approve_tool denied)
	ActionHardAbort Action = "hard_abort" // end the run
)

// NewMessage is a message a hook adds or puts in the list.
type NewMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Effect is what one hook invocation asks for. Nil pointers and empty
// fields change nothing. A field its point does not support is not applied
// and becomes a warning on the invocation.
type Effect struct {
	UserInput    *string         // before_send
	SystemPrompt *string         // before_llm
	AppendSystem string          // additional_context: appended to the system prompt (before_llm, stop, before_compact; session_start: every request's)
	Messages     []NewMessage    // replace the list (before_llm, after_compact); nil keeps it
	Inject       []NewMessage    // append to the list (before_llm, before_send)
	Model        *string         // before_llm
	AddTools     []scenario.Tool // before_llm: offered to the model for this call
	// OnlyTools restricts the call's offer to the tools named (an empty
	// list: no tools) at before_llm, for this call only (Gemini CLI's
	// BeforeToolSelection); nil keeps the offer.
	OnlyTools *[]string
	// Answer replaces the model's answer (after_llm); at before_llm the
	// model is not asked and this is its answer (Gemini CLI's BeforeModel
	// synthetic response).
	Answer        *string
	ToolCalls     *[]ToolCall    // after_llm: the answer's tool calls as the hook gives them back, matched by position (PicoClaw after_llm modify); results are the scripted ones
	ToolArguments map[string]any // before_tool
	ToolResult    *string        // after_tool (success)
	ToolError     *string        // after_tool (failure)
	Respond       *string        // before_tool: the tool is not run, this is its result
	Approved      *bool          // approve_tool
	Action        Action
	Reason        string // deny/skip/stop text
	RetryFeedback string // before_send, before_llm, after_llm, stop
	// Feedback is retry feedback in messages of their own roles (Claude
	// Code 2.1.332's Stop block: a user message and a system one); it
	// retries like RetryFeedback, after it.
	Feedback []NewMessage
	Notice   string   // system_message: shown to the user
	Extra    []string // changes the engine cannot apply but the system reports (e.g. process option changes)
	// Context are messages added to the conversation for the rest of the
	// request, placed after the message the point leads to: the user's
	// (session_start, before_send), the tool's (before_tool, after_tool),
	// else at the end (after_tools) — as Claude Code places hook context.
	Context []NewMessage
	// ContextBefore are messages placed before the message the point leads
	// to: the user's (session_start, before_send), the tool's (before_tool,
	// after_tool) — Codex puts a SessionStart hook's context before the
	// prompt and tool hooks' context between the call and its result.
	ContextBefore []NewMessage
	// AppendResult is appended to the tool's result, after a blank line
	// (after_tool; after_tools: the answer's last tool result), the tool
	// having run — Qwen Code's PostToolUse and PostToolBatch context.
	AppendResult string
	// Preface are messages placed before the user's message of the
	// request (session_start: the first request's) — where Copilot CLI
	// puts session-start context, and where Gemini CLI's prefix to the
	// prompt stands once split off.
	Preface []NewMessage
}

// Outcome is how a hook invocation ended.
type Outcome string

const (
	OutcomeOK       Outcome = "ok"
	OutcomeModified Outcome = "modified"
	OutcomeError    Outcome = "error"
	OutcomeTimeout  Outcome = "timeout"
	OutcomeSkipped  Outcome = "skipped" // the hook did not run (filter, earlier stop, disabled) or skipped the tool
	OutcomeDenied   Outcome = "denied"
	OutcomeStopped  Outcome = "stopped"
	OutcomeBlocked  Outcome = "blocked" // the hook blocked the action (Claude Code's exit 2, decision: block)
	OutcomeAsked    Outcome = "asked"   // the hook asked the user (Claude Code's permissionDecision: ask)
)

// HookCall is one invocation of an executable hook, as the trace keeps it.
type HookCall struct {
	System     string          `json:"system"` // command | process | request
	Event      string          `json:"event"`  // the system's native event or method name
	Point      Point           `json:"point"`
	Hook       string          `json:"hook"`
	Source     string          `json:"source,omitempty"` // where it is declared: file (relative to the root) and line
	Outcome    Outcome         `json:"outcome"`
	Input      json.RawMessage `json:"input,omitempty"`       // exactly what the hook received (stdin, JSON-RPC request)
	Output     json.RawMessage `json:"output,omitempty"`      // what it answered, when that is JSON
	OutputText string          `json:"output_text,omitempty"` // what it printed, when that is not JSON
	Stderr     string          `json:"stderr,omitempty"`
	ExitCode   *int            `json:"exit_code,omitempty"`
	RPCError   string          `json:"rpc_error,omitempty"`
	Error      string          `json:"error,omitempty"` // why it failed, in words
	DurationMS float64         `json:"duration_ms"`
	Reused     bool            `json:"reused,omitempty"`  // result taken from the previous run: same input, same files
	Notify     bool            `json:"notify,omitempty"`  // a notification: nothing awaited
	Changes    []string        `json:"changes,omitempty"` // what the effect did, in words
	Warnings   []string        `json:"warnings,omitempty"`
	Notice     string          `json:"notice,omitempty"`    // system_message for the user
	Truncated  bool            `json:"truncated,omitempty"` // output was capped
	// Other says what would happen under the other host behaviour (the
	// program's code or its document) where the two disagree about this call.
	Other string `json:"other,omitempty"`
}

// HookInfo describes an executable hook for the skills panel and the
// breakpoint list: which system, which native event, where declared.
type HookInfo struct {
	System string `json:"system"`
	Event  string `json:"event"`
	Hook   string `json:"hook"`
	Skill  string `json:"skill,omitempty"`
	Source string `json:"source"`
	Detail string `json:"detail,omitempty"` // the command line, the prompt's first line
}
