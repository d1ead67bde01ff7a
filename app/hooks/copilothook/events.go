// Package copilothook hosts GitHub Copilot CLI's hooks in the simulated
// agent: the repository's .github/hooks/*.json, the user's
// ~/.copilot/hooks/*.json and plugins' hooks.json ({"version": 1,
// "hooks": {…}}), read as Copilot CLI 1.0.102 reads them. Its source is
// not public: what each event sends, how exit codes and JSON answers are
// read and what the model then reads was seen by running the pinned CLI
// against hookctl capture, the rest follows docs.github.com's CLI hooks
// reference (docs/copilot-cli-hooks.md).
package copilothook

import (
	"slices"

	"hookstudio/app/agent/engine"
)

// System is the trace's name for this hook system, and the agent whose
// rendering profiles apply.
const System = "copilot-cli"

// Event is a Copilot CLI hook event name.
type Event string

// camelCase events: camelCase stdin, top-level JSON answers.
const (
	SessionStart        Event = "sessionStart"
	UserPromptSubmitted Event = "userPromptSubmitted"
	PreToolUse          Event = "preToolUse"
	PostToolUse         Event = "postToolUse"
	PostToolUseFailure  Event = "postToolUseFailure"
	AgentStop           Event = "agentStop"
	PreCompact          Event = "preCompact"
	SessionEnd          Event = "sessionEnd"
)

// Simulated are the camelCase events that fire in the simulated agent, in
// flow order.
var Simulated = []Event{SessionStart, UserPromptSubmitted, PreToolUse, PostToolUse, PostToolUseFailure, AgentStop, PreCompact, SessionEnd}

// elsewhere are Copilot CLI's other events: nothing in the simulated agent
// makes them fire (subagents, errors, notifications, its permission
// service).
var elsewhere = []Event{"subagentStart", "subagentStop", "errorOccurred", "notification", "permissionRequest"}

// compat are the PascalCase names Copilot CLI also accepts, in the VS Code
// extension's format (snake_case stdin, hookSpecificOutput answers), and
// the camelCase event each stands for. PreToolUse was seen running.
var compat = map[Event]Event{
	"SessionStart": SessionStart, "UserPromptSubmit": UserPromptSubmitted, "PreToolUse": PreToolUse,
	"PostToolUse": PostToolUse, "PostToolUseFailure": PostToolUseFailure, "Stop": AgentStop, "PreCompact": PreCompact,
	"SessionEnd": SessionEnd, "SubagentStop": "subagentStop", "ErrorOccurred": "errorOccurred",
}

// Base is the camelCase event e stands for (itself when it is one).
func (e Event) Base() Event {
	if b, ok := compat[e]; ok {
		return b
	}
	return e
}

// Compat says whether e is a PascalCase (VS Code format) name.
func (e Event) Compat() bool { _, ok := compat[e]; return ok }

// Known says whether Copilot CLI knows the event.
func (e Event) Known() bool {
	b := e.Base()
	return slices.Contains(Simulated, b) || slices.Contains(elsewhere, b)
}

// Fires says whether the event fires in the simulated agent.
func (e Event) Fires() bool { return slices.Contains(Simulated, e.Base()) }

// KnownEvents lists every camelCase event name, for suggestions and the schema.
func KnownEvents() []Event { return slices.Concat(Simulated, elsewhere) }

// CompatEvents lists the PascalCase names, for the schema.
func CompatEvents() []Event {
	out := make([]Event, 0, len(compat))
	for e := range compat {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// hasMatcher says whether a handler's matcher filters the event: a
// regular expression anchored to the whole tool name, notification type,
// trigger or agent name.
func (e Event) hasMatcher() bool {
	switch e.Base() {
	case PreToolUse, PostToolUse, PostToolUseFailure, "permissionRequest", "notification", PreCompact, "subagentStart":
		return true
	}
	return false
}

// isTool says whether the event is about one tool call.
func (e Event) isTool() bool {
	b := e.Base()
	return b == PreToolUse || b == PostToolUse || b == PostToolUseFailure
}

// eventsAt are the camelCase events each point of the flow fires (the
// tool points' choice between postToolUse and its failure is made per call).
var eventsAt = map[engine.Point][]Event{
	engine.PointSessionStart:  []Event{SessionStart},
	engine.PointBeforeSend:    []Event{UserPromptSubmitted},
	engine.PointBeforeTool:    []Event{PreToolUse},
	engine.PointAfterTool:     []Event{PostToolUse, PostToolUseFailure},
	engine.PointStop:          []Event{AgentStop},
	engine.PointBeforeCompact: []Event{PreCompact},
	engine.PointSessionEnd:    []Event{SessionEnd},
}

// Handler types.
const (
	TypeCommand = "command"
	// TypePrompt submits text as if the user typed it: only at sessionStart
	// of a new interactive session (never in copilot -p).
	TypePrompt = "prompt"
)

// otherAgents maps another agent's event names that Copilot CLI does not
// know to its own: Gemini CLI's (BeforeTool), Claude Code's it has no
// PascalCase form of.
var otherAgents = map[string]Event{
	"BeforeTool": PreToolUse, "AfterTool": PostToolUse, "BeforeAgent": UserPromptSubmitted, "AfterAgent": AgentStop,
	"PreCompress": PreCompact, "BeforeModel": "", "AfterModel": "", "BeforeToolSelection": "", "Notification": "notification",
	"PermissionRequest": "permissionRequest", "PostToolBatch": "", "SubagentStart": "subagentStart",
	"userPromptSubmit": UserPromptSubmitted, "postToolBatch": "", "stop": AgentStop,
}
