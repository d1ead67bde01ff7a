// Package cmdhook hosts the command hooks of seed 001 (jcli): hooks.yaml
// files whose hooks are shell commands (`sh -c`) or LLM prompts, invoked at
// the engine's points with a HookContext JSON on stdin and answering a
// HookResult JSON on stdout. It parses and validates hooks.yaml with
// positioned diagnostics, runs the hooks in a clean environment under
// timeouts, and reports every invocation to the engine as a hook_call step.
package cmdhook

import (
	"slices"

	"hookstudio/app/agent/engine"
)

// Event is one of jcli's native event names.
type Event string

const (
	SessionStart             Event = "session_start"
	SessionEnd               Event = "session_end"
	PreSendMessage           Event = "pre_send_message"
	PostSendMessage          Event = "post_send_message"
	PreLLMRequest            Event = "pre_llm_request"
	PostLLMResponse          Event = "post_llm_response"
	PreToolExecution         Event = "pre_tool_execution"
	PostToolExecution        Event = "post_tool_execution"
	PostToolExecutionFailure Event = "post_tool_execution_failure"
	Stop                     Event = "stop"
	PreMicroCompact          Event = "pre_micro_compact"
	PostMicroCompact         Event = "post_micro_compact"
	PreAutoCompact           Event = "pre_auto_compact"
	PostAutoCompact          Event = "post_auto_compact"
)

// Events lists every event in the seed's lifecycle order.
var Events = []Event{SessionStart, PreSendMessage, PostSendMessage, PreLLMRequest, PostLLMResponse,
	PreToolExecution, PostToolExecution, PostToolExecutionFailure, Stop,
	PreMicroCompact, PostMicroCompact, PreAutoCompact, PostAutoCompact, SessionEnd}

// Valid reports whether e is one of Events.
func (e Event) Valid() bool { return slices.Contains(Events, e) }

// The HookContext fields (stdin) an event fills, besides event,
// session_id and cwd, which every event has (seed 001's tables).
const (
	ctxMessages = 1 << iota
	ctxSystemPrompt
	ctxModel
	ctxUserInput
	ctxAssistantOutput
	ctxToolName
	ctxToolArguments
	ctxToolResult
	ctxToolError
)

// The HookResult fields (stdout) an event applies (seed 001's tables).
// system_message applies everywhere; everything else only where listed.
const (
	resUserInput = 1 << iota
	resAssistantOutput
	resMessages
	resSystemPrompt
	resToolArguments
	resToolResult
	resToolError
	resInjectMessages
	resRetryFeedback
	resAdditionalContext
	resActionStop
	resActionSkip
)

type eventSpec struct {
	fills   int
	applies int
	tool    bool // the event is about a tool call (tool filters apply)
	notify  bool // "仅通知,返回值被忽略": the result is ignored
}

var specs = map[Event]eventSpec{
	SessionStart:    {fills: ctxMessages, notify: true},
	SessionEnd:      {fills: ctxMessages, notify: true},
	PreSendMessage:  {fills: ctxUserInput | ctxMessages, applies: resUserInput | resActionStop | resRetryFeedback},
	PostSendMessage: {fills: ctxUserInput | ctxMessages, notify: true},
	PreLLMRequest: {fills: ctxMessages | ctxSystemPrompt | ctxModel,
		applies: resMessages | resSystemPrompt | resInjectMessages | resAdditionalContext | resActionStop | resRetryFeedback},
	PostLLMResponse: {fills: ctxAssistantOutput | ctxMessages | ctxModel,
		applies: resAssistantOutput | resActionStop | resRetryFeedback},
	PreToolExecution:         {fills: ctxToolName | ctxToolArguments, applies: resToolArguments | resActionSkip | resActionStop, tool: true},
	PostToolExecution:        {fills: ctxToolName | ctxToolResult, applies: resToolResult, tool: true},
	PostToolExecutionFailure: {fills: ctxToolName | ctxToolError, applies: resToolError | resAdditionalContext, tool: true},
	Stop: {fills: ctxUserInput | ctxMessages | ctxSystemPrompt | ctxModel,
		applies: resRetryFeedback | resAdditionalContext | resActionStop},
	PreMicroCompact:  {fills: ctxMessages | ctxModel, applies: resActionStop},
	PostMicroCompact: {fills: ctxMessages, applies: resMessages},
	PreAutoCompact:   {fills: ctxMessages | ctxSystemPrompt | ctxModel, applies: resAdditionalContext | resActionStop},
	PostAutoCompact:  {fills: ctxMessages, applies: resMessages},
}

// HasTool reports whether the event is about a tool call, so tool_name and
// tool_matcher filters mean something on it.
func (e Event) HasTool() bool { return specs[e].tool }

// Point is the engine point the event fires at.
func (e Event) Point() engine.Point {
	switch e {
	case SessionStart:
		return engine.PointSessionStart
	case SessionEnd:
		return engine.PointSessionEnd
	case PreSendMessage:
		return engine.PointBeforeSend
	case PostSendMessage:
		return engine.PointAfterSend
	case PreLLMRequest:
		return engine.PointBeforeLLM
	case PostLLMResponse:
		return engine.PointAfterLLM
	case PreToolExecution:
		return engine.PointBeforeTool
	case PostToolExecution, PostToolExecutionFailure:
		return engine.PointAfterTool
	case Stop:
		return engine.PointStop
	case PreMicroCompact, PreAutoCompact:
		return engine.PointBeforeCompact
	case PostMicroCompact, PostAutoCompact:
		return engine.PointAfterCompact
	}
	return ""
}

// eventOf maps an engine event to the native event that fires for it, or
// "" when no command hook fires there (approve_tool, a failed model call).
func eventOf(ev *engine.Event) Event {
	switch ev.Point {
	case engine.PointSessionStart:
		return SessionStart
	case engine.PointSessionEnd:
		return SessionEnd
	case engine.PointBeforeSend:
		return PreSendMessage
	case engine.PointAfterSend:
		return PostSendMessage
	case engine.PointBeforeLLM:
		return PreLLMRequest
	case engine.PointAfterLLM:
		if ev.Err != nil {
			return ""
		}
		return PostLLMResponse
	case engine.PointBeforeTool:
		return PreToolExecution
	case engine.PointAfterTool:
		if ev.Tool != nil && ev.Tool.Error != "" {
			return PostToolExecutionFailure
		}
		return PostToolExecution
	case engine.PointStop:
		return Stop
	case engine.PointBeforeCompact:
		if ev.Compact == engine.CompactAuto {
			return PreAutoCompact
		}
		return PreMicroCompact
	case engine.PointAfterCompact:
		if ev.Compact == engine.CompactAuto {
			return PostAutoCompact
		}
		return PostMicroCompact
	}
	return ""
}
