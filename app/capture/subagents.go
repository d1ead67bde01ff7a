package capture

import (
	"slices"

	"hookstudio/app/agent/engine"
)

// SubagentHeader is the header Claude Code names the sub-agent that sends
// a request by (its agent id; absent on the session's own requests),
// measured on 2.1.197 and 2.1.332.
const SubagentHeader = "x-claude-code-agent-id"

// subagentsOf is each call's sub-agent (SubagentHeader; "": the session's
// own).
func subagentsOf(calls []Call) []string {
	out := make([]string, len(calls))
	for k, c := range calls {
		out[k] = c.Headers[SubagentHeader]
	}
	return out
}

// subagentTools are the tools that start a sub-agent (Claude Code's
// Agent, formerly Task).
var subagentTools = []string{"Agent", "Task"}

// nest says, of each conversation a sub-agent held, which call started
// it: the call of a sub-agent tool, in another conversation, whose prompt
// the sub-agent's conversation began with (of: each call's conversation).
func (b *traceBuilder) nest(calls []Call, agents []string, of []int) {
	for k, conv := range of {
		info := &b.rec.Requests[conv]
		if agents[k] == "" || info.Subagent != nil {
			continue
		}
		sub := &engine.Subagent{Parent: -1, Call: -1, Tool: -1, AgentID: agents[k]}
		info.Subagent = sub
		for _, c := range b.rec.Calls {
			if c.Request == conv {
				continue
			}
			for _, tc := range c.ToolCalls {
				if p, _ := tc.Arguments["prompt"].(string); !slices.Contains(subagentTools, tc.Name) || p == "" || p != info.User {
					continue
				}
				sub.Parent, sub.Call, sub.ToolUseID = c.Request, c.Index, tc.ID
				sub.Type, _ = tc.Arguments["subagent_type"].(string)
				sub.Description, _ = tc.Arguments["description"].(string)
				if i, ok := b.toolByID[tc.ID]; ok {
					sub.Tool = int(i)
				}
			}
		}
	}
}
