package profile

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Placeholders a rendering's text may hold; {{ and }} are literal braces.
var Placeholders = []string{"event", "tool", "command", "text", "prompt", "input", "hook_id"}

// ErrTemplate is wrapped by every template error.
var ErrTemplate = errors.New("bad template")

// template is a parsed rendering text: literal pieces and placeholders.
type template []piece

type piece struct {
	lit string
	ph  string // placeholder name, when lit is not used
}

// parseTemplate reads s; the error's offset is the byte in s at fault.
func parseTemplate(s string) (template, int, error) {
	var t template
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t = append(t, piece{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '{' && i+1 < len(s) && s[i+1] == '{', c == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte(c)
			i++
		case c == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return nil, i, fmt.Errorf("%w: { without } (write {{ for a literal brace)", ErrTemplate)
			}
			name := s[i+1 : i+end]
			if !slices.Contains(Placeholders, name) {
				return nil, i, fmt.Errorf("%w: unknown placeholder {%s} (known: {%s}; {{ is a literal brace)", ErrTemplate, name, strings.Join(Placeholders, "} {"))
			}
			flush()
			t = append(t, piece{ph: name})
			i += end
		case c == '}':
			return nil, i, fmt.Errorf("%w: } without { (write }} for a literal brace)", ErrTemplate)
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return t, 0, nil
}

// mustTemplate parses a template the loader already checked.
func mustTemplate(s string) template {
	t, _, err := parseTemplate(s)
	if err != nil {
		return template{{lit: s}}
	}
	return t
}

func (t template) fill(v Values) string {
	var b strings.Builder
	for _, p := range t {
		switch p.ph {
		case "":
			b.WriteString(p.lit)
		case "event":
			b.WriteString(v.Event)
		case "tool":
			b.WriteString(v.Tool)
		case "command":
			b.WriteString(v.Command)
		case "text":
			b.WriteString(v.Text)
		case "prompt":
			b.WriteString(v.Prompt)
		case "input":
			b.WriteString(v.Input)
		case "hook_id":
			b.WriteString(v.HookID)
		}
	}
	return b.String()
}

// pattern is the template as a regular expression: placeholders are named
// groups (an event a word, a tool a tool name, the rest any text).
func (t template) pattern() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, p := range t {
		if p.ph == "" {
			b.WriteString(regexp.QuoteMeta(p.lit))
			continue
		}
		if seen[p.ph] { // a second use must be the same text; Go's regexp has no backreferences
			b.WriteString(`(?s:.*?)`)
			continue
		}
		seen[p.ph] = true
		switch p.ph {
		case "event":
			b.WriteString(`(?P<event>[A-Za-z][A-Za-z]*)`)
		case "tool":
			b.WriteString(`(?P<tool>[\w.-]+)`)
		default:
			b.WriteString(`(?P<` + p.ph + `>(?s:.*?))`)
		}
	}
	return b.String()
}

// Escape writes s as template text: braces doubled.
func EscapeText(s string) string {
	return strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
}
