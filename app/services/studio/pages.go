package studio

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agents/loop"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
)

// TextStore reads a stored run's texts by id (history.Store).
type TextStore interface {
	Texts(ctx context.Context, ids []history.TextID) (map[history.TextID]string, error)
}

// Pages is a stored run opened to be shown a page at a time
// (docs/trace-view.md, "Pages"): its skeleton — steps, the messages'
// lifetimes and provenance, the calls without their texts — in memory, and
// the texts read from the history when a page shows them. Where the
// message list at any step starts and what it holds, each call's prompt
// size and each hook's copies per call are worked out from the skeleton,
// so moving anywhere in a 50 MB session costs a page, never the run. Safe
// for concurrent use.
type Pages struct {
	texts TextStore
	run   history.RunSummary
	tr    *engine.Trace
	refs  history.TextRefs
	head  PagesHead
	roles roleCosts

	msgs     []pageMsg
	reqMsgs  [][2]int // per request: its messages' ids [from, to)
	reqCalls [][2]int // per request: its calls [from, to)
	callStep []int
	// the calls each hook's message reaches: [from, to) call ranges
	hookMsgs []hookMsg
	nodes    []int // the flow node of each step

	mu      sync.Mutex
	counts  map[history.TextID]int
	settled bool  // the run's token figures are final: the stored ones
	stored  []int // message tokens as stored (settled runs)
	sums    *callSums
}

type pageMsg struct {
	req, created, removed int32
	place                 float64 // pos, else the id: the list's order
	hidden                [][2]int32
	role                  string
	row                   int32 // matrix row of a hook's words, -1 none
}

type hookMsg struct {
	id     int
	row    int32
	ranges [][2]int // calls that receive it
}

// PagesHead is what a paged run says of itself at once: its size, its
// requests, hooks and loop, the matrix's rows; everything else is asked
// for by page.
type PagesHead struct {
	Run               history.RunSummary   `json:"run"`
	Scenario          string               `json:"scenario"`
	File              string               `json:"file"`
	Status            string               `json:"status"`
	Error             string               `json:"error,omitempty"`
	Agent             *engine.Agent        `json:"agent,omitempty"`
	Steps             int                  `json:"steps"`
	Calls             int                  `json:"calls"`
	Messages          int                  `json:"messages"`
	Hooks             []skills.Hook        `json:"hooks"`
	Requests          []engine.RequestInfo `json:"requests"`
	Carried           []Carried            `json:"carried"` // per request
	Matrix            MatrixHead           `json:"matrix"`
	Loop              *loop.Loop           `json:"loop"`
	Why               string               `json:"why"`
	Visits            []Visits             `json:"visits"` // per request
	HookCalls         int                  `json:"hook_calls"`
	ChangingHookCalls int                  `json:"changing_hook_calls"` // hook calls that changed what the model reads
	Tokens            TokenState           `json:"tokens"`
}

// Carried is what a request carries in from the requests before it.
type Carried struct {
	Messages   int `json:"messages"`
	HookCopies int `json:"hook_copies"`
}

// Visits are, for one request, the first step at which each node of the
// loop is reached and the hook invocations at each node.
type Visits struct {
	First map[string]int `json:"first"`
	Hooks map[string]int `json:"hooks"`
}

// MatrixHead is the visibility matrix without its cells: its rows (as
// Matrix has them), each row's tokens over all calls and how many calls
// receive a copy.
type MatrixHead struct {
	Hooks   []string `json:"hooks"`
	Systems []string `json:"systems"`
	Totals  []int    `json:"totals"`
	Seen    []int    `json:"seen"`
}

// TokenState says how far the run's token counts are: Pending texts are
// still to count (counted in the background; figures count the others).
type TokenState struct {
	Pending int `json:"pending"`
}

// PageStep is a step with its node in the loop and, for an LLM call, the
// call's warning.
type PageStep struct {
	engine.Step
	Node    int    `json:"node"`
	Warning string `json:"warning,omitempty"`
}

// ListHead is the message list at a step without its rows: what the
// message pane's header says, and where the step changed the list.
type ListHead struct {
	Step        int `json:"step"`
	Rows        int `json:"rows"`   // the list's messages and the ghosts of those the step removed
	Live        int `json:"live"`   // the list's messages
	Tokens      int `json:"tokens"` // their tokens (counted ones)
	Pending     int `json:"pending"`
	Added       int `json:"added"`
	Removed     int `json:"removed"`
	FirstChange int `json:"first_change"` // the first row the step added or removed, -1 none
}

// Row is one row of the message list at a step.
type Row struct {
	Message     Message `json:"message"`
	Injected    bool    `json:"injected"`     // the step added it
	RemovedHere bool    `json:"removed_here"` // the step removed it: shown where it was
}

// Cells are the visibility matrix's cells of rows [Hook, Hook+len) and
// calls [Call, Call+len(Copies[0])).
type Cells struct {
	Hook   int     `json:"hook"`
	Call   int     `json:"call"`
	Copies [][]int `json:"copies"`
	Tokens [][]int `json:"tokens"`
}

// Bar is a span of calls in the tokens-per-call chart: the largest prompt
// among them and which call it is.
type Bar struct {
	First   int `json:"first"`
	Last    int `json:"last"`
	Max     int `json:"max"`
	MaxCall int `json:"max_call"`
	// MaxStep is that call's step: a click on the bar goes there at once
	MaxStep int  `json:"max_step"`
	Pending bool `json:"pending"`
}

// Stop is where a continue from a step stops: the next step a breakpoint
// hits (-1: none, the run ends) and the breakpoint.
type Stop struct {
	Step int    `json:"step"`
	Hit  string `json:"hit,omitempty"`
}

// roleCosts is what a message of each role costs beyond its text.
type roleCosts struct {
	tc TokenCounter
	mu sync.Mutex
	m  map[string]int
}

func (r *roleCosts) of(role string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n, ok := r.m[role]; ok {
		return n
	}
	if r.m == nil {
		r.m = map[string]int{}
	}
	n := r.tc.CountMessage(role, "")
	r.m[role] = n
	return n
}

// OpenPages makes a paged view of the stored run sk, drawn as origin
// says; its texts are read from texts when a page needs them, roles cost
// what tc says.
func OpenPages(sk *history.Skeleton, texts TextStore, tc TokenCounter, origin RunOrigin) (*Pages, error) {
	tr := sk.Trace
	p := &Pages{texts: texts, run: sk.RunSummary, tr: tr, refs: sk.Texts, roles: roleCosts{tc: tc}, counts: sk.Counts,
		settled: sk.TokensPending == 0, stored: sk.MessageTokens}
	if len(p.refs.Messages) != tr.NumMessages() || len(p.refs.Calls) != len(tr.Calls) {
		return nil, fmt.Errorf("run %d: the skeleton names %d texts for %d messages", sk.ID, len(p.refs.Messages), tr.NumMessages())
	}
	if p.settled && len(p.stored) != tr.NumMessages() {
		p.settled = false // no stored counts to show: the kept counts will do
	}
	rec := tr.Record()
	nreq := len(tr.Requests)
	for i := range rec.Messages {
		nreq = max(nreq, int(rec.Messages[i].Request)+1)
	}
	for i := range rec.Steps {
		nreq = max(nreq, int(rec.Steps[i].Request)+1)
	}
	p.msgs = make([]pageMsg, len(rec.Messages))
	p.reqMsgs = make([][2]int, nreq)
	for i := range p.reqMsgs {
		p.reqMsgs[i] = [2]int{-1, -1}
	}
	for i := range rec.Messages {
		m := &rec.Messages[i]
		pm := pageMsg{req: m.Request, created: m.Created, removed: m.Removed, place: float64(i), role: string(m.Role), row: -1}
		if m.Pos != nil {
			pm.place = *m.Pos
		}
		p.msgs[i] = pm
		r := &p.reqMsgs[m.Request]
		if r[0] < 0 {
			r[0] = i
		}
		r[1] = i + 1
	}
	for _, sp := range rec.Hidden {
		p.msgs[sp.ID].hidden = append(p.msgs[sp.ID].hidden, [2]int32{sp.From, sp.To})
	}
	p.callStep = make([]int, len(tr.Calls))
	p.reqCalls = make([][2]int, nreq)
	for i := range p.reqCalls {
		p.reqCalls[i] = [2]int{-1, -1}
	}
	for c, lc := range tr.Calls {
		p.callStep[c] = lc.Step
		r := &p.reqCalls[lc.Request]
		if r[0] < 0 {
			r[0] = c
		}
		r[1] = c + 1
	}

	steps := tr.Steps()
	flow := flowOf(tr, origin, nil, steps)
	p.nodes = flow.Steps
	p.head = PagesHead{Run: sk.RunSummary, Scenario: tr.Scenario, File: sk.ScenarioFile, Status: string(tr.Status), Error: tr.Error, Agent: tr.Agent,
		Steps: len(steps), Calls: len(tr.Calls), Messages: tr.NumMessages(), Hooks: tr.Hooks, Requests: tr.Requests,
		Loop: flow.Loop, Why: flow.Why}
	if p.head.Hooks == nil {
		p.head.Hooks = []skills.Hook{}
	}
	if p.head.Requests == nil {
		p.head.Requests = []engine.RequestInfo{}
	}
	p.head.Carried = make([]Carried, nreq)
	for id := range p.msgs {
		m := tr.Message(id)
		if m.Origin == engine.OriginHistory {
			c := &p.head.Carried[m.Request]
			c.Messages++
			if m.HistoryOf == engine.OriginHook {
				c.HookCopies++
			}
		}
	}
	p.head.Visits = make([]Visits, nreq)
	for r := range p.head.Visits {
		p.head.Visits[r] = Visits{First: map[string]int{}, Hooks: map[string]int{}}
	}
	seenCall := map[int]bool{}
	for i := range steps {
		s := &steps[i]
		n := p.nodes[i]
		if n < 0 || n >= len(flow.Loop.Nodes) || s.Request >= nreq {
			continue
		}
		id := flow.Loop.Nodes[n].ID
		v := p.head.Visits[s.Request]
		if _, ok := v.First[id]; !ok {
			v.First[id] = i
		}
		if s.Kind == engine.StepHookCall && s.HookCall != nil {
			k := i
			if s.HookCallIndex != nil {
				k = *s.HookCallIndex
			}
			if !seenCall[k] {
				seenCall[k] = true
				v.Hooks[id]++
			}
		}
	}
	for i := range steps {
		s := &steps[i]
		if s.Kind == engine.StepHookCall && s.HookCall != nil && len(s.HookCall.Changes) > 0 {
			p.head.ChangingHookCalls++
		}
	}
	p.head.HookCalls = len(seenCall)
	p.matrixRows()
	p.head.Tokens.Pending = sk.TokensPending
	p.refresh()
	return p, nil
}

// Head is what the run says of itself at once, with the token figures as
// they stand.
func (p *Pages) Head() PagesHead {
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.head
	h.Matrix.Totals = slices.Clone(p.sums.totals)
	h.Matrix.Seen = slices.Clone(p.head.Matrix.Seen)
	return h
}

// Run is the summary the run was opened with.
func (p *Pages) Run() history.RunSummary { return p.run }

// matrixRows makes the matrix's rows as materialise does — the prompt
// hooks, then each executable hook whose words a call receives, in the
// order the calls first receive them — and the calls each hook's message
// reaches.
func (p *Pages) matrixRows() {
	tr := p.tr
	hookRow := map[string]int{}
	mh := &p.head.Matrix
	mh.Hooks, mh.Systems = []string{}, []string{}
	for i := range tr.Hooks {
		hookRow[tr.Hooks[i].ID()] = len(mh.Hooks)
		mh.Hooks = append(mh.Hooks, tr.Hooks[i].ID())
		mh.Systems = append(mh.Systems, "")
	}
	type execFirst struct {
		key, id, system string
		call            int
		place           float64
	}
	firsts := map[string]*execFirst{}
	var pendingRows []struct {
		id  int
		key string
	}
	for id := range p.msgs {
		m := tr.Message(id)
		exec := execHookOf(&m)
		if exec == "" && m.Hook == "" {
			continue
		}
		ranges := p.callsReceiving(id)
		if len(ranges) == 0 {
			continue
		}
		if exec == "" {
			row, ok := hookRow[m.Skill+"/"+m.Hook]
			if !ok {
				continue
			}
			p.msgs[id].row = int32(row)
			p.hookMsgs = append(p.hookMsgs, hookMsg{id: id, row: int32(row), ranges: ranges})
			continue
		}
		key := "\x00" + m.System + "/" + exec
		f := firsts[key]
		first := ranges[0][0]
		if f == nil || first < f.call || first == f.call && p.msgs[id].place < f.place {
			if f == nil {
				f = &execFirst{key: key, id: m.System + "/" + exec, system: m.System}
				firsts[key] = f
			}
			f.call, f.place = first, p.msgs[id].place
		}
		pendingRows = append(pendingRows, struct {
			id  int
			key string
		}{id, key})
		p.hookMsgs = append(p.hookMsgs, hookMsg{id: id, row: -1, ranges: ranges})
	}
	order := make([]*execFirst, 0, len(firsts))
	for _, f := range firsts {
		order = append(order, f)
	}
	slices.SortFunc(order, func(a, b *execFirst) int {
		return cmp.Or(cmp.Compare(a.call, b.call), cmp.Compare(a.place, b.place), strings.Compare(a.key, b.key))
	})
	for _, f := range order {
		hookRow[f.key] = len(mh.Hooks)
		mh.Hooks = append(mh.Hooks, f.id)
		mh.Systems = append(mh.Systems, f.system)
	}
	k := 0
	for i := range p.hookMsgs {
		h := &p.hookMsgs[i]
		if h.row < 0 {
			h.row = int32(hookRow[pendingRows[k].key])
			p.msgs[h.id].row = h.row
			k++
		}
	}
	// calls with at least one copy, per row
	mh.Seen = make([]int, len(mh.Hooks))
	perRow := make([][][2]int, len(mh.Hooks))
	for _, h := range p.hookMsgs {
		perRow[h.row] = append(perRow[h.row], h.ranges...)
	}
	for r, rs := range perRow {
		mh.Seen[r] = unionLen(rs)
	}
}

// unionLen is how many calls the ranges cover together.
func unionLen(rs [][2]int) int {
	slices.SortFunc(rs, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	n, end := 0, -1
	for _, r := range rs {
		from := max(r[0], end)
		if r[1] > from {
			n += r[1] - from
		}
		end = max(end, r[1])
	}
	return n
}

// callsReceiving are the calls whose list holds message id, as ranges of
// call indices: the calls of its request from its creation to its removal,
// less those made while a call-only change hid it.
func (p *Pages) callsReceiving(id int) [][2]int {
	m := &p.msgs[id]
	if int(m.req) >= len(p.reqCalls) || p.reqCalls[m.req][0] < 0 {
		return nil
	}
	rc := p.reqCalls[m.req]
	lo := rc[0] + sort.SearchInts(p.callStep[rc[0]:rc[1]], int(m.created))
	hi := rc[1]
	if m.removed >= 0 {
		hi = rc[0] + sort.SearchInts(p.callStep[rc[0]:rc[1]], int(m.removed))
	}
	if lo >= hi {
		return nil
	}
	out := [][2]int{{lo, hi}}
	for _, sp := range m.hidden {
		from := rc[0] + sort.SearchInts(p.callStep[rc[0]:rc[1]], int(sp[0]))
		to := rc[1]
		if sp[1] >= 0 {
			to = rc[0] + sort.SearchInts(p.callStep[rc[0]:rc[1]], int(sp[1]))
		}
		out = cut(out, from, to)
	}
	return out
}

// cut takes calls [from, to) out of ranges.
func cut(ranges [][2]int, from, to int) [][2]int {
	if from >= to {
		return ranges
	}
	var out [][2]int
	for _, r := range ranges {
		if r[1] <= from || r[0] >= to {
			out = append(out, r)
			continue
		}
		if r[0] < from {
			out = append(out, [2]int{r[0], from})
		}
		if r[1] > to {
			out = append(out, [2]int{to, r[1]})
		}
	}
	return out
}

// callSums are the figures that move as counts arrive: each call's prompt
// tokens and whether some of its messages are still to count, each
// matrix row's tokens.
type callSums struct {
	tokens  []int
	pending []bool
	totals  []int
}

// tokensOf is message id's token count and whether it is known (caller
// holds mu).
func (p *Pages) tokensOf(id int) (int, bool) {
	if p.settled {
		return p.stored[id], true
	}
	n, ok := p.counts[p.refs.Messages[id]]
	if !ok {
		return 0, false
	}
	return p.roles.of(p.msgs[id].role) + n, true
}

// refresh works the token figures out again (caller holds mu, or owns p).
func (p *Pages) refresh() {
	nc := len(p.callStep)
	diff := make([]int, nc+1)
	pend := make([]int, nc+1)
	for id := range p.msgs {
		ranges := p.callsReceiving(id)
		if len(ranges) == 0 {
			continue
		}
		n, ok := p.tokensOf(id)
		for _, r := range ranges {
			diff[r[0]] += n
			diff[r[1]] -= n
			if !ok {
				pend[r[0]]++
				pend[r[1]]--
			}
		}
	}
	s := &callSums{tokens: make([]int, nc), pending: make([]bool, nc), totals: make([]int, len(p.head.Matrix.Hooks))}
	run, pr := 0, 0
	for c := range nc {
		run += diff[c]
		pr += pend[c]
		// an agent's request holds its tools' definitions too
		s.tokens[c], s.pending[c] = run+p.tr.Calls[c].ToolTokens, pr > 0
	}
	for _, h := range p.hookMsgs {
		n, _ := p.tokensOf(h.id)
		for _, r := range h.ranges {
			s.totals[h.row] += n * (r[1] - r[0])
		}
	}
	p.sums = s
}

// Counted takes texts' new counts (from the background count): the
// figures shown from now on include them. pending is how many of the
// run's texts are still to count; settled says the stored figures are
// final (then they are read again by reopening).
func (p *Pages) Counted(counts []history.TextCount, pending int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.settled {
		return
	}
	for _, c := range counts {
		p.counts[c.Text] = c.Tokens
	}
	p.head.Tokens.Pending = pending
	p.refresh()
}

// Steps are steps [from, from+n).
func (p *Pages) Steps(from, n int) []PageStep {
	from, to := window(from, n, len(p.nodes))
	out := make([]PageStep, 0, to-from)
	for i := from; i < to; i++ {
		s := p.tr.Step(i)
		ps := PageStep{Step: s, Node: p.nodes[i]}
		if s.Call != nil && *s.Call < len(p.tr.Calls) {
			ps.Warning = p.tr.Calls[*s.Call].Warning
		}
		out = append(out, ps)
	}
	return out
}

// window clamps [from, from+n) to [0, size).
func window(from, n, size int) (int, int) {
	from = max(from, 0)
	return min(from, size), min(from+max(n, 0), size)
}

// Calls are LLM calls [from, from+n) with their answers and prompt sizes;
// their tool calls without results (a result is its tool message's text).
func (p *Pages) Calls(ctx context.Context, from, n int) ([]Call, error) {
	from, to := window(from, n, len(p.tr.Calls))
	ids := make([]history.TextID, 0, to-from)
	for c := from; c < to; c++ {
		ids = append(ids, p.refs.Calls[c])
	}
	texts, err := p.texts.Texts(ctx, ids)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Call, 0, to-from)
	for c := from; c < to; c++ {
		lc := p.tr.Calls[c]
		lc.Content = texts[p.refs.Calls[c]]
		out = append(out, Call{LLMCall: lc, Tokens: p.sums.tokens[c], Pending: p.sums.pending[c]})
	}
	return out, nil
}

// listRow is a row of the list at a step, before its text is read.
type listRow struct {
	id          int
	injected    bool
	removedHere bool
}

// rowsAt is the message list at step i with the ghosts of the messages the
// step removed (lib/api/messages.ts rowsAt, the same rules).
func (p *Pages) rowsAt(i int) []listRow {
	if i < 0 || i >= len(p.nodes) {
		return nil
	}
	req := p.tr.Step(i).Request
	if req >= len(p.reqMsgs) || p.reqMsgs[req][0] < 0 {
		return nil
	}
	r := p.reqMsgs[req]
	ms := p.msgs[r[0]:r[1]]
	// created never decreases along a request's messages
	n := sort.Search(len(ms), func(k int) bool { return int(ms[k].created) > i })
	moved := false
	for k := range ms {
		if ms[k].place != float64(r[0]+k) || ms[k].hidden != nil {
			moved = true
			break
		}
	}
	step := int32(i)
	var out []listRow
	for k := range n {
		m := &ms[k]
		id := r[0] + k
		live := m.removed < 0 || m.removed > step
		if moved && live && spanAt(m.hidden, step) {
			if slices.ContainsFunc(m.hidden, func(sp [2]int32) bool { return sp[0] == step }) {
				out = append(out, listRow{id: id, removedHere: true})
			}
			continue
		}
		switch {
		case live:
			restored := moved && slices.ContainsFunc(m.hidden, func(sp [2]int32) bool { return sp[1] == step })
			out = append(out, listRow{id: id, injected: m.created == step || restored})
		case m.removed == step:
			out = append(out, listRow{id: id, removedHere: true})
		}
	}
	if moved {
		slices.SortStableFunc(out, func(a, b listRow) int {
			return cmp.Or(cmp.Compare(p.msgs[a.id].place, p.msgs[b.id].place), cmp.Compare(a.id, b.id))
		})
	}
	return out
}

// spanAt says whether one of spans [from, to) (to -1: open) holds step i.
func spanAt(spans [][2]int32, i int32) bool {
	for _, sp := range spans {
		if sp[0] <= i && (sp[1] < 0 || sp[1] > i) {
			return true
		}
	}
	return false
}

// List is the message list at step i without its rows.
func (p *Pages) List(i int) ListHead {
	rows := p.rowsAt(i)
	p.mu.Lock()
	defer p.mu.Unlock()
	h := ListHead{Step: i, Rows: len(rows), FirstChange: -1}
	for k, r := range rows {
		if r.removedHere {
			h.Removed++
		} else {
			h.Live++
			if n, ok := p.tokensOf(r.id); ok {
				h.Tokens += n
			} else {
				h.Pending++
			}
		}
		if r.injected {
			h.Added++
		}
		if h.FirstChange < 0 && (r.injected || r.removedHere) {
			h.FirstChange = k
		}
	}
	return h
}

// Preview is how much of a message's text a row carries: more than a
// collapsed card shows; the rest is read when the card is opened (Text).
// A session's tool outputs are tens of KB each, and a screen shows a few
// lines of each.
const Preview = 1024

// RowOf is the row of message id in the list at step i, -1 when the list
// does not hold it: where a search's hit is shown.
func (p *Pages) RowOf(i, id int) int {
	for k, r := range p.rowsAt(i) {
		if r.id == id {
			return k
		}
	}
	return -1
}

// Rows are rows [from, from+n) of the message list at step i, each text cut
// to its Preview (Size and Lines say how long it is) and tool calls without
// results (a result is its tool message's text).
func (p *Pages) Rows(ctx context.Context, i, from, n int) ([]Row, error) {
	rows := p.rowsAt(i)
	from, to := window(from, n, len(rows))
	rows = rows[from:to]
	ids := make([]history.TextID, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, p.refs.Messages[r.id])
	}
	texts, err := p.texts.Texts(ctx, ids)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Row, len(rows))
	for k, r := range rows {
		m := p.message(r.id, texts[p.refs.Messages[r.id]])
		if len(m.Content) > Preview {
			m.Size, m.Lines = len(m.Content), strings.Count(m.Content, "\n")+1
			cut := Preview
			for cut > 0 && !utf8.RuneStart(m.Content[cut]) {
				cut--
			}
			m.Content = m.Content[:cut]
		}
		out[k] = Row{Message: m, Injected: r.injected, RemovedHere: r.removedHere}
	}
	return out, nil
}

// Text is message id's whole text (a row carries its Preview).
func (p *Pages) Text(ctx context.Context, id int) (string, error) {
	if id < 0 || id >= len(p.msgs) {
		return "", fmt.Errorf("message %d of %d", id, len(p.msgs))
	}
	texts, err := p.texts.Texts(ctx, []history.TextID{p.refs.Messages[id]})
	if err != nil {
		return "", err
	}
	return texts[p.refs.Messages[id]], nil
}

// message is message id as the view shows it, with text (caller holds
// mu).
func (p *Pages) message(id int, text string) Message {
	m := p.tr.Message(id)
	m.Content = text
	pm := &p.msgs[id]
	vm := Message{Message: m, Created: int(pm.created)}
	if pm.removed >= 0 {
		r := int(pm.removed)
		vm.Removed = &r
	}
	if pm.place != float64(id) {
		pos := pm.place
		vm.Pos = &pos
	}
	for _, sp := range pm.hidden {
		vm.Hidden = append(vm.Hidden, [2]int{int(sp[0]), int(sp[1])})
	}
	n, counted := p.tokensOf(id)
	vm.Tokens, vm.Pending = n, !counted
	return vm
}

// Tokens is what a message costs as counted so far (a page's rows kept
// while the run is counted are brought up to date with it).
type Tokens struct {
	ID      int  `json:"id"`
	Tokens  int  `json:"tokens"`
	Pending bool `json:"pending,omitempty"`
}

// MessageTokens are the token counts of messages ids as they stand.
func (p *Pages) MessageTokens(ids []int) []Tokens {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Tokens, 0, len(ids))
	for _, id := range ids {
		if id < 0 || id >= len(p.msgs) {
			continue
		}
		n, ok := p.tokensOf(id)
		out = append(out, Tokens{ID: id, Tokens: n, Pending: !ok})
	}
	return out
}

// Cells are the matrix's cells of rows [hook, hook+nh) and calls [call,
// call+nc).
func (p *Pages) Cells(hook, nh, call, nc int) Cells {
	h0, h1 := window(hook, nh, len(p.head.Matrix.Hooks))
	c0, c1 := window(call, nc, len(p.callStep))
	out := Cells{Hook: h0, Call: c0, Copies: make([][]int, h1-h0), Tokens: make([][]int, h1-h0)}
	for r := range out.Copies {
		out.Copies[r], out.Tokens[r] = make([]int, c1-c0), make([]int, c1-c0)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, h := range p.hookMsgs {
		if int(h.row) < h0 || int(h.row) >= h1 {
			continue
		}
		n, _ := p.tokensOf(h.id)
		for _, r := range h.ranges {
			for c := max(r[0], c0); c < min(r[1], c1); c++ {
				out.Copies[int(h.row)-h0][c-c0]++
				out.Tokens[int(h.row)-h0][c-c0] += n
			}
		}
	}
	return out
}

// Bars are the tokens-per-call chart of the run in at most n bars, each
// the largest prompt of a span of calls.
func (p *Pages) Bars(n int) []Bar {
	p.mu.Lock()
	defer p.mu.Unlock()
	nc := len(p.sums.tokens)
	if n <= 0 || nc == 0 {
		return []Bar{}
	}
	per := (nc + n - 1) / n
	out := make([]Bar, 0, (nc+per-1)/per)
	for first := 0; first < nc; first += per {
		b := Bar{First: first, Last: min(first+per, nc) - 1, MaxCall: first, Max: -1}
		for c := first; c <= b.Last; c++ {
			if p.sums.tokens[c] > b.Max {
				b.Max, b.MaxCall = p.sums.tokens[c], c
			}
			b.Pending = b.Pending || p.sums.pending[c]
		}
		b.MaxStep = p.callStep[b.MaxCall]
		out = append(out, b)
	}
	return out
}

// NextStop is where a continue from step from stops: the next step one of
// breakpoints hits (lib's debugger machine, the same rules), or -1.
func (p *Pages) NextStop(from int, breakpoints []string) Stop {
	if len(breakpoints) == 0 {
		return Stop{Step: -1}
	}
	for i := max(from+1, 0); i < len(p.nodes); i++ {
		if hit := HitAt(p.tr.Step(i), breakpoints); hit != "" {
			return Stop{Step: i, Hit: hit}
		}
	}
	return Stop{Step: -1}
}

// HitAt is the breakpoint of breakpoints ("checkpoint:3", "hook:skill/name",
// "call:2" or "call:*", "event:PreToolUse", "exec:command/guard") that
// stops at step s, or "" (frontend/src/debugger/machine.ts hitAt).
func HitAt(s engine.Step, breakpoints []string) string {
	for _, id := range breakpoints {
		kind, key, ok := strings.Cut(id, ":")
		if !ok {
			continue
		}
		switch kind {
		case "checkpoint":
			if s.Kind == engine.StepInject && key == strconv.Itoa(s.Checkpoint) && s.Checkpoint > 0 {
				return id
			}
		case "hook":
			if s.Kind == engine.StepInject && slices.Contains(s.Hooks, key) {
				return id
			}
		case "call":
			if s.Kind == engine.StepLLMCall && s.Call != nil && (key == "*" || key == strconv.Itoa(*s.Call)) {
				return id
			}
		case "event":
			if hc := s.HookCall; s.Kind == engine.StepHookCall && hc != nil && key != "" &&
				(string(hc.Point) == key || hc.Event == key || strings.HasPrefix(hc.Event, key+":")) {
				return id
			}
		case "exec":
			if hc := s.HookCall; s.Kind == engine.StepHookCall && hc != nil && hc.System+"/"+hc.Hook == key {
				return id
			}
		}
	}
	return ""
}
