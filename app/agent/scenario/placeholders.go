package scenario

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Placeholders in what a scenario scripts the model to say and its tools
// to return: a run writes its own values in, so a scenario can name what
// differs per machine and per run (the project's absolute path, which an
// agent's file tools require and word their answers with).
//
//	tool_calls:
//	  - {name: view, arguments: {path: "{{cwd}}/notes.txt"}, error: "Path {{cwd}}/notes.txt does not exist."}
//
// Two braces keep clear of a shell's $VAR and ${VAR} in scripted commands.
// {{open}} is two opening braces, for a scripted text that needs them
// before a name ({{open}}name}} is the text {{name}}).
const (
	// PlaceholderCwd is the folder the run's agent works in.
	PlaceholderCwd = "cwd"
	// PlaceholderOpen is "{{", literally.
	PlaceholderOpen = "open"
)

// CodeUnknownPlaceholder: a scripted text holds {{name}} for a name the
// format does not know; a run would leave it in as it is.
const CodeUnknownPlaceholder = "unknown-placeholder"

// placeholder is one {{name}}: a name as identifiers are written, so a Go
// template's {{.Field}} or {{ x }} is text, never a placeholder.
var placeholder = regexp.MustCompile(`\{\{([A-Za-z_][A-Za-z0-9_-]*)\}\}`)

// Values are a run's values of the placeholders.
type Values struct {
	Cwd string
}

func (v Values) of(name string) (string, bool) {
	switch name {
	case PlaceholderCwd:
		return v.Cwd, true
	case PlaceholderOpen:
		return "{{", true
	}
	return "", false
}

// placeholderNames are the placeholders a scenario may use.
func placeholderNames() []string { return []string{PlaceholderCwd, PlaceholderOpen} }

// scripted decodes a string the run expands (scripted) and checks its
// placeholders.
func (d *decoder) scripted(n *yaml.Node, path string) (string, bool) {
	s, ok := d.str(n, path)
	if ok {
		d.placeholders(n, path, 0)
	}
	return s, ok
}

// placeholders reports every unknown placeholder in the strings of n (a
// tool call's arguments: every string in them, at any depth) and notes
// that the scenario uses some.
func (d *decoder) placeholders(n *yaml.Node, path string, depth int) {
	v := n
	for hops := 0; v != nil && v.Kind == yaml.AliasNode && hops < 100; hops++ {
		v = v.Alias
	}
	if v == nil || depth > MaxDepth || d.active[v] {
		return // the decoder reported it
	}
	switch v.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		d.active[v] = true
		defer delete(d.active, v)
		for i, c := range v.Content {
			if v.Kind == yaml.MappingNode && i%2 == 0 {
				continue // a key is a name, never expanded
			}
			d.placeholders(c, path, depth+1)
		}
	case yaml.ScalarNode:
		if !isString(v) {
			return
		}
		for _, m := range placeholder.FindAllStringSubmatchIndex(v.Value, -1) {
			d.usesPlaceholders = true
			name := v.Value[m[2]:m[3]]
			if slices.Contains(placeholderNames(), name) {
				continue
			}
			hint := suggestion(name, placeholderNames())
			if hint == "" {
				hint = " The placeholders are {{" + strings.Join(placeholderNames(), "}} and {{") + "}}."
			}
			at := *v // where in the text, when the text is on its line as written
			if v.Style == 0 && !strings.Contains(v.Value, "\n") {
				at.Column += utf8.RuneCountInString(v.Value[:m[0]])
			} else if (v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle) && !strings.ContainsAny(v.Value, "\n\\'\"") {
				at.Column += 1 + utf8.RuneCountInString(v.Value[:m[0]])
			}
			d.errorf(&at, CodeUnknownPlaceholder, "%s holds {{%s}}, which no run fills in.%s Write {{open}}%s}} for the text itself", path, name, hint, name)
		}
	}
}

// Expand is the scenario with vals written into its placeholders: the
// model's scripted answers (content, reply, tool calls' arguments), the
// tools' scripted results and errors, sub-agents' rounds included. A
// scenario that uses none is returned as it is; otherwise s is left
// unchanged and the copy shares nothing it expands.
func (s *Scenario) Expand(vals Values) *Scenario {
	if s == nil || !s.usesPlaceholders {
		return s
	}
	out := *s
	out.Tools = slices.Clone(s.Tools)
	for i := range out.Tools {
		t := &out.Tools[i]
		if t.Result != nil {
			r := vals.expand(*t.Result)
			t.Result = &r
		}
		t.Results = slices.Clone(t.Results)
		for j := range t.Results {
			t.Results[j].Arguments = vals.expandMap(t.Results[j].Arguments)
			t.Results[j].Result = vals.expand(t.Results[j].Result)
		}
	}
	out.Requests = slices.Clone(s.Requests)
	for i := range out.Requests {
		r := &out.Requests[i]
		r.Reply = vals.expand(r.Reply)
		r.Rounds = vals.expandRounds(r.Rounds)
	}
	return &out
}

func (v Values) expandRounds(rounds []Round) []Round {
	out := slices.Clone(rounds)
	for i := range out {
		rd := &out[i]
		rd.Content = v.expand(rd.Content)
		rd.ToolCalls = slices.Clone(rd.ToolCalls)
		for j := range rd.ToolCalls {
			tc := &rd.ToolCalls[j]
			tc.Arguments = v.expandMap(tc.Arguments)
			tc.Result, tc.Error = v.expand(tc.Result), v.expand(tc.Error)
			if tc.Subagent != nil {
				sa := *tc.Subagent
				sa.Rounds = v.expandRounds(sa.Rounds)
				tc.Subagent = &sa
			}
		}
	}
	return out
}

func (v Values) expandMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, e := range m {
		out[k] = v.expandAny(e)
	}
	return out
}

func (v Values) expandAny(e any) any {
	switch x := e.(type) {
	case string:
		return v.expand(x)
	case map[string]any:
		return v.expandMap(x)
	case []any:
		out := make([]any, len(x))
		for i, y := range x {
			out[i] = v.expandAny(y)
		}
		return out
	}
	return e
}

// expand writes v into text's placeholders; an unknown one (which Parse
// reported) stays as written.
func (v Values) expand(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		if val, ok := v.of(m[2 : len(m)-2]); ok {
			return val
		}
		return m
	})
}

// scriptedMapping decodes a tool call's arguments, whose strings the run
// expands.
func (d *decoder) scriptedMapping(n *yaml.Node, path string) map[string]any {
	m := d.mapping(n, path)
	if m != nil {
		d.placeholders(n, path, 0)
	}
	return m
}
