package engine

import "hookstudio/app/hooks/skills"

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

// add appends m at the end of its request's list.
func (t *Trace) add(m msg) int32 { return t.addAt(m, float64(len(t.msgs))) }

// addAt appends m to the table, placed at pos in its request's list.
func (t *Trace) addAt(m msg, pos float64) int32 {
	last := len(t.steps) - 1
	id := int32(len(t.msgs))
	m.created, m.removed = int32(last), -1
	if pos != float64(id) {
		t.setPos(id, pos, m.req)
	}
	t.msgs = append(t.msgs, m)
	t.steps[last].addTo = int32(len(t.msgs))
	return id
}

// posOf is id's position in its request's list.
func (t *Trace) posOf(id int32) float64 {
	if p, ok := t.pos[id]; ok {
		return p
	}
	return float64(id)
}

// slotBefore is a position between id and the message before it in the
// current list.
func (t *Trace) slotBefore(id int32) float64 {
	p := t.posOf(id)
	lo := p - 1
	for _, other := range t.MessageIDsAt(len(t.steps) - 1) {
		if q := t.posOf(int32(other)); q < p && q > lo {
			lo = q
		}
	}
	return (lo + p) / 2
}

func (t *Trace) setPos(id int32, pos float64, req int32) {
	if t.pos == nil {
		t.pos, t.reordered = map[int32]float64{}, map[int32]bool{}
	}
	t.pos[id], t.reordered[req] = pos, true
}

// remove takes id out of the list for good; a message already removed
// (by a compaction, say) stays as it was.
func (t *Trace) remove(id int32) {
	if t.msgs[id].removed >= 0 {
		return
	}
	last := len(t.steps) - 1
	t.msgs[id].removed = int32(last)
	t.removedIDs = append(t.removedIDs, id)
	t.steps[last].remTo = int32(len(t.removedIDs))
}

// hide takes id out of the list until unhide: a call-only change.
func (t *Trace) hide(id int32) {
	last := len(t.steps) - 1
	if t.hidden == nil {
		t.hidden = map[int32][]span{}
	}
	t.hidden[id] = append(t.hidden[id], span{from: int32(last), to: -1})
	t.removedIDs = append(t.removedIDs, id)
	t.steps[last].remTo = int32(len(t.removedIDs))
}

// unhide brings back a hidden message at the current step.
func (t *Trace) unhide(id int32) {
	last := int32(len(t.steps) - 1)
	sp := t.hidden[id]
	sp[len(sp)-1].to = last
	if t.restored == nil {
		t.restored = map[int32][]int32{}
	}
	t.restored[last] = append(t.restored[last], id)
}

// current follows in-place replacements from id to the message now standing
// in its place, so seed-000's removal by identity still finds it.
func (t *Trace) current(id int32) int32 {
	for {
		next, ok := t.replacedBy[id]
		if !ok {
			return id
		}
		id = next
	}
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
