package engine

import (
	"context"
	"strings"

	"hookstudio/app/hooks/skills"
)

// MicroCompacted is what micro-compaction leaves of an older tool result.
const MicroCompacted = "[tool result cleared by micro-compaction]"

// DefaultSummary stands in for an auto-compaction summary the scenario
// does not script.
const DefaultSummary = "(summary of the conversation so far)"

// compact plays a compaction the scenario scripts before round's call:
// before_compact hooks (which may cancel it), the compaction itself as one
// step, then after_compact hooks (which may replace the list).
func (r *runner) compact(ctx context.Context, round int) error {
	req := &r.sc.Requests[r.pos.req]
	if round >= len(req.Rounds) || req.Rounds[round].Compact == nil {
		return nil
	}
	c := req.Rounds[round].Compact
	kind := Compaction(c.Kind)
	r.compactContext = nil
	before := &Event{Point: PointBeforeCompact, Compact: kind}
	if err := r.fire(ctx, before); err != nil {
		return err
	}
	if before.state != nil && before.state.stopped != "" {
		return nil // a hook cancelled the compaction; the list stays
	}
	t := r.t
	t.begin(StepCompact, r.pos, "", -1)
	t.steps[len(t.steps)-1].phase = r.pos.phase
	ids := t.MessageIDsAt(len(t.steps) - 1)
	switch kind {
	case CompactMicro:
		// Every tool result but those of the last round is cleared.
		last := -1
		for k, id := range ids {
			if t.msgs[id].origin == OriginAssistant {
				last = k
			}
		}
		for k, id := range ids {
			if m := t.msgs[id]; m.origin == OriginTool && k < last && m.content != MicroCompacted {
				r.replaceInPlace(int32(id), MicroCompacted)
			}
		}
	default:
		summary := c.Summary
		if summary == "" {
			summary = DefaultSummary
		}
		if len(r.compactContext) > 0 {
			summary += "\n\n" + strings.Join(r.compactContext, "\n\n")
		}
		var pos float64
		placed := false
		for _, id := range ids {
			m := t.msgs[id]
			if m.origin == OriginSystemPrompt {
				continue
			}
			if !placed {
				pos, placed = t.posOf(int32(id)), true
			}
			t.remove(int32(id))
		}
		if !placed {
			pos = float64(len(t.msgs))
		}
		t.addAt(msg{content: summary, role: skills.User, origin: OriginCompaction, req: r.pos.req}, pos)
	}
	return r.fire(ctx, &Event{Point: PointAfterCompact, Compact: kind})
}

// replaceInPlace rewrites a message for good, outside any hook call.
func (r *runner) replaceInPlace(id int32, content string) {
	t := r.t
	old := t.msgs[id]
	nm := old
	nm.content = content
	t.remove(id)
	nid := t.addAt(nm, t.posOf(id))
	if t.replacedBy == nil {
		t.replacedBy = map[int32]int32{}
	}
	t.replacedBy[id] = nid
	for k, v := range r.toolMsg {
		if v == id {
			r.toolMsg[k] = nid
		}
	}
}
