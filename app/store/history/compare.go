package history

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
)

// Comparison is two runs compared call by call.
type Comparison struct {
	A            RunSummary `json:"a"`
	B            RunSummary `json:"b"`
	Calls        []CallDiff `json:"calls"`
	TokensA      int        `json:"tokens_a"` // prompt tokens over all calls
	TokensB      int        `json:"tokens_b"`
	TokenDelta   int        `json:"token_delta"`
	ChangedCalls int        `json:"changed_calls"` // calls not "same"
}

// Call statuses of a CallDiff.
const (
	CallSame    = "same"
	CallChanged = "changed"
	CallAdded   = "added"   // only in B
	CallRemoved = "removed" // only in A
)

// Message operations of a MessageDiff.
const (
	MsgAdded   = "added"
	MsgRemoved = "removed"
	MsgChanged = "changed"
)

// CallDiff is one call position (request, phase, round) in both runs.
type CallDiff struct {
	Request    int           `json:"request"`
	Phase      engine.Phase  `json:"phase"`
	Round      *int          `json:"round"`
	A          *int          `json:"a"` // call index in run A, nil if absent
	B          *int          `json:"b"`
	Status     string        `json:"status"`
	TokensA    int           `json:"tokens_a"`
	TokensB    int           `json:"tokens_b"`
	TokenDelta int           `json:"token_delta"`
	Same       int           `json:"same"` // messages equal in both
	Messages   []MessageDiff `json:"messages"`
}

// MessageDiff is a message added, removed or changed between the runs.
type MessageDiff struct {
	Op         string `json:"op"`
	Tag        string `json:"tag"` // conformance notation: hook:NAME, tool:NAME, h.user...
	Role       string `json:"role"`
	A          *int   `json:"a"` // message id in run A
	B          *int   `json:"b"`
	ContentA   string `json:"content_a,omitempty"`
	ContentB   string `json:"content_b,omitempty"`
	TokensA    int    `json:"tokens_a"`
	TokensB    int    `json:"tokens_b"`
	TokenDelta int    `json:"token_delta"`
}

// Compare diffs run b against run a.
func (s *Store) Compare(ctx context.Context, a, b RunID) (Comparison, error) {
	ra, err := s.LoadRun(ctx, a)
	if err != nil {
		return Comparison{}, fmt.Errorf("compare: %w", err)
	}
	rb, err := s.LoadRun(ctx, b)
	if err != nil {
		return Comparison{}, fmt.Errorf("compare: %w", err)
	}
	return compareRuns(ra, rb), nil
}

type callKey struct {
	req   int
	phase int
	round int
}

func phaseRank(p engine.Phase) int {
	switch p {
	case engine.PhaseDirect:
		return 0
	case engine.PhasePlanning:
		return 1
	case engine.PhaseAgent:
		return 2
	}
	return 3
}

func keyOf(c *engine.LLMCall) callKey {
	k := callKey{req: c.Request, phase: phaseRank(c.Phase), round: -1}
	if c.Round != nil {
		k.round = *c.Round
	}
	return k
}

// side is one run prepared for diffing: each message's alignment key and
// content, built once rather than per call.
type side struct {
	run     *Run
	keys    []string
	content []string
	tags    []string
	roles   []string
	calls   map[callKey]int
}

func prepare(r *Run, cross bool) *side {
	t := r.Trace
	s := &side{run: r, calls: map[callKey]int{}}
	n := t.NumMessages()
	s.keys, s.content, s.tags, s.roles = make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for id := range n {
		m := t.Message(id)
		s.tags[id], s.roles[id], s.content[id] = m.Tag(), m.Role, m.Content
		// Alignment is by where a message came from and its role; the
		// skill keeps two skills' same-named hooks apart.
		s.keys[id] = s.tags[id] + "\x00" + m.Skill + "\x00" + m.Role
		if cross {
			s.keys[id], s.content[id] = crossKey(t, &m), crossContent(m.Content)
		}
	}
	for i := range t.Calls {
		s.calls[keyOf(&t.Calls[i])] = i
	}
	return s
}

func (s *side) tokens(id int) int {
	if id < len(s.run.MessageTokens) {
		return s.run.MessageTokens[id]
	}
	return 0
}

func (s *side) callTokens(c int) int {
	if c < len(s.run.Calls) {
		return s.run.Calls[c].TokensIn
	}
	return 0
}

func compareRuns(ra, rb *Run) Comparison {
	// a simulation beside what a real agent sent (a capture, a session):
	// the two tell a message's origin each in its own way
	cross := isReal(ra.Source) != isReal(rb.Source)
	a, b := prepare(ra, cross), prepare(rb, cross)
	cmpRes := Comparison{A: ra.RunSummary, B: rb.RunSummary, Calls: []CallDiff{}}
	keys := make([]callKey, 0, len(a.calls)+len(b.calls))
	for k := range a.calls {
		keys = append(keys, k)
	}
	for k := range b.calls {
		if _, ok := a.calls[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y callKey) int {
		return cmp.Or(cmp.Compare(x.req, y.req), cmp.Compare(x.phase, y.phase), cmp.Compare(x.round, y.round))
	})
	for _, k := range keys {
		ca, inA := a.calls[k]
		cb, inB := b.calls[k]
		var d CallDiff
		var call *engine.LLMCall
		var idsA, idsB []int
		if inA {
			call = &ra.Trace.Calls[ca]
			d.A, d.TokensA = &ca, a.callTokens(ca)
			idsA = ra.Trace.MessageIDsAt(call.Step)
		}
		if inB {
			call = &rb.Trace.Calls[cb]
			d.B, d.TokensB = &cb, b.callTokens(cb)
			idsB = rb.Trace.MessageIDsAt(call.Step)
		}
		d.Request, d.Phase, d.Round = call.Request, call.Phase, call.Round
		d.TokenDelta = d.TokensB - d.TokensA
		d.Messages, d.Same = diffMessages(a, b, idsA, idsB)
		switch {
		case !inA:
			d.Status = CallAdded
		case !inB:
			d.Status = CallRemoved
		case len(d.Messages) > 0 || d.TokenDelta != 0:
			d.Status = CallChanged
		default:
			d.Status = CallSame
		}
		if d.Status != CallSame {
			cmpRes.ChangedCalls++
		}
		cmpRes.TokensA += d.TokensA
		cmpRes.TokensB += d.TokensB
		cmpRes.Calls = append(cmpRes.Calls, d)
	}
	cmpRes.TokenDelta = cmpRes.TokensB - cmpRes.TokensA
	return cmpRes
}

// isReal says a run is what a real agent sent, not a simulation.
func isReal(s Source) bool { return s == SourceCapture || s == SourceSession }

// crossKey aligns a message of a simulation with one of a real agent's:
// by what it is — the agent's system prompt, its own context, the user's,
// the model's, a tool's result, a hook's words at an event — whatever
// each calls the hook (a simulation its handler, a capture its event) and
// whether a later request carries it as history.
func crossKey(t *engine.Trace, m *engine.Message) string {
	kind := m.Origin
	if kind == engine.OriginHistory {
		kind = m.HistoryOf
	}
	key := string(kind)
	switch kind {
	case engine.OriginHook:
		event := m.Hook
		if m.HookCall != nil && *m.HookCall < len(t.HookCalls) {
			event = t.HookCalls[*m.HookCall].Event
		}
		event, _, _ = strings.Cut(event, ":")
		key += ":" + event
	case engine.OriginTool:
		key += ":" + m.Tool
		if m.EditedBy != "" && m.InPlace {
			key = "hook-tool:" + m.Tool // a hook's words in the tool's place
		}
	}
	return key + "\x00" + m.Role
}

// crossContent is a text as two runs of one scenario on two machines or
// days compare it: the date and UUIDs aside, and the newline a real
// agent's framing may end a block with.
func crossContent(s string) string {
	s = uuidRe.ReplaceAllString(s, "{uuid}")
	s = dateRe.ReplaceAllString(s, "{date}")
	return strings.TrimRight(s, "\n")
}

var (
	uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	dateRe = regexp.MustCompile(`\b20[0-9]{2}-[01][0-9]-[0-3][0-9]\b`)
)

// maxLCSCells bounds the quadratic part of a diff; past it the differing
// middle is reported as removed + added rather than aligned.
const maxLCSCells = 4 << 20

// diffMessages aligns two message lists by key with an LCS; aligned pairs
// whose contents differ are "changed". Common prefix and suffix are
// trimmed first: runs of one scenario share nearly all their structure, so
// the quadratic part is usually empty even for lists of thousands.
func diffMessages(a, b *side, ia, ib []int) ([]MessageDiff, int) {
	out := []MessageDiff{}
	same := 0
	pair := func(x, y int) {
		if a.content[x] == b.content[y] {
			same++
			return
		}
		ta, tb := a.tokens(x), b.tokens(y)
		out = append(out, MessageDiff{Op: MsgChanged, Tag: b.tags[y], Role: b.roles[y], A: &x, B: &y,
			ContentA: a.content[x], ContentB: b.content[y], TokensA: ta, TokensB: tb, TokenDelta: tb - ta})
	}
	removed := func(x int) {
		t := a.tokens(x)
		out = append(out, MessageDiff{Op: MsgRemoved, Tag: a.tags[x], Role: a.roles[x], A: &x, ContentA: a.content[x], TokensA: t, TokenDelta: -t})
	}
	added := func(y int) {
		t := b.tokens(y)
		out = append(out, MessageDiff{Op: MsgAdded, Tag: b.tags[y], Role: b.roles[y], B: &y, ContentB: b.content[y], TokensB: t, TokenDelta: t})
	}

	pre := 0
	for pre < len(ia) && pre < len(ib) && a.keys[ia[pre]] == b.keys[ib[pre]] {
		pair(ia[pre], ib[pre])
		pre++
	}
	suf := 0
	for suf < len(ia)-pre && suf < len(ib)-pre && a.keys[ia[len(ia)-1-suf]] == b.keys[ib[len(ib)-1-suf]] {
		suf++
	}
	ma, mb := ia[pre:len(ia)-suf], ib[pre:len(ib)-suf]
	if len(ma)*len(mb) > maxLCSCells {
		for _, x := range ma {
			removed(x)
		}
		for _, y := range mb {
			added(y)
		}
	} else {
		// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
		w := len(mb) + 1
		lcs := make([]int32, (len(ma)+1)*w)
		for i := len(ma) - 1; i >= 0; i-- {
			for j := len(mb) - 1; j >= 0; j-- {
				if a.keys[ma[i]] == b.keys[mb[j]] {
					lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
				} else {
					lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(ma) && j < len(mb) {
			switch {
			case a.keys[ma[i]] == b.keys[mb[j]]:
				pair(ma[i], mb[j])
				i++
				j++
			case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
				removed(ma[i])
				i++
			default:
				added(mb[j])
				j++
			}
		}
		for ; i < len(ma); i++ {
			removed(ma[i])
		}
		for ; j < len(mb); j++ {
			added(mb[j])
		}
	}
	for k := suf; k > 0; k-- {
		pair(ia[len(ia)-k], ib[len(ib)-k])
	}
	return out, same
}
