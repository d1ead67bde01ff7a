// Package edit changes skills on disk the way an editor must: hooks.json is
// edited as a document (key order, unknown fields, indentation and untouched
// entries keep their bytes), files are saved atomically, concurrent changes
// on disk are detected and merged, and skills are exported and imported
// without ever writing a half-validated result.
package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/skills"
)

// SchemaRef is the "$schema" value written into new and exported hooks.json
// files: the $id of schema/hooks.schema.json.
const SchemaRef = "https://hookstudio.local/schema/hooks.schema.json"

// ErrNotEditable is returned when hooks.json is not structurally editable
// (invalid JSON, not an object, or "hooks" not an array): the raw view must
// fix it first.
var ErrNotEditable = errors.New("hooks.json cannot be edited as a document")

// ErrIndex is returned for a hook index outside the hooks array.
var ErrIndex = errors.New("hook index out of range")

// NameError is a refused hook or skill name. Code is one of the
// skills.Code* constants (empty-name, duplicate-name) or CodeInvalidSkillName.
type NameError struct {
	Name string
	Code string
	Msg  string
}

func (e *NameError) Error() string { return fmt.Sprintf("name %q: %s", e.Name, e.Msg) }

// Hook is the known fields of one entry, for AddHook. A nil ToolFilter
// leaves the field out.
type Hook struct {
	Name       string        `json:"name"`
	File       string        `json:"file"`
	Timing     skills.Timing `json:"timing"`
	Role       skills.Role   `json:"role"`
	Persistent bool          `json:"persistent"`
	ToolFilter []string      `json:"tool_filter,omitempty"`
}

// Document is a parsed hooks.json. It is immutable: every operation returns
// a new Document whose bytes differ from the old one only where the
// operation had to change them. Diagnostics are those of skills.ParseHooks
// on the new bytes.
type Document struct {
	file    string // name used in diagnostics
	data    []byte
	doc     *jsondoc.Doc
	hooks   *jsondoc.Node
	entries []skills.Entry
	diags   []diag.Diagnostic
	style   style
}

// style is the layout detected in the file, used for text the operations
// have to invent.
type style struct {
	unit  string // one level of indentation
	colon string // between key and value, e.g. ": "
	nl    string // "\n" or "\r\n"
}

// Parse reads hooks.json bytes. file names it in diagnostics (relative to
// the skills root, e.g. "planner/hooks/hooks.json"). A document with syntax
// errors or the wrong structure wraps ErrNotEditable; diagnostics of any
// other kind are reported by Diagnostics, not as an error.
func Parse(file string, data []byte) (*Document, error) {
	d := &Document{file: file, data: data}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotEditable, err)
	}
	if doc.Root.Kind != jsondoc.Object {
		return nil, fmt.Errorf("%w: the top level is a %s, not an object", ErrNotEditable, doc.Root.Kind)
	}
	d.doc = doc
	if h := doc.Root.Get("hooks"); h != nil {
		if h.Kind != jsondoc.Array {
			return nil, fmt.Errorf("%w: \"hooks\" is a %s, not an array", ErrNotEditable, h.Kind)
		}
		d.hooks = h
	}
	d.entries, d.diags = skills.ParseHooks(file, data)
	d.style = detectStyle(data, doc.Root)
	return d, nil
}

// New returns a minimal valid hooks.json: a "$schema" reference and no hooks.
func New(file string) *Document {
	d, err := Parse(file, []byte("{\n  \"$schema\": \""+SchemaRef+"\",\n  \"hooks\": []\n}\n"))
	if err != nil {
		panic(err) // a constant that parses
	}
	return d
}

// Bytes returns the document's text. The caller must not modify it.
func (d *Document) Bytes() []byte { return d.data }

// Diagnostics returns what skills.ParseHooks reports for the document.
func (d *Document) Diagnostics() []diag.Diagnostic { return d.diags }

// Entries returns every element of the hooks array as ParseHooks sees it.
func (d *Document) Entries() []skills.Entry { return d.entries }

// Len is the number of elements in the hooks array.
func (d *Document) Len() int {
	if d.hooks == nil {
		return 0
	}
	return len(d.hooks.Children)
}

// Index returns the index of the first entry named name, or -1.
func (d *Document) Index(name string) int {
	for i, e := range d.elements() {
		if e.Kind == jsondoc.Object {
			if n := e.Get("name"); n != nil && n.Kind == jsondoc.String && n.Str == name {
				return i
			}
		}
	}
	return -1
}

// elements is the array's elements (nil when there is no "hooks").
func (d *Document) elements() []*jsondoc.Node {
	if d.hooks == nil {
		return nil
	}
	return d.hooks.Children
}

// Field returns the raw JSON of one field of entry index, or nil when absent.
func (d *Document) Field(index int, key string) json.RawMessage {
	el, err := d.entry(index)
	if err != nil {
		return nil
	}
	if v := el.Get(key); v != nil {
		return json.RawMessage(v.Raw)
	}
	return nil
}

func (d *Document) entry(index int) (*jsondoc.Node, error) {
	if index < 0 || index >= d.Len() {
		return nil, fmt.Errorf("%w: %d (the file has %d hooks)", ErrIndex, index, d.Len())
	}
	el := d.hooks.Children[index]
	if el.Kind != jsondoc.Object {
		return nil, fmt.Errorf("%w: hook #%d is a %s, not an object", ErrNotEditable, index+1, el.Kind)
	}
	return el, nil
}

// splice is one replacement of data[start:end].
type splice struct {
	start, end int
	text       []byte
}

// apply returns a new Document with the splices applied (they must not
// overlap) and re-validated.
func (d *Document) apply(ss ...splice) (*Document, error) {
	slices.SortFunc(ss, func(a, b splice) int { return a.start - b.start })
	var out bytes.Buffer
	out.Grow(len(d.data) + 256)
	at := 0
	for _, s := range ss {
		out.Write(d.data[at:s.start])
		out.Write(s.text)
		at = s.end
	}
	out.Write(d.data[at:])
	nd, err := Parse(d.file, out.Bytes())
	if err != nil {
		return nil, fmt.Errorf("edit produced an unparsable document: %w", err)
	}
	return nd, nil
}

// ---- layout detection ----

func detectStyle(data []byte, root *jsondoc.Node) style {
	s := style{unit: "  ", colon: ": ", nl: "\n"}
	if bytes.Contains(data, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	if len(root.Children) > 0 {
		m := root.Children[0]
		s.colon = string(data[m.KeyEnd:m.Offset])
		if strings.Trim(s.colon, " \t\r\n") != ":" || strings.ContainsAny(s.colon, "\r\n") {
			s.colon = ": "
		}
		if ind := indentOf(data, m.KeyOffset); ind != "" && lineBreakBefore(data, root.Offset+1, m.KeyOffset) {
			s.unit = ind[:len(ind)-len(indentOf(data, root.Offset))]
			if s.unit == "" {
				s.unit = "  "
			}
		}
	}
	return s
}

// indentOf returns the whitespace at the start of the line holding off.
func indentOf(data []byte, off int) string {
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	if start == 0 && jsondoc.HasBOM(data) {
		start = 3
	}
	end := start
	for end < off && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return string(data[start:end])
}

func lineBreakBefore(data []byte, from, to int) bool {
	return bytes.IndexByte(data[from:to], '\n') >= 0
}

// container describes how the members or elements of one object or array
// are laid out, to add new ones the same way.
type container struct {
	node      *jsondoc.Node
	multiline bool
	inner     string // indentation of members (multiline)
	outer     string // indentation of the closing bracket's line
	sep       string // between two members on one line (not multiline)
}

func (d *Document) layout(n *jsondoc.Node) container {
	c := container{node: n, outer: indentOf(d.data, n.Offset), sep: ", "}
	if d.style.colon == ":" {
		c.sep = "," // a compact document stays compact
	}
	if len(n.Children) == 0 {
		// An empty container: follow the document's general layout.
		c.multiline = bytes.IndexByte(bytes.TrimRight(d.data, " \t\r\n"), '\n') >= 0
		c.inner = c.outer + d.style.unit
		return c
	}
	first := startOf(n.Children[0])
	c.multiline = lineBreakBefore(d.data, n.Offset+1, first)
	c.inner = indentOf(d.data, first)
	if len(n.Children) > 1 {
		if sep := string(d.data[n.Children[0].End:startOf(n.Children[1])]); strings.Trim(sep, " \t") == "," {
			c.sep = sep
		}
	}
	return c
}

// startOf is where a member (its key) or an element begins.
func startOf(n *jsondoc.Node) int {
	if n.KeyOffset >= 0 {
		return n.KeyOffset
	}
	return n.Offset
}

// insertAt returns the splice that puts item (already rendered) at
// position i of container c.
func (d *Document) insertAt(c container, i int, item []byte) splice {
	kids := c.node.Children
	sep := c.sep
	if c.multiline {
		sep = "," + d.style.nl + c.inner
	}
	switch {
	case len(kids) == 0:
		open := c.node.Offset + 1
		closeAt := c.node.End - 1
		if c.multiline {
			return splice{open, closeAt, concat(d.style.nl+c.inner, item, d.style.nl+c.outer)}
		}
		return splice{open, closeAt, item}
	case i >= len(kids):
		last := kids[len(kids)-1]
		return splice{last.End, last.End, concat(sep, item, "")}
	default:
		at := startOf(kids[i])
		return splice{at, at, concat("", item, sep)}
	}
}

// removeAt returns the splice that deletes position i of container c with
// its separator.
func (d *Document) removeAt(c container, i int) splice {
	kids := c.node.Children
	switch {
	case len(kids) == 1:
		return splice{c.node.Offset + 1, c.node.End - 1, nil}
	case i == len(kids)-1:
		return splice{kids[i-1].End, kids[i].End, nil}
	default:
		return splice{startOf(kids[i]), startOf(kids[i+1]), nil}
	}
}

func concat(a string, b []byte, c string) []byte {
	out := make([]byte, 0, len(a)+len(b)+len(c))
	out = append(out, a...)
	out = append(out, b...)
	return append(out, c...)
}

// ---- values ----

// encodeValue renders a Go value as JSON the way people write hooks.json:
// no HTML escaping, arrays of strings on one line with ", ". A
// json.RawMessage is used as it is after checking it parses.
func encodeValue(v any) ([]byte, error) {
	switch v := v.(type) {
	case json.RawMessage:
		if _, err := jsondoc.Parse(v); err != nil {
			return nil, fmt.Errorf("invalid JSON value: %w", err)
		}
		return bytes.TrimSpace(v), nil
	case []string:
		if v == nil {
			return []byte("null"), nil
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for i, s := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			b.Write(encodeString(s))
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	case skills.Timing:
		return encodeString(string(v)), nil
	case skills.Role:
		return encodeString(string(v)), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encode value: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func encodeString(s string) []byte {
	b, _ := encodeValue(any(s)) // strings always encode
	return b
}

// member renders "key": value in the document's style.
func (d *Document) member(key string, value []byte) []byte {
	return concat(string(encodeString(key))+d.style.colon, value, "")
}

// renderEntry lays out a new hook object like the existing entries (or,
// without any, one member per line).
func (d *Document) renderEntry(c container, fields []kv) []byte {
	multiline := c.multiline
	inner := c.inner + d.style.unit
	for _, el := range d.elements() {
		if el.Kind == jsondoc.Object && len(el.Children) > 0 {
			l := d.layout(el)
			multiline, inner = l.multiline, l.inner
			break
		}
	}
	outer := c.inner
	if !c.multiline {
		outer = c.outer
	}
	sep := ", "
	if d.style.colon == ":" {
		sep = ","
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			if multiline {
				b.WriteByte(',')
			} else {
				b.WriteString(sep)
			}
		}
		if multiline {
			b.WriteString(d.style.nl + inner)
		}
		b.Write(d.member(f.key, f.value))
	}
	if multiline {
		b.WriteString(d.style.nl + outer)
	}
	b.WriteByte('}')
	return b.Bytes()
}

type kv struct {
	key   string
	value []byte
}

func hookFields(h Hook) ([]kv, error) {
	fields := []kv{
		{"name", encodeString(h.Name)},
		{"file", encodeString(h.File)},
		{"timing", encodeString(string(h.Timing))},
		{"role", encodeString(string(h.Role))},
		{"persistent", []byte(fmt.Sprint(h.Persistent))},
	}
	if h.ToolFilter != nil {
		v, err := encodeValue(h.ToolFilter)
		if err != nil {
			return nil, err
		}
		fields = append(fields, kv{"tool_filter", v})
	}
	return fields, nil
}
