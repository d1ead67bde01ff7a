package edit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/hooks/cmdhook"
)

// CommandEvent is one event of a hooks.yaml with its hooks, in file order.
type CommandEvent struct {
	Event string        `json:"event"`
	Line  int           `json:"line"`
	Hooks []CommandHook `json:"hooks"`
}

// CommandHook is one hook of a hooks.yaml as the form shows it: the
// scalar fields as written (strings; "" absent), the filter, and the keys
// the form does not know (kept on every edit).
type CommandHook struct {
	Index   int               `json:"index"`
	Line    int               `json:"line"`
	Fields  map[string]string `json:"fields"`
	Filter  map[string]string `json:"filter"`
	Unknown []string          `json:"unknown"`
}

// CommandHookOp is one form edit of a hooks.yaml. Kind: "set" (Key, a
// hook field or "filter.<field>", to Value; Delete removes it), "add"
// (a new hook with Fields at the end of Event, the event added when
// missing), "delete", "move" (Index to To within Event).
type CommandHookOp struct {
	Kind   string            `json:"kind"`
	Event  string            `json:"event"`
	Index  int               `json:"index"`
	To     int               `json:"to"`
	Key    string            `json:"key"`
	Value  string            `json:"value"`
	Delete bool              `json:"delete"`
	Fields map[string]string `json:"fields"`
}

// ErrYAMLNotEditable is returned for a hooks.yaml the form cannot edit:
// not YAML, or not a mapping of events to lists. Fix it in the raw view.
var ErrYAMLNotEditable = errors.New("hooks.yaml cannot be edited in the form")

// parseYAML decodes a hooks.yaml into its document node; an empty text is
// an empty mapping.
func parseYAML(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if len(bytes.TrimSpace(data)) > 0 {
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrYAMLNotEditable, err)
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: the top level must be a mapping of event names to lists of hooks", ErrYAMLNotEditable)
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if !cmdhook.Event(k.Value).Valid() {
			continue // x-..., $schema, unknown events: kept as they are
		}
		if v.Kind == yaml.AliasNode || (v.Kind != yaml.SequenceNode && !(v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null")) {
			return nil, fmt.Errorf("%w: %s (line %d) must be a list of hooks", ErrYAMLNotEditable, k.Value, k.Line)
		}
		for j, h := range v.Content {
			if h.Kind != yaml.MappingNode {
				return nil, fmt.Errorf("%w: %s[%d] (line %d) must be a mapping", ErrYAMLNotEditable, k.Value, j, h.Line)
			}
		}
	}
	return &doc, nil
}

// CommandHooks lists the events of a hooks.yaml and their hooks, in file
// order. Keys that are not events (x-..., typos) are not listed; the raw
// view and the diagnostics show them.
func CommandHooks(data []byte) ([]CommandEvent, error) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	out := []CommandEvent{}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		if !cmdhook.Event(k.Value).Valid() {
			continue
		}
		ev := CommandEvent{Event: k.Value, Line: k.Line, Hooks: []CommandHook{}}
		for j, h := range v.Content {
			ev.Hooks = append(ev.Hooks, describeHook(j, h))
		}
		out = append(out, ev)
	}
	return out, nil
}

func describeHook(i int, m *yaml.Node) CommandHook {
	h := CommandHook{Index: i, Line: m.Line, Fields: map[string]string{}, Filter: map[string]string{}, Unknown: []string{}}
	for j := 0; j+1 < len(m.Content); j += 2 {
		k, v := m.Content[j].Value, m.Content[j+1]
		switch {
		case k == "filter" && v.Kind == yaml.MappingNode:
			for f := 0; f+1 < len(v.Content); f += 2 {
				if v.Content[f+1].Kind == yaml.ScalarNode {
					h.Filter[v.Content[f].Value] = v.Content[f+1].Value
				}
			}
		case slices.Contains(cmdhook.HookFields(), k) && k != "filter" && v.Kind == yaml.ScalarNode:
			h.Fields[k] = v.Value
		default:
			h.Unknown = append(h.Unknown, k)
		}
	}
	return h
}

// EditCommandHooks applies op to a hooks.yaml and returns the new text.
// The order of events, hooks and keys, unknown keys, comments and scalar
// styles are kept as far as yaml.v3 re-encoding allows (two-space indent;
// a blank line between events when the file had them).
func EditCommandHooks(data []byte, op CommandHookOp) ([]byte, error) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, err
	}
	if !cmdhook.Event(op.Event).Valid() {
		return nil, fmt.Errorf("unknown event %q", op.Event)
	}
	top := doc.Content[0]
	list := mapGet(top, op.Event)
	hookAt := func(i int) (*yaml.Node, error) {
		if list == nil || i < 0 || i >= len(list.Content) {
			return nil, fmt.Errorf("%s has no hook %d", op.Event, i)
		}
		return list.Content[i], nil
	}
	switch op.Kind {
	case "set":
		h, err := hookAt(op.Index)
		if err != nil {
			return nil, err
		}
		key := op.Key
		if f, ok := strings.CutPrefix(op.Key, "filter."); ok {
			if !slices.Contains(cmdhook.FilterFields(), f) {
				return nil, fmt.Errorf("unknown filter field %q", f)
			}
			flt := mapGet(h, "filter")
			if flt == nil || flt.Kind != yaml.MappingNode {
				if op.Delete {
					break
				}
				flt = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
				mapSet(h, "filter", flt)
			}
			setScalar(flt, f, op.Value, op.Delete)
			if len(flt.Content) == 0 {
				mapDelete(h, "filter")
			}
			break
		}
		if !slices.Contains(cmdhook.HookFields(), key) || key == "filter" {
			return nil, fmt.Errorf("unknown hook field %q", key)
		}
		setScalar(h, key, op.Value, op.Delete)
	case "add":
		if list == nil || list.Kind != yaml.SequenceNode {
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			if list != nil {
				mapSet(top, op.Event, seq)
			} else {
				addEvent(top, op.Event, seq)
			}
			list = seq
		}
		h := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range cmdhook.HookFields() { // the fields in the schema's order
			if v, ok := op.Fields[k]; ok && k != "filter" {
				setScalar(h, k, v, false)
			}
		}
		list.Content = append(list.Content, h)
	case "delete":
		if _, err := hookAt(op.Index); err != nil {
			return nil, err
		}
		list.Content = slices.Delete(list.Content, op.Index, op.Index+1)
	case "move":
		h, err := hookAt(op.Index)
		if err != nil {
			return nil, err
		}
		if op.To < 0 || op.To >= len(list.Content) {
			return nil, fmt.Errorf("%s has no slot %d", op.Event, op.To)
		}
		list.Content = slices.Insert(slices.Delete(list.Content, op.Index, op.Index+1), op.To, h)
	default:
		return nil, fmt.Errorf("unknown hooks.yaml operation %q", op.Kind)
	}
	return encodeYAML(doc, data)
}

// addEvent inserts event in the lifecycle order of cmdhook.Events, before
// the first later event the file has (at the end when none).
func addEvent(top *yaml.Node, event string, v *yaml.Node) {
	rank := slices.Index(cmdhook.Events, cmdhook.Event(event))
	at := len(top.Content)
	for i := 0; i+1 < len(top.Content); i += 2 {
		if r := slices.Index(cmdhook.Events, cmdhook.Event(top.Content[i].Value)); r > rank {
			at = i
			break
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: event}
	top.Content = slices.Insert(top.Content, at, k, v)
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func mapSet(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

func mapDelete(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return
		}
	}
}

// setScalar sets key to value, keeping the old node's style and comments;
// numbers (timeout) stay numbers, a multi-line text becomes a literal block.
func setScalar(m *yaml.Node, key, value string, del bool) {
	if del {
		mapDelete(m, key)
		return
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	if old := mapGet(m, key); old != nil && old.Kind == yaml.ScalarNode {
		n.Style, n.LineComment, n.HeadComment, n.FootComment = old.Style, old.LineComment, old.HeadComment, old.FootComment
	}
	if _, err := strconv.ParseFloat(value, 64); err == nil && key == "timeout" {
		n.Tag, n.Style = "!!float", 0
		if _, err := strconv.Atoi(value); err == nil {
			n.Tag = "!!int"
		}
	}
	if strings.Contains(value, "\n") {
		n.Style = yaml.LiteralStyle
	} else if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
		n.Style = 0
	}
	mapSet(m, key, n)
}

// encodeYAML writes doc with a two-space indent; when the original text
// separated its top-level keys by blank lines, so does the output.
func encodeYAML(doc *yaml.Node, orig []byte) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("write hooks.yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("write hooks.yaml: %w", err)
	}
	out := b.Bytes()
	if !bytes.Contains(orig, []byte("\n\n")) {
		return out, nil
	}
	lines := strings.SplitAfter(string(out), "\n")
	var res strings.Builder
	seenKey := false
	for i, l := range lines {
		topKey := l != "" && l[0] != ' ' && l[0] != '#' && l[0] != '-' && l[0] != '\n' && strings.Contains(l, ":")
		if topKey && seenKey {
			// the blank line goes above the key's head comment, if any
			j := res.Len()
			head := []string{}
			for k := i - 1; k >= 0 && strings.HasPrefix(lines[k], "#"); k-- {
				head = append(head, lines[k])
			}
			text := res.String()
			for _, h := range head {
				j -= len(h)
			}
			if j > 0 && !strings.HasSuffix(text[:j], "\n\n") {
				text = text[:j] + "\n" + text[j:]
			}
			res.Reset()
			res.WriteString(text)
		}
		if topKey {
			seenKey = true
		}
		res.WriteString(l)
	}
	return []byte(res.String()), nil
}
