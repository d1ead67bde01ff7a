package ccshape

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
)

// Handler is one handler as declared: its group's event and matcher, the
// fields every dialect shares, and where it stands. A dialect's own fields
// are read from Node.
type Handler struct {
	Event   string
	Matcher string
	Match   Match
	Type    string
	Command string
	Args    []string
	Prompt  string
	URL     string
	Model   string
	If      string
	Timeout float64 // seconds as written; 0: none

	Line, Column    int // the handler
	CmdLine, CmdCol int // its "command"
	// Group and Index are the handler's place in its event's list (Codex
	// keys a hook's trust by them).
	Group, Index int
	Node         *jsondoc.Node
	GroupNode    *jsondoc.Node
	// Runs is false for a handler the simulated agent does not run (a type
	// it does not run, an event that never fires); Why says why.
	Runs bool
	Why  string
}

// Reader reports a file's problems at the positions the user sees.
type Reader struct {
	diag.Sink
	// Pos turns an offset of the JSON being read into a position (the
	// JSON's own, or a YAML or TOML file's the JSON was written from).
	Pos func(off int) (line, col int)
	D   *Dialect
}

// NewReader reads file's JSON data; pos nil: the data's own positions.
func NewReader(file string, data []byte, d *Dialect) *Reader {
	return &Reader{Sink: diag.Sink{File: file}, Pos: jsondoc.NewLines(data).Position, D: d}
}

// Report adds a problem at an offset.
func (r *Reader) Report(off int, sev diag.Severity, code, format string, args ...any) {
	line, col := r.Pos(off)
	r.Add(line, col, sev, r.D.code(code), format, args...)
}

func (r *Reader) errorf(off int, code, format string, args ...any) {
	r.Report(off, diag.Error, code, format, args...)
}

func (r *Reader) warnf(off int, code, format string, args ...any) {
	r.Report(off, diag.Warning, code, format, args...)
}

// shapef reports a shape error with what the agent does with such a file.
func (r *Reader) shapef(off int, format string, args ...any) {
	r.errorf(off, Shape, "%s%s", fmt.Sprintf(format, args...), r.unreadable())
}

func (r *Reader) unreadable() string {
	if r.D.Unreadable == "" {
		return ""
	}
	return "; " + r.D.Unreadable
}

// KeyOff is where a member's key is (its value's offset when it has none).
func KeyOff(n *jsondoc.Node) int {
	if n.KeyOffset >= 0 {
		return n.KeyOffset
	}
	return n.Offset
}

// Document reads a whole settings document: a JSON object whose "hooks"
// member holds the events (a missing one: no hooks).
func (r *Reader) Document(data []byte, what string) []Handler {
	doc, err := jsondoc.Parse(data)
	if err != nil {
		off := 0
		if se, ok := err.(*jsondoc.SyntaxError); ok {
			off = se.Offset
		}
		r.errorf(off, Syntax, "%s is not valid JSON (%v); %s would not load it, so none of its hooks run", r.File, err, r.D.Agent)
		return nil
	}
	if doc.Root.Kind != jsondoc.Object {
		r.shapef(doc.Root.Offset, "%s is a JSON object with a \"hooks\" key", what)
		return nil
	}
	hooks := doc.Root.Get("hooks")
	if hooks == nil {
		return nil
	}
	return r.Events(hooks, nil)
}

// Events reads an object of events; skip names its members that are not
// events (Codex's "state", Qwen Code's "enabled").
func (r *Reader) Events(hooks *jsondoc.Node, skip []string) []Handler {
	if hooks.Kind != jsondoc.Object {
		r.shapef(hooks.Offset, "\"hooks\" must be an object of event names (PreToolUse, Stop, …), not %s", hooks.Kind)
		return nil
	}
	var out []Handler
	for _, ev := range hooks.Children {
		if slices.Contains(skip, ev.Key) || r.D.Aside != nil && r.D.Aside(r, ev) {
			continue
		}
		if !r.D.Known(ev.Key) {
			r.unknownEvent(ev)
			continue
		}
		if ev.Kind != jsondoc.Array {
			r.shapef(ev.Offset, "%s must be a list of {\"matcher\", \"hooks\"} groups", ev.Key)
			continue
		}
		for gi, group := range ev.Children {
			out = append(out, r.group(ev.Key, gi, group)...)
		}
	}
	return out
}

func (r *Reader) unknownEvent(ev *jsondoc.Node) {
	if own, ok := r.D.Own[ev.Key]; ok {
		also := ""
		if own != "" {
			also = fmt.Sprintf("; %s calls it %s", r.D.Agent, own)
		}
		r.warnf(KeyOff(ev), r.D.OtherCode, "%q is another agent's event name: %s%s", ev.Key, r.D.Unknown, also)
		return
	}
	what := fmt.Sprintf("%q is not a %s hook event", ev.Key, r.D.Agent)
	if owner := r.D.Foreign[ev.Key]; owner != "" {
		what = fmt.Sprintf("%q is %s's event name, not %s's", ev.Key, owner, r.D.Agent)
	}
	r.warnf(KeyOff(ev), UnknownEvent, "%s: %s.%s", what, r.D.Unknown, diag.DidYouMean(ev.Key, r.D.Events()))
}

func (r *Reader) group(event string, gi int, g *jsondoc.Node) []Handler {
	if g.Kind != jsondoc.Object {
		r.shapef(g.Offset, "each entry of %s is an object with \"hooks\" (and a \"matcher\")", event)
		return nil
	}
	matcher := ""
	match := Match(all)
	if m := g.Get("matcher"); m != nil {
		switch {
		case m.Kind != jsondoc.String:
			r.shapef(m.Offset, "\"matcher\" must be a string such as \"Bash\" or \"Edit|Write\"")
		case m.Str != "" && m.Str != "*" && !r.D.HasMatcher(event):
			matcher = m.Str
			r.warnf(m.Offset, MatcherIgnored, "%s has no matcher: %s ignores %q and runs these hooks for every %s", event, r.D.Agent, m.Str, event)
		case r.D.Matcher != nil:
			matcher = m.Str
			var warn string
			if match, warn = r.D.Matcher(event, m.Str); warn != "" {
				r.warnf(m.Offset, BadMatcher, "%s", warn)
			}
		default:
			matcher = m.Str
			c, err := r.D.Compile(m.Str)
			if err != nil {
				r.errorf(m.Offset, BadMatcher, "matcher %q is neither names nor a valid regular expression (%v): %s cannot match anything with it", m.Str, err, r.D.Agent)
				c = None
			}
			match = c
		}
	}
	for _, k := range g.Children {
		if !slices.Contains(r.D.GroupFields, k.Key) {
			r.warnf(KeyOff(k), UnknownField, "unknown field %q in a %s group: %s reads only %s", k.Key, event, r.D.Agent, quoted(r.D.GroupFields))
		}
	}
	hs := g.Get("hooks")
	if hs == nil || hs.Kind != jsondoc.Array {
		off := g.Offset
		if hs != nil {
			off = hs.Offset
		}
		r.shapef(off, "a %s group needs \"hooks\": a list of handlers such as {\"type\": \"command\", \"command\": \"…\"}", event)
		return nil
	}
	var out []Handler
	for i, h := range hs.Children {
		if hd, ok := r.handler(event, matcher, match, h); ok {
			hd.Group, hd.Index, hd.GroupNode = gi, i, g
			out = append(out, hd)
		}
	}
	return out
}

// str reads a string member of n ("" and nil when absent or not a string,
// which is reported).
func (r *Reader) str(n *jsondoc.Node, key string) (string, *jsondoc.Node) {
	v := n.Get(key)
	if v == nil {
		return "", nil
	}
	if v.Kind != jsondoc.String {
		r.shapef(v.Offset, "%q must be a string", key)
		return "", nil
	}
	return v.Str, v
}

func (r *Reader) handler(event, matcher string, match Match, n *jsondoc.Node) (Handler, bool) {
	if n.Kind != jsondoc.Object {
		r.shapef(n.Offset, "a handler is an object such as {\"type\": \"command\", \"command\": \"…\"}")
		return Handler{}, false
	}
	line, col := r.Pos(n.Offset)
	h := Handler{Event: event, Matcher: matcher, Match: match, Line: line, Column: col, Node: n, Runs: true}
	ok := true
	h.Type, _ = r.str(n, "type")
	types := r.D.Types
	tn := n.Get("type")
	switch {
	case tn == nil:
		r.shapef(n.Offset, "a handler needs \"type\": %s", strings.Join(types, ", "))
		ok = false
	case tn.Kind == jsondoc.String && !slices.Contains(types, h.Type):
		r.errorf(tn.Offset, UnknownType, "unknown handler type %q: %s knows %s%s.%s", h.Type, r.D.Agent, strings.Join(types, ", "), r.unreadable(), diag.DidYouMean(h.Type, types))
		ok = false
	}
	var cmdNode *jsondoc.Node
	h.Command, cmdNode = r.str(n, "command")
	h.Prompt, _ = r.str(n, "prompt")
	h.URL, _ = r.str(n, "url")
	h.Model, _ = r.str(n, "model")
	h.If, _ = r.str(n, "if")
	if a := n.Get("args"); a != nil && slices.Contains(r.D.HandlerFields, "args") {
		if a.Kind != jsondoc.Array {
			r.shapef(a.Offset, "\"args\" must be a list of strings")
		}
		for _, x := range a.Children {
			if x.Kind != jsondoc.String {
				r.shapef(x.Offset, "\"args\" must be a list of strings")
				continue
			}
			h.Args = append(h.Args, x.Str)
		}
	}
	if t := n.Get("timeout"); t != nil {
		var v float64
		switch {
		case t.Kind != jsondoc.Number || json.Unmarshal(t.Raw, &v) != nil || v <= 0:
			r.shapef(t.Offset, "\"timeout\" is a number of %s greater than 0", cmp.Or(r.D.TimeoutUnit, "seconds"))
		case r.D.IntTimeout && v != math.Trunc(v):
			r.shapef(t.Offset, "\"timeout\" is a whole number of seconds for %s", r.D.Agent)
		default:
			h.Timeout = v
		}
	}
	for _, k := range n.Children {
		if !slices.Contains(r.D.HandlerFields, k.Key) {
			r.warnf(KeyOff(k), UnknownField, "unknown handler field %q: %s does not read it.%s", k.Key, r.D.Agent, diag.DidYouMean(k.Key, r.D.HandlerFields))
		}
	}
	need := map[string]string{"command": h.Command, "prompt": h.Prompt, "http": h.URL}
	field := map[string]string{"command": "command", "prompt": "prompt", "http": "url"}
	if f, known := field[h.Type]; known && ok && slices.Contains(types, h.Type) && need[h.Type] == "" {
		if runs, _ := r.D.Runs(h.Type); runs {
			r.shapef(n.Offset, "a %s handler needs %q", h.Type, f)
			ok = false
		}
	}
	if cmdNode != nil {
		h.CmdLine, h.CmdCol = r.Pos(cmdNode.Offset)
	}
	if ok {
		if runs, why := r.D.Runs(h.Type); !runs {
			h.Runs, h.Why = false, why
			r.warnf(tn.Offset, NotRun, "%s: shown in the trace as not run", why)
		}
	}
	if !r.D.Fire(event) {
		h.Runs, h.Why = false, r.notFired(event)
		r.warnf(n.Offset, NotSimulated, "%s", h.Why)
	}
	return h, ok
}

func (r *Reader) notFired(event string) string {
	why := ""
	if r.D.Why != nil {
		why = r.D.Why(event)
	}
	if why == "" {
		why = "such moment"
	}
	return fmt.Sprintf("%s never fires in the simulated agent (it has no %s)", event, why)
}

func quoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, " and ")
}

// Env is a handler's "env": variable names and string values (nil when
// absent; what is not one reported).
func (r *Reader) Env(n *jsondoc.Node) map[string]string {
	e := n.Get("env")
	if e == nil {
		return nil
	}
	if e.Kind != jsondoc.Object {
		r.shapef(e.Offset, "\"env\" is an object of variable names and string values")
		return nil
	}
	env := map[string]string{}
	for _, kv := range e.Children {
		if kv.Kind != jsondoc.String {
			r.shapef(kv.Offset, "env %s must be a string", kv.Key)
			continue
		}
		env[kv.Key] = kv.Str
	}
	return env
}
