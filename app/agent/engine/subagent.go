package engine

// Subagent says a request is a sub-agent's run: the agent's call of its
// sub-agent tool (Claude Code's Agent, formerly Task) that started it, in
// the request the call was made in. A sub-agent's request is laid out
// after the requests of the run, as a capture and an import lay out each
// conversation the agent held; Parent and Call say where it nests.
type Subagent struct {
	// Parent is the request whose model call asked for the sub-agent.
	Parent int `json:"parent"`
	// Call is that model call (-1: not known); Tool the tool call (an
	// index of the trace's tool calls, -1: not known) and ToolUseID its id.
	Call      int    `json:"call"`
	Tool      int    `json:"tool"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	// AgentID is the agent's id of the sub-agent, Type its kind
	// ("general-purpose", "Explore") and Description the call's own words
	// for its task.
	AgentID     string `json:"agent_id,omitempty"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
}
