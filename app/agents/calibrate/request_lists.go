package calibrate

import (
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
	"strings"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/request"
)

// learnFiles reads how the agent sends the instruction files the runs
// planted (reqRun.context): where a run with one file and a run with none
// differ around the file's content is the file's item, where a run with
// two differs from one with none the items with what stands between them.
// Every run then gets its list's value (request.ListFiles).
func learnInstructionFiles(m *request.Model, ran []*reqRan, turns []*firstTurn, counter *tokens.Counter) error {
	none := slices.IndexFunc(ran, func(r *reqRan) bool { return len(r.run.context) == 0 })
	if none < 0 || !slices.ContainsFunc(ran, func(r *reqRan) bool { return len(r.run.context) > 0 }) {
		return nil
	}
	var l request.List
	// the items of a run's files, as the diff against the run without reads them
	inserted := func(k int) (string, error) {
		r := ran[k]
		first := r.run.files[r.run.context[0]]
		a, ai := ownWith(turns[k], first)
		if ai < 0 {
			return "", &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the CLI does not send the file %s", ErrTextNotFound, r.run.context[0])}
		}
		b := counterpart(turns[k], turns[none], ai)
		if b < 0 {
			return "", &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: no text of the run without files stands for the one holding %s", ErrUnreadable, r.run.context[0])}
		}
		na, nb := normalized(a.text, r.values, ran[none].values), normalized(turns[none].own[b].text, ran[none].values, r.values)
		at := strings.Index(na, first)
		ins, ok := insertionAt(na, nb, at)
		if !ok {
			return "", &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the files' text %q is no insertion in the run without files", ErrUnexplained, clip(around(na, at)))}
		}
		return ins, nil
	}
	// the item, from a run with one file
	for k, r := range ran {
		if len(r.run.context) != 1 {
			continue
		}
		ins, err := inserted(k)
		if err != nil {
			return err
		}
		name := r.run.context[0]
		t := slotted(ins, request.Values{request.ItemContent: r.run.files[name], request.ItemName: name})
		if !slices.Contains(t.Slots(), request.ItemContent) {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the file's item holds no content", ErrUnreadable)}
		}
		if l.Item != nil && markText(l.Item) != markText(t) {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: files are sent in two ways (%q, %q)", ErrUnexplained, markText(l.Item), markText(t))}
		}
		l.Item = t
		if !slices.Contains(l.Files, name) {
			l.Files = append(l.Files, name)
		}
	}
	if l.Item == nil {
		return nil
	}
	// the order and what stands between items, from a run with two
	for k, r := range ran {
		if len(r.run.context) != 2 {
			continue
		}
		ins, err := inserted(k)
		if err != nil {
			return err
		}
		names := slices.Clone(r.run.context)
		sort.SliceStable(names, func(i, j int) bool {
			return strings.Index(ins, r.run.files[names[i]]) < strings.Index(ins, r.run.files[names[j]])
		})
		one := l.Item.Fill(request.Values{request.ItemName: names[0], request.ItemContent: r.run.files[names[0]]})
		two := l.Item.Fill(request.Values{request.ItemName: names[1], request.ItemContent: r.run.files[names[1]]})
		if !strings.HasPrefix(ins, one) || !strings.HasSuffix(ins, two) || len(ins) < len(one)+len(two) {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: two files' text %q is not their items", ErrUnexplained, clip(ins))}
		}
		l.Sep = ins[len(one) : len(ins)-len(two)]
		l.Files = mergeOrder(names, l.Files)
	}
	l.Shape = shapeOf(counter, l.Item)
	if m.Lists == nil {
		m.Lists = map[string]request.List{}
	}
	m.Lists[request.ListFiles] = l
	for _, r := range ran {
		var es []request.Entry
		for _, name := range r.run.context {
			es = append(es, request.Entry{Name: name, Body: r.run.files[name], Kind: request.EntryFile})
		}
		r.values[request.ListFiles] = m.RenderFiles(es)
	}
	return nil
}

// mergeOrder is first with the names of more it lacks after it.
func mergeOrder(first, more []string) []string {
	out := slices.Clone(first)
	for _, n := range more {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// ownWith is the run's own text holding s, and its index.
func ownWith(ft *firstTurn, s string) (ownText, int) {
	for i, o := range ft.own {
		if strings.Contains(o.text, s) {
			return o, i
		}
	}
	return ownText{}, -1
}

// counterpart is the index of the text of other that stands where a's
// own text i stands: the same rank among the texts of its role and kind.
func counterpart(a, other *firstTurn, i int) int {
	rank := 0
	for k := 0; k < i; k++ {
		if a.own[k].role == a.own[i].role && a.own[k].sys == a.own[i].sys {
			rank++
		}
	}
	for k, o := range other.own {
		if o.role == a.own[i].role && o.sys == a.own[i].sys {
			if rank == 0 {
				return k
			}
			rank--
		}
	}
	return -1
}

// normalized is text with each value of v that other holds apart (a
// folder, a session) written as its slot's mark, so two runs' texts
// differ only where the CLI's own do.
func normalized(text string, v, other request.Values) string {
	keys := make([]string, 0, len(v))
	for k, x := range v {
		if len(x) >= 6 && other[k] != x {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(v[keys[i]]) != len(v[keys[j]]) {
			return len(v[keys[i]]) > len(v[keys[j]])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		text = strings.ReplaceAll(text, v[k], mark+k+mark)
	}
	return text
}

// insertionAt is the text a holds at offset at that b lacks: within the
// lines where the two differ around at, what is left of a once the start
// and end they share are taken away, when b has nothing there of its own.
func insertionAt(a, b string, at int) (string, bool) {
	if at < 0 {
		return "", false
	}
	a0, a1, b0, b1, ok := hunkAt(a, b, at)
	if !ok {
		return "", false
	}
	x, y := a[a0:a1], b[b0:b1]
	p := commonPrefix(x, y)
	s := commonSuffix(x[p:], y[p:])
	if len(y)-p-s != 0 {
		return "", false
	}
	return x[p : len(x)-s], true
}

// hunkAt is the part of a around offset at, and of b in its place, where
// a line diff of the two finds them apart: from the line after the last
// line they share before at to the line before the first they share
// after it.
func hunkAt(a, b string, at int) (a0, a1, b0, b1 int, ok bool) {
	la, lb := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	if len(la)*len(lb) > 16<<20 {
		return 0, 0, 0, 0, false
	}
	offA, offB := lineOffsets(la), lineOffsets(lb)
	line := 0
	for line < len(la) && offA[line+1] <= at {
		line++
	}
	a1, b1 = len(a), len(b)
	for _, p := range matchLines(la, lb) {
		switch {
		case p[0] < line:
			a0, b0 = offA[p[0]+1], offB[p[1]+1]
		case p[0] > line:
			return a0, offA[p[0]], b0, offB[p[1]], true
		}
	}
	return a0, a1, b0, b1, true
}

// matchLines are the pairs of lines a longest common subsequence of la
// and lb matches, in order.
func matchLines(la, lb []string) [][2]int {
	ha, hb := lineHashes(la), lineHashes(lb)
	n, m := len(ha), len(hb)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	// lines of a few characters (blank ones, a "}") match anywhere: only
	// longer lines anchor the two texts
	same := func(i, j int) bool { return ha[i] == hb[j] && la[i] == lb[j] && len(strings.TrimSpace(la[i])) >= 4 }
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if same(i, j) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out [][2]int
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case same(i, j) && lcs[i][j] == lcs[i+1][j+1]+1:
			out = append(out, [2]int{i, j})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

func lineHashes(lines []string) []uint64 {
	out := make([]uint64, len(lines))
	for i, l := range lines {
		h := fnv.New64a()
		h.Write([]byte(l))
		out[i] = h.Sum64()
	}
	return out
}

func lineOffsets(lines []string) []int {
	out := make([]int, len(lines)+1)
	for i, l := range lines {
		out[i+1] = out[i] + len(l)
	}
	return out
}

// treeFiles are the entries withTree plants, by what each tells.
const (
	treeFirst   = "a.md"  // a file of the root, not its last entry
	treeUpper   = "B.md"  // after a.md in locale order, before it in bytes
	treeNested  = "c.txt" // a file of d/, a folder not the last of the root
	treeSkipped = "node_modules"
)

// learnBareTree reads how the agent draws the working folder's tree
// without words of its own around it (Qwen Code; learnTree reads a
// listing under the folder's path), from the run that planted withTree's
// entries: the lines of those entries give the connectors and indents,
// the folder listed unread the mark of what is left out, the one count of
// entries that draws the run's folder as the CLI did the most it draws.
// Every run then gets its tree's value (request.SlotTree).
func learnBareTree(m *request.Model, ran []*reqRan, turns []*firstTurn) error {
	if m.Tree != nil {
		return nil
	}
	k := slices.IndexFunc(ran, func(r *reqRan) bool { return hasEntry(r.folder, "d", "e", "f.txt") })
	if k < 0 {
		return nil
	}
	text := ""
	for _, o := range turns[k].own {
		if _, _, ok := treeLine(o.text, treeFirst); ok {
			text = o.text
		}
	}
	if text == "" {
		return nil // the agent draws no tree
	}
	t := &request.Tree{Order: request.OrderBytes, Bare: true, MarkUnread: true}
	t.Mid, _, _ = treeLine(text, treeFirst)
	nested, _, okN := treeLine(text, treeNested)
	last, rest, okL := treeLine(text, treeSkipped)
	if !okN || !okL || !strings.HasSuffix(nested, t.Mid) {
		return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: the folder's tree is drawn in a way the probe cannot read", ErrUnreadable)}
	}
	t.Pipe, t.Last = strings.TrimSuffix(nested, t.Mid), last
	d, dRest, _ := treeLine(text, "d")
	t.Sep = dRest
	if d != t.Mid || !strings.HasPrefix(rest, t.Sep) {
		return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: a folder's line is drawn in a way the probe cannot read", ErrUnreadable)}
	}
	t.More = strings.TrimPrefix(rest, t.Sep)
	if strings.Index(text, "\n"+t.Mid+treeFirst+"\n") < strings.Index(text, "\n"+t.Mid+treeUpper+"\n") {
		t.Order = request.OrderLocale
	}
	// the indent under a root's last folder, and the folders listed unread,
	// from every run
	for i, r := range ran {
		for _, o := range turns[i].own {
			for _, e := range r.folder.Children {
				name := e.Name
				if !e.Dir || slices.Contains(t.Ignored, name) {
					continue
				}
				if pre, rest, ok := treeLine(o.text, name); ok && (pre == t.Mid || pre == t.Last) && rest == t.Sep+t.More {
					t.Ignored = append(t.Ignored, name)
				}
			}
			if pre, _, ok := treeLine(o.text, "settings.json"); ok && t.Blank == "" && strings.HasSuffix(pre, t.Last) {
				if x := strings.TrimSuffix(pre, t.Last); x != t.Pipe && x != "" {
					t.Blank = x
				}
			}
		}
	}
	sort.Strings(t.Ignored)
	if t.Blank == "" {
		t.Blank = strings.Repeat(" ", len([]rune(t.Pipe)))
	}
	// the most entries it draws: the one count that draws the run's tree
	root := ran[k].folder
	for n := 1; n <= 500; n++ {
		t.Max = n
		if drawn := t.Render(root, ""); strings.Contains(text, "\n"+drawn+"\n") && strings.Contains(drawn, t.More) {
			break
		}
		if n == 500 {
			return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: no count of entries draws the folder as the CLI did", ErrUnreadable)}
		}
	}
	m.Tree = t
	for _, r := range ran {
		r.values[request.SlotTree] = t.Render(r.folder, "")
	}
	return nil
}

// hasEntry says whether the folder holds the entry at path.
func hasEntry(n request.Node, path ...string) bool {
	for _, c := range n.Children {
		if c.Name == path[0] {
			return len(path) == 1 || hasEntry(c, path[1:]...)
		}
	}
	return false
}

// treeLine finds the line of text that ends an entry's name: what stands
// before the name (the connectors and indents, no letter nor digit) and
// after it.
func treeLine(text, name string) (before, after string, ok bool) {
	for _, line := range strings.Split(text, "\n") {
		i := strings.Index(line, name)
		if i < 0 || strings.IndexFunc(line[:i], func(r rune) bool { return r < 128 && (alnum(byte(r)) || r == '.' || r == '/') }) >= 0 {
			continue
		}
		rest := line[i+len(name):]
		if rest != "" && (alnum(rest[0]) || rest[0] == '.' || rest[0] == '-' || rest[0] == '_') {
			continue
		}
		return line[:i], rest, true
	}
	return "", "", false
}
