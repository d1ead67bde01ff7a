// Package tomlpos reads a TOML document keeping where each key stands, and
// writes any of its tables as JSON whose every offset maps back to a line
// and column of the TOML file, so that a validator written for JSON
// (app/format/jsondoc) reports TOML problems where the user sees them
// (Codex's [hooks] in .codex/config.toml).
package tomlpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"hookstudio/app/format/jsondoc"
)

// SyntaxError is a document TOML cannot read, with its position.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Doc is a parsed TOML document.
type Doc struct {
	data  []byte
	lines *jsondoc.Lines
	root  *node
}

type kind uint8

const (
	table kind = iota
	array
	scalar
)

// node is a table, an array or a value, and where it stands.
type node struct {
	kind  kind
	off   int    // where the value starts (a table made by a header: its key)
	key   int    // where its key is
	raw   []byte // a scalar as JSON
	keys  []string
	kids  map[string]*node
	items []*node
}

func newTable(off int) *node { return &node{kind: table, off: off, key: off, kids: map[string]*node{}} }

func (n *node) set(key string, v *node) {
	if _, ok := n.kids[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.kids[key] = v
}

// Parse reads data; a document TOML cannot read is a *SyntaxError.
func Parse(data []byte) (*Doc, error) {
	d := &Doc{data: data, lines: jsondoc.NewLines(data), root: newTable(0)}
	var p unstable.Parser
	p.Reset(data)
	cur := d.root
	for p.NextExpression() {
		e := p.Expression()
		var err error
		switch e.Kind {
		case unstable.Table:
			cur, err = d.descend(d.root, keyOf(e.Key()), false)
		case unstable.ArrayTable:
			cur, err = d.descend(d.root, keyOf(e.Key()), true)
		case unstable.KeyValue:
			err = d.keyValue(cur, e)
		}
		if err != nil {
			line, col := d.lines.Position(offOfKey(e))
			return nil, &SyntaxError{Line: line, Column: col, Msg: err.Error()}
		}
	}
	if err := p.Error(); err != nil {
		var pe *unstable.ParserError
		if errors.As(err, &pe) && len(pe.Highlight) > 0 {
			r := p.Range(pe.Highlight)
			line, col := d.lines.Position(int(r.Offset))
			return nil, &SyntaxError{Line: line, Column: col, Msg: pe.Message}
		}
		return nil, &SyntaxError{Line: 1, Column: 1, Msg: err.Error()}
	}
	return d, nil
}

type keyPart struct {
	name string
	off  int
}

func keyOf(it unstable.Iterator) []keyPart {
	var out []keyPart
	for it.Next() {
		n := it.Node()
		out = append(out, keyPart{name: string(n.Data), off: int(n.Raw.Offset)})
	}
	return out
}

func offOfKey(e *unstable.Node) int {
	if e.Kind == unstable.Table || e.Kind == unstable.ArrayTable || e.Kind == unstable.KeyValue {
		if k := keyOf(e.Key()); len(k) > 0 {
			return k[0].off
		}
	}
	return int(e.Raw.Offset)
}

// descend walks from t along key, making tables on the way (the last
// table of an array of tables stands for it); arrayTable appends a table
// to the array at the end of key.
func (d *Doc) descend(t *node, key []keyPart, arrayTable bool) (*node, error) {
	for i, k := range key {
		last := i == len(key)-1
		next, ok := t.kids[k.name]
		switch {
		case last && arrayTable:
			if !ok {
				next = &node{kind: array, off: k.off, key: k.off}
				t.set(k.name, next)
			} else if next.kind != array {
				return nil, fmt.Errorf("%s is already a %s, not an array of tables", k.name, next.kind.String())
			}
			tbl := newTable(k.off)
			next.items = append(next.items, tbl)
			return tbl, nil
		case !ok:
			next = newTable(k.off)
			t.set(k.name, next)
		case next.kind == array && len(next.items) > 0 && next.items[len(next.items)-1].kind == table:
			next = next.items[len(next.items)-1]
		case next.kind != table:
			return nil, fmt.Errorf("%s is already a %s, not a table", k.name, next.kind.String())
		}
		t = next
	}
	return t, nil
}

func (k kind) String() string {
	switch k {
	case table:
		return "table"
	case array:
		return "array"
	}
	return "value"
}

func (d *Doc) keyValue(t *node, e *unstable.Node) error {
	key := keyOf(e.Key())
	parent, err := d.descend(t, key[:len(key)-1], false)
	if err != nil {
		return err
	}
	v, err := d.value(e.Value(), key[len(key)-1].off)
	if err != nil {
		return err
	}
	v.key = key[len(key)-1].off
	parent.set(key[len(key)-1].name, v)
	return nil
}

func (d *Doc) value(v *unstable.Node, off int) (*node, error) {
	if v.Raw.Length > 0 {
		off = int(v.Raw.Offset)
	}
	switch v.Kind {
	case unstable.InlineTable:
		t := newTable(off)
		it := v.Children()
		for it.Next() {
			if err := d.keyValue(t, it.Node()); err != nil {
				return nil, err
			}
		}
		return t, nil
	case unstable.Array:
		a := &node{kind: array, off: off}
		it := v.Children()
		for it.Next() {
			x, err := d.value(it.Node(), off)
			if err != nil {
				return nil, err
			}
			a.items = append(a.items, x)
		}
		return a, nil
	}
	raw, err := scalarJSON(v)
	if err != nil {
		return nil, err
	}
	return &node{kind: scalar, off: off, raw: raw}, nil
}

func scalarJSON(v *unstable.Node) ([]byte, error) {
	s := string(v.Data)
	switch v.Kind {
	case unstable.String, unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return json.Marshal(s)
	case unstable.Bool:
		return []byte(s), nil
	case unstable.Integer:
		n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
		if err != nil {
			return nil, fmt.Errorf("integer %s: %w", s, err)
		}
		return []byte(strconv.FormatInt(n, 10)), nil
	case unstable.Float:
		f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return []byte("null"), nil // JSON has no inf or nan
		}
		return json.Marshal(f)
	}
	return nil, fmt.Errorf("unexpected %s", v.Kind)
}

// Has says whether the document defines path.
func (d *Doc) Has(path ...string) bool { return d.at(path) != nil }

func (d *Doc) at(path []string) *node {
	n := d.root
	for _, k := range path {
		if n.kind != table {
			return nil
		}
		if n = n.kids[k]; n == nil {
			return nil
		}
	}
	return n
}

// JSON writes the value at path as JSON, wrapped as {"<last key>": …}
// (the whole document for no path), and a function giving the TOML line
// and column of a JSON offset. ok is false when the document has no path.
func (d *Doc) JSON(path ...string) (data []byte, pos func(off int) (line, col int), ok bool) {
	n := d.at(path)
	if n == nil {
		return nil, nil, false
	}
	var b bytes.Buffer
	m := &posMap{}
	if len(path) > 0 {
		m.add(0, n.key)
		b.WriteByte('{')
		key, _ := json.Marshal(path[len(path)-1])
		b.Write(key)
		b.WriteByte(':')
	}
	d.write(&b, n, m)
	if len(path) > 0 {
		b.WriteByte('}')
	}
	return b.Bytes(), func(off int) (int, int) { return d.lines.Position(m.at(off)) }, true
}

func (d *Doc) write(b *bytes.Buffer, n *node, m *posMap) {
	m.add(b.Len(), n.off)
	switch n.kind {
	case scalar:
		b.Write(n.raw)
	case array:
		b.WriteByte('[')
		for i, x := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			d.write(b, x, m)
		}
		b.WriteByte(']')
	case table:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kid := n.kids[k]
			m.add(b.Len(), kid.key)
			key, _ := json.Marshal(k)
			b.Write(key)
			b.WriteByte(':')
			d.write(b, kid, m)
		}
		b.WriteByte('}')
	}
}

// posMap maps offsets of the written JSON to offsets of the TOML.
type posMap struct {
	json, toml []int
}

func (m *posMap) add(j, t int) {
	m.json, m.toml = append(m.json, j), append(m.toml, t)
}

// at is the TOML offset of the last node written at or before off.
func (m *posMap) at(off int) int {
	i := sort.SearchInts(m.json, off+1) - 1
	if i < 0 {
		return 0
	}
	return m.toml[i]
}
