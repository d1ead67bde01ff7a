// Package scenario provides the scripted scenarios the mock model plays:
// their types, a positioned YAML/JSON parser and discovery under a skills root.
package scenario

import "slices"

// Scenario is one parsed scenario file.
type Scenario struct {
	Name         string `json:"name"`
	File         string `json:"file"` // relative to the skills root, forward slashes
	SystemPrompt string `json:"system_prompt"`
	EnableTools  bool   `json:"enable_tools"` // default true
	// EnabledSkills selects skills by folder name or Claude Code skill name
	// (CheckSkills): nil means every skill, an empty non-nil slice means none.
	EnabledSkills []string  `json:"enabled_skills"`
	Prompts       Prompts   `json:"prompts"`
	Tools         []Tool    `json:"tools"`
	Requests      []Request `json:"requests"`
	// Run control (approval.go): the approval policy, the scripted
	// decisions of headless runs, and the token budget.
	Approval  *Approval          `json:"approval,omitempty"`
	Approvals []ApprovalDecision `json:"approvals,omitempty"`
	Budget    *Budget            `json:"budget,omitempty"`
	// Expect holds the scenario-level expectations (app/agent/expect checks them).
	Expect []Expectation `json:"expect,omitempty"`
	// Model is the model name hooks see under the mock ("mock" if empty).
	Model string `json:"model,omitempty"`
	// Agent is the agent CLI whose renderings the run shows,
	// "claude-code@2.1.332" ("" : hookctl --agent, the installed CLI's, the
	// newest bundled; docs/rendering-profiles.md).
	Agent string `json:"agent,omitempty"`
	// HookAnswers script what the mock answers LLM hooks (jcli type: llm),
	// by hook name, in order; the last answer repeats.
	HookAnswers map[string][]string `json:"hook_answers,omitempty"`
	// RequestPolicy is the built-in request policy hook (requests.go).
	RequestPolicy *RequestPolicy `json:"request_policy,omitempty"`

	// skillRefs remembers where each enabled_skills entry was written, so
	// CheckSkills (which runs once the skills are loaded) can point at it.
	skillRefs []skillRef
	// callRefs and toolRefs remember where each scripted tool call's name
	// and each declared tool's were written, for the checks a run under an
	// agent makes against its tools (CheckAgentTools).
	callRefs []nameRef
	toolRefs []nameRef
	// usesPlaceholders: a scripted text holds a placeholder Expand fills in.
	usesPlaceholders bool
}

// SkillsAnyRequestEnables are the skills some request of sc enables: the
// scenario's list and every request's own; nil (every skill) when sc is
// nil or names none.
func (sc *Scenario) SkillsAnyRequestEnables() []string {
	if sc == nil || sc.EnabledSkills == nil {
		return nil
	}
	out := slices.Clone(sc.EnabledSkills)
	for _, r := range sc.Requests {
		out = append(out, r.EnabledSkills...) // nil: the scenario's, already in
	}
	return out
}

// Prompts overrides the built-in prompts; an empty field keeps the default.
type Prompts struct {
	Planning  string `json:"planning,omitempty"`
	FirstStep string `json:"first_step,omitempty"`
	AgentLoop string `json:"agent_loop,omitempty"`
}

// Tool is a tool offered to the model. Parameters is a JSON Schema object
// kept as decoded JSON (maps, slices, strings, float64, bool, nil).
// Result and Results answer the tool's calls in a run against a real model
// (the mock plays the results scripted in its rounds): a call whose
// arguments equal an entry of Results gets that result, any other call
// Result; with neither the app asks the user.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters,omitempty"`
	Result      *string        `json:"result,omitempty"`
	Results     []ToolResult   `json:"results,omitempty"`
}

// ToolResult is the result of a tool for one set of arguments.
type ToolResult struct {
	Arguments map[string]any `json:"arguments"`
	Result    string         `json:"result"`
}

// Request is one user turn and what the mock model answers during it.
type Request struct {
	User string `json:"user"`
	// EnabledSkills overrides the scenario's selection for this request:
	// nil inherits it, an empty non-nil slice enables none.
	EnabledSkills []string `json:"enabled_skills"`
	// Reply is the answer of the direct call (no tools or tools disabled).
	Reply string `json:"reply,omitempty"`
	// Planning is the planning round's answer; nil means need_tool is true
	// when Rounds is non-empty, false otherwise.
	Planning *Planning `json:"planning,omitempty"`
	Rounds   []Round   `json:"rounds,omitempty"`
	Line     int       `json:"line"` // where the request starts in the file
	// Attempts script the direct call's tries (requests.go).
	Attempts []Attempt `json:"attempts,omitempty"`
	// Expect holds this request's expectations.
	Expect []Expectation `json:"expect,omitempty"`
}

// Planning is the planning round's decision and text.
type Planning struct {
	NeedTool bool   `json:"need_tool"`
	Content  string `json:"content"`
	// Expect holds the planning call's expectations.
	Expect []Expectation `json:"expect,omitempty"`
	// Attempts script the planning call's tries (requests.go).
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Round is the model's answer in one agent round: tool calls, or plain
// content that ends the loop.
type Round struct {
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Expect holds this round's LLM call expectations.
	Expect []Expectation `json:"expect,omitempty"`
	// Compact compacts the conversation before this round's call.
	Compact *Compact `json:"compact,omitempty"`
	// Attempts script this round's call's tries (requests.go).
	Attempts []Attempt `json:"attempts,omitempty"`
}

// Compact is a context compaction the scenario triggers.
type Compact struct {
	Kind    string `json:"kind"`              // micro | auto
	Summary string `json:"summary,omitempty"` // auto: what the conversation is replaced by
}

// ToolCall is one scripted call with the result the tool returns.
type ToolCall struct {
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Result    string         `json:"result"`
	// Error makes the call fail with this message instead of a result.
	Error string `json:"error,omitempty"`
	// Subagent makes the call start a sub-agent that plays these rounds
	// (subagent.go); its last answer is the call's result.
	Subagent *Subagent `json:"subagent,omitempty"`
}
