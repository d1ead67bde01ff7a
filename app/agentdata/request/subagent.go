package request

// Subagent is how an agent runs a sub-agent (Claude Code's Agent tool):
// the tool that starts one, the request the sub-agent sends — a model of
// its own: its system prompt, its first turn (the task as its prompt, its
// SubagentStart hooks' words), its tools and body — and the words the
// agent hands the sub-agent's answer back in, as the tool's result.
type Subagent struct {
	// Tool is the agent's tool that starts a sub-agent.
	Tool string `json:"tool"`
	// Request is the sub-agent's request (nil: not calibrated; a run
	// follows the agent's own, which it says).
	Request *Model `json:"request,omitempty"`
	// Result is the tool's result (slots SlotAnswer, SlotAgentID,
	// SlotToolUses, SlotToolsUsed and opaque numbers of the CLI's own; nil:
	// the answer as it is, or a shipped model's placeholder).
	Result Text `json:"result,omitempty"`
	// ResultShape is Result's shape as calibrated.
	ResultShape Shape `json:"result_shape"`
}

// Slots of a sub-agent's result.
const (
	SlotAnswer    = "answer"     // the sub-agent's last answer
	SlotAgentID   = "agent_id"   // its id
	SlotToolUses  = "tool_uses"  // how many tool calls it made
	SlotToolsUsed = "tools_used" // the tools it called, each once in the order first called, joined by ", "
)
