package engine

import (
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// sideCalls makes the agent's side calls due at when (its request model's
// Loop.Sides): before the turn's first call (request.SideTurnStart), or
// after the turn ended on answer at round (request.SideAfterTurn). Each is
// a call of the run, of phase side, whose answer no round of the scenario
// scripts and no hook sees: it takes the answer its request model says
// the agent got (what a capture answers it with) and changes nothing
// after it.
func (r *runner) sideCalls(when request.SideWhen, round int, answer string, info func() *RequestInfo) {
	if !r.agentMode() {
		return
	}
	for i := range r.cfg.Request.Loop.Sides {
		s := &r.cfg.Request.Loop.Sides[i]
		if s.When != when || s.Direct && round != 0 {
			continue
		}
		r.sideCall(s, answer, info)
	}
}

// sideCall records one side call: for its call only, the agent's system
// prompt makes way for the side call's, the conversation stays (or goes,
// Alone), the turn's answer (after a turn) and the side call's own
// messages follow it, and it offers its own tools.
func (r *runner) sideCall(s *request.Side, answer string, info func() *RequestInfo) {
	t, m := r.t, r.cfg.Request
	pos := r.pos
	pos.phase = PhaseSide
	ci := len(t.Calls)
	si := t.begin(StepLLMCall, pos, "", int32(ci))
	ids := t.MessageIDsAt(si)
	front := float64(len(t.msgs))
	if len(ids) > 0 {
		front = t.posOf(int32(ids[0]))
	}
	for _, id := range ids {
		if a, ok := t.agentInfo[int32(id)]; ok && a.system || s.Alone {
			t.hide(int32(id))
			r.overlayHidden = append(r.overlayHidden, int32(id))
		}
	}
	v := r.values(r.user)
	items := m.SideItems(s, v)
	for k, it := range items {
		id := t.addAt(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginSystemPrompt, req: pos.req}, front-1+float64(k)/float64(len(items)+1))
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens, system: true}
		r.overlayAdded = append(r.overlayAdded, id)
	}
	if !s.Alone && s.When == request.SideAfterTurn {
		r.overlayAdded = append(r.overlayAdded, t.add(msg{content: answer, role: "assistant", origin: OriginAssistant, ref: int32(len(t.toolCalls)), req: pos.req}))
	}
	for k := range s.After {
		if !s.After[k].Present(v) {
			continue
		}
		it := m.PieceItem(&s.After[k], v)
		id := t.add(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginAgentContext, req: pos.req})
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens}
		r.overlayAdded = append(r.overlayAdded, id)
	}
	lc := LLMCall{Index: ci, Request: int(pos.req), Phase: PhaseSide, Step: si, Model: s.Model, Side: s.Name}
	if s.Answer != nil {
		lc.Content = *s.Answer
	}
	for _, tl := range s.Tools {
		lc.Offered = append(lc.Offered, tl.Name)
		lc.ToolTokens += tl.Shape.Tokens
	}
	t.Calls = append(t.Calls, lc)
	info().Calls = append(info().Calls, ci)
	r.restore()
}
