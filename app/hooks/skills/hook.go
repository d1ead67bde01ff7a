// Package skills hosts the seed system's prompt hooks (seed 000): it
// discovers the skills under a root, loads each skill's hooks/hooks.json and
// its .md texts, and validates them with positioned diagnostics.
package skills

import "slices"

// Timing names one of the five checkpoints of the seed's request flow.
type Timing string

const (
	AfterUserInput   Timing = "after_user_input"
	BeforePlanning   Timing = "before_planning"
	BeforeFirstAgent Timing = "before_first_agent"
	BeforeEachAgent  Timing = "before_each_agent"
	AfterToolCall    Timing = "after_tool_call"
)

// Timings lists every valid timing in checkpoint order (①–⑤ of the seed's
// flowchart).
var Timings = []Timing{AfterUserInput, BeforePlanning, BeforeEachAgent, BeforeFirstAgent, AfterToolCall}

// Valid reports whether t is one of the five timings (exact, case-sensitive).
func (t Timing) Valid() bool { return slices.Contains(Timings, t) }

// Checkpoint is the number the seed's flowchart gives the timing (1–5), or 0.
func (t Timing) Checkpoint() int { return slices.Index(Timings, t) + 1 }

// Role is the chat role a hook's message is injected with.
type Role string

const (
	System Role = "system"
	User   Role = "user"
)

// Valid reports whether r is system or user.
func (r Role) Valid() bool { return r == System || r == User }

// Hook is one validated entry of a skill's hooks.json with its prompt text.
type Hook struct {
	Skill      string   `json:"skill"`
	Name       string   `json:"name"`
	File       string   `json:"file"` // relative to the skill's hooks/ folder
	Timing     Timing   `json:"timing"`
	Role       Role     `json:"role"`
	Persistent bool     `json:"persistent"`
	ToolFilter []string `json:"tool_filter,omitempty"` // nil: every tool
	Content    string   `json:"content"`
	Line       int      `json:"line"` // where the entry starts in hooks.json
}

// MatchesTool reports whether an after_tool_call hook fires for a call of
// the named tool: a hook without a tool_filter matches every call.
func (h *Hook) MatchesTool(tool string) bool {
	return h.ToolFilter == nil || slices.Contains(h.ToolFilter, tool)
}

// ID is the hook's identity across the whole skills root.
func (h *Hook) ID() string { return h.Skill + "/" + h.Name }
