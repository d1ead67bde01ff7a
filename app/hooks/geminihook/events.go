// Package geminihook hosts Gemini CLI's hooks in the simulated agent: the
// "hooks" (and "hooksConfig") of .gemini/settings.json, user and project,
// read as Gemini CLI 0.61 reads them; each event fires at its point of the
// flow with the stdin keys its hook runner sends; exit codes, JSON fields
// and matchers are read as its runner, planner and aggregator read them
// (google-gemini/gemini-cli packages/core/src/hooks); what the model gets
// is placed as the run's rendering profile of gemini-cli says
// (app/agentdata/profile), docs/gemini-cli-hooks.md.
package geminihook

import (
	"slices"

	"hookstudio/app/agent/engine"
)

// System is the trace's name for this hook system, and the agent whose
// rendering profiles apply.
const System = "gemini-cli"

// Event is a Gemini CLI hook event name.
type Event string

const (
	SessionStart        Event = "SessionStart"
	BeforeAgent         Event = "BeforeAgent"
	BeforeModel         Event = "BeforeModel"
	BeforeToolSelection Event = "BeforeToolSelection"
	AfterModel          Event = "AfterModel"
	BeforeTool          Event = "BeforeTool"
	AfterTool           Event = "AfterTool"
	AfterAgent          Event = "AfterAgent"
	PreCompress         Event = "PreCompress"
	SessionEnd          Event = "SessionEnd"
	Notification        Event = "Notification"
)

// Simulated are the events that fire in the simulated agent, in flow order.
var Simulated = []Event{SessionStart, BeforeAgent, BeforeModel, BeforeToolSelection, AfterModel, BeforeTool, AfterTool,
	AfterAgent, PreCompress, SessionEnd}

// Known says whether Gemini CLI knows the event (its HookEventName).
func (e Event) Known() bool { return slices.Contains(Simulated, e) || e == Notification }

// Fires says whether the event fires in the simulated agent: Notification
// needs the interactive CLI's tool-permission prompt.
func (e Event) Fires() bool { return slices.Contains(Simulated, e) }

// KnownEvents lists every event name, for suggestions and the schema.
func KnownEvents() []Event { return append(slices.Clone(Simulated), Notification) }

// matchOn is what a group's matcher is compared with at the event: the
// tool's name as a regular expression (BeforeTool, AfterTool), a source,
// reason or trigger exactly (SessionStart, SessionEnd, PreCompress); every
// other event passes no context to the planner, so a matcher there
// matches everything.
type matchOn int

const (
	matchNone matchOn = iota
	matchTool
	matchTrigger
)

func (e Event) matchOn() matchOn {
	switch e {
	case BeforeTool, AfterTool:
		return matchTool
	case SessionStart, SessionEnd, PreCompress:
		return matchTrigger
	}
	return matchNone
}

// isTool says whether the event is about one tool call.
func (e Event) isTool() bool { return e == BeforeTool || e == AfterTool }

// eventsAt are the events each point of the flow fires, in the order
// Gemini CLI fires them (BeforeModel, then BeforeToolSelection on the
// request the model hooks left).
var eventsAt = map[engine.Point][]Event{
	engine.PointSessionStart:  []Event{SessionStart},
	engine.PointBeforeSend:    []Event{BeforeAgent},
	engine.PointBeforeLLM:     []Event{BeforeModel, BeforeToolSelection},
	engine.PointAfterLLM:      []Event{AfterModel},
	engine.PointBeforeTool:    []Event{BeforeTool},
	engine.PointAfterTool:     []Event{AfterTool},
	engine.PointStop:          []Event{AfterAgent},
	engine.PointBeforeCompact: []Event{PreCompress},
	engine.PointSessionEnd:    []Event{SessionEnd},
}

// TypeCommand is the only handler type Gemini CLI runs from settings.
const TypeCommand = "command"

// otherAgents maps another agent's event names to Gemini CLI's own, for
// the "wrong dialect" diagnostic: a Claude Code, Codex or Qwen Code name
// (PreToolUse) or a Copilot CLI one (preToolUse) never fires here.
var otherAgents = map[string]Event{
	"PreToolUse": BeforeTool, "PostToolUse": AfterTool, "PostToolUseFailure": AfterTool, "UserPromptSubmit": BeforeAgent,
	"Stop": AfterAgent, "PreCompact": PreCompress, "SessionStart": SessionStart, "SessionEnd": SessionEnd,
	"preToolUse": BeforeTool, "postToolUse": AfterTool, "postToolUseFailure": AfterTool, "userPromptSubmitted": BeforeAgent,
	"agentStop": AfterAgent, "sessionStart": SessionStart, "sessionEnd": SessionEnd, "preCompact": PreCompress,
	"notification": Notification, "Notification": Notification, "PermissionRequest": "", "PostToolBatch": "",
	"SubagentStop": "", "SubagentStart": "", "subagentStop": "", "errorOccurred": "",
}
