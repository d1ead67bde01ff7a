package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// Subagent says a request is a sub-agent's run: the agent's call of its
// sub-agent tool (Claude Code's Agent, formerly Task) that started it, in
// the request the call was made in. A sub-agent's request is laid out
// after the requests of the run, as a capture and an import lay out each
// conversation the agent held; Parent and Call say where it nests.
type Subagent struct {
	// Parent is the request whose model call asked for the sub-agent (-1:
	// not known).
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

// SubagentRun is what hooks read of the sub-agent an event fires in.
type SubagentRun struct {
	// ID is its agent id ("a" and 16 hex digits, as Claude Code's), Type
	// its kind, Prompt the task it was given, Description the call's short
	// words for it.
	ID, Type, Prompt, Description string
	// Parent is the sub-agent whose call started it (nil: the session).
	Parent *SubagentRun
}

// DefaultSubagentType is the kind of a sub-agent whose call names none
// (Claude Code's).
const DefaultSubagentType = "general-purpose"

// Subagent is the sub-agent ev fires in (nil: the session's own loop).
func (e *Event) Subagent() *SubagentRun {
	if e.r == nil || e.r.sub == nil {
		return nil
	}
	return &e.r.sub.run
}

// subRun is one sub-agent of a run: it plays on a trace of its own, which
// nest lays out after the run's requests once the run ends.
type subRun struct {
	run    SubagentRun
	t      *Trace
	parent *subRun // the sub-agent whose call started it (nil: the session)
	// where the call was made in the parent's trace: its request, the
	// model call that asked, the tool call
	req, call, tool int
	toolUseID       string
	// in the merged trace: its request, where its calls and tool calls start
	final, callOff, toolOff int
}

// stopAt is the point an answer without tool calls fires: a sub-agent's
// stop is its SubagentStop.
func (r *runner) stopAt() Point {
	if r.sub != nil {
		return PointSubagentStop
	}
	return PointStop
}

// scriptedSub asks the run's model with the sub-agent's script on each
// call: a scripted model answers from its rounds, a real one as it would.
type scriptedSub struct {
	m Model
	s *scenario.Subagent
}

func (s scriptedSub) Complete(ctx context.Context, call Call) (Reply, error) {
	call.Subagent = s.s
	return s.m.Complete(ctx, call)
}

// subagent plays the sub-agent tool call ti starts and returns what the
// call's result is: the sub-agent's last answer. The sub-agent runs the
// agent's loop — on the agent's sub-agent request model when it has one
// (its own system prompt, first turn and tools), else on the agent's own,
// or seed 000's agent loop for a scenario with no agent — from its
// SubagentStart point to its SubagentStop, with the run's hooks. The
// debugger does not pause inside it (its calls are not the run's yet).
func (r *runner) subagent(ctx context.Context, ti int32) (string, error) {
	tc := &r.t.toolCalls[ti]
	str := func(k string) string { s, _ := tc.Arguments[k].(string); return s }
	run := SubagentRun{Type: str("subagent_type"), Prompt: str("prompt"), Description: str("description")}
	if run.Type == "" {
		run.Type = DefaultSubagentType
	}
	if r.sub != nil {
		run.Parent = &r.sub.run
	}
	run.ID = agentID(r.cfg.Session, tc.ID, len(*r.subs))
	sr := &subRun{run: run, t: &Trace{Scenario: r.t.Scenario, Status: StatusOK, Agent: r.t.Agent}, parent: r.sub,
		req: int(r.pos.req), call: len(r.t.Calls) - 1, tool: int(ti), toolUseID: tc.ID}
	*r.subs = append(*r.subs, sr) // before its own sub-agents: a parent comes first

	cfg := r.cfg
	base := cfg.Model
	if outer, ok := base.(scriptedSub); ok { // a sub-agent's sub-agent: its own script, not its parent's
		base = outer.m
	}
	cfg.Model = scriptedSub{m: base, s: tc.Subagent}
	cfg.BeforeCall, cfg.AfterCall, cfg.OnStream = nil, nil, nil
	// watchers (the event stream, the debugger) follow the run's own
	// trace, whose steps the sub-agent's are not until nest
	cfg.Handlers = slices.DeleteFunc(slices.Clone(cfg.Handlers), func(h Handler) bool { _, q := h.(Quiet); return q })
	agent := r.agentModel()
	if agent != nil && agent.Subagent != nil && agent.Subagent.Request != nil {
		cfg.Request = agent.Subagent.Request
	}
	enabled := r.sc.EnabledSkills
	if n := len(r.t.Requests); n > 0 {
		enabled = r.t.Requests[n-1].EnabledSkills
	}
	sc := &scenario.Scenario{Name: r.sc.Name, SystemPrompt: r.sc.SystemPrompt, EnableTools: r.sc.EnableTools, EnabledSkills: enabled,
		Tools: r.sc.Tools, Prompts: r.sc.Prompts, Requests: []scenario.Request{{User: run.Prompt, Rounds: tc.Subagent.Rounds}}}
	c := &runner{t: sr.t, sc: sc, src: r.src, cfg: cfg, prompts: r.prompts, pos: at{round: -1}, toolMsg: map[string]int32{}, tools: r.sc.Tools,
		sub: sr, subs: r.subs, agent: agent}
	if c.agentMode() {
		c.t.req, c.t.facts, c.t.agentInfo = cfg.Request, cfg.Facts, map[int32]agentMsg{}
		if len(cfg.Request.Tools) > 0 {
			c.tools = agentTools(cfg.Request)
		}
	}
	answer, err := c.play(ctx, enabled)
	if err != nil {
		sr.t.Status, sr.t.Error = StatusError, err.Error()
		return "", err
	}
	return r.handBack(answer, sr), nil
}

// play is the sub-agent's one request: SubagentStart, the message list
// (the agent's first turn with the task as its prompt), the loop, the
// reply.
func (r *runner) play(ctx context.Context, enabled []string) (string, error) {
	t := r.t
	prompt := r.sc.Requests[0].User
	r.pos, r.user = at{round: -1}, prompt
	t.Requests = append(t.Requests, RequestInfo{Index: 0, User: prompt, EnabledSkills: enabled, Calls: []int{}, Yielded: []string{}})
	info := func() *RequestInfo { return &t.Requests[0] }
	err := r.fire(ctx, &Event{Point: PointSubagentStart, UserInput: prompt})
	var reply string
	if err == nil {
		t.begin(StepBuildMessages, r.pos, "", -1)
		if r.agentMode() {
			r.buildAgent(0, prompt)
		} else {
			r.buildSeed(0, prompt)
		}
		// seed 000's prompt hooks are the session's: none reaches a sub-agent
		reply, err = r.agentFlow(ctx, newHookManager(t, nil, &r.pos), info, func(Checkpoint) {})
	}
	return reply, r.endRequest(err, prompt, reply, nil, info)
}

// handBack is the call's result: the sub-agent's answer in the words the
// agent hands it back in (its request model's), else as it is.
func (r *runner) handBack(answer string, sr *subRun) string {
	m := r.agentModel()
	if m == nil || m.Subagent == nil || m.Subagent.Result == nil {
		return answer
	}
	v := request.Values{request.SlotAnswer: answer, request.SlotAgentID: sr.run.ID}
	v[request.SlotToolUses], v[request.SlotToolsUsed] = toolsUsed(sr.t)
	return m.Subagent.Result.Fill(v)
}

// toolsUsed is how many tool calls a sub-agent's trace made and which
// tools, each once in the order first called: what Claude Code's result
// counts (its own calls, not its sub-agents').
func toolsUsed(t *Trace) (string, string) {
	var names []string
	for _, tc := range t.toolCalls {
		if !slices.Contains(names, tc.Name) {
			names = append(names, tc.Name)
		}
	}
	return strconv.Itoa(len(t.toolCalls)), strings.Join(names, ", ")
}

// agentModel is the agent's own request model (a sub-agent's runner
// plays its sub-agent model; nil: no agent).
func (r *runner) agentModel() *request.Model {
	if r.agent != nil {
		return r.agent
	}
	return r.cfg.Request
}

// agentID is a sub-agent's id: "a" and 16 hex digits, as Claude Code
// names them, the same for the same run.
func agentID(session, call string, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%s/%d", session, call, n)))
	return "a" + hex.EncodeToString(sum[:])[:16]
}

// nest lays out every sub-agent's trace after the run's requests, each a
// request saying which call started it (Subagent), in the order they
// started: a trace as a capture or an import of the same run reads.
func (r *runner) nest() error {
	if r.subs == nil || len(*r.subs) == 0 {
		return nil
	}
	rec := r.t.Record()
	for _, sr := range *r.subs {
		sr.final, sr.callOff, sr.toolOff = len(rec.Requests), len(rec.Calls), len(rec.ToolCalls)
		sub := &Subagent{Parent: sr.req, Call: sr.call, Tool: sr.tool, ToolUseID: sr.toolUseID, AgentID: sr.run.ID, Type: sr.run.Type,
			Description: sr.run.Description}
		if p := sr.parent; p != nil { // its numbers are its parent's trace's
			sub.Parent, sub.Call, sub.Tool = p.final, p.callOff+sr.call, p.toolOff+sr.tool
		}
		appendRecord(&rec, sr.t.Record(), sub)
	}
	merged, err := FromRecord(rec)
	if err != nil {
		return fmt.Errorf("nest the sub-agents' runs: %w", err)
	}
	merged.req = r.t.req
	*r.t = *merged
	return nil
}

// modelOf is the request model request req's calls follow: a
// sub-agent's, the agent's sub-agent model when it has one.
func (t *Trace) modelOf(req int) *request.Model {
	if t.req == nil || req < 0 || req >= len(t.Requests) || t.Requests[req].Subagent == nil {
		return t.req
	}
	if s := t.req.Subagent; s != nil && s.Request != nil {
		return s.Request
	}
	return t.req
}

// appendRecord adds sub — one request, a sub-agent's — after rec's.
func appendRecord(rec *Record, sub Record, info *Subagent) {
	msgOff, stepOff, remOff := int32(len(rec.Messages)), int32(len(rec.Steps)), int32(len(rec.RemovedIDs))
	callOff, toolOff, hookCallOff := len(rec.Calls), int32(len(rec.ToolCalls)), int32(len(rec.HookCalls))
	req := int32(len(rec.Requests))
	hooks := make([]int32, len(sub.Hooks))
	for i, h := range sub.Hooks {
		k := slices.IndexFunc(rec.Hooks, func(x skills.Hook) bool { return x.ID() == h.ID() })
		if k < 0 {
			rec.Hooks = append(rec.Hooks, h)
			k = len(rec.Hooks) - 1
		}
		hooks[i] = int32(k)
	}
	for _, m := range sub.Messages {
		m.Request, m.Created = req, m.Created+stepOff
		if m.Removed >= 0 {
			m.Removed += stepOff
		}
		if m.Edit > 0 {
			m.Edit += hookCallOff
		}
		kind := m.Origin
		if kind == OriginHistory {
			kind = m.HistoryOf
		}
		switch {
		case kind == OriginTool, kind == OriginAssistant:
			m.Ref += toolOff
		case kind == OriginHook && m.Ref >= 0:
			m.Ref = hooks[m.Ref]
		}
		if m.Pos != nil {
			p := *m.Pos + float64(msgOff)
			m.Pos = &p
		}
		rec.Messages = append(rec.Messages, m)
	}
	for _, st := range sub.Steps {
		st.Request = req
		st.AddFrom, st.AddTo, st.RemFrom, st.RemTo = st.AddFrom+msgOff, st.AddTo+msgOff, st.RemFrom+remOff, st.RemTo+remOff
		switch {
		case st.Kind == StepLLMCall:
			st.Ref += int32(callOff)
		case st.Kind == StepToolCall, st.Kind == StepInject && st.Timing == skills.AfterToolCall && st.Ref >= 0:
			st.Ref += toolOff
		case st.Kind == StepHookCall:
			st.Ref += hookCallOff
		case st.Kind == StepYield:
			st.Ref += msgOff
		}
		rec.Steps = append(rec.Steps, st)
	}
	for _, id := range sub.RemovedIDs {
		rec.RemovedIDs = append(rec.RemovedIDs, id+msgOff)
	}
	rec.ToolCalls = append(rec.ToolCalls, sub.ToolCalls...)
	rec.HookCalls = append(rec.HookCalls, sub.HookCalls...)
	for _, sp := range sub.Hidden {
		to := sp.To
		if to >= 0 {
			to += stepOff
		}
		rec.Hidden = append(rec.Hidden, SpanRecord{ID: sp.ID + msgOff, From: sp.From + stepOff, To: to})
	}
	for _, rs := range sub.Restored {
		ids := make([]int32, len(rs.IDs))
		for i, id := range rs.IDs {
			ids[i] = id + msgOff
		}
		rec.Restored = append(rec.Restored, RestoreRecord{Step: rs.Step + stepOff, IDs: ids})
	}
	for _, p := range sub.ReplacedBy {
		rec.ReplacedBy = append(rec.ReplacedBy, [2]int32{p[0] + msgOff, p[1] + msgOff})
	}
	for _, c := range sub.Calls {
		c.Index, c.Request, c.Step = c.Index+callOff, int(req), c.Step+int(stepOff)
		rec.Calls = append(rec.Calls, c)
	}
	for _, ri := range sub.Requests {
		ri.Index = int(req)
		ri.FirstStep, ri.LastStep = ri.FirstStep+int(stepOff), ri.LastStep+int(stepOff)
		calls := make([]int, len(ri.Calls))
		for i, c := range ri.Calls {
			calls[i] = c + callOff
		}
		ri.Calls, ri.Subagent = calls, info
		rec.Requests = append(rec.Requests, ri)
	}
}
