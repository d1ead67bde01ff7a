package expect

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/engine"
)

// ErrNotEditable is returned for a scenario file these edits cannot keep
// intact: JSON (re-encoding would turn it into YAML), or a request or round
// written as an alias.
var ErrNotEditable = errors.New("scenario file cannot be edited in place")

// Snapshot writes what tr observed into the scenario file data as
// expectations, for a snapshot-style start: the run's status at the
// scenario level, and for every request what it yields and, per LLM call,
// the hooks the call sees (with their copies) and the run's hooks it does
// not see. Each level's expect: key is replaced where it stands, or added
// at the end of its mapping; comments, key order and everything else stay.
func Snapshot(data []byte, tr *engine.Trace) ([]byte, error) {
	doc, root, err := load(data)
	if err != nil {
		return nil, err
	}
	setKey(root, "expect", seq(mapping("status", scalar(string(tr.Status)))))
	reqs := lookup(root, "requests")
	if reqs == nil || reqs.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("%w: requests is not a list", ErrNotEditable)
	}
	for i, info := range tr.Requests {
		if i >= len(reqs.Content) {
			break
		}
		rn := reqs.Content[i]
		if rn.Kind != yaml.MappingNode {
			return nil, fmt.Errorf("%w: request %d is not a plain mapping (an alias?)", ErrNotEditable, i+1)
		}
		list := seq()
		yields := seq()
		yields.Style = yaml.FlowStyle
		for s := info.FirstStep; s <= info.LastStep && s < tr.NumSteps(); s++ {
			if st := tr.Step(s); st.Kind == engine.StepYield && len(st.Hooks) > 0 {
				_, name, _ := strings.Cut(st.Hooks[0], "/")
				yields.Content = append(yields.Content, scalar(name))
			}
		}
		list.Content = append(list.Content, mapping("yields", yields))
		for _, c := range info.Calls {
			if e := callSnapshot(tr, c); e != nil {
				list.Content = append(list.Content, e)
			}
		}
		setKey(rn, "expect", list)
	}
	return encode(doc)
}

// callSnapshot is one entry for call c: its address within its request,
// the hooks it sees with their copies, the run's hooks it does not see.
func callSnapshot(tr *engine.Trace, c int) *yaml.Node {
	lc := tr.Calls[c]
	copies := map[string]int{}
	var order []string
	for _, m := range tr.CallMessages(c) {
		if m.Hook == "" || m.Skill == "" {
			continue
		}
		id := m.Skill + "/" + m.Hook
		if copies[id] == 0 {
			order = append(order, id)
		}
		copies[id]++
	}
	e := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
	if lc.Round != nil {
		e.Content = append(e.Content, scalar("round"), intNode(*lc.Round))
	} else {
		e.Content = append(e.Content, scalar("phase"), scalar(string(lc.Phase)))
	}
	if len(order) > 0 {
		sees := seq()
		for _, id := range order {
			skill, name, _ := strings.Cut(id, "/")
			ref := mapping("hook", scalar(name), "skill", scalar(skill))
			ref.Style = yaml.FlowStyle
			ref.Content = append(ref.Content, scalar("copies"), intNode(copies[id]))
			sees.Content = append(sees.Content, ref)
		}
		e.Content = append(e.Content, scalar("sees"), sees)
	}
	not := seq()
	not.Style = yaml.FlowStyle
	seen := map[string]bool{}
	for _, h := range tr.Hooks {
		id := h.ID()
		if copies[id] == 0 && !seen[id] {
			seen[id] = true
			not.Content = append(not.Content, scalar(id))
		}
	}
	if len(not.Content) > 0 {
		e.Content = append(e.Content, scalar("not_sees"), not)
	}
	if len(e.Content) == 2 {
		return nil // nothing to say about this call
	}
	return e
}

// Target is where an added expectation goes: a call's place in the flow.
type Target struct {
	Request int    // 0-based
	Phase   string // direct, planning or agent
	Round   *int   // agent rounds
}

// Add appends one expectation entry (a mapping of assertion keys, as a
// scenario file writes them) for the call at target: under the call's own
// planning: or rounds[N]: when the file has one, else under the request
// with phase/round. Comments, key order and everything else stay.
func Add(data []byte, target Target, entry map[string]any) ([]byte, error) {
	doc, root, err := load(data)
	if err != nil {
		return nil, err
	}
	item := &yaml.Node{}
	if err := item.Encode(entry); err != nil {
		return nil, fmt.Errorf("encode expectation: %w", err)
	}
	item.Style = yaml.FlowStyle
	reqs := lookup(root, "requests")
	if reqs == nil || reqs.Kind != yaml.SequenceNode || target.Request < 0 || target.Request >= len(reqs.Content) {
		return nil, fmt.Errorf("%w: the file has no request %d", ErrNotEditable, target.Request+1)
	}
	rn := reqs.Content[target.Request]
	if rn.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: request %d is not a plain mapping (an alias?)", ErrNotEditable, target.Request+1)
	}
	parent := rn
	switch {
	case target.Phase == "planning" && isMapping(lookup(rn, "planning")):
		parent = lookup(rn, "planning")
	case target.Phase == "agent" && target.Round != nil:
		if rounds := lookup(rn, "rounds"); rounds != nil && rounds.Kind == yaml.SequenceNode && *target.Round < len(rounds.Content) && isMapping(rounds.Content[*target.Round]) {
			parent = rounds.Content[*target.Round]
		}
	}
	if parent == rn {
		// Address the call from the request's list.
		addr := &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle}
		if target.Round != nil {
			addr.Content = append(addr.Content, scalar("round"), intNode(*target.Round))
		} else {
			addr.Content = append(addr.Content, scalar("phase"), scalar(target.Phase))
		}
		item.Content = append(addr.Content, item.Content...)
	}
	list := lookup(parent, "expect")
	if list == nil || list.Kind != yaml.SequenceNode {
		list = seq()
		setKey(parent, "expect", list)
	}
	list.Content = append(list.Content, item)
	return encode(doc)
}

func isMapping(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

func load(data []byte) (*yaml.Node, *yaml.Node, error) {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return nil, nil, fmt.Errorf("%w: it is JSON; write the expectations by hand or convert it to YAML", ErrNotEditable)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("parse scenario: %w", err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil, fmt.Errorf("%w: the file is not a mapping", ErrNotEditable)
	}
	return &doc, doc.Content[0], nil
}

func encode(doc *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	return buf.Bytes(), nil
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// setKey replaces key's value where it stands, keeping its comments, or
// appends the key at the end of the mapping.
func setKey(m *yaml.Node, key string, val *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			old := m.Content[i+1]
			val.LineComment, val.FootComment = old.LineComment, old.FootComment
			m.Content[i+1] = val
			return
		}
	}
	m.Content = append(m.Content, scalar(key), val)
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func intNode(n int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(n)}
}

func seq(items ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: items}
}

func mapping(kv ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(kv); i += 2 {
		m.Content = append(m.Content, scalar(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return m
}
