package studio

import (
	"fmt"
	"strings"
)

// CallChange says how one LLM call's message list differs from the same
// call in the previous simulation.
type CallChange struct {
	Call    int    `json:"call"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	Changed int    `json:"changed"`
	Summary string `json:"summary"`
}

// keys interns each message's identity across two runs: where it came
// from. Content is compared separately, so an edited hook text reads as
// "changed", not as one removal and one addition.
type keys map[string]int32

func (k keys) of(m *Message) int32 {
	s := m.Tag() + "\x00" + m.Role
	id, ok := k[s]
	if !ok {
		id = int32(len(k))
		k[s] = id
	}
	return id
}

// diffViews compares every call of next with the same call of prev.
func diffViews(prev, next *TraceView) []CallChange {
	k := keys{}
	prevKeys := make([]int32, len(prev.Messages))
	for i := range prev.Messages {
		prevKeys[i] = k.of(&prev.Messages[i])
	}
	nextKeys := make([]int32, len(next.Messages))
	for i := range next.Messages {
		nextKeys[i] = k.of(&next.Messages[i])
	}
	out := []CallChange{}
	for c := range next.Calls {
		isNew := c >= len(prev.callIDs)
		var before []int
		if !isNew {
			before = prev.callIDs[c]
		}
		ch := diffLists(
			side{ids: before, keys: prevKeys, msgs: prev.Messages},
			side{ids: next.callIDs[c], keys: nextKeys, msgs: next.Messages},
		)
		if ch.Added+ch.Removed+ch.Changed == 0 && !isNew {
			continue
		}
		ch.Call, ch.Summary = c, summary(ch)
		if isNew {
			ch.Summary = "new LLM call"
		}
		out = append(out, ch)
	}
	for c := len(next.Calls); c < len(prev.Calls); c++ {
		out = append(out, CallChange{Call: c, Removed: len(prev.callIDs[c]), Summary: "LLM call no longer made"})
	}
	return out
}

// side is one call's message list in one run.
type side struct {
	ids  []int
	keys []int32
	msgs []Message
}

func (s side) key(i int) int32                { return s.keys[s.ids[i]] }
func (s side) content(i int) string           { return s.msgs[s.ids[i]].Content }
func (s side) same(i int, o side, j int) bool { return s.key(i) == o.key(j) }

// diffLists aligns two message lists by origin with a longest common
// subsequence; aligned pairs whose content differs count as changed. The
// common prefix and suffix (most of a list, between two saves) are matched
// first, so the quadratic part only sees what moved.
func diffLists(a, b side) CallChange {
	var ch CallChange
	pair := func(i, j int) {
		if a.content(i) != b.content(j) {
			ch.Changed++
		}
	}
	lo, an, bn := 0, len(a.ids), len(b.ids)
	for lo < an && lo < bn && a.same(lo, b, lo) {
		pair(lo, lo)
		lo++
	}
	for an > lo && bn > lo && a.same(an-1, b, bn-1) {
		pair(an-1, bn-1)
		an, bn = an-1, bn-1
	}
	n, m := an-lo, bn-lo
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a.same(lo+i, b, lo+j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a.same(lo+i, b, lo+j):
			pair(lo+i, lo+j)
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			ch.Removed++
			i++
		default:
			ch.Added++
			j++
		}
	}
	ch.Removed += n - i
	ch.Added += m - j
	return ch
}

func summary(ch CallChange) string {
	var parts []string
	if ch.Added > 0 {
		parts = append(parts, fmt.Sprintf("%d added", ch.Added))
	}
	if ch.Removed > 0 {
		parts = append(parts, fmt.Sprintf("%d removed", ch.Removed))
	}
	if ch.Changed > 0 {
		parts = append(parts, fmt.Sprintf("%d changed", ch.Changed))
	}
	return strings.Join(parts, ", ")
}
