package engine

import (
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// sideCalls makes the agent's side calls due at when
// (request.SideTurnStart): each is a call of the run, of phase side, whose
// request is the side call's own — its system prompt in place of the
// agent's, for that call only, and the conversation as it stands — and
// whose answer is the one its request model says the agent got (what a
// capture answers it with). No round of the scenario's answers it and no
// hook sees it: the CLI asks its router beside the model calls its hooks
// watch.
func (r *runner) sideCalls(when string, info func() *RequestInfo) {
	if !r.agentMode() {
		return
	}
	for i := range r.cfg.Request.Loop.Sides {
		if s := &r.cfg.Request.Loop.Sides[i]; s.When == when {
			r.sideCall(s, info)
		}
	}
}

func (r *runner) sideCall(s *request.Side, info func() *RequestInfo) {
	t, m := r.t, r.cfg.Request
	pos := r.pos
	pos.phase = PhaseSide
	ci := len(t.Calls)
	si := t.begin(StepLLMCall, pos, "", int32(ci))
	first := r.firstPos()
	for _, id := range t.MessageIDsAt(si) {
		if a, ok := t.agentInfo[int32(id)]; ok && a.system {
			t.hide(int32(id))
			r.overlayHidden = append(r.overlayHidden, int32(id))
		}
	}
	items := m.SideItems(s, r.values(r.user))
	for k, it := range items {
		id := t.addAt(msg{content: it.Text, role: skills.Role(it.Role), origin: OriginSystemPrompt, req: pos.req}, first-1+float64(k)/float64(len(items)+1))
		t.agentInfo[id] = agentMsg{pieces: it.Pieces, placeholder: it.Placeholder, tokens: it.Tokens, system: true}
		r.overlayAdded = append(r.overlayAdded, id)
	}
	lc := LLMCall{Index: ci, Request: int(pos.req), Phase: PhaseSide, Step: si, Model: s.Model, Side: s.Name}
	if s.Answer != nil {
		lc.Content = *s.Answer
	}
	t.Calls = append(t.Calls, lc)
	info().Calls = append(info().Calls, ci)
	r.restore()
}
