package engine

import (
	"sort"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// Origin says where a message in an LLM call came from.
type Origin string

const (
	OriginSystemPrompt Origin = "system_prompt"
	OriginHistory      Origin = "history"
	OriginUserInput    Origin = "user_input"
	OriginHook         Origin = "hook"
	OriginPrompt       Origin = "prompt"
	OriginAssistant    Origin = "assistant"
	OriginTool         Origin = "tool"
	OriginCompaction   Origin = "compaction" // the summary an auto-compaction left
)

// Phase is the part of the request flow an LLM call belongs to.
type Phase string

const (
	PhaseDirect   Phase = "direct"
	PhasePlanning Phase = "planning"
	PhaseAgent    Phase = "agent"
	// PhaseSide is a call an agent CLI makes of its own beside the
	// user's turn (Gemini CLI's model router): no round of the
	// scenario's answers it (side.go).
	PhaseSide Phase = "side"
)

// StepKind names one operation of the request flow.
type StepKind string

const (
	StepBuildMessages StepKind = "build_messages"
	StepInject        StepKind = "inject"
	StepRemove        StepKind = "remove"
	StepInjectPrompt  StepKind = "inject_prompt"
	StepRemovePrompt  StepKind = "remove_prompt"
	StepLLMCall       StepKind = "llm_call"
	StepAppend        StepKind = "append" // assistant message with tool calls
	StepToolCall      StepKind = "tool_call"
	StepYield         StepKind = "yield"
	StepReply         StepKind = "reply"
	StepHookCall      StepKind = "hook_call" // an executable hook ran; its changes are this step's
	StepRestore       StepKind = "restore"   // a call's hook changes undone after the call
	StepCompact       StepKind = "compact"   // the conversation was compacted
)

// Prompt names a built-in prompt.
type Prompt string

const (
	PromptPlanning  Prompt = "planning"
	PromptFirstStep Prompt = "first_step"
	PromptAgentLoop Prompt = "agent_loop"
)

var promptNames = []Prompt{PromptPlanning, PromptFirstStep, PromptAgentLoop}

// ToolCall is a call the model asked for, with its result once run.
type ToolCall struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Result    string         `json:"result"`
	Error     string         `json:"error,omitempty"`
	// Status says what became of the call when an executable hook decided
	// it: skipped, denied, responded (a hook answered in the tool's place).
	Status            ToolStatus     `json:"status,omitempty"`
	By                string         `json:"by,omitempty"` // the hook that decided it
	OriginalArguments map[string]any `json:"original_arguments,omitempty"`
	// Subagent is the sub-agent a scripted call starts (subagent.go); the
	// trace records the run it made as a request of its own.
	Subagent *scenario.Subagent `json:"-"`
}

// ToolStatus is what an executable hook made of a tool call.
type ToolStatus string

const (
	ToolSkipped   ToolStatus = "skipped"
	ToolDenied    ToolStatus = "denied"
	ToolResponded ToolStatus = "responded"
	ToolApproved  ToolStatus = "approved"
)

// Message is one message as an LLM call receives it, with its provenance.
type Message struct {
	ID         int        `json:"id"`
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	Origin     Origin     `json:"origin"`
	HistoryOf  Origin     `json:"history_of,omitempty"` // for history: user_input, hook or assistant
	Hook       string     `json:"hook,omitempty"`
	Skill      string     `json:"skill,omitempty"`
	Timing     string     `json:"timing,omitempty"`
	Persistent bool       `json:"persistent,omitempty"`
	Prompt     Prompt     `json:"prompt,omitempty"`
	Tool       string     `json:"tool,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	Request    int        `json:"request"` // the request whose list holds it
	// System and HookCall name the executable hook that added or last
	// rewrote this message (an origin-hook message with System set was
	// added by one; any other origin was rewritten by one).
	System   string `json:"system,omitempty"`
	EditedBy string `json:"edited_by,omitempty"`
	HookCall *int   `json:"hook_call,omitempty"`
	// InPlace says a tool message is the hook's words in place of a tool
	// that never ran (a block's reason, an answer), not an edited result.
	InPlace bool `json:"in_place,omitempty"`
	// Pieces name the agent's own texts the message holds (its system
	// prompt's and context's pieces, in an agent's run); Placeholder says
	// its content stands for the CLI's words, which a run without a
	// calibration does not have, and PlaceholderTokens what they cost.
	Pieces            []string `json:"pieces,omitempty"`
	Placeholder       bool     `json:"placeholder,omitempty"`
	PlaceholderTokens int      `json:"placeholder_tokens,omitempty"`
}

// Tag is the message in the conformance tag notation (hook:NAME, h.user, ...).
func (m *Message) Tag() string {
	base := func(o Origin) string {
		switch o {
		case OriginSystemPrompt:
			return "system"
		case OriginUserInput:
			return "user"
		case OriginHook:
			if m.System != "" {
				return m.System + ":" + m.Hook
			}
			return "hook:" + m.Hook
		case OriginPrompt:
			return "prompt:" + string(m.Prompt)
		case OriginTool:
			return "tool:" + m.Tool
		default:
			return string(o)
		}
	}
	if m.Origin == OriginHistory {
		return "h." + base(m.HistoryOf)
	}
	return base(m.Origin)
}

// Step is one recorded operation, materialised for display.
type Step struct {
	Index      int      `json:"index"`
	Kind       StepKind `json:"kind"`
	Request    int      `json:"request"`
	Phase      Phase    `json:"phase,omitempty"`
	Round      *int     `json:"round"`
	Timing     string   `json:"timing,omitempty"`
	Checkpoint int      `json:"checkpoint,omitempty"` // ①–⑤ of the seed's flowchart
	Prompt     Prompt   `json:"prompt,omitempty"`
	Tool       string   `json:"tool,omitempty"`
	Call       *int     `json:"call"`            // index of the LLM call, for llm_call steps
	Hooks      []string `json:"hooks,omitempty"` // skill/name of hooks whose messages were added or yielded
	Yield      *int     `json:"yield,omitempty"` // for yield steps: the persistent hook message handed to the frontend
	Added      []int    `json:"added"`
	Removed    []int    `json:"removed"`
	// HookCall is the invocation of a hook_call step.
	HookCall *HookCall `json:"hook_call,omitempty"`
	// Hook call index, for hook_call steps.
	HookCallIndex *int `json:"hook_call_index,omitempty"`
}

// LLMCall is one call of the model and its answer.
type LLMCall struct {
	Index     int        `json:"index"`
	Request   int        `json:"request"`
	Phase     Phase      `json:"phase"`
	Round     *int       `json:"round"`
	Step      int        `json:"step"`
	Content   string     `json:"content"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	NeedTool  *bool      `json:"need_tool,omitempty"` // planning decision
	Error     string     `json:"error,omitempty"`
	// Set only when executable hooks are loaded, so prompt-only traces
	// stay as they were.
	Model           string   `json:"model,omitempty"`
	AddedTools      []string `json:"added_tools,omitempty"`      // tools a hook offered for this call only
	OriginalContent *string  `json:"original_content,omitempty"` // the model's answer before a hook replaced it
	WithheldTools   []string `json:"withheld_tools,omitempty"`   // tools a hook took out of this call's offer
	AnsweredBy      string   `json:"answered_by,omitempty"`      // the hook that answered in the model's place: the model was not asked
	Warning         string   `json:"warning,omitempty"`
	// Offered are the tools an agent's call offered, by name, and
	// ToolTokens what their definitions cost (an agent's run only: its
	// request model's tools).
	Offered    []string `json:"offered,omitempty"`
	ToolTokens int      `json:"tool_tokens,omitempty"`
	// Side names the request model's side call a PhaseSide call is.
	Side string `json:"side,omitempty"`
}

// RequestInfo summarises one request of a run.
type RequestInfo struct {
	Index         int      `json:"index"`
	User          string   `json:"user"`
	EnabledSkills []string `json:"enabled_skills"`
	Calls         []int    `json:"calls"`
	Yielded       []string `json:"yielded"`
	Reply         string   `json:"reply"`
	FirstStep     int      `json:"first_step"`
	LastStep      int      `json:"last_step"`
	// Status is "stopped" when a hook ended the request; StoppedBy names it.
	Status    string `json:"status,omitempty"`
	StoppedBy string `json:"stopped_by,omitempty"`
	// Subagent is set when the request is a sub-agent's run (subagent.go).
	Subagent *Subagent `json:"subagent,omitempty"`
}

// msg is the compact record of a message: a run of 10,000 rounds creates
// hundreds of thousands, so provenance is an index, not strings.
type msg struct {
	content string
	role    skills.Role
	origin  Origin
	histOf  Origin
	ref     int32 // hook index, prompt index, tool-call index (tool, assistant)
	n       int32 // assistant: number of tool calls from ref
	req     int32
	created int32 // step that added it
	removed int32 // step that removed it, or -1
	edit    int32 // 1 + the hook call that added or last rewrote it; 0 none
}

// step is the compact record of an operation. Added messages are always a
// contiguous id range because the list only ever grows at its end.
type step struct {
	kind            StepKind
	phase           Phase
	timing          skills.Timing
	req, round, ref int32 // ref: prompt, tool-call, call or yielded message index
	addFrom, addTo  int32
	remFrom, remTo  int32 // range in Trace.removedIDs
}

// Trace records a run as operations over an append-only message table, so
// memory grows with the operations, not with rounds × list length, and any
// step's message list is rebuilt on demand.
type Trace struct {
	Scenario string        `json:"scenario"`
	Agent    *Agent        `json:"agent,omitempty"`
	Status   Status        `json:"status"`
	Error    string        `json:"error,omitempty"`
	Hooks    []skills.Hook `json:"hooks"`
	Requests []RequestInfo `json:"-"`
	Calls    []LLMCall     `json:"-"`

	msgs       []msg
	steps      []step
	removedIDs []int32
	toolCalls  []ToolCall
	hookIndex  map[string]int32

	// HookCalls are the executable hooks' invocations, in order.
	HookCalls []HookCall `json:"-"`
	// hidden holds, per message, the steps during which a call-only change
	// took it out of the list (to is -1 while the call is in progress).
	hidden map[int32][]span
	// restored holds, per restore step, the messages it brought back.
	restored map[int32][]int32
	// replacedBy maps a message replaced in place to its successor.
	replacedBy map[int32]int32
	// reordered marks requests whose list is not in id order.
	reordered map[int32]bool
	// pos orders a list where executable hooks moved messages: a message
	// replaced in place gives its successor its position. Only moved
	// messages are here; any other's position is its id.
	pos map[int32]float64

	// An agent's run: its request model, its slots' values, and what of
	// each message is the agent's own (Config.Request).
	req       *request.Model
	facts     request.Values
	agentInfo map[int32]agentMsg
	// sent holds, per prompt the agent writes in its wrapper
	// (Framing.Prompt), the moment it was sent (SlotDatetime).
	sent map[int32]string
}

type span struct{ from, to int32 }

// Status is how a run ended.
type Status string

const (
	StatusOK        Status = "ok"
	StatusError     Status = "error"
	StatusCancelled Status = "cancelled"
	StatusMaxRounds Status = "max_rounds"
	StatusStopped   Status = "stopped" // a hook ended the run (hard abort)
)

// NumSteps is the number of recorded steps.
func (t *Trace) NumSteps() int { return len(t.steps) }

// NumMessages is the number of messages ever created.
func (t *Trace) NumMessages() int { return len(t.msgs) }

// Message materialises message id.
func (t *Trace) Message(id int) Message {
	m := &t.msgs[id]
	out := Message{ID: id, Role: string(m.role), Content: m.content, Origin: m.origin, HistoryOf: m.histOf, Request: int(m.req)}
	kind := m.origin
	if kind == OriginHistory {
		kind = m.histOf
	}
	switch kind {
	case OriginHook:
		if m.ref >= 0 {
			h := &t.Hooks[m.ref]
			out.Hook, out.Skill, out.Timing, out.Persistent = h.Name, h.Skill, string(h.Timing), h.Persistent
		}
	case OriginPrompt:
		out.Prompt = promptNames[m.ref]
	case OriginTool:
		tc := t.toolCalls[m.ref]
		out.Tool, out.ToolCallID = tc.Name, tc.ID
	case OriginAssistant:
		if m.n > 0 {
			out.ToolCalls = t.toolCalls[m.ref : m.ref+m.n]
		}
	}
	if a, ok := t.agentInfo[int32(id)]; ok {
		out.Pieces, out.Placeholder = a.pieces, a.placeholder
		if a.placeholder {
			out.PlaceholderTokens = a.tokens
		}
	}
	if m.edit > 0 {
		e := int(m.edit - 1)
		hc := &t.HookCalls[e]
		out.System, out.HookCall = hc.System, &e
		if m.origin == OriginHook && m.ref < 0 {
			out.Hook = hc.Hook
		} else {
			out.EditedBy = hc.Hook
		}
		if m.origin == OriginTool {
			st := t.toolCalls[m.ref].Status
			out.InPlace = st == ToolSkipped || st == ToolDenied || st == ToolResponded
		}
	}
	return out
}

// Step materialises step i.
func (t *Trace) Step(i int) Step {
	s := &t.steps[i]
	out := Step{Index: i, Kind: s.kind, Request: int(s.req), Phase: s.phase, Timing: string(s.timing), Checkpoint: s.timing.Checkpoint()}
	if s.round >= 0 {
		r := int(s.round)
		out.Round = &r
	}
	switch s.kind {
	case StepInjectPrompt, StepRemovePrompt:
		out.Prompt = promptNames[s.ref]
	case StepToolCall:
		out.Tool = t.toolCalls[s.ref].Name
	case StepLLMCall:
		c := int(s.ref)
		out.Call = &c
	}
	if s.kind == StepInject && s.timing == skills.AfterToolCall && s.ref >= 0 {
		out.Tool = t.toolCalls[s.ref].Name
	}
	if s.kind == StepHookCall {
		hc, k := t.HookCalls[s.ref], int(s.ref)
		out.HookCall, out.HookCallIndex = &hc, &k
	}
	// A message a hook added and a later hook of the same step replaced
	// was never in a list anyone saw: it is in neither Added nor Removed.
	out.Added = make([]int, 0, s.addTo-s.addFrom)
	for id := s.addFrom; id < s.addTo; id++ {
		if t.msgs[id].removed == int32(i) {
			continue
		}
		out.Added = append(out.Added, int(id))
		if m := &t.msgs[id]; m.origin == OriginHook && m.ref >= 0 {
			out.Hooks = append(out.Hooks, t.Hooks[m.ref].ID())
		}
	}
	for _, id := range t.restored[int32(i)] {
		out.Added = append(out.Added, int(id))
	}
	if s.kind == StepYield {
		id := int(s.ref)
		out.Yield = &id
		out.Hooks = []string{t.Hooks[t.msgs[id].ref].ID()}
	}
	out.Removed = make([]int, 0, s.remTo-s.remFrom)
	for _, id := range t.removedIDs[s.remFrom:s.remTo] {
		if t.msgs[id].created == int32(i) {
			continue
		}
		out.Removed = append(out.Removed, int(id))
	}
	return out
}

// Steps materialises every step.
func (t *Trace) Steps() []Step {
	out := make([]Step, len(t.steps))
	for i := range t.steps {
		out[i] = t.Step(i)
	}
	return out
}

// MessagesAt rebuilds the message list of the step's request as it stands
// right after step i (for an llm_call step: what the call receives).
func (t *Trace) MessagesAt(i int) []Message {
	ids := t.MessageIDsAt(i)
	out := make([]Message, len(ids))
	for k, id := range ids {
		out[k] = t.Message(id)
	}
	return out
}

// MessageIDsAt is MessagesAt without materialising the messages.
func (t *Trace) MessageIDsAt(i int) []int {
	if i < 0 || i >= len(t.steps) {
		return nil
	}
	req := t.steps[i].req
	// Messages are created in list order and never reordered, so the list at
	// step i is the request's messages created by then and not yet removed.
	first := sort.Search(len(t.msgs), func(k int) bool { return t.msgs[k].req >= req })
	var out []int
	for id := first; id < len(t.msgs); id++ {
		m := &t.msgs[id]
		if m.req != req || m.created > int32(i) {
			break
		}
		if (m.removed < 0 || m.removed > int32(i)) && !t.hiddenAt(int32(id), int32(i)) {
			out = append(out, id)
		}
	}
	if t.reordered[req] {
		sort.SliceStable(out, func(a, b int) bool { return t.posOf(int32(out[a])) < t.posOf(int32(out[b])) })
	}
	return out
}

func (t *Trace) hiddenAt(id, i int32) bool {
	if len(t.hidden) == 0 {
		return false
	}
	for _, sp := range t.hidden[id] {
		if sp.from <= i && (sp.to < 0 || sp.to > i) {
			return true
		}
	}
	return false
}

// CallMessages is the message list LLM call c receives.
func (t *Trace) CallMessages(c int) []Message { return t.MessagesAt(t.Calls[c].Step) }

// CallTags is CallMessages in the conformance tag notation.
func (t *Trace) CallTags(c int) []string {
	ids := t.MessageIDsAt(t.Calls[c].Step)
	out := make([]string, len(ids))
	for k, id := range ids {
		m := t.Message(id)
		out[k] = m.Tag()
	}
	return out
}

// Lifetime returns the step that added message id and the step that removed
// it (-1 if it was never removed).
func (t *Trace) Lifetime(id int) (created, removed int) {
	m := &t.msgs[id]
	return int(m.created), int(m.removed)
}
