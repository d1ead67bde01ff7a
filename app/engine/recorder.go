package engine

import "hookstudio/app/skills"

// at is where in the flow an operation happens.
type at struct {
	req, round int32 // round -1 outside the agent loop
	phase      Phase
}

// begin opens a new step; add and remove attach messages to it until the
// next begin.
func (t *Trace) begin(k StepKind, pos at, timing skills.Timing, ref int32) int {
	n, r := int32(len(t.msgs)), int32(len(t.removedIDs))
	t.steps = append(t.steps, step{
		kind: k, phase: pos.phase, timing: timing, req: pos.req, round: pos.round, ref: ref,
		addFrom: n, addTo: n, remFrom: r, remTo: r,
	})
	if k := len(t.Requests); k > 0 {
		t.Requests[k-1].LastStep = len(t.steps) - 1 // a request in progress ends here so far
	}
	return len(t.steps) - 1
}

func (t *Trace) add(m msg) int32 {
	last := len(t.steps) - 1
	m.created, m.removed = int32(last), -1
	t.msgs = append(t.msgs, m)
	t.steps[last].addTo = int32(len(t.msgs))
	return int32(len(t.msgs) - 1)
}

func (t *Trace) remove(id int32) {
	last := len(t.steps) - 1
	t.msgs[id].removed = int32(last)
	t.removedIDs = append(t.removedIDs, id)
	t.steps[last].remTo = int32(len(t.removedIDs))
}

// hookRef returns the index of h in t.Hooks, adding it on first use.
func (t *Trace) hookRef(h *skills.Hook) int32 {
	if i, ok := t.hookIndex[h.ID()]; ok {
		return i
	}
	if t.hookIndex == nil {
		t.hookIndex = map[string]int32{}
	}
	t.Hooks = append(t.Hooks, *h)
	i := int32(len(t.Hooks) - 1)
	t.hookIndex[h.ID()] = i
	return i
}

func (t *Trace) addToolCall(tc ToolCall) int32 {
	t.toolCalls = append(t.toolCalls, tc)
	return int32(len(t.toolCalls) - 1)
}
