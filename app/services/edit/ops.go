package edit

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/skills"
)

// checkHookName applies the validator's name rules to a name about to be
// written at index (-1 for a new entry).
func (d *Document) checkHookName(name string, index int) error {
	if strings.TrimSpace(name) == "" {
		return &NameError{Name: name, Code: skills.CodeEmptyName, Msg: "a hook needs a non-empty name"}
	}
	for i, el := range d.elements() {
		if i == index || el.Kind != jsondoc.Object {
			continue
		}
		if n := el.Get("name"); n != nil && n.Kind == jsondoc.String && n.Str == name {
			return &NameError{Name: name, Code: skills.CodeDuplicateName, Msg: fmt.Sprintf("already used by hook #%d of this skill", i+1)}
		}
	}
	return nil
}

// ensureHooks adds an empty "hooks" array when the document has none.
func (d *Document) ensureHooks() (*Document, error) {
	if d.hooks != nil {
		return d, nil
	}
	c := d.layout(d.doc.Root)
	return d.apply(d.insertAt(c, len(c.node.Children), d.member("hooks", []byte("[]"))))
}

// AddHook appends a hook with the given fields.
func (d *Document) AddHook(h Hook) (*Document, error) {
	return d.InsertHook(d.Len(), h)
}

// InsertHook puts a new hook at position at (0 ≤ at ≤ Len).
func (d *Document) InsertHook(at int, h Hook) (*Document, error) {
	if err := d.checkHookName(h.Name, -1); err != nil {
		return nil, fmt.Errorf("add hook: %w", err)
	}
	d, err := d.ensureHooks()
	if err != nil {
		return nil, err
	}
	if at < 0 || at > d.Len() {
		return nil, fmt.Errorf("add hook: %w: %d", ErrIndex, at)
	}
	fields, err := hookFields(h)
	if err != nil {
		return nil, fmt.Errorf("add hook: %w", err)
	}
	c := d.layout(d.hooks)
	return d.apply(d.insertAt(c, at, d.renderEntry(c, fields)))
}

// SetField sets one field of hook index, in place when the field exists
// (the last occurrence, which is the one that counts) or appended at the end
// of the entry otherwise. value is any JSON-encodable value; a
// json.RawMessage is written as it is. Setting "name" applies the name rules.
func (d *Document) SetField(index int, key string, value any) (*Document, error) {
	el, err := d.entry(index)
	if err != nil {
		return nil, fmt.Errorf("set %q: %w", key, err)
	}
	raw, err := encodeValue(value)
	if err != nil {
		return nil, fmt.Errorf("set %q: %w", key, err)
	}
	if key == "name" {
		n, perr := jsondoc.Parse(raw)
		if perr != nil || n.Root.Kind != jsondoc.String {
			return nil, fmt.Errorf("set %q: %w", key, &NameError{Name: string(raw), Code: skills.CodeType, Msg: "a hook name must be a string"})
		}
		if err := d.checkHookName(n.Root.Str, index); err != nil {
			return nil, fmt.Errorf("set %q: %w", key, err)
		}
	}
	return d.setMember(el, key, raw)
}

func (d *Document) setMember(obj *jsondoc.Node, key string, raw []byte) (*Document, error) {
	if v := obj.Get(key); v != nil {
		return d.apply(splice{v.Offset, v.End, raw})
	}
	c := d.layout(obj)
	return d.apply(d.insertAt(c, len(obj.Children), d.member(key, raw)))
}

// DeleteField removes a field (every occurrence of the key) from hook index.
// Removing a field that is not there is not an error.
func (d *Document) DeleteField(index int, key string) (*Document, error) {
	for {
		el, err := d.entry(index)
		if err != nil {
			return nil, fmt.Errorf("delete %q: %w", key, err)
		}
		i := slices.IndexFunc(el.Children, func(m *jsondoc.Node) bool { return m.Key == key })
		if i < 0 {
			return d, nil
		}
		if d, err = d.apply(d.removeAt(d.layout(el), i)); err != nil {
			return nil, err
		}
	}
}

// UpdateHook sets several fields of hook index at once: known fields in
// schema order, then the others by name. A nil value removes the field (to
// write null, pass json.RawMessage("null")).
func (d *Document) UpdateHook(index int, fields map[string]any) (*Document, error) {
	keys := slices.SortedFunc(maps.Keys(fields), func(a, b string) int {
		ia, ib := slices.Index(skills.KnownFields(), a), slices.Index(skills.KnownFields(), b)
		if ia < 0 {
			ia = len(skills.KnownFields())
		}
		if ib < 0 {
			ib = len(skills.KnownFields())
		}
		return cmp.Or(cmp.Compare(ia, ib), strings.Compare(a, b))
	})
	if v, ok := fields["name"]; ok {
		// Check first, so a refused name changes nothing at all.
		if s, isStr := v.(string); isStr {
			if err := d.checkHookName(s, index); err != nil {
				return nil, fmt.Errorf("update hook: %w", err)
			}
		}
	}
	var err error
	for _, k := range keys {
		if fields[k] == nil {
			d, err = d.DeleteField(index, k)
		} else {
			d, err = d.SetField(index, k, fields[k])
		}
		if err != nil {
			return nil, fmt.Errorf("update hook: %w", err)
		}
	}
	return d, nil
}

// RenameHook changes the name of hook index.
func (d *Document) RenameHook(index int, name string) (*Document, error) {
	return d.SetField(index, "name", name)
}

// DuplicateHook inserts a byte-for-byte copy of hook index right after it,
// named name, or "<name>-copy" ("-copy-2", ...) when name is "".
func (d *Document) DuplicateHook(index int, name string) (*Document, error) {
	el, err := d.entry(index)
	if err != nil {
		return nil, fmt.Errorf("duplicate hook: %w", err)
	}
	if name == "" {
		name = d.copyName(el)
	}
	if err := d.checkHookName(name, -1); err != nil {
		return nil, fmt.Errorf("duplicate hook: %w", err)
	}
	nd, err := d.apply(d.insertAt(d.layout(d.hooks), index+1, el.Raw))
	if err != nil {
		return nil, err
	}
	return nd.SetField(index+1, "name", name)
}

func (d *Document) copyName(el *jsondoc.Node) string {
	base := "hook"
	if n := el.Get("name"); n != nil && n.Kind == jsondoc.String && strings.TrimSpace(n.Str) != "" {
		base = n.Str
	}
	for i := 1; ; i++ {
		name := base + "-copy"
		if i > 1 {
			name = fmt.Sprintf("%s-copy-%d", base, i)
		}
		if d.checkHookName(name, -1) == nil {
			return name
		}
	}
}

// MoveHook moves hook from to position to; the other hooks keep their
// order. Every entry keeps its bytes; only which slot holds it changes.
func (d *Document) MoveHook(from, to int) (*Document, error) {
	n := d.Len()
	if from < 0 || from >= n || to < 0 || to >= n {
		return nil, fmt.Errorf("move hook %d to %d: %w (the file has %d hooks)", from, to, ErrIndex, n)
	}
	order := make([]int, 0, n)
	for i := range n {
		if i != from {
			order = append(order, i)
		}
	}
	order = slices.Insert(order, to, from)
	return d.permute(order)
}

// permute rewrites the hooks array so slot i holds the old element order[i].
func (d *Document) permute(order []int) (*Document, error) {
	kids := d.elements()
	var ss []splice
	for i, j := range order {
		if i != j {
			ss = append(ss, splice{kids[i].Offset, kids[i].End, kids[j].Raw})
		}
	}
	if len(ss) == 0 {
		return d, nil
	}
	return d.apply(ss...)
}

// DeleteHook removes hook index.
func (d *Document) DeleteHook(index int) (*Document, error) {
	if index < 0 || index >= d.Len() {
		return nil, fmt.Errorf("delete hook: %w: %d", ErrIndex, index)
	}
	return d.apply(d.removeAt(d.layout(d.hooks), index))
}

// SetTopField sets a top-level field other than "hooks" (e.g. "$schema").
func (d *Document) SetTopField(key string, value any) (*Document, error) {
	if key == "hooks" {
		return nil, fmt.Errorf("set top-level field: %w: edit hooks one by one", ErrNotEditable)
	}
	raw, err := encodeValue(value)
	if err != nil {
		return nil, fmt.Errorf("set %q: %w", key, err)
	}
	if key == "$schema" && d.doc.Root.Get(key) == nil {
		// "$schema" goes first, where editors and readers look for it.
		return d.apply(d.insertAt(d.layout(d.doc.Root), 0, d.member(key, raw)))
	}
	return d.setMember(d.doc.Root, key, raw)
}

// DeleteTopField removes a top-level field other than "hooks".
func (d *Document) DeleteTopField(key string) (*Document, error) {
	if key == "hooks" {
		return nil, fmt.Errorf("delete top-level field: %w: delete hooks one by one", ErrNotEditable)
	}
	for {
		root := d.doc.Root
		i := slices.IndexFunc(root.Children, func(m *jsondoc.Node) bool { return m.Key == key })
		if i < 0 {
			return d, nil
		}
		var err error
		if d, err = d.apply(d.removeAt(d.layout(root), i)); err != nil {
			return nil, err
		}
	}
}

// WithSchema returns the document with "$schema" set to SchemaRef unless it
// already has a "$schema".
func (d *Document) WithSchema() (*Document, error) {
	if d.doc.Root.Get("$schema") != nil {
		return d, nil
	}
	return d.SetTopField("$schema", SchemaRef)
}
