package capture

// SubagentHeader is the header Claude Code names the sub-agent that sends
// a request by (its agent id; absent on the session's own requests),
// measured on 2.1.197 and 2.1.332.
const SubagentHeader = "x-claude-code-agent-id"
