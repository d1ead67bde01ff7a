package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// OriginAgentContext is context an agent CLI adds of its own around the
// user's prompt (its environment block, the date, git status, reminders):
// a piece of its request model (Config.Request).
const OriginAgentContext Origin = "agent_context"

// agentMsg is what the trace knows of a message of the agent's own: the
// request model's pieces it holds, and for a shipped model (no texts) the
// tokens its placeholder stands for.
type agentMsg struct {
	pieces      []string
	placeholder bool
	tokens      int
	system      bool // a piece of the system prompt (not of the conversation)
	cache       bool
}

// agentMode says whether the run is an agent CLI's loop: its request model
// makes no planning call.
func (r *runner) agentMode() bool { return r.cfg.Request != nil && !r.cfg.Request.Loop.Planning }

// values are the request model's slot values for the current request.
func (r *runner) values(prompt string) request.Values {
	v := make(request.Values, len(r.cfg.Facts)+2)
	for k, x := range r.cfg.Facts {
		v[k] = x
	}
	v[request.SlotPrompt] = prompt
	if _, ok := v[request.SlotModel]; !ok {
		v[request.SlotModel] = r.cfg.Request.Model
	}
	return v
}

// buildAgent is _build_messages of an agent CLI: on the first request its
// system prompt, then its first turn — its own pieces, the prompt and
// each hook event's words where the agent puts them; on a later request
// the whole conversation so far (an agent keeps every message, tool
// traffic included), then the prompt.
func (r *runner) buildAgent(i int, user string) {
	t := r.t
	req := int32(i)
	if i > 0 {
		for _, h := range r.history {
			t.add(msg{content: h.content, role: h.role, origin: OriginHistory, histOf: h.of, ref: h.ref, n: h.n, req: req, edit: h.edit})
			if h.agent != nil {
				t.agentInfo[int32(len(t.msgs)-1)] = *h.agent
			}
		}
		r.placePending(func(m msg) bool { return false })
		id := t.add(msg{content: user, role: skills.User, origin: OriginUserInput, req: req, edit: r.userEdit})
		r.sentNow(id)
		r.placeContext(id)
		return
	}
	m := r.cfg.Request
	v := r.values(user)
	items := m.SystemItems(v)
	if len(items) == 0 && r.sessionSystem != "" {
		// no system prompt known (a bare model): a SessionStart hook's words
		// are still the system message the agent sends them in
		id := t.add(msg{content: joinText("", r.sessionSystem), role: skills.System, origin: OriginSystemPrompt, req: req})
		t.msgs[id].edit = r.sessionEdit
	}
	for k, it := range items {
		text := it.Text
		if k == len(items)-1 && r.sessionSystem != "" {
			text = joinText(text, r.sessionSystem) // a SessionStart hook's words on the system prompt
		}
		id := t.add(msg{content: text, role: skills.Role(it.Role), origin: OriginSystemPrompt, req: req})
		if k == len(items)-1 && r.sessionSystem != "" {
			t.msgs[id].edit = r.sessionEdit
		}
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens, system: true, cache: it.Cache}
	}
	spoke := func(event string) bool {
		return slices.ContainsFunc(r.pending(), func(pm msg) bool { return r.eventOf(pm) == event })
	}
	placed := map[string]bool{}
	for _, it := range m.TurnItems(v, spoke) {
		switch it.Kind {
		case request.ItemPrompt:
			// hook words of events the agent has no place for stand where
			// their effect put them: before the prompt, then after it
			r.placePending(func(pm msg) bool { return slices.Contains(m.HookEvents(), r.eventOf(pm)) })
			r.sentNow(t.add(msg{content: user, role: skills.User, origin: OriginUserInput, req: req, edit: r.userEdit}))
			r.placeAfter(func(pm msg) bool { return slices.Contains(m.HookEvents(), r.eventOf(pm)) })
		case request.ItemHooks:
			placed[it.Event] = true
			r.takePending(func(pm msg) bool { return r.eventOf(pm) == it.Event }, func(pm msg) { pm.req = req; t.add(pm) })
		default:
			id := t.add(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginAgentContext, req: req})
			t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens}
		}
	}
	// what is left waited for a place this turn has not got
	r.takePending(func(msg) bool { return true }, func(pm msg) { pm.req = req; t.add(pm) })
}

// pending are the hook messages waiting for the turn, in order.
func (r *runner) pending() []msg {
	out := slices.Clone(r.pendingPreface)
	out = append(out, r.pendingBefore...)
	return append(out, r.pendingContext...)
}

// eventOf is the hook event (without its matcher's target) whose hook
// call added m.
func (r *runner) eventOf(m msg) string {
	if m.edit <= 0 || int(m.edit) > len(r.t.HookCalls) {
		return ""
	}
	e, _, _ := strings.Cut(r.t.HookCalls[m.edit-1].Event, ":")
	return e
}

// placePending adds the messages waiting to precede the prompt (those
// keep does not hold back).
func (r *runner) placePending(keep func(msg) bool) {
	r.takeFrom(&r.pendingPreface, keep, func(m msg) { m.req = r.pos.req; r.t.add(m) })
	r.takeFrom(&r.pendingBefore, keep, func(m msg) { m.req = r.pos.req; r.t.add(m) })
}

// placeAfter adds the messages waiting to follow the one just added.
func (r *runner) placeAfter(keep func(msg) bool) {
	r.takeFrom(&r.pendingContext, keep, func(m msg) { m.req = r.pos.req; r.t.add(m) })
}

// takePending takes the waiting messages that match, in order.
func (r *runner) takePending(match func(msg) bool, add func(msg)) {
	not := func(m msg) bool { return !match(m) }
	r.takeFrom(&r.pendingPreface, not, add)
	r.takeFrom(&r.pendingBefore, not, add)
	r.takeFrom(&r.pendingContext, not, add)
}

// takeFrom adds the messages of list that keep does not hold back, and
// leaves those it does.
func (r *runner) takeFrom(list *[]msg, keep func(msg) bool, add func(msg)) {
	var left []msg
	for _, m := range *list {
		if keep(m) {
			left = append(left, m)
			continue
		}
		add(m)
	}
	*list = left
}

// agentTools are the tools the agent offers, as the model sees them.
func agentTools(m *request.Model) []scenario.Tool {
	out := make([]scenario.Tool, 0, len(m.Tools))
	for _, tl := range m.Tools {
		st := scenario.Tool{Name: tl.Name}
		if tl.Definition != nil {
			var def struct {
				Description string         `json:"description"`
				Schema      map[string]any `json:"input_schema"`
				Parameters  map[string]any `json:"parameters"`
				Function    struct {
					Description string         `json:"description"`
					Parameters  map[string]any `json:"parameters"`
				} `json:"function"`
			}
			if json.Unmarshal([]byte(tl.Definition.Fill(nil)), &def) == nil {
				st.Description = def.Description + def.Function.Description
				st.Parameters = def.Schema
				if st.Parameters == nil {
					st.Parameters = def.Parameters
				}
				if st.Parameters == nil {
					st.Parameters = def.Function.Parameters
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// agentFlow is the agent CLI's loop: no planning call, no built-in
// prompt, none of seed 000's checkpoints (an agent CLI injects no seed
// 000 prompt hook); each round asks the model with the agent's tools, runs the
// calls it asked for, and ends on an answer without calls (unless a Stop
// hook keeps it going, the answer kept before the hook's words when the
// agent keeps it).
func (r *runner) agentFlow(ctx context.Context, hm *HookManager, info func() *RequestInfo, inject func(Checkpoint)) (string, error) {
	r.pos.phase = PhaseAgent
	tools := r.tools
	if !r.sc.EnableTools {
		tools = nil
	}
	quiet, reminded := 0, map[int]bool{}
	for round := 0; ; round++ {
		if r.cfg.MaxRounds > 0 && round >= r.cfg.MaxRounds {
			return "", fmt.Errorf("request %d: %w (%d)", info().Index, ErrMaxRounds, r.cfg.MaxRounds)
		}
		r.pos.round = int32(round)
		if err := r.compact(ctx, round); err != nil {
			return "", err
		}
		r.remind(quiet, reminded)
		if round == 0 {
			r.sideCalls(request.SideTurnStart, round, "", info)
		}
		rep, err := r.call(ctx, info, tools)
		if err != nil {
			return "", err
		}
		if len(rep.ToolCalls) == 0 {
			again, err := r.stopPoint(ctx, rep.Content)
			if err != nil {
				return "", err
			}
			if again {
				continue
			}
			r.sideCalls(request.SideAfterTurn, round, rep.Content, info)
			r.pos.round = -1
			return rep.Content, nil
		}
		if err := r.runTools(ctx, hm, rep, inject); err != nil {
			return "", err
		}
		if rep.Content == "" {
			quiet++
		} else {
			quiet = 0
		}
	}
}

// keepAnswer adds an answer a Stop hook blocked to the conversation, as an
// agent that keeps it does, before the hook's words.
func (r *runner) keepAnswer(answer string) {
	if !r.agentMode() || !r.cfg.Request.Loop.KeepsBlockedAnswer {
		return
	}
	r.t.begin(StepAppend, r.pos, "", -1)
	r.t.add(msg{content: answer, role: "assistant", origin: OriginAssistant, ref: int32(len(r.t.toolCalls)), req: r.pos.req})
}

// keepConversation is what an agent carries into its next request: every
// message of this one's list as it stands.
func (r *runner) keepConversation() {
	t := r.t
	ids := t.MessageIDsAt(len(t.steps) - 1)
	r.history = r.history[:0]
	for _, id := range ids {
		m := &t.msgs[id]
		h := history{content: m.content, role: m.role, of: m.origin, ref: m.ref, n: m.n, edit: m.edit}
		if m.origin == OriginHistory {
			h.of = m.histOf
		}
		if a, ok := t.agentInfo[int32(id)]; ok {
			h.agent = &a
		}
		r.history = append(r.history, h)
	}
}

// Request is the request body the agent sends for call c, in its API's
// shape: nil when the run is no agent's.
func (t *Trace) Request(c int) (json.RawMessage, error) {
	if t.req == nil || c < 0 || c >= len(t.Calls) {
		return nil, nil
	}
	msgs := t.RequestMessages(c)
	m := t.modelOf(t.Calls[c].Request) // a sub-agent's call: the agent's sub-agent model
	v := make(request.Values, len(t.facts)+1)
	for k, x := range t.facts {
		v[k] = x
	}
	if t.Calls[c].Phase == PhaseSide {
		s := m.Side(t.Calls[c].Side)
		if s == nil {
			return nil, fmt.Errorf("call %d: the request model %s has no side call %q", c, m.Ref(), t.Calls[c].Side)
		}
		if s.TurnApart {
			startTurn(msgs, t.CallMessages(c))
		}
		return request.BuildSide(m, s, v, msgs)
	}
	return request.Build(m, v, msgs, t.Calls[c].Offered)
}

// RequestMessages are call c's messages as the agent's request holds
// them (which are the system prompt's, which a tool's error, which hook
// words the agent writes on the prompt).
func (t *Trace) RequestMessages(c int) []request.Msg {
	ids := t.MessageIDsAt(t.Calls[c].Step)
	out := make([]request.Msg, 0, len(ids))
	for k, id := range ids {
		m := t.Message(id)
		rm := request.Msg{Role: m.Role, Text: m.Content}
		if k+1 < len(ids) && m.HookCall != nil && isKind(m, OriginHook) && isKind(t.Message(ids[k+1]), OriginUserInput) {
			event, _, _ := strings.Cut(t.HookCalls[*m.HookCall].Event, ":")
			rm.Join = t.modelOf(t.Calls[c].Request).JoinOf(event)
		}
		if a, ok := t.agentInfo[int32(id)]; ok {
			rm.System, rm.Cache, rm.Own = a.system, a.cache, true
		}
		if at, ok := t.sent[int32(id)]; ok && t.req.Framing.Prompt != nil {
			rm.Text = t.req.Framing.Prompt.Fill(request.Values{request.SlotPrompt: m.Content, request.SlotDatetime: at})
		}
		if e := t.msgs[id].edit; e > 0 && (m.Origin == OriginHook || m.HistoryOf == OriginHook) {
			event, _, _ := strings.Cut(t.HookCalls[e-1].Event, ":")
			rm.JoinBefore = t.req.Framing.Join[event]
		}
		switch {
		case len(m.ToolCalls) > 0:
			for _, tc := range m.ToolCalls {
				args, _ := json.Marshal(tc.Arguments)
				if tc.Arguments == nil {
					args = []byte("{}")
				}
				rm.ToolCalls = append(rm.ToolCalls, request.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: args})
			}
		case m.Role == "tool":
			rm.ToolCallID, rm.ToolName = m.ToolCallID, m.Tool
			tc := t.toolCalls[t.msgs[id].ref]
			rm.IsError = tc.Error != "" || tc.Status == ToolDenied || tc.Status == ToolSkipped
		}
		out = append(out, rm)
	}
	return out
}

// isKind says whether m is of origin o, or the history of one.
func isKind(m Message, o Origin) bool {
	return m.Origin == o || m.Origin == OriginHistory && m.HistoryOf == o
}

// startTurn marks the first message of the user's last turn in msgs (ms
// the same messages as the trace has them): the prompt and the hook
// words right before it stand apart from what came before.
func startTurn(msgs []request.Msg, ms []Message) {
	at := -1
	for k := range ms {
		if isKind(ms[k], OriginUserInput) {
			at = k
		}
	}
	for at > 0 && isKind(ms[at-1], OriginHook) {
		at--
	}
	if at >= 0 && at < len(msgs) {
		msgs[at].Starts = true
	}
}

// markSent records when the prompt id was sent.
func (t *Trace) markSent(id int32, at string) {
	if t.sent == nil {
		t.sent = map[int32]string{}
	}
	t.sent[id] = at
}

// sentNow marks message id a prompt the agent writes in its wrapper, sent
// now (an agent without a wrapper: nothing).
func (r *runner) sentNow(id int32) {
	if r.agentMode() && r.cfg.Request.Framing.Prompt != nil {
		r.t.markSent(id, time.Now().Format("2006-01-02T15:04:05.000-07:00"))
	}
}

// RequestModel is the agent's request model the run followed (nil: none).
func (t *Trace) RequestModel() *request.Model { return t.req }

// SetRequestModel gives a trace loaded from a record its agent's request
// model, so its calls' bodies can be written again.
func (t *Trace) SetRequestModel(m *request.Model) { t.req = m }

// Facts are an agent's run's slot values (nil: no agent's run).
func (t *Trace) Facts() request.Values { return t.facts }

// AgentText says what the trace knows of message id as the agent's own
// text: the pieces it holds, and for a placeholder the tokens it stands for.
func (t *Trace) AgentText(id int) (pieces []string, placeholder bool, tokens int, ok bool) {
	a, ok := t.agentInfo[int32(id)]
	return a.pieces, a.placeholder, a.tokens, ok
}

// toolContent is the text the model reads of a tool's result: seed 000's
// engine says "error: " before a failed tool's words; an agent sends a
// failure's words as they are (marked as an error), and its own words for
// a tool that printed nothing.
func (r *runner) toolContent(tc *ToolCall, ran bool) string {
	switch {
	case !ran:
		return tc.Result
	case !r.agentMode():
		if tc.Error != "" {
			return "error: " + tc.Error
		}
		return tc.Result
	case r.modelFrame(tc.Name) != nil:
		return r.framedResult(r.modelFrame(tc.Name), tc)
	case tc.Error != "":
		return tc.Error
	case tc.Result == "" && r.cfg.Request.Framing.EmptyResult != nil:
		return r.cfg.Request.Framing.EmptyResult.Fill(request.Values{"tool": tc.Name})
	}
	return tc.Result
}

// afterTool adds the agent's own words after a tool's result (Claude
// Code's skill instructions after its Skill tool read a skill), filled with
// the values of the thing the call's argument names.
func (r *runner) afterTool(tc *ToolCall) {
	if !r.agentMode() {
		return
	}
	for _, tp := range r.cfg.Request.Loop.AfterTool {
		if tp.Tool != tc.Name {
			continue
		}
		name, _ := tc.Arguments[tp.Arg].(string)
		v := r.values(r.user)
		for _, s := range []string{request.SlotSkillDir, request.SlotSkillBody} {
			if x, ok := r.cfg.Facts[s+":"+name]; ok {
				v[s] = x
			}
		}
		if _, ok := r.cfg.Facts[request.SlotSkillDir+":"+name]; !ok && tp.Arg != "" {
			continue // nothing of that name: the agent adds nothing
		}
		r.addPiece(&tp.Piece, v)
	}
}

// remind adds the agent's reminders due after quiet answers in a row that
// called tools and said nothing; done holds those already given this turn.
func (r *runner) remind(quiet int, done map[int]bool) {
	if !r.agentMode() {
		return
	}
	for k, rm := range r.cfg.Request.Loop.Reminders {
		if done[k] || quiet < rm.After {
			continue
		}
		done[k] = true
		r.addPiece(&rm.Piece, r.values(r.user))
	}
}

// addPiece adds a piece of the agent's own to the conversation: its text
// with v, or (a shipped shape) the placeholder of its size.
func (r *runner) addPiece(p *request.Piece, v request.Values) {
	text, a := p.Text.Fill(v), agentMsg{pieces: []string{p.ID}}
	if p.Text == nil {
		text, a.placeholder, a.tokens = request.Placeholder(r.cfg.Request, p), true, p.Shape.Tokens
	}
	id := r.t.add(msg{content: text, role: skills.Role(p.Role), origin: OriginAgentContext, req: r.pos.req})
	r.t.agentInfo[id] = a
}

// RequestModel is the request model of the agent whose loop the run is (nil:
// seed 000's flow): what a hook system reads of its agent (the stdin key
// order, the transcript it keeps).
func (e *Event) RequestModel() *request.Model {
	if e.r == nil || !e.r.agentMode() {
		return nil
	}
	return e.r.cfg.Request
}
