package calibrate

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/recipe"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// nonce is words no CLI writes: they tell the probe's own texts.
func nonce() string {
	var id [4]byte
	_, _ = rand.Read(id[:])
	return hex.EncodeToString(id[:])
}

// ownText is one text of the CLI's own in a run's first request, read as
// capture reads it: a system prompt piece or a context piece of the turn.
type ownText struct {
	role string
	text string
	sys  bool // a system prompt piece
	// part is where it stands in the turn (the turn's parts are own
	// texts, the prompt and hook places).
	part int
}

// firstTurn is a run's first call read: the system pieces, then the turn's
// parts in order.
type firstTurn struct {
	own   []ownText
	parts []turnPart // the turn, in order
	call  capture.Call
	// prompt is the prompt's message as sent, when the agent writes more
	// than the prompt in it (Copilot CLI's <current_datetime>).
	prompt string
}

type turnPart struct {
	own    int    // index in own, -1 none
	prompt bool   // the user's prompt
	hooks  string // a hook event's words
}

// firstCall is the run's first call of the user's turn (not a side request).
func firstCall(r *reqRan) (capture.Call, bool) {
	for _, c := range r.calls {
		if c.Side == "" && len(c.Messages) > 0 && c.Body != nil {
			return c, true
		}
	}
	return capture.Call{}, false
}

// turnCalls are the run's calls of the user's turn, in order: not its
// side calls.
func turnCalls(r *reqRan) []capture.Call {
	first, ok := firstCall(r)
	var out []capture.Call
	for _, c := range r.calls {
		if ok && !isSideCall(first, c) && len(c.Messages) > 0 && c.Body != nil {
			out = append(out, c)
		}
	}
	return out
}

// isSideCall says c is a call the agent makes of its own beside the turn
// whose first call is first: capture tells some by their form (a schema
// asked for), the others send a system prompt of their own (Qwen Code's
// memory extraction).
func isSideCall(first, c capture.Call) bool {
	if c.Side != "" {
		return true
	}
	sys := func(c capture.Call) string {
		if len(c.Messages) > 0 && c.Messages[0].Origin == capture.OriginSystem {
			return c.Messages[0].Content
		}
		return ""
	}
	a, b := sys(c), sys(first)
	p := commonPrefix(a, b)
	n := commonSuffix(a[p:], b[p:])
	x, y := a[p:len(a)-n], b[p:len(b)-n]
	// a token of the agent's own each request has (SlotOpaque) is no other prompt
	return !(x == "" && y == "" || opaqueLike(x) && opaqueLike(y))
}

// datetimeRe is a moment as ISO 8601 with milliseconds and an offset.
var datetimeRe = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(?:Z|[+-]\d\d:\d\d)`)

func readTurn(r *reqRan) (*firstTurn, error) {
	c, ok := firstCall(r)
	if !ok {
		return nil, &ProbeError{Probe: r.run.name, Err: fmt.Errorf("%w: the CLI sent no request of the user's turn", ErrNotOffline)}
	}
	ft := &firstTurn{call: c}
	// items the agent merged among its own are no text of its own: the
	// template writes them where they go (request.MergedSlot)
	merged := strings.SplitAfter(r.values[request.MergedSlot(request.ListSkills)], "\n")
	for _, m := range c.Messages {
		for _, line := range merged {
			if line != "" && m.Origin != capture.OriginHook {
				m.Content = strings.Replace(m.Content, line, "", 1)
			}
		}
		switch {
		case m.Origin == capture.OriginSystem && len(ft.parts) == 0:
			ft.own = append(ft.own, ownText{role: m.Role, text: m.Content, sys: true, part: -1})
		case m.Origin == capture.OriginUser && m.Role == "user" && strings.Contains(m.Content, r.values[request.SlotPrompt]):
			ft.parts = append(ft.parts, turnPart{own: -1, prompt: true})
			if m.Content != r.values[request.SlotPrompt] {
				ft.prompt = m.Content
				if d := datetimeRe.FindString(m.Content); d != "" {
					r.values[request.SlotDatetime] = d
				}
			}
		case m.Origin == capture.OriginHook:
			event, _, _ := strings.Cut(m.Hook, ":")
			if n := len(ft.parts); n > 0 && ft.parts[n-1].hooks == event {
				continue // several hooks of one event stand in one place
			}
			ft.parts = append(ft.parts, turnPart{own: -1, hooks: event})
		case m.Origin == capture.OriginContext || m.Origin == capture.OriginSystem || m.Origin == capture.OriginUser && m.Role == "user":
			// a user text that is not the prompt is the agent's own (Codex's
			// AGENTS.md instructions, which read as the user's words)
			ft.parts = append(ft.parts, turnPart{own: len(ft.own)})
			ft.own = append(ft.own, ownText{role: m.Role, text: m.Content, part: len(ft.parts) - 1})
		default:
			return nil, &ProbeError{Probe: r.run.name, Err: fmt.Errorf("%w: the first request holds a %s message of origin %s before any answer", ErrUnreadable, m.Role, m.Origin)}
		}
	}
	return ft, nil
}

// marked is a text with its slots written as \x00name\x00, so two runs'
// templates compare as strings.
const mark = "\x00"

func markText(t request.Text) string {
	var b strings.Builder
	for _, s := range t {
		if s.When != request.Always {
			b.WriteString(mark + "?" + string(s.When) + mark)
		}
		if s.Slot != "" {
			b.WriteString(mark + s.Slot + mark)
		} else {
			b.WriteString(s.Lit)
		}
		if s.When != request.Always {
			b.WriteString(mark + "/" + mark)
		}
	}
	return b.String()
}

// conditions are the conditions whose truth differs between two runs'
// values: git, and each context file the values name.
func conditions(a, b request.Values) []request.Condition {
	cs := []request.Condition{request.Git}
	var files []string
	for k := range a {
		if name, ok := strings.CutPrefix(k, request.SlotFile("")); ok {
			files = append(files, name)
		}
	}
	sort.Strings(files)
	for _, f := range files {
		cs = append(cs, request.FileCondition(f))
	}
	var out []request.Condition
	for _, c := range cs {
		if c.Holds(a) != c.Holds(b) {
			out = append(out, c)
		}
	}
	return out
}

// insertion reads a difference at a[x:] and b[y:] as words one run has
// and the other lacks, under a condition that holds in the one and not in
// the other (Gemini CLI's git section in a git folder): the inserted
// words, in which run, where (moved as far back as from allows), and what
// the two runs read next.
func insertion(a, b string, fromA, fromB, x, y int, va, vb request.Values) (text string, inA bool, at, na, nb int, when request.Condition, ok bool) {
	conds := conditions(va, vb)
	if len(conds) == 0 {
		return "", false, 0, 0, 0, "", false
	}
	best := -1
	for _, side := range []bool{true, false} {
		s, p, o, q := a, x, b, y
		if !side {
			s, p, o, q = b, y, a, x
		}
		for n := 1; p+n <= len(s); n++ {
			k := commonPrefix(s[p+n:], o[q:])
			if k == len(s)-p-n && k == len(o)-q || k >= 8 {
				if best < 0 || n < best {
					best, inA = n, side
				}
				break
			}
		}
	}
	if best < 0 {
		return "", false, 0, 0, 0, "", false
	}
	s, p, o, q, from := a, x, b, y, fromA
	vs := va
	if !inA {
		s, p, o, q, from = b, y, a, x, fromB
		vs = vb
	}
	// the earliest place the same words fit: the text before is alike
	for p > from && q > 0 && s[p-1] == s[p+best-1] && o[q-1] == s[p-1] {
		p, q = p-1, q-1
	}
	when = conds[0]
	if !when.Holds(vs) {
		when = when.Not()
	}
	if inA {
		return s[p : p+best], true, p, p + best, q, when, true
	}
	return s[p : p+best], false, p, q, p + best, when, true
}

// slotValues are the slots a walk may find: those whose values differ
// between the two runs, longest first.
func varying(a, b request.Values) []string {
	var out []string
	for k, va := range a {
		if strings.HasSuffix(k, ".merged") || strings.HasSuffix(k, ".merged.lead") {
			continue // items merged into the agent's own: read apart (stripMerged)
		}
		if vb, ok := b[k]; ok && va != vb && (va != "" || vb != "") {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(a[out[i]]) != len(a[out[j]]) {
			return len(a[out[i]]) > len(a[out[j]])
		}
		return out[i] < out[j]
	})
	return out
}

// walk reads a and b, the same text of the CLI's in two runs with values
// va and vb, as one template: wherever they differ, a slot whose value in
// a stands in a and whose value in b stands in b, at the same place. A
// slot empty in one run may stand as words of the CLI's own there (Git
// status "(clean)"): its empty form. A difference no slot explains is
// ErrUnexplained.
func walk(a, b string, va, vb request.Values) (request.Text, error) {
	slots := varying(va, vb)
	var t request.Text
	lit := func(s string) {
		if s == "" {
			return
		}
		if n := len(t); n > 0 && t[n-1].Slot == "" && t[n-1].When == request.Always {
			t[n-1].Lit += s
			return
		}
		t = append(t, request.Seg{Lit: s})
	}
	i, j := 0, 0 // a[i:] and b[j:] are still to read
	for i < len(a) || j < len(b) {
		k := commonPrefix(a[i:], b[j:])
		if i+k == len(a) && j+k == len(b) {
			lit(a[i:])
			break
		}
		// the slot starts at or before the difference
		found := false
		for back := 0; back <= k && !found; back++ {
			pa, pb := i+k-back, j+k-back
			for _, s := range slots {
				x, lx := shown(va[s], a, pa)
				y, ly := shown(vb[s], b, pb)
				switch {
				case x != "" && y != "" && strings.HasPrefix(a[pa:], x) && strings.HasPrefix(b[pb:], y) && (lx == "" || ly == "" || lx == ly) &&
					!glued(a, pa, x) && !glued(b, pb, y):
					lit(a[i:pa])
					// the line start one run shows (a one-line value shows none)
					t = append(t, request.Seg{Slot: s, Lines: cmp.Or(lx, ly)})
					i, j, found = pa+len(x), pb+len(y), true
				case x == "" || y == "":
					// the empty side shows the CLI's words for none
					full, fa, fb, lines := y, b, pb, ly
					if y == "" {
						full, fa, fb, lines = x, a, pa, lx
					}
					if !strings.HasPrefix(fa[fb:], full) {
						continue
					}
					other, po := a, pa
					if fa == a {
						other, po = b, pb
					}
					rest := fa[fb+len(full):]
					empty, ok := emptyForm(other[po:], rest)
					if !ok {
						continue
					}
					lit(a[i:pa])
					t = append(t, request.Seg{Slot: s, Empty: empty, Lines: lines})
					if fa == a {
						i, j = pa+len(full), pb+len(empty)
					} else {
						i, j = pa+len(empty), pb+len(full)
					}
					found = true
				}
				if found {
					break
				}
			}
		}
		if !found {
			// words one run has under a condition the other lacks
			if text, inA, at, na, nb, when, ok := insertion(a, b, i, j, i+k, j+k, va, vb); ok {
				vs := va
				if !inA {
					vs = vb
				}
				if inA {
					lit(a[i:at])
				} else {
					lit(a[i : i+(at-j)])
				}
				for _, seg := range slotted(text, plantedOf(vs)) {
					seg.When = when
					t = append(t, seg)
				}
				i, j = na, nb
				continue
			}
			// a short token of the CLI's own that differs (a request's
			// hash): an opaque slot
			pa, _, ea, eb, ok := opaqueAt(a, b, i, j, i+k, j+k)
			if !ok {
				return nil, fmt.Errorf("%w: %q here against %q there", ErrUnexplained, clip(around(a, i+k)), clip(around(b, j+k)))
			}
			lit(a[i:pa])
			t = append(t, request.Seg{Slot: request.SlotOpaque, Default: a[pa:ea]})
			i, j = ea, eb
		}
	}
	return t, nil
}

// shown is value as text shows it at pos: as it is, or with each line
// after the first started by what starts pos's line (Qwen Code's "git: "
// before each line of its git status) — and that line start, if so.
func shown(value, text string, pos int) (string, string) {
	if value == "" || strings.HasPrefix(text[pos:], value) || !strings.Contains(value, "\n") {
		return value, ""
	}
	start := strings.LastIndex(text[:pos], "\n") + 1
	lead := text[start:pos]
	if lead == "" {
		return value, ""
	}
	if x := strings.ReplaceAll(value, "\n", "\n"+lead); strings.HasPrefix(text[pos:], x) {
		return x, lead
	}
	return value, ""
}

// opaqueAt reads a difference at a[x:] and b[y:] as one short token of
// letters and digits in each (from the token's start, never before a[from:]
// and b[fromB:], read already), after which the two go on alike for at
// least 8 bytes or to their ends.
func opaqueAt(a, b string, from, fromB, x, y int) (pa, pb, ea, eb int, ok bool) {
	const most = 16
	for x > from && y > fromB && alnum(a[x-1]) && a[x-1] == b[y-1] {
		x, y = x-1, y-1
	}
	// whole tokens first (a process id's last digits alike are its own)
	for _, whole := range []bool{true, false} {
		for p := x; p <= len(a) && p-x <= most; p++ {
			if p > x && !alnum(a[p-1]) {
				break
			}
			if whole && p < len(a) && alnum(a[p]) {
				continue
			}
			for q := y; q <= len(b) && q-y <= most; q++ {
				if q > y && !alnum(b[q-1]) {
					break
				}
				if p == x && q == y || whole && q < len(b) && alnum(b[q]) {
					continue
				}
				k := commonPrefix(a[p:], b[q:])
				if (k == len(a)-p && k == len(b)-q) || k >= 8 {
					return x, y, p, q, true
				}
			}
		}
	}
	return 0, 0, 0, 0, false
}

// glued says a short value (an exit code, a count) at s[at:] is part of a
// longer token there (a time's digits): no slot of that value stands
// there.
func glued(s string, at int, x string) bool {
	if len(x) > 3 {
		return false
	}
	end := at + len(x)
	return at > 0 && alnum(s[at-1]) && alnum(x[0]) || end < len(s) && alnum(s[end]) && alnum(x[len(x)-1])
}

func alnum(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// emptyForm is the text that s holds where the other run holds a slot's
// value followed by rest: the shortest start of s after which s goes on as
// rest does (at least as far as 8 bytes, or to the end).
func emptyForm(s, rest string) (string, bool) {
	for n := 0; n <= len(s) && n <= 200; n++ {
		tail := s[n:]
		k := commonPrefix(tail, rest)
		if k == len(tail) && k == len(rest) || k >= 8 {
			return s[:n], true
		}
	}
	return "", false
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func around(s string, at int) string {
	from, to := max(0, at-40), min(len(s), at+40)
	return s[from:to]
}

// machine puts the machine's slots (the same in every run) into t where
// their value stands exactly once in the whole text; a value that stands
// more often stays the CLI's text (it may be the CLI's own word).
func machine(t request.Text, v request.Values) request.Text {
	whole := markText(t)
	for _, s := range request.Machine {
		x := v[s]
		if len(x) < 3 || strings.Count(whole, x) != 1 {
			continue
		}
		var out request.Text
		for _, seg := range t {
			if seg.Slot != "" || seg.When != "" || !strings.Contains(seg.Lit, x) {
				out = append(out, seg)
				continue
			}
			before, after, _ := strings.Cut(seg.Lit, x)
			if before != "" {
				out = append(out, request.Seg{Lit: before, When: seg.When})
			}
			out = append(out, request.Seg{Slot: s, When: seg.When})
			if after != "" {
				out = append(out, request.Seg{Lit: after, When: seg.When})
			}
		}
		t, whole = out, markText(out)
	}
	return t
}

// pieceSet is one run's own texts as templates, aligned with the base's.
type aligned struct {
	base, other int // indexes in their own lists; -1 none
	text        request.Text
}

// align matches the base run's own texts with another run's: in order,
// each pair a walk reads as one template (same role); the others stand
// in one run only.
func align(base, other []ownText, vb, vo request.Values) []aligned {
	n, m := len(base), len(other)
	// LCS over "walks as one template"
	tmpl := make([][]request.Text, n)
	ok := make([][]bool, n)
	for i := range base {
		tmpl[i], ok[i] = make([]request.Text, m), make([]bool, m)
		for j := range other {
			if base[i].role != other[j].role || base[i].sys != other[j].sys {
				continue
			}
			if t, err := walk(base[i].text, other[j].text, vb, vo); err == nil {
				tmpl[i][j], ok[i][j] = t, true
			}
		}
	}
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			switch {
			case ok[i][j]:
				lcs[i][j] = lcs[i+1][j+1] + 1
			default:
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []aligned
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && ok[i][j] && lcs[i][j] == lcs[i+1][j+1]+1:
			out = append(out, aligned{base: i, other: j, text: tmpl[i][j]})
			i, j = i+1, j+1
		case j >= m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, aligned{base: i, other: -1})
			i++
		default:
			out = append(out, aligned{base: -1, other: j})
			j++
		}
	}
	return out
}

// deriveRequest reads the runs as one request model. The first run is the
// base; the others vary its values (another folder and prompt, a git
// repository with changes, a clean one).
func deriveRequest(spec reqAgent, rc recipe.Recipe, version string, ran []*reqRan) (*request.Model, error) {
	counter, err := tokens.NewCounter()
	if err != nil {
		return nil, err
	}
	m := &request.Model{Agent: rc.Agent, Version: version, API: apiOf(rc.API), Tools: []request.Tool{}, Stdin: map[string][]string{}}
	// the lists first: their values are slots of the texts read below
	if err := learnLists(m, ran, counter); err != nil {
		return nil, err
	}
	if err := learnFiles(m, spec, ran); err != nil {
		return nil, err
	}
	if err := learnTree(m, spec, ran); err != nil {
		return nil, err
	}
	turns := make([]*firstTurn, len(ran))
	for i, r := range ran {
		ft, err := readTurn(r)
		if err != nil {
			return nil, err
		}
		turns[i] = ft
	}
	base := turns[0]
	vb := ran[0].values
	m.Model = base.call.Model
	vb[request.SlotModel] = m.Model
	for _, r := range ran {
		r.values[request.SlotModel] = m.Model
	}
	// the files it sends and the tree it draws are slots' values too, and
	// the parts of its texts it writes in a git repository only
	if err := learnInstructionFiles(m, ran, turns, counter); err != nil {
		return nil, err
	}
	if err := learnBareTree(m, ran, turns); err != nil {
		return nil, err
	}
	secs, err := learnSections(ran, turns)
	if err != nil {
		return nil, err
	}
	// each own text of the base, as a template read against every run
	// that has it; texts some runs lack are sent under a condition (a git
	// repository, an instruction file) those runs do not meet
	type pieceOf struct {
		text request.Text
		when request.Condition
		own  ownText
		// first: the run it was first met in, when not the base; after:
		// the base's text it followed there
		first, after int
	}
	pieces := make([]*pieceOf, len(base.own))
	for i, o := range base.own {
		pieces[i] = &pieceOf{own: o}
	}
	var condOnly []*pieceOf // texts of runs under a condition the base does not meet, in the order met
	firstOf := map[request.Condition]int{}
	var errs []error
	for k := 1; k < len(ran); k++ {
		other, vo := turns[k], ran[k].values
		al := align(base.own, other.own, vb, vo)
		lastBase := -1
		for _, a := range al {
			switch {
			case a.base >= 0 && a.other >= 0:
				p := pieces[a.base]
				if p.text == nil {
					p.text = a.text
				} else if markText(p.text) != markText(a.text) {
					// several runs: the template must read every one
					if t, err := reconcile(p.text, a.text, vb, runValues(ran)); err == nil {
						p.text = t
					} else {
						errs = append(errs, &ProbeError{Probe: "request " + ran[k].run.name, Err: err})
					}
				}
				lastBase = a.base
			case a.base >= 0:
				// the base's text the other run lacks: sent under a
				// condition the base meets and the other does not
				c, ok := explains(vb, vo)
				if p := pieces[a.base]; ok && (p.when == request.Always || p.when == c) {
					p.when = c
					continue
				}
				errs = append(errs, &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: the text %q is in one run and not in the other",
					ErrUnexplained, clip(base.own[a.base].text))})
			default:
				c, ok := explains(vo, vb)
				if !ok {
					errs = append(errs, &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: the text %q is in one run and not in the other",
						ErrUnexplained, clip(other.own[a.other].text))})
					continue
				}
				if first, met := firstOf[c]; met && first != k {
					continue // read against the first such run's below
				}
				firstOf[c] = k
				condOnly = append(condOnly, &pieceOf{own: other.own[a.other], when: c, first: k, after: lastBase})
			}
		}
	}
	// the texts of runs under a condition: templates read between the
	// runs that meet it
	for _, p := range condOnly {
		var t request.Text
		for k := p.first + 1; k < len(ran) && t == nil; k++ {
			if !p.when.Holds(ran[k].values) {
				continue
			}
			for _, o := range turns[k].own {
				if o.role != p.own.role {
					continue
				}
				if w, err := walk(p.own.text, o.text, ran[p.first].values, ran[k].values); err == nil {
					t = w
					break
				}
			}
		}
		if t == nil {
			errs = append(errs, &ProbeError{Probe: "request " + ran[p.first].run.name, Err: fmt.Errorf("%w: %q is in one %s run only", ErrUnexplained, clip(p.own.text), p.when)})
			continue
		}
		p.text = t
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	fill := func(p *pieceOf, id string, v request.Values) request.Piece {
		t := machine(p.text, v)
		if t == nil { // met in the base run only
			t = machine(request.Text{{Lit: p.own.text}}, v)
		}
		if st, err := sectioned(t, secs, ran); err != nil {
			errs = append(errs, err)
		} else {
			t = st
		}
		return request.Piece{ID: id, Role: p.own.role, When: p.when, Text: t, Shape: shapeOf(counter, t)}
	}
	// the system prompt, then the turn, each git run's own text after the
	// base's text it followed
	addCond := func(after int, sys bool) {
		for _, p := range condOnly {
			if p.after != after || p.own.sys != sys || p.text == nil {
				continue
			}
			if sys {
				m.System = append(m.System, fill(p, fmt.Sprintf("system.%d", len(m.System)+1), ran[p.first].values))
				continue
			}
			pc := fill(p, fmt.Sprintf("turn.%d", len(m.Turn)+1), ran[p.first].values)
			m.Turn = append(m.Turn, request.Part{Piece: &pc})
		}
	}
	addCond(-1, true)
	lastSys := -1
	for i, p := range pieces {
		if p.own.sys {
			m.System = append(m.System, fill(p, fmt.Sprintf("system.%d", len(m.System)+1), vb))
			addCond(i, true)
			lastSys = i
		}
	}
	addCond(-1, false)
	addCond(lastSys, false)
	byPart := map[int]int{}
	for i, p := range pieces {
		if !p.own.sys {
			byPart[p.own.part] = i
		}
	}
	for k, part := range base.parts {
		switch {
		case part.prompt:
			m.Turn = append(m.Turn, request.Part{Prompt: true})
		case part.hooks != "":
			m.Turn = append(m.Turn, request.Part{Hooks: part.hooks})
		default:
			i := byPart[k]
			pc := fill(pieces[i], fmt.Sprintf("turn.%d", len(m.Turn)+1), vb)
			m.Turn = append(m.Turn, request.Part{Piece: &pc})
			addCond(i, false)
		}
	}
	if err := learnBody(m, ran, base, counter); err != nil {
		return nil, err
	}
	learnJoins(m, base, vb[request.SlotPrompt]) // after the body's framing
	if err := learnPrompt(m, ran, turns); err != nil {
		return nil, err
	}
	learnLoop(m, ran[0])
	if err := learnResults(m, spec, ran, counter); err != nil {
		return nil, err
	}
	if err := learnLater(m, ran, counter); err != nil {
		return nil, err
	}
	learnHookNames(m, ran)
	if m.HookNames != nil && m.HookNames.PluginNote != nil {
		sh := shapeOf(counter, m.HookNames.PluginNote)
		m.HookNames.PluginNoteShape = &sh
	}
	if err := learnSides(m, ran, counter); err != nil {
		return nil, err
	}
	learnTranscript(m, spec, ran[0])
	learnStdin(m, ran[0])
	// every run, rebuilt from the model, is what the CLI sent
	for k, r := range ran {
		if err := rebuilds(m, r, turns[k]); err != nil {
			errs = append(errs, &ProbeError{Probe: "request " + r.run.name, Err: err})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return m, nil
}

// explains is the one condition whose truth differs between two runs'
// values, as a's meet it: what a text of a's run that b's lacks is sent
// under (none or several: not told).
func explains(a, b request.Values) (request.Condition, bool) {
	cs := conditions(a, b)
	if len(cs) != 1 {
		return "", false
	}
	if !cs[0].Holds(a) {
		return cs[0].Not(), true
	}
	return cs[0], true
}

// reconcile is one template for two readings of the base's text, each
// against another run (each finds the slots whose values differ there,
// and the words a condition adds): the text with the slots and the
// conditional words of both.
func reconcile(a, b request.Text, v request.Values, runs []request.Values) (request.Text, error) {
	text := a.Fill(v)
	if b.Fill(v) != text {
		return nil, fmt.Errorf("%w: two readings of one text differ", ErrUnexplained)
	}
	type rng struct {
		from, to int
		segs     request.Text // a slot, or a run of words under one condition
		cond     bool
	}
	var rs []rng
	for _, t := range []request.Text{a, b} {
		pos := 0
		for k := 0; k < len(t); k++ {
			seg := t[k]
			if seg.When != request.Always {
				run := request.Text{seg}
				for k+1 < len(t) && t[k+1].When == seg.When {
					k++
					run = append(run, t[k])
				}
				n := len(run.Fill(v))
				rs = append(rs, rng{pos, pos + n, run, true})
				pos += n
				continue
			}
			n := len(request.Text{seg}.Fill(v))
			if seg.Slot != "" {
				rs = append(rs, rng{pos, pos + n, request.Text{seg}, false})
			}
			pos += n
		}
	}
	// a condition's words hold the slots another reading found in them
	rs = slices.DeleteFunc(rs, func(r rng) bool {
		return !r.cond && slices.ContainsFunc(rs, func(c rng) bool { return c.cond && c.from < c.to && c.from <= r.from && r.to <= c.to })
	})
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].from < rs[j].from || rs[i].from == rs[j].from && rs[i].to < rs[j].to })
	// two readings of an opaque value may bound it differently: one value
	for i := 1; i < len(rs); i++ {
		p, r := &rs[i-1], rs[i]
		if r.from < p.to && !p.cond && !r.cond && p.segs[0].Slot == request.SlotOpaque && r.segs[0].Slot == request.SlotOpaque {
			p.to = max(p.to, r.to)
			p.segs = request.Text{{Slot: request.SlotOpaque, Default: text[p.from:p.to]}}
			rs = slices.Delete(rs, i, i+1)
			i--
		}
	}
	var out request.Text
	pos := 0
	for i, r := range rs {
		if i > 0 && rs[i-1].from == r.from && rs[i-1].to == r.to && markText(rs[i-1].segs) == markText(r.segs) {
			continue
		}
		if i > 0 && r.cond && rs[i-1].cond && rs[i-1].from == r.from && rs[i-1].to == r.to && r.segs[0].When == rs[i-1].segs[0].When {
			// one condition's words read against two runs: one template
			// that reads both
			m, err := mergeConditional(rs[i-1].segs, r.segs, runs)
			if err != nil {
				return nil, err
			}
			out = append(out[:len(out)-len(rs[i-1].segs)], m...)
			rs[i].segs = m
			continue
		}
		if r.from < pos {
			return nil, fmt.Errorf("%w: the slots %s and %s of one text overlap", ErrUnexplained, markText(rs[i-1].segs), markText(r.segs))
		}
		if r.from > pos {
			out = append(out, request.Seg{Lit: text[pos:r.from]})
		}
		out = append(out, r.segs...)
		pos = r.to
	}
	if pos < len(text) {
		out = append(out, request.Seg{Lit: text[pos:]})
	}
	return out, nil
}

// mergeConditional is one template of a condition's words for two
// readings, each made against one run where the condition holds (a
// dirty git folder's status, a clean one's words for none): the words as
// each run wrote them, read against each other.
func mergeConditional(a, b request.Text, runs []request.Values) (request.Text, error) {
	when := a[0].When
	for _, x := range runs {
		for _, y := range runs {
			if !when.Holds(x) || !when.Holds(y) {
				continue
			}
			ta, tb := a.Fill(x), b.Fill(y)
			t, err := walk(ta, tb, x, y)
			if err != nil || t.Fill(x) != ta || t.Fill(y) != tb {
				continue
			}
			for i := range t {
				t[i].When = when
			}
			return t, nil
		}
	}
	return nil, fmt.Errorf("%w: the words under %s differ between runs", ErrUnexplained, when)
}

// runValues are the runs' values.
func runValues(ran []*reqRan) []request.Values {
	out := make([]request.Values, len(ran))
	for i, r := range ran {
		out[i] = r.values
	}
	return out
}

func apiOf(api string) request.API {
	switch api {
	case recipe.Anthropic:
		return request.Anthropic
	case recipe.Responses:
		return request.Responses
	case recipe.Gemini:
		return request.Gemini
	}
	return request.Chat
}

// shapeOf is a template's shape: its size and hash with each slot written
// as {name}, so two calibrations of one version on one machine give the
// same shape whatever folder they ran in.
func shapeOf(c *tokens.Counter, t request.Text) request.Shape {
	text := t.Skeleton()
	return request.Shape{Chars: len([]rune(text)), Tokens: c.Count(text), SHA256: request.Hash(text), Slots: t.Slots()}
}

// topKeys are a JSON object's keys in the order written.
func topKeys(raw []byte) []string {
	fields, _ := request.ObjectFields(raw)
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		out = append(out, f.Name)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// learnBody reads what the agent sends besides its texts from the base
// run's calls: the body's keys and other fields, its headers, the tools,
// and how it frames messages.
func learnBody(m *request.Model, ran []*reqRan, base *firstTurn, counter *tokens.Counter) error {
	body, keys, err := bodyOf(base.call)
	if err != nil {
		return &ProbeError{Probe: "request body", Err: fmt.Errorf("%w: %w", ErrUnreadable, err)}
	}
	m.Keys = keys
	for _, k := range keys {
		if !conversationKey(k) {
			m.Fields = append(m.Fields, request.Field{Name: k, Value: body[k]})
		}
	}
	m.Headers = map[string]string{}
	for k, v := range base.call.Headers {
		switch strings.ToLower(k) {
		case "content-length", "x-api-key", "authorization", "x-goog-api-key":
			continue
		}
		m.Headers[k] = v
	}
	// the tools: each definition a template, read against the second run's
	other, _ := firstCall(ran[min(1, len(ran)-1)])
	defs, err := toolDefsOf(m.API, base.call.Body)
	if err != nil {
		return &ProbeError{Probe: "request tools", Err: err}
	}
	otherDefs, _ := toolDefsOf(m.API, other.Body)
	for i, d := range defs {
		t := request.Text{{Lit: string(d.raw)}}
		if i < len(otherDefs) && otherDefs[i].name == d.name {
			if w, err := walk(string(d.raw), string(otherDefs[i].raw), ran[0].values, ran[min(1, len(ran)-1)].values); err == nil {
				t = w
			} else {
				return &ProbeError{Probe: "request tool " + d.name, Err: err}
			}
		}
		t = machine(t, ran[0].values)
		m.Tools = append(m.Tools, request.Tool{Name: d.name, Definition: t, Shape: shapeOf(counter, t)})
	}
	// which system blocks carry a cache marker (Anthropic)
	if m.API == request.Anthropic {
		var sys []struct {
			Cache json.RawMessage `json:"cache_control"`
		}
		_ = json.Unmarshal(body["system"], &sys)
		for i := range m.System {
			if i < len(sys) && len(sys[i].Cache) > 0 && string(sys[i].Cache) != "null" {
				m.System[i].Cache = true
			}
		}
	}
	m.Framing = framingOf(m.API, turnCalls(ran[0]))
	return nil
}

type toolDef struct {
	name string
	raw  json.RawMessage
}

// toolDefsOf are the tool definitions of a body, in order (Gemini's
// function declarations one by one).
func toolDefsOf(api request.API, body json.RawMessage) ([]toolDef, error) {
	var b struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, err
	}
	var out []toolDef
	for _, raw := range b.Tools {
		var t struct {
			Name     string `json:"name"`
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
			Decls []json.RawMessage `json:"functionDeclarations"`
		}
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, err
		}
		switch {
		case api == request.Gemini:
			for _, d := range t.Decls {
				var n struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(d, &n)
				out = append(out, toolDef{n.Name, d})
			}
		case t.Name != "":
			out = append(out, toolDef{t.Name, raw})
		case t.Function.Name != "":
			out = append(out, toolDef{t.Function.Name, raw})
		default:
			// a built-in tool of the API (Responses' web_search): its type
			// names it, as capture reads it
			out = append(out, toolDef{t.Type, raw})
		}
	}
	return out, nil
}

// framingOf reads how the agent lays out messages from its calls.
func framingOf(api request.API, calls []capture.Call) request.Framing {
	f := request.Framing{}
	switch {
	case api == request.Gemini:
		return geminiFraming(calls)
	case api == request.Responses && len(calls) > 0:
		return responsesFraming(calls[0])
	}
	if len(calls) == 0 {
		return f
	}
	type msg struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if api == request.Chat {
		// a user message of several parts: the agent merges messages of
		// one role; parts even of one: its user and tool texts are lists
		for _, c := range calls {
			var b struct {
				Messages []msg `json:"messages"`
			}
			if json.Unmarshal(c.Body, &b) != nil {
				continue
			}
			for _, mm := range b.Messages {
				var parts []json.RawMessage
				if mm.Role != "user" && mm.Role != "tool" || json.Unmarshal(mm.Content, &parts) != nil {
					continue
				}
				f.Parts = true
				if len(parts) > 1 {
					f.Merge = true
				}
			}
		}
		return f
	}
	if api != request.Anthropic {
		return f
	}
	f.Merge = true
	for ci, c := range calls {
		var b struct {
			Messages []msg `json:"messages"`
		}
		if json.Unmarshal(c.Body, &b) != nil {
			continue
		}
		for i, mm := range b.Messages {
			last := i == len(b.Messages)-1
			if mm.Role == "system" {
				f.SystemInMessages = true
				f.Paragraphs, f.Separator = "system", "\n\n"
			}
			isString := len(mm.Content) > 0 && mm.Content[0] == '"'
			if !last && isString && ci > 0 {
				f.StringContent = true
			}
			if last && bytes.Contains(mm.Content, []byte(`"cache_control"`)) {
				f.CacheLast = true
			}
		}
	}
	return f
}

// geminiFraming reads how Gemini CLI lays out its contents: the parts of
// one role in a row are one content (a content of several parts), and the
// thought signature it writes on function calls.
func geminiFraming(calls []capture.Call) request.Framing {
	f := request.Framing{}
	for _, c := range calls {
		var b struct {
			Contents []struct {
				Parts []map[string]json.RawMessage `json:"parts"`
			} `json:"contents"`
		}
		if json.Unmarshal(c.Body, &b) != nil {
			continue
		}
		for _, ct := range b.Contents {
			if len(ct.Parts) > 1 {
				f.Merge = true
			}
			for _, p := range ct.Parts {
				var sig string
				if _, ok := p["functionCall"]; ok && json.Unmarshal(p["thoughtSignature"], &sig) == nil && sig != "" {
					f.CallSignature = sig
				}
			}
		}
	}
	return f
}

// responsesFraming reads how the agent lays out a Responses request from
// its first call: its system prompt as the first message (no
// instructions), its own texts as parts of one message.
func responsesFraming(c capture.Call) request.Framing {
	f := request.Framing{}
	in, ok := request.ReadResponsesInput(c.Body)
	if !ok {
		return f
	}
	if !in.Instructions && len(in.Items) > 0 && (in.Items[0].Role == "developer" || in.Items[0].Role == "system") {
		f.SystemMessage = true
	}
	for _, it := range in.Items {
		if it.Type == "message" && it.Parts > 1 {
			f.MergeOwn = true
		}
	}
	return f
}

// learnLoop reads the base run's loop: whether the call after a Stop
// hook's block still holds the answer it blocked, and whether the agent
// sends the hook's words as a new prompt (capture reads them as the
// user's).
func learnLoop(m *request.Model, r *reqRan) {
	for _, c := range turnCalls(r) {
		for i, msg := range c.Messages {
			hook, prompt := isStopWords(r, msg)
			if !hook && !prompt {
				continue
			}
			if prompt {
				m.Loop.StopPrompt = true
			}
			for j := i - 1; j >= 0; j-- {
				prev := c.Messages[j]
				if prev.Origin == capture.OriginHook {
					continue
				}
				if prev.Role == "assistant" && prev.Content != "" && len(prev.ToolCalls) == 0 {
					m.Loop.KeepsBlockedAnswer = true
				}
				break
			}
		}
	}
}

// learnTranscript reads the transcript the CLI kept for its hooks: each
// kind of entry's keys in order, its message's keys, and the fields every
// entry of a kind had with one value. The fields that change from entry to
// entry (ids, times, the message) are the run's own (dynamic).
func learnTranscript(m *request.Model, spec reqAgent, r *reqRan) {
	switch spec.transcriptFormat {
	case "":
		return
	case request.TranscriptCodex:
		learnRollout(m, r)
		return
	}
	tr := &request.Transcript{Format: spec.transcriptFormat, Keys: map[string][]string{}, MessageKeys: map[string][]string{},
		Constants: map[string]map[string]json.RawMessage{}}
	names := make([]string, 0, len(r.transcripts))
	for name := range r.transcripts {
		if strings.HasSuffix(name, ".jsonl") && strings.Count(name, "/") <= 1 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	seen := map[string]map[string]string{} // kind → key → value, "" once two differ
	for _, name := range names {
		for _, line := range bytes.Split(r.transcripts[name], []byte("\n")) {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var e map[string]json.RawMessage
			if json.Unmarshal(line, &e) != nil {
				continue
			}
			var typ string
			_ = json.Unmarshal(e["type"], &typ)
			var msg struct {
				Content json.RawMessage `json:"content"`
			}
			_ = json.Unmarshal(e["message"], &msg)
			kind := ""
			switch {
			case typ == "assistant":
				kind = request.EntryAssistant
			case typ == "user" && len(msg.Content) > 0 && msg.Content[0] == '"':
				kind = request.EntryUser
			case typ == "user" && bytes.Contains(msg.Content, []byte(`"tool_result"`)):
				kind = request.EntryToolResult
			}
			if kind == "" {
				continue
			}
			if tr.Keys[kind] == nil {
				tr.Keys[kind] = topKeys(line)
				tr.MessageKeys[kind] = topKeys(e["message"])
				seen[kind] = map[string]string{}
				for k, v := range e {
					seen[kind][k] = string(v)
				}
				continue
			}
			for k, v := range seen[kind] {
				if string(e[k]) != v {
					seen[kind][k] = ""
				}
			}
		}
	}
	for kind, fields := range seen {
		tr.Constants[kind] = map[string]json.RawMessage{}
		for k, v := range fields {
			if v != "" && !transcriptDynamic[k] {
				tr.Constants[kind][k] = json.RawMessage(v)
			}
		}
	}
	if len(tr.Keys) > 0 {
		m.Transcript = tr
	}
}

// learnRollout reads Codex's rollout (JSONL in dated folders): the keys of
// its response items' envelope (response_item) and of each payload kind
// (message, function_call, function_call_output), in order.
func learnRollout(m *request.Model, r *reqRan) {
	tr := &request.Transcript{Format: request.TranscriptCodex, Keys: map[string][]string{}}
	names := make([]string, 0, len(r.transcripts))
	for name := range r.transcripts {
		if strings.HasSuffix(name, ".jsonl") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		for _, line := range bytes.Split(r.transcripts[name], []byte("\n")) {
			var e struct {
				Type    string          `json:"type"`
				Payload json.RawMessage `json:"payload"`
			}
			var p struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(line, &e) != nil || e.Type != "response_item" || json.Unmarshal(e.Payload, &p) != nil || p.Type == "" {
				continue
			}
			if tr.Keys[e.Type] == nil {
				tr.Keys[e.Type] = topKeys(line)
			}
			if tr.Keys[p.Type] == nil {
				tr.Keys[p.Type] = topKeys(e.Payload)
			}
		}
	}
	if len(tr.Keys) > 0 {
		m.Transcript = tr
	}
}

// transcriptDynamic are the fields of a transcript entry that are the
// run's own: a run writes them anew.
var transcriptDynamic = map[string]bool{"uuid": true, "parentUuid": true, "timestamp": true, "sessionId": true, "cwd": true,
	"promptId": true, "message": true, "sourceToolAssistantUUID": true, "requestRef": true, "sentAtMs": true, "toolUseResult": true}

// learnStdin reads the key order of the JSON each hook event's hooks read,
// from what the probe's hooks saved (<event>-<n>.json).
func learnStdin(m *request.Model, r *reqRan) {
	names := make([]string, 0, len(r.wrote))
	for name := range r.wrote {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		event, _, ok := strings.Cut(strings.TrimSuffix(name, ".json"), "-")
		if !ok || m.Stdin[event] != nil {
			continue
		}
		if keys := topKeys(r.wrote[name]); len(keys) > 0 {
			m.Stdin[event] = keys
		}
	}
}

// rebuilds checks that the model gives back the run's first request: its
// system prompt and turn laid out with the run's values and hook words,
// written as the agent writes it and read as capture reads it — and, for
// Gemini, its body itself (the contents' parts, the system instruction,
// the fields) — then each side call made before it the same way.
func rebuilds(m *request.Model, r *reqRan, ft *firstTurn) error {
	real := ft.call.Messages
	hooks := map[string][]capture.Message{}
	for _, msg := range real {
		if msg.Origin == capture.OriginHook {
			event, _, _ := strings.Cut(msg.Hook, ":")
			hooks[event] = append(hooks[event], msg)
		}
	}
	// the run's own opaque value (its billing line's), read off what it sent
	for i, p := range m.System {
		if i < len(real) && real[i].Origin == capture.OriginSystem && slices.ContainsFunc(p.Text, func(s request.Seg) bool { return s.Slot == request.SlotOpaque }) {
			if x, ok := p.Text.Opaque(r.values, real[i].Content); ok {
				r.values[request.SlotOpaque] = x
			}
		}
	}
	var sys, turn []request.Msg
	for _, it := range m.SystemItems(r.values) {
		sys = append(sys, request.Msg{Role: it.Role, Text: it.Text, System: true, Cache: it.Cache, Own: true})
	}
	turnAt := -1 // the first message of the user's turn
	for _, it := range m.TurnItems(r.values, func(e string) bool { return len(hooks[e]) > 0 }) {
		if it.Kind != request.ItemPiece && turnAt < 0 {
			turnAt = len(turn)
		}
		switch it.Kind {
		case request.ItemPrompt:
			text := r.values[request.SlotPrompt]
			if m.Framing.Prompt != nil {
				text = m.Framing.Prompt.Fill(r.values)
			}
			turn = append(turn, request.Msg{Role: "user", Text: text})
		case request.ItemHooks:
			for _, h := range hooks[it.Event] {
				turn = append(turn, request.Msg{Role: h.Role, Text: h.Content, Join: it.Join, JoinBefore: m.Framing.Join[it.Event]})
			}
		default:
			turn = append(turn, request.Msg{Role: it.Role, Text: it.Text, Own: true})
		}
	}
	body, err := request.Build(m, r.values, append(slices.Clone(sys), turn...), nil)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRebuild, err)
	}
	if err := sameCall(m, body, ft.call, true); err != nil {
		return err
	}
	// the side calls before it
	k := 0
	for _, c := range r.calls {
		if c.Side == "" {
			break
		}
		if k >= len(m.Loop.Sides) {
			return fmt.Errorf("%w: side call %d is not the model's", ErrRebuild, k+1)
		}
		s := &m.Loop.Sides[k]
		k++
		var err error
		for _, apart := range []bool{s.TurnApart, !s.TurnApart} {
			var msgs []request.Msg
			for _, it := range m.SideItems(s, r.values) {
				msgs = append(msgs, request.Msg{Role: it.Role, Text: it.Text, System: true})
			}
			for i, x := range turn {
				x.Starts = apart && i == turnAt
				msgs = append(msgs, x)
			}
			body, berr := request.BuildSide(m, s, r.values, msgs)
			if berr != nil {
				return fmt.Errorf("%w: %w", ErrRebuild, berr)
			}
			if err = sameCall(m, body, c, false); err == nil {
				s.TurnApart = apart
				break
			}
		}
		if err != nil {
			return fmt.Errorf("side call %s: %w", s.Name, err)
		}
	}
	return nil
}

// sameCall checks that body, read as capture reads the real call, gives
// its messages and tools (for Gemini: the same body).
func sameCall(m *request.Model, body json.RawMessage, c capture.Call, tools bool) error {
	real := c.Messages
	got := capture.ReadBody(capture.API(apiName(m.API)), body, c.Headers, capture.NewAgentReader(profile.NewCatalog(""))).Messages
	if len(got) != len(real) {
		return fmt.Errorf("%w: %d messages rebuilt, %d sent (%s against %s)", ErrRebuild, len(got), len(real), outline(got), outline(real))
	}
	for i := range got {
		// the order of what the agent lists in an order of its own (request.CanonicalOrder) is no difference
		if got[i].Role != real[i].Role || request.CanonicalOrder(got[i].Content) != request.CanonicalOrder(real[i].Content) {
			k := commonPrefix(got[i].Content, real[i].Content)
			return fmt.Errorf("%w: message %d (%s) differs at %d: %q rebuilt, %q sent", ErrRebuild, i, real[i].Role, k,
				clip(around(got[i].Content, k)), clip(around(real[i].Content, k)))
		}
	}
	if tools {
		gotTools, _ := toolDefsOf(m.API, body)
		realTools, _ := toolDefsOf(m.API, c.Body)
		if len(gotTools) != len(realTools) {
			return fmt.Errorf("%w: %d tools rebuilt, %d sent", ErrRebuild, len(gotTools), len(realTools))
		}
		for i := range gotTools {
			if !jsonEqual(gotTools[i].raw, realTools[i].raw) {
				g, r := string(gotTools[i].raw), string(realTools[i].raw)
				k := commonPrefix(g, r)
				return fmt.Errorf("%w: tool %s differs at %d: %q rebuilt, %q sent", ErrRebuild, realTools[i].name, k, clip(around(g, k)), clip(around(r, k)))
			}
		}
	}
	if m.API != request.Gemini {
		return nil
	}
	// Gemini's body whole: where each text stands (one part or two), the
	// system instruction, the fields
	rebuilt, _, _ := bodyOf(capture.Call{Body: body})
	sent, keys, err := bodyOf(c)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnreadable, err)
	}
	if gk := topKeys(body); !slices.Equal(gk, keys) {
		return fmt.Errorf("%w: the body's keys %v rebuilt, %v sent", ErrRebuild, gk, keys)
	}
	for _, k := range keys {
		if !jsonEqual(rebuilt[k], sent[k]) {
			a, b := string(rebuilt[k]), string(sent[k])
			p := commonPrefix(a, b)
			return fmt.Errorf("%w: the body's %s differs at %d: %q rebuilt, %q sent", ErrRebuild, k, p, clip(around(a, p)), clip(around(b, p)))
		}
	}
	return nil
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(request.CanonicalToolOrder(x))
	ya, _ := json.Marshal(request.CanonicalToolOrder(y))
	return bytes.Equal(xa, ya)
}

// apiName is capture's name of an API.
func apiName(a request.API) string {
	if a == request.Chat {
		return string(capture.OpenAI)
	}
	return string(a)
}

// outline is a message list in a few words, for an error.
func outline(ms []capture.Message) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = fmt.Sprintf("%s/%s %q", m.Role, m.Origin, clip(m.Content))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// learnLists reads how the agent lists the skills a run planted (one line
// each, found by their names) and gives every run its list's value.
func learnLists(m *request.Model, ran []*reqRan, counter *tokens.Counter) error {
	var item request.Text
	for _, r := range ran {
		c, ok := firstCall(r)
		if !ok {
			continue
		}
		for _, e := range r.run.skills {
			line := ""
			for _, msg := range c.Messages {
				if msg.Origin == capture.OriginHook {
					continue
				}
				if i := strings.Index(msg.Content, e.Name+": "); i >= 0 {
					start := strings.LastIndex(msg.Content[:i], "\n") + 1
					end := strings.Index(msg.Content[i:], "\n")
					if end < 0 {
						return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the skill %s ends the text", ErrUnreadable, e.Name)}
					}
					line = msg.Content[start : i+end+1]
					break
				}
			}
			if line == "" {
				return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the CLI does not list the skill %s", ErrTextNotFound, e.Name)}
			}
			t, err := walk(line, strings.Replace(strings.Replace(line, e.Name, "\x01", 1), e.Description, "\x02", 1),
				request.Values{request.ItemName: e.Name, request.ItemDescription: e.Description},
				request.Values{request.ItemName: "\x01", request.ItemDescription: "\x02"})
			if err != nil {
				return &ProbeError{Probe: "request " + r.run.name, Err: err}
			}
			if item != nil && markText(item) != markText(t) {
				return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: skills are listed in two ways (%q, %q)", ErrUnexplained, markText(item), markText(t))}
			}
			item = t
		}
	}
	if item == nil {
		return nil
	}
	l := request.List{Item: item}
	if counter != nil {
		l.Shape = shapeOf(counter, item)
	}
	// a kind of skill listed apart from the others of its run's project
	// skills: among the agent's own items, in name order
	for _, r := range ran {
		c, _ := firstCall(r)
		for _, e := range r.run.skills {
			if e.Kind == request.EntryProject || slices.Contains(l.Merged, e.Kind) {
				continue
			}
			m.Lists = map[string]request.List{request.ListSkills: l}
			own := m.RenderList(request.ListSkills, onlyKind(r.run.skills, request.EntryProject))
			line := item.Fill(request.Values{request.ItemName: e.Name, request.ItemDescription: e.Description})
			if !slices.ContainsFunc(c.Messages, func(msg capture.Message) bool { return strings.Contains(msg.Content, own+line) }) {
				l.Merged = append(l.Merged, e.Kind)
			}
		}
	}
	m.Lists = map[string]request.List{request.ListSkills: l}
	for _, r := range ran {
		for k, x := range m.ListValues(r.run.skills) {
			r.values[k] = x
		}
	}
	return nil
}

func onlyKind(es []request.Entry, kind string) []request.Entry {
	var out []request.Entry
	for _, e := range es {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// learnLater reads what the agent adds of its own after the first turn,
// from the runs' later calls: its words after a skill's tool ran, its
// reminder after answers that said nothing, its words for a tool that
// printed nothing.
func learnLater(m *request.Model, ran []*reqRan, counter *tokens.Counter) error {
	for _, r := range ran {
		calls := turnCalls(r)
		for ci := 1; ci < len(calls); ci++ {
			prev, cur := calls[ci-1].Messages, calls[ci].Messages
			if len(cur) <= len(prev) {
				continue
			}
			added := cur[len(prev):]
			// the answer prev asked for: its calls, and what came after
			var asked []capture.ToolCall
			if len(added) > 0 && added[0].Role == "assistant" {
				asked = added[0].ToolCalls
			}
			for k, msg := range added {
				if k+1 < len(added) && msg.Role == "user" && added[k+1].Role == "user" && msg.Origin == capture.OriginHook && added[k+1].Origin == capture.OriginHook &&
					m.Framing.BlockSuffix == "" {
					m.Framing.BlockSuffix = blockSuffix(msg.Content, added[k+1].Content)
				}
				switch {
				case msg.Role == "tool" && msg.Content != "" && len(asked) > 0 && m.Framing.EmptyResult == nil && m.Framing.Result(callName(asked, msg.ToolCallID)) == nil:
					if tc := callOf(asked, msg.ToolCallID); tc != nil && commandOf(tc) == "true" {
						t := request.Text{{Lit: msg.Content}}
						if strings.Count(msg.Content, tc.Name) == 1 {
							before, after, _ := strings.Cut(msg.Content, tc.Name)
							t = request.Text{{Lit: before}, {Slot: "tool"}, {Lit: after}}
						}
						m.Framing.EmptyResult = t
					}
				case msg.Origin == capture.OriginHook || msg.Role == "assistant" || msg.Role == "tool" || stopPrompt(msg, r):
				case k > 0 && added[k-1].Role == "tool" && len(asked) == 1 && skillOf(asked[0], r.run.skills):
					// the agent's words after a tool's result: a skill's
					tc := asked[0]
					name, arg := skillArg(tc, r.run.skills)
					v := request.Values{request.SlotSkillDir: r.values[request.SlotSkillDir+":"+name], request.SlotSkillBody: r.values[request.SlotSkillBody+":"+name]}
					t := slotted(msg.Content, v)
					if !slices.ContainsFunc(m.Loop.AfterTool, func(p request.ToolPiece) bool { return p.Tool == tc.Name }) {
						m.Loop.AfterTool = append(m.Loop.AfterTool, request.ToolPiece{Tool: tc.Name, Arg: arg,
							Piece: request.Piece{ID: "after." + tc.Name, Role: msg.Role, Text: t, Shape: shapeOf(counter, t)}})
					}
				default:
					// the agent's own words after answers that said nothing
					quiet := 0
					for j := len(cur[:len(prev)+k]) - 1; j >= 0; j-- {
						x := cur[j]
						if x.Role == "assistant" {
							if x.Content != "" || len(x.ToolCalls) == 0 {
								break
							}
							quiet++
						}
					}
					t := request.Text{{Lit: msg.Content}}
					if len(m.Loop.Reminders) == 0 {
						m.Loop.Reminders = append(m.Loop.Reminders, request.Reminder{After: quiet,
							Piece: request.Piece{ID: "reminder.1", Role: msg.Role, Text: t, Shape: shapeOf(counter, t)}})
					}
				}
			}
		}
	}
	return nil
}

// blockSuffix is what ends a text block a and not the last block b of the
// same kind (two hooks' reminders in one message): the bytes after which a
// ends as b does.
func blockSuffix(a, b string) string {
	base := commonSuffix(a, b)
	for k := 1; k <= 4 && k < len(a); k++ {
		if commonSuffix(a[:len(a)-k], b) > base+4 {
			return a[len(a)-k:]
		}
	}
	return ""
}

func commonSuffix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// stopPrompt says msg is the probe's Stop hook's words sent as a prompt
// (Gemini CLI, Qwen Code, Copilot CLI): Loop.StopPrompt's, no words of
// the agent's.
func stopPrompt(msg capture.Message, r *reqRan) bool {
	_, prompt := isStopWords(r, msg)
	return prompt
}

func callOf(calls []capture.ToolCall, id string) *capture.ToolCall {
	for i := range calls {
		if calls[i].ID == id {
			return &calls[i]
		}
	}
	return nil
}

// commandOf is the command a shell tool's call runs (Claude Code's
// command, Codex's cmd).
func commandOf(tc *capture.ToolCall) string {
	var a struct {
		Command string `json:"command"`
		Cmd     string `json:"cmd"`
	}
	if json.Unmarshal(tc.Arguments, &a) != nil {
		return ""
	}
	return a.Command + a.Cmd
}

// skillOf says whether a call names a planted skill.
func skillOf(tc capture.ToolCall, skills []request.Entry) bool {
	name, _ := skillArg(tc, skills)
	return name != ""
}

// skillArg is the planted skill a call names, and the argument naming it.
func skillArg(tc capture.ToolCall, skills []request.Entry) (name, arg string) {
	var args map[string]any
	if json.Unmarshal(tc.Arguments, &args) != nil {
		return "", ""
	}
	for k, v := range args {
		s, _ := v.(string)
		for _, e := range skills {
			if s == e.Name {
				return e.Name, k
			}
		}
	}
	return "", ""
}

// plantedOf are the values of v a run planted (words of the probe's own,
// found wherever they stand): its folder's, its prompt's, its context
// files'.
func plantedOf(v request.Values) request.Values {
	out := request.Values{}
	for _, k := range request.Planted {
		if x := v[k]; len(x) >= 6 {
			out[k] = x
		}
	}
	for k, x := range v {
		if strings.HasPrefix(k, request.SlotFile("")) && x != "" {
			out[k] = x
		}
	}
	return out
}

// slotted is text with each value of v (planted: unique) as its slot.
func slotted(text string, v request.Values) request.Text {
	t := request.Text{{Lit: text}}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(v[keys[i]]) > len(v[keys[j]]) })
	for _, k := range keys {
		x := v[k]
		if x == "" {
			continue
		}
		var out request.Text
		for _, seg := range t {
			if seg.Slot != "" || !strings.Contains(seg.Lit, x) {
				out = append(out, seg)
				continue
			}
			parts := strings.Split(seg.Lit, x)
			for i, p := range parts {
				if i > 0 {
					out = append(out, request.Seg{Slot: k, When: seg.When})
				}
				if p != "" {
					out = append(out, request.Seg{Lit: p, When: seg.When})
				}
			}
		}
		t = out
	}
	return t
}

// learnHookNames reads how the CLI names a hook in its words about it,
// from a run whose hooks block with words of their own: one with a
// statusMessage, one of a plugin whose command names ${CLAUDE_PLUGIN_ROOT}.
func learnHookNames(m *request.Model, ran []*reqRan) {
	for _, r := range ran {
		for _, c := range turnCalls(r) {
			for _, msg := range c.Messages {
				// a hook's words that name it by its statusMessage: at the event they are of
				if strings.Contains(msg.Content, " status words") {
					event, _, _ := strings.Cut(msg.Hook, ":")
					if event == "" && strings.Contains(msg.Content, " named words") {
						event = "PreToolUse"
					}
					if event != "" && !slices.Contains(names(m).StatusMessage, event) {
						names(m).StatusMessage = append(names(m).StatusMessage, event)
					}
				}
				if msg.Role != "tool" {
					continue
				}
				switch {
				case strings.Contains(msg.Content, " named words"):
				case strings.Contains(msg.Content, " plugged words"):
					if !strings.Contains(msg.Content, "${CLAUDE_PLUGIN_ROOT}") && strings.Contains(msg.Content, "/plugin2/guard.sh") {
						names(m).PluginRoot = true
					}
					// the agent's words after the plugin hook's own
					_, after, _ := strings.Cut(msg.Content, " plugged words\n")
					if after != "" && strings.Contains(after, "hsr-named") {
						before, rest, _ := strings.Cut(after, "hsr-named")
						names(m).PluginNote = request.Text{{Lit: before}, {Slot: "plugin"}, {Lit: rest}}
						names(m).PluginNoteAt = []string{"PreToolUse"}
					}
				}
			}
		}
	}
}

func names(m *request.Model) *request.HookNames {
	if m.HookNames == nil {
		m.HookNames = &request.HookNames{}
	}
	return m.HookNames
}

// callName is the tool's name of the call id among calls.
func callName(calls []capture.ToolCall, id string) string {
	if tc := callOf(calls, id); tc != nil {
		return tc.Name
	}
	return ""
}
