package engine

import (
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// sideCalls makes the agent's side calls of when (its request model's
// Loop.Side): a call after the turn ended on answer at round, or before
// its first call. Each is a call of the run the scenario scripts no answer
// for: it takes the answer its model assumes and changes nothing after it.
func (r *runner) sideCalls(when request.SideWhen, round int, answer string, info func() *RequestInfo) {
	if !r.agentMode() {
		return
	}
	for i := range r.cfg.Request.Loop.Side {
		sc := &r.cfg.Request.Loop.Side[i]
		if sc.When != when || sc.Direct && round != 0 {
			continue
		}
		r.sideCall(sc, answer, info)
	}
}

// sideCall records one side call: for its call only, the agent's system
// prompt makes way for the side call's, the turn's answer (after a turn)
// and the side call's own messages follow the conversation it carries
// (or stand alone), and it offers its own tools.
func (r *runner) sideCall(sc *request.SideCall, answer string, info func() *RequestInfo) {
	t := r.t
	pos := r.pos
	pos.phase, pos.round = PhaseSide, -1
	v := r.values(r.user)
	t.begin(StepInject, pos, "", -1)
	var hidden, added []int32
	ids := t.MessageIDsAt(len(t.steps) - 1)
	front := 0.0
	if len(ids) > 0 {
		front = t.posOf(int32(ids[0]))
	}
	for _, id := range ids {
		if a, ok := t.agentInfo[int32(id)]; ok && a.system || !sc.Conversation {
			t.hide(int32(id))
			hidden = append(hidden, int32(id))
		}
	}
	m := r.cfg.Request
	for k := range sc.System {
		it := m.PieceItem(&sc.System[k], v)
		at := front - 1 + float64(k)/float64(len(sc.System)+1)
		id := t.addAt(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginSystemPrompt, req: pos.req}, at)
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens, system: true}
		added = append(added, id)
	}
	if sc.Conversation && sc.When == request.SideAfterTurn {
		added = append(added, t.add(msg{content: answer, role: "assistant", origin: OriginAssistant, ref: int32(len(t.toolCalls)), req: pos.req}))
	}
	for k := range sc.After {
		it := m.PieceItem(&sc.After[k], v)
		id := t.add(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginAgentContext, req: pos.req})
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens}
		added = append(added, id)
	}
	ci := len(t.Calls)
	si := t.begin(StepLLMCall, pos, "", int32(ci))
	lc := LLMCall{Index: ci, Request: int(pos.req), Phase: PhaseSide, Step: si, Content: sc.Answer, Side: sc.ID}
	for _, tl := range sc.Tools {
		lc.Offered = append(lc.Offered, tl.Name)
		lc.ToolTokens += tl.Shape.Tokens
	}
	t.Calls = append(t.Calls, lc)
	info().Calls = append(info().Calls, ci)
	t.begin(StepRestore, pos, "", -1)
	for _, id := range added {
		t.remove(id)
	}
	for _, id := range hidden {
		t.unhide(id)
	}
}
