package profile

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
)

// Diagnostic codes (tests check codes, never wording).
const (
	CodeSyntax         = "profile-syntax"
	CodeShape          = "profile-shape"
	CodeUnknownField   = "profile-unknown-field"
	CodeUnknownOutcome = "profile-unknown-outcome"
	CodeMissingOutcome = "profile-missing-outcome"
	CodeTemplate       = "profile-template"
	CodeMismatch       = "profile-mismatch"
)

// ErrInvalid is wrapped by every *Error.
var ErrInvalid = errors.New("invalid rendering profile")

// Error is a profile file that does not parse or has an unknown shape:
// every problem found, each at file:line:col.
type Error struct {
	File        string
	Diagnostics []diag.Diagnostic
}

func (e *Error) Error() string {
	lines := make([]string, 0, len(e.Diagnostics))
	for _, d := range e.Diagnostics {
		lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Message))
	}
	return strings.Join(lines, "\n")
}

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *Error) Unwrap() error { return ErrInvalid }

// Has says whether one of the diagnostics has code.
func (e *Error) Has(code string) bool {
	return slices.ContainsFunc(e.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == code })
}

var (
	agentRe       = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	versionRe     = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*([-+][0-9A-Za-z.-]+)?$`)
	fingerprintRe = regexp.MustCompile(`^[0-9a-f]{12}$`)
	idRe          = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*\.[a-z][a-z0-9_]*$`)
)

// Parse reads a profile file; file names it in the errors.
func Parse(file string, data []byte) (*Profile, error) {
	l := &loader{file: file, lines: jsondoc.NewLines(data)}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		off := 0
		var se *jsondoc.SyntaxError
		if errors.As(err, &se) {
			off = se.Offset
		}
		l.errorf(off, CodeSyntax, "not valid JSON: %v", err)
		return nil, l.err()
	}
	for _, d := range doc.Duplicates {
		l.errorf(d.Offset, CodeShape, "key %q is given twice", d.Key)
	}
	p := &Profile{File: file}
	root := doc.Root
	if root.Kind != jsondoc.Object {
		l.errorf(root.Offset, CodeShape, "a rendering profile is a JSON object with agent, version and outcomes")
		return nil, l.err()
	}
	l.fields(root, "profile", "agent", "version", "made_by", "outcomes", "agent_paragraphs")
	if n := l.str(root, "agent", true); n != nil {
		if p.Agent = n.Str; !agentRe.MatchString(p.Agent) {
			l.errorf(n.Offset, CodeShape, "agent %q: lowercase letters, digits and - (claude-code, codex, gemini-cli)", p.Agent)
		}
	}
	if n := l.str(root, "version", true); n != nil {
		if p.Version = n.Str; !versionRe.MatchString(p.Version) {
			l.errorf(n.Offset, CodeShape, "version %q is not a version such as 2.1.332", p.Version)
		}
	}
	if n := l.str(root, "made_by", false); n != nil {
		p.MadeBy = n.Str
	}
	if n := root.Get("agent_paragraphs"); n != nil {
		if n.Kind != jsondoc.Array {
			l.errorf(n.Offset, CodeShape, "agent_paragraphs must be a list of fingerprints, not %s", n.Kind)
		}
		for _, c := range n.Children {
			if c.Kind != jsondoc.String || !fingerprintRe.MatchString(c.Str) {
				l.errorf(c.Offset, CodeShape, "an agent paragraph is a fingerprint of 12 hex digits (hookctl calibrate writes them)")
				continue
			}
			p.AgentParagraphs = append(p.AgentParagraphs, c.Str)
		}
	}
	outs := root.Get("outcomes")
	switch {
	case outs == nil:
		l.errorf(root.Offset, CodeShape, "outcomes is missing: an object of \"<Event>.<kind>\": {renderings: […]}")
	case outs.Kind != jsondoc.Object:
		l.errorf(outs.Offset, CodeShape, "outcomes must be an object of \"<Event>.<kind>\": {renderings: […]}, not %s", outs.Kind)
	default:
		p.Outcomes = map[string]*Outcome{}
		specs := Outcomes(p.Agent)
		ids := make([]string, len(specs))
		for i, s := range specs {
			ids[i] = s.ID
		}
		for _, n := range outs.Children {
			switch {
			case !idRe.MatchString(n.Key):
				l.errorf(n.KeyOffset, CodeUnknownOutcome, "%q is not an outcome id \"<Event>.<kind>\" (PreToolUse.context)", n.Key)
				continue
			case specs != nil && !slices.Contains(ids, n.Key):
				l.errorf(n.KeyOffset, CodeUnknownOutcome, "%s has no outcome %q.%s", p.Agent, n.Key, diag.DidYouMean(n.Key, ids))
				continue
			}
			if _, kind := SplitID(n.Key); !slices.Contains(Kinds, kind) {
				l.errorf(n.KeyOffset, CodeUnknownOutcome, "%q: unknown kind %q (one of %s)", n.Key, kind, strings.Join(Kinds, ", "))
				continue
			}
			if o := l.outcome(n); o != nil {
				p.Outcomes[n.Key] = o
			}
		}
		for _, id := range ids {
			if _, ok := p.Outcomes[id]; !ok && !l.failedAt(outs) {
				l.errorf(outs.Offset, CodeMissingOutcome, "outcome %s is missing: recalibrate (hookctl calibrate %s)", id, p.Agent)
			}
		}
	}
	if len(l.diags) > 0 {
		return nil, l.err()
	}
	return p, nil
}

type loader struct {
	file  string
	lines *jsondoc.Lines
	diags []diag.Diagnostic
}

func (l *loader) errorf(off int, code, format string, args ...any) {
	line, col := l.lines.Position(off)
	l.diags = append(l.diags, diag.Diagnostic{File: l.file, Line: line, Column: col, Severity: diag.Error, Code: code,
		Message: fmt.Sprintf(format, args...)})
}

func (l *loader) err() error {
	diag.Sort(l.diags)
	return &Error{File: l.file, Diagnostics: l.diags}
}

// failedAt says whether an unknown-outcome error was reported inside n (a
// misspelt id is then the missing one: one report is enough).
func (l *loader) failedAt(n *jsondoc.Node) bool {
	from, _ := l.lines.Position(n.Offset)
	to, _ := l.lines.Position(n.End)
	return slices.ContainsFunc(l.diags, func(d diag.Diagnostic) bool {
		return d.Code == CodeUnknownOutcome && d.Line >= from && d.Line <= to
	})
}

// fields reports every member of obj not in known.
func (l *loader) fields(obj *jsondoc.Node, what string, known ...string) {
	for _, c := range obj.Children {
		if !slices.Contains(known, c.Key) {
			l.errorf(c.KeyOffset, CodeUnknownField, "%s has no field %q (fields: %s).%s", what, c.Key, strings.Join(known, ", "), diag.DidYouMean(c.Key, known))
		}
	}
}

// str is obj's member key when it is a string (reported otherwise).
func (l *loader) str(obj *jsondoc.Node, key string, required bool) *jsondoc.Node {
	n := obj.Get(key)
	switch {
	case n == nil:
		if required {
			l.errorf(obj.Offset, CodeShape, "%s is missing", key)
		}
		return nil
	case n.Kind != jsondoc.String:
		l.errorf(n.Offset, CodeShape, "%s must be a string, not %s", key, n.Kind)
		return nil
	}
	return n
}

func (l *loader) outcome(n *jsondoc.Node) *Outcome {
	if n.Kind != jsondoc.Object {
		l.errorf(n.Offset, CodeShape, "%s must be an object with renderings (and join), not %s", n.Key, n.Kind)
		return nil
	}
	l.fields(n, "an outcome", "renderings", "join")
	o := &Outcome{}
	rs := n.Get("renderings")
	switch {
	case rs == nil:
		l.errorf(n.Offset, CodeShape, "%s: renderings is missing", n.Key)
	case rs.Kind != jsondoc.Array || len(rs.Children) == 0:
		l.errorf(rs.Offset, CodeShape, "%s: renderings must be a list of one or more renderings", n.Key)
	default:
		for _, r := range rs.Children {
			if x, ok := l.rendering(r); ok {
				o.Renderings = append(o.Renderings, x)
			}
		}
	}
	if j := n.Get("join"); j != nil {
		o.Join = l.join(j)
	}
	return o
}

func (l *loader) rendering(n *jsondoc.Node) (Rendering, bool) {
	var r Rendering
	if n.Kind != jsondoc.Object {
		l.errorf(n.Offset, CodeShape, "a rendering is an object with place and text, not %s", n.Kind)
		return r, false
	}
	l.fields(n, "a rendering", "place", "role", "anchor", "wrapper", "preamble", "text", "is_error", "escape", "separator")
	ok := true
	if v := l.str(n, "place", true); v != nil {
		if r.Place = Place(v.Str); !slices.Contains(Places, r.Place) {
			l.errorf(v.Offset, CodeShape, "place %q: one of %s", v.Str, join(Places))
			ok = false
		}
	} else {
		ok = false
	}
	if v := l.str(n, "role", false); v != nil {
		if r.Role = Role(v.Str); !slices.Contains(Roles, r.Role) {
			l.errorf(v.Offset, CodeShape, "role %q: one of %s", v.Str, join(Roles))
			ok = false
		}
	}
	if v := l.str(n, "anchor", false); v != nil {
		if r.Anchor = Anchor(v.Str); !slices.Contains(Anchors, r.Anchor) {
			l.errorf(v.Offset, CodeShape, "anchor %q: one of %s", v.Str, join(Anchors))
			ok = false
		}
	}
	if v := l.str(n, "escape", false); v != nil {
		if r.Escape = Escape(v.Str); !slices.Contains(Escapes, r.Escape) {
			l.errorf(v.Offset, CodeShape, "escape %q: one of %s", v.Str, join(Escapes))
			ok = false
		}
	}
	if v := l.str(n, "preamble", false); v != nil {
		r.Preamble = v.Str
	}
	if v := l.str(n, "separator", false); v != nil {
		r.Separator = v.Str
	}
	if v := n.Get("is_error"); v != nil {
		if v.Kind != jsondoc.Bool {
			l.errorf(v.Offset, CodeShape, "is_error must be true or false, not %s", v.Kind)
			ok = false
		}
		r.IsError = v.Bool
	}
	if w := n.Get("wrapper"); w != nil {
		if w.Kind != jsondoc.Object {
			l.errorf(w.Offset, CodeShape, "wrapper must be an object with open and close, not %s", w.Kind)
			ok = false
		} else {
			l.fields(w, "a wrapper", "open", "close")
			r.Wrapper = &Wrapper{}
			if v := l.str(w, "open", true); v != nil {
				r.Wrapper.Open = v.Str
			}
			if v := l.str(w, "close", true); v != nil {
				r.Wrapper.Close = v.Str
			}
		}
	}
	if v := l.str(n, "text", true); v != nil {
		r.Text = v.Str
		if _, at, err := parseTemplate(v.Str); err != nil {
			l.errorf(v.Offset+1+rawOffset(v.Raw, at), CodeTemplate, "text: %v", err)
			ok = false
		}
	} else {
		ok = false
	}
	switch {
	case !ok:
	case r.Place == PlaceMessage || r.Place == PlaceParagraph || r.Place == PlaceBlock:
		if r.Role == "" {
			l.errorf(n.Offset, CodeShape, "a %s rendering needs a role (%s)", r.Place, join(Roles))
			ok = false
		}
	case r.Role != "":
		l.errorf(n.Get("role").Offset, CodeShape, "a %s rendering has no role of its own", r.Place)
		ok = false
	}
	if r.IsError && r.Place != PlaceToolResult {
		l.errorf(n.Get("is_error").Offset, CodeShape, "is_error is only for a tool_result rendering")
		ok = false
	}
	return r, ok
}

func (l *loader) join(n *jsondoc.Node) *Join {
	if n.Kind != jsondoc.Object {
		l.errorf(n.Offset, CodeShape, "join must be an object with as (and separator), not %s", n.Kind)
		return nil
	}
	l.fields(n, "a join", "as", "separator")
	j := &Join{}
	if v := l.str(n, "as", true); v != nil {
		if j.As = JoinKind(v.Str); !slices.Contains(JoinKinds, j.As) {
			l.errorf(v.Offset, CodeShape, "join as %q: one of %s", v.Str, join(JoinKinds))
		}
	}
	if v := l.str(n, "separator", false); v != nil {
		j.Separator = v.Str
	}
	if (j.As == JoinParagraphs || j.As == JoinText) && j.Separator == "" {
		l.errorf(n.Offset, CodeShape, "join as %s needs the separator between the outputs", j.As)
	}
	return j
}

// rawOffset maps a byte offset in a decoded JSON string to one in its raw
// text (after the opening quote), stepping over escapes.
func rawOffset(raw []byte, at int) int {
	i, n := 1, 0
	for i < len(raw)-1 && n < at {
		if raw[i] == '\\' {
			if i+1 < len(raw) && raw[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		} else {
			i++
		}
		n++
	}
	return i - 1
}

func join[T ~string](xs []T) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}
