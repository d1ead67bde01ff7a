package convert

import "slices"

// The moments of an agent's loop that some agent has a hook event for.
const (
	SessionStart        Event = "session_start"
	PromptSubmit        Event = "prompt_submit"
	PromptExpansion     Event = "prompt_expansion"
	BeforeModel         Event = "before_model"
	BeforeToolSelection Event = "before_tool_selection"
	AfterModel          Event = "after_model"
	PreModelRequest     Event = "pre_model_request"
	PostModelRequest    Event = "post_model_request"
	PreTool             Event = "pre_tool"
	PermissionRequest   Event = "permission_request"
	PermissionDenied    Event = "permission_denied"
	PostTool            Event = "post_tool"
	PostToolFailure     Event = "post_tool_failure"
	PostToolBatch       Event = "post_tool_batch"
	Stop                Event = "stop"
	StopFailure         Event = "stop_failure"
	PreCompact          Event = "pre_compact"
	PostCompact         Event = "post_compact"
	SessionEnd          Event = "session_end"
	Notification        Event = "notification"
	SubagentStart       Event = "subagent_start"
	SubagentStop        Event = "subagent_stop"
	Interrupt           Event = "interrupt"
	ErrorOccurred       Event = "error_occurred"
	InstructionsLoaded  Event = "instructions_loaded"
)

// agents are the agents of the tables, in their columns' order.
var agents = []string{ClaudeCode, Codex, GeminiCLI, CopilotCLI, QwenCode}

// eventRow is one moment and each agent's event for it ("" the agent has
// none), in the order of agents.
type eventRow struct {
	Event Event
	Names [5]string
}

// eventTable maps each moment to each agent's event. Where each column was
// read is eventSources; where an agent's event fires at other moments than
// the others', eventNotes says so.
var eventTable = []eventRow{
	//                      claude-code             codex               gemini-cli             copilot-cli             qwen-code
	{SessionStart, [5]string{"SessionStart", "SessionStart", "SessionStart", "sessionStart", "SessionStart"}},
	{PromptSubmit, [5]string{"UserPromptSubmit", "UserPromptSubmit", "BeforeAgent", "userPromptSubmitted", "UserPromptSubmit"}},
	{PromptExpansion, [5]string{"UserPromptExpansion", "", "", "", "UserPromptExpansion"}},
	{BeforeModel, [5]string{"", "", "BeforeModel", "", ""}},
	{BeforeToolSelection, [5]string{"", "", "BeforeToolSelection", "", ""}},
	{AfterModel, [5]string{"", "", "AfterModel", "", ""}},
	{PreModelRequest, [5]string{"", "PreModelRequest", "", "", ""}},
	{PostModelRequest, [5]string{"", "PostModelRequest", "", "", ""}},
	{PreTool, [5]string{"PreToolUse", "PreToolUse", "BeforeTool", "preToolUse", "PreToolUse"}},
	{PermissionRequest, [5]string{"PermissionRequest", "PermissionRequest", "", "permissionRequest", "PermissionRequest"}},
	{PermissionDenied, [5]string{"PermissionDenied", "", "", "", "PermissionDenied"}},
	{PostTool, [5]string{"PostToolUse", "PostToolUse", "AfterTool", "postToolUse", "PostToolUse"}},
	{PostToolFailure, [5]string{"PostToolUseFailure", "", "", "postToolUseFailure", "PostToolUseFailure"}},
	{PostToolBatch, [5]string{"PostToolBatch", "", "", "", "PostToolBatch"}},
	{Stop, [5]string{"Stop", "Stop", "AfterAgent", "agentStop", "Stop"}},
	{StopFailure, [5]string{"StopFailure", "", "", "", "StopFailure"}},
	{PreCompact, [5]string{"PreCompact", "PreCompact", "PreCompress", "preCompact", "PreCompact"}},
	{PostCompact, [5]string{"PostCompact", "PostCompact", "", "", "PostCompact"}},
	{SessionEnd, [5]string{"SessionEnd", "SessionEnd", "SessionEnd", "sessionEnd", "SessionEnd"}},
	{Notification, [5]string{"Notification", "", "Notification", "notification", "Notification"}},
	{SubagentStart, [5]string{"SubagentStart", "SubagentStart", "", "subagentStart", "SubagentStart"}},
	{SubagentStop, [5]string{"SubagentStop", "SubagentStop", "", "subagentStop", "SubagentStop"}},
	{Interrupt, [5]string{"", "Interrupt", "", "", ""}},
	{ErrorOccurred, [5]string{"", "", "", "errorOccurred", ""}},
	{InstructionsLoaded, [5]string{"InstructionsLoaded", "", "", "", "InstructionsLoaded"}},
	// one agent's own moments
	{"task_created", [5]string{"TaskCreated", "", "", "", ""}},
	{"task_completed", [5]string{"TaskCompleted", "", "", "", ""}},
	{"file_changed", [5]string{"FileChanged", "", "", "", ""}},
	{"worktree_create", [5]string{"WorktreeCreate", "", "", "", ""}},
	{"worktree_remove", [5]string{"WorktreeRemove", "", "", "", ""}},
	{"config_change", [5]string{"ConfigChange", "", "", "", ""}},
	{"teammate_idle", [5]string{"TeammateIdle", "", "", "", ""}},
	{"elicitation", [5]string{"Elicitation", "", "", "", ""}},
	{"elicitation_result", [5]string{"ElicitationResult", "", "", "", ""}},
	{"cwd_changed", [5]string{"CwdChanged", "", "", "", ""}},
	{"setup", [5]string{"Setup", "", "", "", ""}},
	{"message_display", [5]string{"", "", "", "", "MessageDisplay"}},
	{"session_delete", [5]string{"", "", "", "", "SessionDelete"}},
	{"todo_created", [5]string{"", "", "", "", "TodoCreated"}},
	{"todo_completed", [5]string{"", "", "", "", "TodoCompleted"}},
}

// eventSources says where each agent's column was read.
var eventSources = map[string]string{
	ClaudeCode: "docs/claude-code-hooks.md; app/hooks/claudehook/events.go (Claude Code 2.1.197 and 2.1.332)",
	Codex:      "docs/agents/codex.md; openai/codex codex-rs/hooks/src/events/*.rs and codex-rs/config hook_config.rs (Codex 0.171)",
	GeminiCLI:  "docs/agents/gemini-cli.md; google-gemini/gemini-cli packages/core/src/hooks/types.ts (Gemini CLI 0.61)",
	CopilotCLI: "docs/agents/copilot-cli.md (seen, Copilot CLI 1.0.102); docs.github.com Copilot CLI hooks reference",
	QwenCode:   "docs/agents/qwen-code.md; QwenLM/qwen-code packages/core/src/hooks/types.ts (Qwen Code 0.24.4)",
}

// eventNote is where an agent's event for a moment fires at other times
// than Claude Code's: the hook is written, and the difference said.
type eventNote struct {
	Agent  string
	Event  Event
	Text   string
	Source string
}

var eventNotes = []eventNote{
	{GeminiCLI, PostTool, "Gemini CLI's AfterTool fires after failed calls too (Claude Code's PostToolUse only after calls that succeeded), and the context of a failed call's AfterTool never reaches the model",
		"google-gemini/gemini-cli packages/core/src/core/coreToolHookTriggers.ts; docs/agents/gemini-cli.md"},
	{Codex, PostTool, "Codex's PostToolUse fires after failed calls too: Codex has no event for failed calls only",
		"openai/codex codex-rs/hooks/src/events/post_tool_use.rs"},
	{QwenCode, PromptSubmit, "Qwen Code fires UserPromptSubmit again, with an empty prompt, when the tool results go back, and on a blocked Stop's reason: the hook runs more often than in Claude Code",
		"docs/agents/qwen-code.md (seen, Qwen Code 0.24.4)"},
}

// column is agent's index in the tables (-1 unknown).
func column(agent string) int { return slices.Index(agents, agent) }

// eventName is agent's name for a moment ("" none).
func eventName(agent string, e Event) string {
	c := column(agent)
	for _, r := range eventTable {
		if r.Event == e && c >= 0 {
			return r.Names[c]
		}
	}
	return ""
}

// eventOf is the moment agent's event name stands for ("" unknown).
func eventOf(agent, name string) Event {
	c := column(agent)
	for _, r := range eventTable {
		if c >= 0 && r.Names[c] == name {
			return r.Event
		}
	}
	return ""
}

// agentsWith lists the agents that have an event for e, for messages.
func agentsWith(e Event) []string {
	var out []string
	for _, r := range eventTable {
		if r.Event != e {
			continue
		}
		for i, n := range r.Names {
			if n != "" {
				out = append(out, agents[i])
			}
		}
	}
	return out
}

func noteFor(agent string, e Event) (eventNote, bool) {
	i := slices.IndexFunc(eventNotes, func(n eventNote) bool { return n.Agent == agent && n.Event == e })
	if i < 0 {
		return eventNote{}, false
	}
	return eventNotes[i], true
}
