// Package claudehook hosts Claude Code's hooks in the simulated agent:
// settings files, plugin hooks.json and SKILL.md frontmatter are read as
// Claude Code reads them, each native event fires at its point of the flow,
// handlers run as the real CLI runs them, and what the model gets from them
// is worded and placed as the real CLI does (measured with capture,
// docs/claude-code-hooks.md).
package claudehook

import (
	"slices"

	"hookstudio/app/agent/engine"
)

// System is the trace's name for this hook system.
const System = "claude-code"

// Event is a Claude Code hook event name.
type Event string

const (
	SessionStart       Event = "SessionStart"
	UserPromptSubmit   Event = "UserPromptSubmit"
	PreToolUse         Event = "PreToolUse"
	PermissionRequest  Event = "PermissionRequest"
	PostToolUse        Event = "PostToolUse"
	PostToolUseFailure Event = "PostToolUseFailure"
	PostToolBatch      Event = "PostToolBatch"
	SubagentStart      Event = "SubagentStart"
	SubagentStop       Event = "SubagentStop"
	Stop               Event = "Stop"
	PreCompact         Event = "PreCompact"
	PostCompact        Event = "PostCompact"
	SessionEnd         Event = "SessionEnd"
)

// Simulated are the events that fire in the simulated agent, in flow order.
// A sub-agent's (the Agent tool's run) fire between its call's
// PermissionRequest and PostToolUse.
var Simulated = []Event{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, SubagentStart, SubagentStop, PostToolUse,
	PostToolUseFailure, PostToolBatch, Stop, PreCompact, PostCompact, SessionEnd}

// elsewhere are Claude Code's other events: valid in a settings file, but
// nothing in the simulated agent makes them fire.
var elsewhere = []Event{"Notification", "TaskCreated", "TaskCompleted", "FileChanged",
	"WorktreeCreate", "WorktreeRemove", "InstructionsLoaded", "ConfigChange", "TeammateIdle", "Elicitation",
	"ElicitationResult", "StopFailure", "PermissionDenied", "CwdChanged", "Setup", "UserPromptExpansion"}

// Known says whether Claude Code knows the event.
func (e Event) Known() bool { return slices.Contains(Simulated, e) || slices.Contains(elsewhere, e) }

// Fires says whether the event fires in the simulated agent.
func (e Event) Fires() bool { return slices.Contains(Simulated, e) }

// KnownEvents lists every event name, for suggestions and the editor.
func KnownEvents() []Event { return slices.Concat(Simulated, elsewhere) }

// HasMatcher says whether a matcher filters the event, and on what.
func (e Event) HasMatcher() bool {
	switch e {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest, SessionStart, PreCompact, PostCompact, SessionEnd,
		"Notification", SubagentStart, SubagentStop, "FileChanged", "ConfigChange", "StopFailure", "PermissionDenied",
		"InstructionsLoaded", "Elicitation", "ElicitationResult":
		return true
	}
	return false
}

// HasIf says whether a handler's `if` rule is evaluated on the event; on
// any other event a handler with `if` never runs.
func (e Event) HasIf() bool {
	switch e {
	case PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest:
		return true
	}
	return false
}

// isTool says whether the event is about one tool call.
func (e Event) isTool() bool { return e.HasIf() }

// eventsAt are the events a point of the flow fires (the tool points'
// choice between PostToolUse and its failure is made per call).
func eventsAt(p engine.Point) []Event {
	switch p {
	case engine.PointSessionStart:
		return []Event{SessionStart}
	case engine.PointBeforeSend:
		return []Event{UserPromptSubmit}
	case engine.PointBeforeTool:
		return []Event{PreToolUse}
	case engine.PointApproveTool:
		return []Event{PermissionRequest}
	case engine.PointAfterTool:
		return []Event{PostToolUse, PostToolUseFailure}
	case engine.PointAfterTools:
		return []Event{PostToolBatch}
	case engine.PointStop:
		return []Event{Stop}
	case engine.PointSubagentStart:
		return []Event{SubagentStart}
	case engine.PointSubagentStop:
		return []Event{SubagentStop}
	case engine.PointBeforeCompact:
		return []Event{PreCompact}
	case engine.PointAfterCompact:
		return []Event{PostCompact}
	case engine.PointSessionEnd:
		return []Event{SessionEnd}
	}
	return nil
}

// Handler types.
const (
	TypeCommand = "command"
	TypePrompt  = "prompt"
	TypeHTTP    = "http"
	TypeAgent   = "agent"
	TypeMCPTool = "mcp_tool"
)

var types = []string{TypeCommand, TypePrompt, TypeHTTP, TypeAgent, TypeMCPTool}

// PointOf is the point of the simulated flow where event fires (false:
// it never fires there).
func PointOf(event Event) (engine.Point, bool) {
	for _, p := range engine.Points {
		if slices.Contains(eventsAt(p), event) {
			return p, true
		}
	}
	return "", false
}
