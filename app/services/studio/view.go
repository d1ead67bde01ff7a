package studio

import (
	"slices"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/expect"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agents/loop"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

// TokenCounter counts what a chat message costs in a request.
type TokenCounter interface {
	CountMessage(role, content string) int
}

// Message is an engine message with its lifetime and token count, so the
// frontend can rebuild the list at any step without asking again.
type Message struct {
	engine.Message
	Created int  `json:"created"`
	Removed *int `json:"removed"`
	Tokens  int  `json:"tokens"`
	// Pos orders the request's list when an executable hook replaced a
	// message in place (the successor takes its place); absent, the id is
	// the position.
	Pos *float64 `json:"pos,omitempty"`
	// Hidden are the steps [from, to) during which a call-only hook change
	// took the message out of the list (to -1: never brought back).
	Hidden [][2]int `json:"hidden,omitempty"`
}

// Call is an LLM call with the prompt tokens it receives: in an agent's
// run the whole request's (its tools' definitions included), and Split
// says whose they are.
type Call struct {
	engine.LLMCall
	Tokens int         `json:"tokens"`
	Split  *TokenSplit `json:"split,omitempty"`
}

// TokenSplit is what of an agent's request is whose: the agent's own
// system prompt and context, its tools' definitions, the hooks' words and
// the conversation (the user, the model, the tools' results).
type TokenSplit struct {
	Agent        int `json:"agent"`
	Tools        int `json:"tools"`
	Hooks        int `json:"hooks"`
	Conversation int `json:"conversation"`
}

// Matrix is hooks × LLM calls: the copies of each hook a call sees (history
// copies included) and the tokens they cost.
type Matrix struct {
	Hooks []string `json:"hooks"` // skill/name; for an executable hook, system/name
	// Systems says, per row, which executable hook system added the
	// messages ("command", "process", "request"; "" a prompt hook's row).
	Systems []string `json:"systems"`
	Copies  [][]int  `json:"copies"`
	Tokens  [][]int  `json:"tokens"`
	Totals  []int    `json:"totals"` // tokens per hook over all calls
}

// TraceView is a simulated run as the frontend shows it (docs/trace-view.md).
type TraceView struct {
	Revision int    `json:"revision"`
	Scenario string `json:"scenario"`
	File     string `json:"file"`
	Status   string `json:"status"` // engine status, "invalid" or "none"
	Error    string `json:"error,omitempty"`
	// Agent is the agent CLI version whose renderings the run shows (nil:
	// the run has no real agent's hooks).
	Agent       *engine.Agent        `json:"agent,omitempty"`
	Diagnostics []diag.Diagnostic    `json:"diagnostics"`
	Hooks       []skills.Hook        `json:"hooks"`
	Messages    []Message            `json:"messages"`
	Steps       []engine.Step        `json:"steps"`
	Calls       []Call               `json:"calls"`
	Requests    []engine.RequestInfo `json:"requests"`
	Matrix      Matrix               `json:"matrix"`
	Changes     []CallChange         `json:"changes"`
	// Tools are the selected scenario's tool names (tool_filter suggestions).
	Tools []string `json:"tools"`
	// Draft is true when unsaved editor text went into this simulation.
	Draft bool `json:"draft"`
	// Exec says whether the folder's executable hooks ran, and if not why.
	Exec ExecRun `json:"exec"`
	// Pending is true while a simulation with executable hooks runs in the
	// background: this view is the previous one (or an empty one with
	// status "running"), and the result follows as studio:trace.
	Pending bool `json:"pending"`
	// Expectations are the scenario's expect: results on this run.
	Expectations []expect.Result `json:"expectations"`
	// Flow is the loop the run is drawn on (its agent's, or seed 000's)
	// and the node of each step (app/agents/loop).
	Flow loop.Flow `json:"flow"`

	// callIDs holds each call's message ids, kept for the next live diff.
	callIDs [][]int
	// trace is the simulated run the view shows, whose calls' request
	// bodies CallBody writes (nil: a view of no finished simulation).
	trace *engine.Trace
}

// emptyView is the view when there is nothing to simulate.
func emptyView(status, file string, ds []diag.Diagnostic) TraceView {
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	return TraceView{
		Status: status, File: file, Diagnostics: ds,
		Hooks: []skills.Hook{}, Messages: []Message{}, Steps: []engine.Step{}, Calls: []Call{},
		Requests: []engine.RequestInfo{}, Changes: []CallChange{}, Tools: []string{}, Expectations: []expect.Result{}, Exec: ExecRun{Hooks: []engine.HookInfo{}, Metrics: []engine.HookMetric{}},
		Matrix: Matrix{Hooks: []string{}, Systems: []string{}, Copies: [][]int{}, Tokens: [][]int{}, Totals: []int{}},
		Flow:   loop.For(loop.Run{Simulated: true}, nil, nil, nil),
	}
}

// buildView materialises a simulated run's trace for the frontend.
func buildView(tr *engine.Trace, file string, tc TokenCounter) TraceView {
	v := materialise(tr, file, tc, RunOrigin{Simulated: true})
	v.trace = tr
	return v
}

// RunOrigin is how a stored run came about: through the simulated agent,
// or as a real agent's calls (a capture, an imported session) and which
// agent sent them ("claude-code@2.1.197"; "" when they do not tell).
type RunOrigin struct {
	Simulated bool
	Agent     string
}

// materialise makes the view of a trace that came about as origin says.
func materialise(tr *engine.Trace, file string, tc TokenCounter, origin RunOrigin) TraceView {
	v := emptyView(string(tr.Status), file, nil)
	v.Scenario, v.Error, v.Steps, v.Agent = tr.Scenario, tr.Error, tr.Steps(), tr.Agent
	// Lists are never null in a view: the frontend indexes them directly.
	if tr.Hooks != nil {
		v.Hooks = tr.Hooks
	}
	if tr.Requests != nil {
		v.Requests = tr.Requests
	}
	v.Messages = make([]Message, tr.NumMessages())
	for id := range v.Messages {
		m := tr.Message(id)
		created, removed := tr.Lifetime(id)
		vm := Message{Message: m, Created: created, Tokens: tc.CountMessage(m.Role, m.Content)}
		if m.Placeholder { // the CLI's words a run without a calibration stands in for
			vm.Tokens = tc.CountMessage(m.Role, "") + m.PlaceholderTokens
		}
		if removed >= 0 {
			vm.Removed = &removed
		}
		v.Messages[id] = vm
	}
	if len(tr.HookCalls) > 0 {
		// Only executable hooks move or hide messages: prompt-only traces
		// (which can be huge) skip the copy Record makes.
		rec := tr.Record()
		for id, m := range rec.Messages {
			v.Messages[id].Pos = m.Pos
		}
		for _, sp := range rec.Hidden {
			m := &v.Messages[sp.ID]
			m.Hidden = append(m.Hidden, [2]int{int(sp.From), int(sp.To)})
		}
	}

	hookRow := make(map[string]int, len(tr.Hooks))
	addRow := func(key, id, system string) int {
		hookRow[key] = len(v.Matrix.Hooks)
		v.Matrix.Hooks = append(v.Matrix.Hooks, id)
		v.Matrix.Systems = append(v.Matrix.Systems, system)
		v.Matrix.Copies = append(v.Matrix.Copies, make([]int, len(tr.Calls)))
		v.Matrix.Tokens = append(v.Matrix.Tokens, make([]int, len(tr.Calls)))
		v.Matrix.Totals = append(v.Matrix.Totals, 0)
		return hookRow[key]
	}
	for i := range tr.Hooks {
		addRow(tr.Hooks[i].ID(), tr.Hooks[i].ID(), "")
	}
	v.callIDs = make([][]int, len(tr.Calls))
	for c, lc := range tr.Calls {
		ids := tr.MessageIDsAt(lc.Step)
		v.callIDs[c] = ids
		call := Call{LLMCall: lc, Tokens: lc.ToolTokens}
		if tr.Agent != nil && tr.RequestModel() != nil {
			call.Split = &TokenSplit{Tools: lc.ToolTokens}
		}
		for _, id := range ids {
			m := &v.Messages[id]
			call.Tokens += m.Tokens
			if call.Split != nil {
				*split(call.Split, &m.Message) += m.Tokens
			}
			// A message an executable hook added, or a tool result it wrote
			// (a block's reason, an answer in the tool's place, a rewritten
			// result), is its system's hook's row, added as met; a prompt
			// hook's message, even one an executable hook edited, stays its
			// prompt hook's.
			exec := execHookOf(&m.Message)
			if exec == "" && m.Hook == "" {
				continue
			}
			key := m.Skill + "/" + m.Hook
			if exec != "" {
				key = "\x00" + m.System + "/" + exec
			}
			row, ok := hookRow[key]
			if !ok && exec != "" {
				row, ok = addRow(key, m.System+"/"+exec, m.System), true
			}
			if !ok {
				continue
			}
			v.Matrix.Copies[row][c]++
			v.Matrix.Tokens[row][c] += m.Tokens
			v.Matrix.Totals[row] += m.Tokens
		}
		v.Calls = append(v.Calls, call)
	}
	v.drawOn(tr, origin, nil)
	return v
}

// split is the part of an agent's request message m counts in.
func split(s *TokenSplit, m *engine.Message) *int {
	kind := m.Origin
	if kind == engine.OriginHistory {
		kind = m.HistoryOf
	}
	switch {
	case kind == engine.OriginSystemPrompt && m.EditedBy == "", kind == engine.OriginAgentContext:
		return &s.Agent
	case kind == engine.OriginHook, execHookOf(m) != "":
		return &s.Hooks
	}
	return &s.Conversation
}

// execHookOf is the executable hook whose words message m is ("" none).
func execHookOf(m *engine.Message) string {
	switch {
	case m.System == "":
		return ""
	case m.Hook != "" && m.EditedBy == "":
		return m.Hook
	case m.Origin == engine.OriginTool:
		return m.EditedBy
	}
	return ""
}

// drawOn chooses the loop the view's run is drawn on and places its
// steps (the view's steps and messages are filled in). The run's hook
// systems are those whose hooks ran, else those of the configured hooks
// that would run for it: a folder whose hooks have not run (untrusted, or
// no matcher matched) is drawn on the same loop as when they do.
func (v *TraceView) drawOn(tr *engine.Trace, origin RunOrigin, configured []engine.HookInfo) {
	run := loop.Run{Agent: origin.Agent, Simulated: origin.Simulated, PromptHooks: origin.Simulated && len(tr.Hooks) > 0}
	// An imported session names its agent; a simulated run names one when
	// it was asked to be it (the scenario's agent:, --agent, the app's
	// picker) — a version picked only to word Claude Code's hooks (the
	// installed CLI's, the newest) says nothing of the run's loop.
	if a := tr.Agent; run.Agent == "" && a != nil && (!origin.Simulated || a.By == profile.ByScenario || a.By == profile.ByFlag) {
		run.Agent = a.String()
	}
	for _, hc := range tr.HookCalls {
		if !slices.Contains(run.Systems, hc.System) {
			run.Systems = append(run.Systems, hc.System)
		}
	}
	if len(run.Systems) == 0 {
		for _, h := range configured {
			if enabledIn(tr, h.Skill) && !slices.Contains(run.Systems, h.System) {
				run.Systems = append(run.Systems, h.System)
			}
		}
	}
	// a real agent's hook words, by the event they name (a capture's hooks
	// are named by their event: "PreToolUse:Bash")
	var hookOf loop.HookOf
	if !origin.Simulated {
		hookOf = func(id int) string {
			if id < len(v.Messages) && v.Messages[id].Origin == engine.OriginHook {
				return v.Messages[id].Hook
			}
			return ""
		}
	}
	v.Flow = loop.For(run, v.Steps, tr.Calls, hookOf)
}

// enabledIn says whether a hook of skill (a folder's own hook: "") takes
// part in some request of tr.
func enabledIn(tr *engine.Trace, skill string) bool {
	if skill == "" {
		return true
	}
	for _, r := range tr.Requests {
		if r.EnabledSkills == nil || slices.Contains(r.EnabledSkills, skill) {
			return true
		}
	}
	return false
}

// RunView is a stored run opened read-only in the simulator; a real
// agent's calls are drawn on that agent's loop.
func RunView(tr *engine.Trace, file string, tc TokenCounter, origin RunOrigin) TraceView {
	v := materialise(tr, file, tc, origin)
	v.Changes = []CallChange{}
	return v
}
