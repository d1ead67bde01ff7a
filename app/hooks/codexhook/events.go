// Package codexhook hosts Codex CLI's hooks in the simulated agent:
// .codex/hooks.json and [hooks] in .codex/config.toml of the opened folder
// (and the user's ~/.codex) are read as Codex 0.171 reads them, each event
// fires at its place in the flow with the stdin Codex sends, handlers run
// as Codex runs them (command only, matching ones concurrently), and what
// the model gets from them is placed and worded by Codex's rendering
// profile (app/agentdata/profile, measured against the real CLI). It also
// says why Codex itself would not run a hook: not trusted yet, a handler
// type Codex skips, an event of another agent (docs/codex-hooks.md).
package codexhook

import (
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/ccshape"
)

// System is the trace's name for this hook system, and the agent whose
// rendering profiles apply.
const System = "codex"

// Codex 0.171's events (codex-rs/config hook_config.rs, seen firing in
// codex exec against capture).
const (
	SessionStart      = "SessionStart"
	UserPromptSubmit  = "UserPromptSubmit"
	PreModelRequest   = "PreModelRequest"
	PostModelRequest  = "PostModelRequest"
	PreToolUse        = "PreToolUse"
	PermissionRequest = "PermissionRequest"
	PostToolUse       = "PostToolUse"
	Stop              = "Stop"
	PreCompact        = "PreCompact"
	PostCompact       = "PostCompact"
	SessionEnd        = "SessionEnd"
)

// fires are the events that fire in the simulated agent, in flow order;
// elsewhere Codex's others.
var (
	fires = []string{SessionStart, UserPromptSubmit, PreModelRequest, PostModelRequest, PreToolUse, PermissionRequest,
		PostToolUse, Stop, PreCompact, PostCompact, SessionEnd}
	elsewhere = []string{"SubagentStart", "SubagentStop", "Interrupt"}
)

// order is the order Codex discovers a file's events in (its
// HookEventsToml fields), which numbers its hooks (a Stop hook's run id).
var order = []string{PreToolUse, PermissionRequest, PostToolUse, PreCompact, PostCompact, SessionStart, SessionEnd,
	UserPromptSubmit, "SubagentStart", "SubagentStop", Stop, "Interrupt", PreModelRequest, PostModelRequest}

// label is Codex's snake_case name of an event (its hook keys and hashes).
func label(event string) string {
	var b strings.Builder
	for i, r := range event {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hasMatcher: the events whose matcher Codex reads (events/common.rs).
func hasMatcher(event string) bool {
	switch event {
	case PreToolUse, PermissionRequest, PostToolUse, SessionStart, "SubagentStart", "SubagentStop":
		return true
	}
	return false
}

// foreign are other agents' event names someone may write in a Codex file.
var foreign = map[string]string{
	"BeforeTool": "Gemini CLI", "AfterTool": "Gemini CLI", "BeforeAgent": "Gemini CLI", "AfterAgent": "Gemini CLI",
	"BeforeModel": "Gemini CLI", "AfterModel": "Gemini CLI", "BeforeToolSelection": "Gemini CLI", "PreCompress": "Gemini CLI",
	"preToolUse": "Copilot CLI", "postToolUse": "Copilot CLI", "userPromptSubmitted": "Copilot CLI", "sessionStart": "Copilot CLI",
	"sessionEnd": "Copilot CLI", "agentStop": "Copilot CLI", "errorOccurred": "Copilot CLI",
	"PostToolUseFailure": "Claude Code", "PostToolBatch": "Claude Code", "Notification": "Claude Code",
	"TaskCreated": "Claude Code", "FileChanged": "Claude Code",
}

// dialect is Codex's reading of Claude Code's shape.
var dialect = ccshape.Dialect{
	Agent: "Codex", Code: "codex",
	Fires: fires, Elsewhere: elsewhere,
	Why: func(e string) string {
		if strings.HasPrefix(e, "Subagent") {
			return "subagents"
		}
		return "interrupting the turn"
	},
	Foreign:       foreign,
	HasMatcher:    hasMatcher,
	Compile:       ccshape.CodexMatcher,
	GroupFields:   []string{"matcher", "hooks"},
	HandlerFields: []string{"type", "command", "commandWindows", "command_windows", "timeout", "async", "statusMessage", "additionalContextLimit", "server", "tool", "input"},
	Types:         []string{"command", "mcp_tool", "prompt", "agent"},
	Runs: func(typ string) (bool, string) {
		switch typ {
		case "prompt", "agent":
			return false, "Codex runs only command hooks: this " + typ + " hook never runs (Codex skips it with the warning \"" + typ + " hooks are not supported yet\")"
		case "mcp_tool":
			return false, "an mcp_tool hook calls one of Codex's MCP servers, which the simulated agent does not have"
		}
		return true, ""
	},
	IntTimeout:  true,
	Unknown:     "Codex ignores it without a word, so these hooks never run",
	Unreadable:  "Codex cannot parse the file then and drops every hook in it, with one warning",
	Exit:        "Codex records a failed hook and goes on",
	Guards:      []string{PreToolUse, UserPromptSubmit, Stop, PermissionRequest},
	Blocks:      "only exit 2 with a reason on stderr does, or JSON such as permissionDecision: deny",
	ProjectVars: nil,
}

// eventAt is the event each point of the flow fires.
var eventAt = map[engine.Point]string{
	engine.PointSessionStart:  SessionStart,
	engine.PointBeforeSend:    UserPromptSubmit,
	engine.PointBeforeLLM:     PreModelRequest,
	engine.PointAfterLLM:      PostModelRequest,
	engine.PointBeforeTool:    PreToolUse,
	engine.PointApproveTool:   PermissionRequest,
	engine.PointAfterTool:     PostToolUse,
	engine.PointStop:          Stop,
	engine.PointBeforeCompact: PreCompact,
	engine.PointAfterCompact:  PostCompact,
	engine.PointSessionEnd:    SessionEnd,
}

func isTool(event string) bool {
	return slices.Contains([]string{PreToolUse, PermissionRequest, PostToolUse}, event)
}
