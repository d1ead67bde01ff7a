package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/jsondoc"
	"hookstudio/app/format/yamlpos"
)

// ErrClaudeNotEditable is returned for a Claude Code settings text the
// form cannot edit (not JSON, not an object, "hooks" not an object, or a
// SKILL.md frontmatter that is not YAML). Fix it in the raw view.
var ErrClaudeNotEditable = errors.New("cannot be edited in the form")

// ClaudeHooks is the "hooks" of a Claude Code settings.json, plugin
// hooks.json or SKILL.md frontmatter as the form edits it: the value as
// JSON (key order as written) and where each event, group and handler is,
// by path "Event", "Event/g", "Event/g/h" (1-based lines of the file).
type ClaudeHooks struct {
	Hooks json.RawMessage `json:"hooks"`
	Lines map[string]int  `json:"lines"`
}

var skillFrontmatter = regexp.MustCompile(`(?s)\A(---\r?\n)(.*?\r?\n)?(---(?:\r?\n|\z))`)

func isSkillFile(file string) bool { return strings.HasSuffix(file, ".md") }

// InspectClaudeHooks reads the hooks of a Claude Code file for the form.
// An empty text has none.
func InspectClaudeHooks(file string, data []byte) (ClaudeHooks, error) {
	if isSkillFile(file) {
		return inspectSkillHooks(data)
	}
	out := ClaudeHooks{Hooks: json.RawMessage("{}"), Lines: map[string]int{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return out, nil
	}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return out, fmt.Errorf("%w: %w", ErrClaudeNotEditable, err)
	}
	if doc.Root.Kind != jsondoc.Object {
		return out, fmt.Errorf("%w: a settings file is a JSON object", ErrClaudeNotEditable)
	}
	h := doc.Root.Get("hooks")
	if h == nil {
		return out, nil
	}
	if h.Kind != jsondoc.Object {
		return out, fmt.Errorf("%w: \"hooks\" is %s, not an object of events", ErrClaudeNotEditable, h.Kind)
	}
	lines := jsondoc.NewLines(data)
	at := func(n *jsondoc.Node) int { l, _ := lines.Position(startOf(n)); return l }
	for _, ev := range h.Children {
		out.Lines[ev.Key] = at(ev)
		if ev.Kind != jsondoc.Array {
			continue
		}
		for g, grp := range ev.Children {
			gk := ev.Key + "/" + strconv.Itoa(g)
			out.Lines[gk] = at(grp)
			if hs := grp.Get("hooks"); hs != nil && hs.Kind == jsondoc.Array { // any shape is read: the form names the wrong ones
				for i, hd := range hs.Children {
					out.Lines[gk+"/"+strconv.Itoa(i)] = at(hd)
				}
			}
		}
	}
	out.Hooks = compactRaw(h.Raw)
	return out, nil
}

// EditClaudeHooks replaces the hooks of a Claude Code file with hooks (a
// JSON object of events, as the form built it) and leaves everything else
// as written: a settings file's other keys byte for byte, a SKILL.md's
// body and other frontmatter keys. An empty hooks object removes the key.
func EditClaudeHooks(file string, data []byte, hooks json.RawMessage) ([]byte, error) {
	hd, err := jsondoc.Parse(hooks)
	if err != nil || hd.Root.Kind != jsondoc.Object {
		return nil, fmt.Errorf("the hooks given are not a JSON object of events: %v", err)
	}
	if isSkillFile(file) {
		return editSkillHooks(data, hd.Root)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrClaudeNotEditable, err)
	}
	if doc.Root.Kind != jsondoc.Object {
		return nil, fmt.Errorf("%w: a settings file is a JSON object", ErrClaudeNotEditable)
	}
	st := detectStyle(data, doc.Root)
	d := &Document{data: data, style: st}
	c := d.layout(doc.Root)
	if !c.multiline && len(doc.Root.Children) == 0 {
		c.multiline = true
		c.inner = c.outer + st.unit
	}
	existing := -1
	for i, m := range doc.Root.Children {
		if m.Key == "hooks" {
			existing = i
		}
	}
	empty := len(hd.Root.Children) == 0
	var sp splice
	switch {
	case existing >= 0 && empty:
		sp = d.removeAt(c, existing)
	case existing >= 0:
		n := doc.Root.Children[existing]
		sp = splice{n.Offset, n.End, renderJSON(hd.Root, indentOf(data, startOf(n)), st)}
	case empty:
		return data, nil
	default:
		member := concat(string(encodeString("hooks"))+st.colon, renderJSON(hd.Root, c.inner, st), "")
		sp = d.insertAt(c, len(doc.Root.Children), member)
	}
	var out bytes.Buffer
	out.Write(data[:sp.start])
	out.Write(sp.text)
	out.Write(data[sp.end:])
	if _, err := jsondoc.Parse(out.Bytes()); err != nil {
		return nil, fmt.Errorf("edit produced invalid JSON: %w", err)
	}
	return out.Bytes(), nil
}

// renderJSON writes n indented the way settings files are written: one
// member or element a line, a handler object and arrays of scalars kept
// on one line when short (as people write them).
func renderJSON(n *jsondoc.Node, indent string, st style) []byte {
	var b bytes.Buffer
	var walk func(n *jsondoc.Node, indent string)
	walk = func(n *jsondoc.Node, indent string) {
		switch n.Kind {
		case jsondoc.Object, jsondoc.Array:
			if len(n.Children) == 0 {
				b.Write(compactRaw(n.Raw))
				return
			}
			if flat := oneLine(n); flat != nil && len(flat)+len(indent) <= 120 {
				b.Write(flat)
				return
			}
			open, close := byte('{'), byte('}')
			if n.Kind == jsondoc.Array {
				open, close = '[', ']'
			}
			b.WriteByte(open)
			inner := indent + st.unit
			for i, k := range n.Children {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(st.nl + inner)
				if n.Kind == jsondoc.Object {
					b.Write(encodeString(k.Key))
					b.WriteString(st.colon)
				}
				walk(k, inner)
			}
			b.WriteString(st.nl + indent)
			b.WriteByte(close)
		default:
			b.Write(compactRaw(n.Raw))
		}
	}
	walk(n, indent)
	return b.Bytes()
}

// oneLine renders an object or array of scalars (or arrays of scalars) on
// one line with ", " and ": "; nil when it holds an object or a nested
// container of containers.
func oneLine(n *jsondoc.Node) []byte {
	var parts [][]byte
	for _, k := range n.Children {
		v := compactRaw(k.Raw)
		switch k.Kind {
		case jsondoc.Object:
			return nil
		case jsondoc.Array:
			if n.Kind == jsondoc.Array {
				return nil
			}
			for _, e := range k.Children {
				if e.Kind == jsondoc.Object || e.Kind == jsondoc.Array {
					return nil
				}
			}
			v = canonicalValue(k)
		}
		if n.Kind == jsondoc.Object {
			v = concat(string(encodeString(k.Key))+": ", v, "")
		}
		parts = append(parts, v)
	}
	if n.Kind == jsondoc.Array && len(parts) > 0 && n.Children[0].Kind != jsondoc.String {
		return nil // a list of groups or handlers: one a line
	}
	open, close := "{", "}"
	if n.Kind == jsondoc.Array {
		open, close = "[", "]"
	}
	return concat(open, bytes.Join(parts, []byte(", ")), close)
}

// ---- SKILL.md frontmatter ----

func inspectSkillHooks(data []byte) (ClaudeHooks, error) {
	out := ClaudeHooks{Hooks: json.RawMessage("{}"), Lines: map[string]int{}}
	m := skillFrontmatter.FindSubmatchIndex(data)
	if m == nil {
		return out, nil // no frontmatter: no hooks yet
	}
	front := []byte{}
	if m[4] >= 0 {
		front = data[m[4]:m[5]]
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return out, fmt.Errorf("%w: the frontmatter is not YAML: %w", ErrClaudeNotEditable, err)
	}
	if len(doc.Content) == 0 {
		return out, nil
	}
	if doc.Content[0].Kind != yaml.MappingNode {
		return out, fmt.Errorf("%w: the frontmatter is not a mapping", ErrClaudeNotEditable)
	}
	h := mapValue(doc.Content[0], "hooks")
	if h == nil {
		return out, nil
	}
	if h.Kind != yaml.MappingNode {
		return out, fmt.Errorf("%w: hooks: is not a mapping of events", ErrClaudeNotEditable)
	}
	var js bytes.Buffer
	if err := yamlpos.ToJSON(&js, h, &yamlpos.PosMap{}); err != nil {
		return out, fmt.Errorf("%w: %w", ErrClaudeNotEditable, err)
	}
	out.Hooks = js.Bytes()
	for i := 0; i+1 < len(h.Content); i += 2 {
		ev := h.Content[i].Value
		out.Lines[ev] = h.Content[i].Line + 1 // +1: the opening ---
		for g, grp := range h.Content[i+1].Content {
			gk := ev + "/" + strconv.Itoa(g)
			out.Lines[gk] = grp.Line + 1
			if hs := mapValue(grp, "hooks"); hs != nil {
				for j, hd := range hs.Content {
					out.Lines[gk+"/"+strconv.Itoa(j)] = hd.Line + 1
				}
			}
		}
	}
	return out, nil
}

func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	var v *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v = n.Content[i+1]
		}
	}
	return v
}

// jsonYAML builds a YAML node from a JSON node, keys in their order.
func jsonYAML(n *jsondoc.Node) *yaml.Node {
	switch n.Kind {
	case jsondoc.Object:
		out := &yaml.Node{Kind: yaml.MappingNode}
		for _, k := range n.Children {
			out.Content = append(out.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k.Key}, jsonYAML(k))
		}
		return out
	case jsondoc.Array:
		out := &yaml.Node{Kind: yaml.SequenceNode}
		for _, k := range n.Children {
			out.Content = append(out.Content, jsonYAML(k))
		}
		return out
	case jsondoc.String:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n.Str}
	case jsondoc.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(n.Bool)}
	case jsondoc.Null:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(n.Raw)} // a number, as written
}

// editSkillHooks replaces the frontmatter's hooks: (adds it, or removes
// it when hooks is empty); the body after the frontmatter is kept as is.
func editSkillHooks(data []byte, hooks *jsondoc.Node) ([]byte, error) {
	var head, front, body []byte
	if m := skillFrontmatter.FindSubmatchIndex(data); m != nil {
		head = data[m[2]:m[3]]
		if m[4] >= 0 {
			front = data[m[4]:m[5]]
		}
		body = data[m[6]:]
	} else {
		head, body = []byte("---\n"), append([]byte("---\n"), data...)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return nil, fmt.Errorf("%w: the frontmatter is not YAML: %w", ErrClaudeNotEditable, err)
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: the frontmatter is not a mapping", ErrClaudeNotEditable)
	}
	idx := -1
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "hooks" {
			idx = i
		}
	}
	switch {
	case len(hooks.Children) == 0 && idx >= 0:
		root.Content = append(root.Content[:idx], root.Content[idx+2:]...)
	case len(hooks.Children) == 0:
	case idx >= 0:
		root.Content[idx+1] = jsonYAML(hooks)
	default:
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "hooks"}, jsonYAML(hooks))
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if len(root.Content) > 0 {
		if err := enc.Encode(&doc); err != nil {
			return nil, fmt.Errorf("write the frontmatter: %w", err)
		}
	}
	enc.Close()
	out := append(append(append([]byte{}, head...), b.Bytes()...), body...)
	return out, nil
}
