package edit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"hookstudio/app/format/jsondoc"
)

// ConflictKind says what both sides did to the same thing.
type ConflictKind string

const (
	// BothChanged: both sides changed the same field (or lines) differently.
	BothChanged ConflictKind = "both-changed"
	// DeletedTheirs: the hook was deleted on disk but edited here; the
	// merge keeps the edited hook.
	DeletedTheirs ConflictKind = "deleted-on-disk"
	// DeletedMine: the hook was deleted here but edited on disk; the merge
	// keeps the disk's hook.
	DeletedMine ConflictKind = "deleted-here"
)

// Conflict is one place where both sides changed the same thing. The
// merged output holds Mine (or, for a deletion, the surviving version);
// Theirs is never lost because it is here.
type Conflict struct {
	Kind ConflictKind `json:"kind"`
	// Hook is the name of the hook for a hooks.json conflict; "" for a
	// top-level field or a text conflict.
	Hook string `json:"hook,omitempty"`
	// Field is the field both sides changed; "" when the whole hook is
	// concerned (a deletion).
	Field string `json:"field,omitempty"`
	// Line is where the conflict markers start in a merged text (1-based).
	Line int `json:"line,omitempty"`
	// Base, Mine, Theirs are the values (raw JSON, "" when absent) or the
	// lines of each side.
	Base   string `json:"base"`
	Mine   string `json:"mine"`
	Theirs string `json:"theirs"`
}

// MergeResult is a three-way merge.
type MergeResult struct {
	Merged    []byte     `json:"-"`
	Conflicts []Conflict `json:"conflicts"`
	Clean     bool       `json:"clean"` // no conflicts
}

// MergeHooks merges two edits of a hooks.json at the level of hooks and
// fields. Hooks are matched by name. A hook or top-level field changed on
// one side only takes that side's version; the same field changed
// differently on both sides keeps mine and is reported with both values; a
// hook deleted on one side and edited on the other is kept and reported.
// The result starts from mine's bytes, so mine's layout and the bytes of
// every hook it takes unchanged are preserved. When any of the three is not
// an editable document the merge falls back to MergeText.
func MergeHooks(file string, base, mine, theirs []byte) (MergeResult, error) {
	if base == nil {
		base = []byte(`{"hooks": []}`)
	}
	bd, err1 := Parse(file, base)
	md, err2 := Parse(file, mine)
	td, err3 := Parse(file, theirs)
	if err1 != nil || err2 != nil || err3 != nil {
		return MergeText(base, mine, theirs), nil
	}
	var res MergeResult
	out := md

	// Top-level fields other than "hooks".
	for _, key := range unionKeys(md.doc.Root, td.doc.Root, bd.doc.Root) {
		if key == "hooks" {
			continue
		}
		bv, mv, tv := compactOf(bd.doc.Root.Get(key)), compactOf(md.doc.Root.Get(key)), compactOf(td.doc.Root.Get(key))
		switch {
		case mv == tv, tv == bv:
		case mv == bv:
			var err error
			if tv == "" {
				out, err = out.DeleteTopField(key)
			} else {
				out, err = out.setTopRaw(key, td.doc.Root.Get(key).Raw)
			}
			if err != nil {
				return MergeResult{}, fmt.Errorf("merge %s: %w", file, err)
			}
		default:
			res.Conflicts = append(res.Conflicts, Conflict{Kind: BothChanged, Field: key, Base: bv, Mine: mv, Theirs: tv})
		}
	}

	be, me, te := entryMap(bd), entryMap(md), entryMap(td)
	type pending struct {
		key    string
		fields []fieldChange
	}
	final := map[string][]byte{}
	var work []pending
	for _, k := range unionOrder(me.order, te.order, be.order) {
		b, m, t := be.byKey[k], me.byKey[k], te.byKey[k]
		bc, mc, tc := compactOf(b), compactOf(m), compactOf(t)
		name := nameOf(m, t, b)
		switch {
		case m != nil && t != nil:
			switch {
			case mc == tc || tc == bc:
				final[k] = m.Raw
			case mc == bc:
				final[k] = t.Raw
			default:
				final[k] = m.Raw
				changes, cs := mergeFields(name, b, m, t)
				res.Conflicts = append(res.Conflicts, cs...)
				if len(changes) > 0 {
					work = append(work, pending{k, changes})
				}
			}
		case m != nil: // absent on disk
			if b == nil {
				final[k] = m.Raw // added here
			} else if mc != bc {
				final[k] = m.Raw
				res.Conflicts = append(res.Conflicts, Conflict{Kind: DeletedTheirs, Hook: name, Base: bc, Mine: mc})
			} // else deleted on disk, unchanged here: deleted
		case t != nil: // absent here
			if b == nil {
				final[k] = t.Raw // added on disk
			} else if tc != bc {
				final[k] = t.Raw
				res.Conflicts = append(res.Conflicts, Conflict{Kind: DeletedMine, Hook: name, Base: bc, Theirs: tc})
			}
		}
	}
	order := mergeOrder(be.order, me.order, te.order, final)
	texts := make([][]byte, len(order))
	for i, k := range order {
		texts[i] = final[k]
	}
	out, err := out.setElements(texts)
	if err != nil {
		return MergeResult{}, fmt.Errorf("merge %s: %w", file, err)
	}
	for _, p := range work {
		i := slices.Index(order, p.key)
		for _, c := range p.fields {
			if c.raw == nil {
				out, err = out.DeleteField(i, c.key)
			} else {
				el, eerr := out.entry(i)
				if eerr != nil {
					return MergeResult{}, fmt.Errorf("merge %s: %w", file, eerr)
				}
				out, err = out.setMember(el, c.key, c.raw)
			}
			if err != nil {
				return MergeResult{}, fmt.Errorf("merge %s: %w", file, err)
			}
		}
	}
	res.Merged = out.Bytes()
	res.Clean = len(res.Conflicts) == 0
	return res, nil
}

type fieldChange struct {
	key string
	raw []byte // nil: delete
}

// mergeFields merges one hook changed on both sides field by field; the
// changes turn mine into the merge.
func mergeFields(name string, b, m, t *jsondoc.Node) ([]fieldChange, []Conflict) {
	var changes []fieldChange
	var cs []Conflict
	for _, key := range unionKeys(m, t, b) {
		bv, mv, tv := compactOf(b.Get(key)), compactOf(m.Get(key)), compactOf(t.Get(key))
		switch {
		case mv == tv, tv == bv:
		case mv == bv:
			var raw []byte
			if tv != "" {
				raw = t.Get(key).Raw
			}
			changes = append(changes, fieldChange{key, raw})
		default:
			cs = append(cs, Conflict{Kind: BothChanged, Hook: name, Field: key, Base: bv, Mine: mv, Theirs: tv})
		}
	}
	return changes, cs
}

// compactOf is a node's JSON without insignificant whitespace, "" for nil,
// so values are compared for meaning rather than layout.
func compactOf(n *jsondoc.Node) string {
	if n == nil {
		return ""
	}
	var b bytes.Buffer
	if err := json.Compact(&b, n.Raw); err != nil {
		return string(n.Raw)
	}
	return b.String()
}

func unionKeys(objs ...*jsondoc.Node) []string {
	var keys []string
	for _, o := range objs {
		if o == nil || o.Kind != jsondoc.Object {
			continue
		}
		for _, c := range o.Children {
			if !slices.Contains(keys, c.Key) {
				keys = append(keys, c.Key)
			}
		}
	}
	return keys
}

func unionOrder(lists ...[]string) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range lists {
		for _, k := range l {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

type entrySet struct {
	order []string
	byKey map[string]*jsondoc.Node
}

// entryMap keys the hooks of a document by name. Entries without a usable
// name are keyed by their content; repeated names by occurrence.
func entryMap(d *Document) entrySet {
	s := entrySet{byKey: map[string]*jsondoc.Node{}}
	for _, el := range d.elements() {
		k := "\x00" + compactOf(el)
		if el.Kind == jsondoc.Object {
			if n := el.Get("name"); n != nil && n.Kind == jsondoc.String && n.Str != "" {
				k = n.Str
			}
		}
		for i := 2; s.byKey[k] != nil; i++ {
			k = fmt.Sprintf("%s\x00%d", k, i)
		}
		s.order = append(s.order, k)
		s.byKey[k] = el
	}
	return s
}

func nameOf(ns ...*jsondoc.Node) string {
	for _, n := range ns {
		if n != nil && n.Kind == jsondoc.Object {
			if v := n.Get("name"); v != nil && v.Kind == jsondoc.String {
				return v.Str
			}
		}
	}
	return ""
}

// mergeOrder orders the surviving hooks: theirs' order when only the disk
// reordered, mine's otherwise, with hooks only the other side has inserted
// after their predecessor on that side.
func mergeOrder(base, mine, theirs []string, final map[string][]byte) []string {
	inAll := func(k string) bool {
		return slices.Contains(base, k) && slices.Contains(mine, k) && slices.Contains(theirs, k)
	}
	filter := func(l []string, keep func(string) bool) []string {
		var out []string
		for _, k := range l {
			if keep(k) {
				out = append(out, k)
			}
		}
		return out
	}
	skeleton, other := mine, theirs
	if slices.Equal(filter(mine, inAll), filter(base, inAll)) {
		skeleton, other = theirs, mine
	}
	out := filter(skeleton, func(k string) bool { return final[k] != nil })
	for i, k := range other {
		if final[k] == nil || slices.Contains(out, k) {
			continue
		}
		at := 0
		for j := i - 1; j >= 0; j-- {
			if p := slices.Index(out, other[j]); p >= 0 {
				at = p + 1
				break
			}
		}
		out = slices.Insert(out, at, k)
	}
	return out
}

// setElements rewrites the hooks array to hold texts, reusing slots (and
// their separators) where it can.
func (d *Document) setElements(texts [][]byte) (*Document, error) {
	d, err := d.ensureHooks()
	if err != nil {
		return nil, err
	}
	kids := d.elements()
	var ss []splice
	for i := range min(len(kids), len(texts)) {
		if !bytes.Equal(kids[i].Raw, texts[i]) {
			ss = append(ss, splice{kids[i].Offset, kids[i].End, texts[i]})
		}
	}
	if len(ss) > 0 {
		if d, err = d.apply(ss...); err != nil {
			return nil, err
		}
	}
	for d.Len() > len(texts) {
		if d, err = d.DeleteHook(d.Len() - 1); err != nil {
			return nil, err
		}
	}
	for i := d.Len(); i < len(texts); i++ {
		if d, err = d.apply(d.insertAt(d.layout(d.hooks), i, texts[i])); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (d *Document) setTopRaw(key string, raw []byte) (*Document, error) {
	return d.setMember(d.doc.Root, key, raw)
}
