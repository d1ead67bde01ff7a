package hookdecl

import (
	"encoding/json"
	"fmt"
	"slices"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
)

// Reader reads one hook file of an agent's and reports its problems, all
// at once, at the positions the user sees.
type Reader struct {
	diag.Sink
	pos func(off int) (line, col int)
}

// NewReader reads file's data.
func NewReader(file string, data []byte) *Reader {
	return &Reader{Sink: diag.Sink{File: file}, pos: jsondoc.NewLines(data).Position}
}

// Position is where an offset of the data stands.
func (r *Reader) Position(off int) (line, col int) { return r.pos(off) }

// Report adds a problem at an offset.
func (r *Reader) Report(off int, sev diag.Severity, code, format string, args ...any) {
	line, col := r.pos(off)
	r.Add(line, col, sev, code, format, args...)
}

// Errorf reports an error at an offset.
func (r *Reader) Errorf(off int, code, format string, args ...any) {
	r.Report(off, diag.Error, code, format, args...)
}

// Warnf reports a warning at an offset.
func (r *Reader) Warnf(off int, code, format string, args ...any) {
	r.Report(off, diag.Warning, code, format, args...)
}

// Parse reads data (text: what to parse of it, the file's with comments
// blanked where the agent allows them) as JSON; a syntax error is reported
// with code, what the agent then does said by then.
func (r *Reader) Parse(text []byte, code, then string) (*jsondoc.Doc, bool) {
	doc, err := jsondoc.Parse(text)
	if err != nil {
		off := 0
		if se, ok := err.(*jsondoc.SyntaxError); ok {
			off = se.Offset
		}
		r.Errorf(off, code, "%s is not valid JSON (%v): %s", r.File, err, then)
		return nil, false
	}
	return doc, true
}

// Str is n's string member key ("" and nil when absent; one that is not a
// string is reported with code).
func (r *Reader) Str(n *jsondoc.Node, key, code string) (string, *jsondoc.Node) {
	v := n.Get(key)
	if v == nil {
		return "", nil
	}
	if v.Kind != jsondoc.String {
		r.Errorf(v.Offset, code, "%q must be a string", key)
		return "", nil
	}
	return v.Str, v
}

// Positive is n's member key as a number greater than 0 (false when absent
// or not one; the latter reported with code, what saying the unit).
func (r *Reader) Positive(n *jsondoc.Node, key, code, what string) (float64, *jsondoc.Node, bool) {
	t := n.Get(key)
	if t == nil {
		return 0, nil, false
	}
	var v float64
	if t.Kind != jsondoc.Number || json.Unmarshal(t.Raw, &v) != nil || v <= 0 {
		r.Errorf(t.Offset, code, "%q is a number of %s greater than 0", key, what)
		return 0, t, false
	}
	return v, t, true
}

// Env is n's "env": variable names and string values (nil when absent;
// what is not one reported with code).
func (r *Reader) Env(n *jsondoc.Node, code string) map[string]string {
	e := n.Get("env")
	if e == nil {
		return nil
	}
	if e.Kind != jsondoc.Object {
		r.Errorf(e.Offset, code, "\"env\" is an object of variable names and string values")
		return nil
	}
	env := map[string]string{}
	for _, kv := range e.Children {
		if kv.Kind != jsondoc.String {
			r.Errorf(kv.Offset, code, "env %s must be a string", kv.Key)
			continue
		}
		env[kv.Key] = kv.Str
	}
	return env
}

// Events is how an agent reads the object of event names of a hook file.
type Events struct {
	// Agent names it ("Gemini CLI"); Skips says what it does with a name
	// it does not know ("Gemini CLI skips it (\"Invalid hook event name\")").
	Agent, Skips string
	// Known says whether it knows a name; Names are its names, to suggest.
	Known func(name string) bool
	Names []string
	// Other maps other agents' names to its own ("" it has none).
	Other map[string]string
	// UnknownCode, OtherCode and ShapeCode report a name it does not know,
	// another agent's, and a member that is no list (ListOf says of what).
	UnknownCode, OtherCode, ShapeCode, ListOf string
	// Aside reads a member that is no event (Gemini CLI's "enabled" misplaced
	// under "hooks"), true when it was one (nil: none is).
	Aside func(r *Reader, member *jsondoc.Node) bool
}

// Each calls f with every member of hooks that is a known event with a
// list, reporting the others as the agent reads them.
func (r *Reader) Each(hooks *jsondoc.Node, e Events, f func(event string, list *jsondoc.Node)) {
	for _, ev := range hooks.Children {
		if e.Aside != nil && e.Aside(r, ev) {
			continue
		}
		if !e.Known(ev.Key) {
			own, other := e.Other[ev.Key]
			switch {
			case other && own != "":
				r.Warnf(ev.KeyOffset, e.OtherCode, "%q is another agent's event name: %s, so these hooks never run; %s calls it %s", ev.Key, e.Skips, e.Agent, own)
			case other:
				r.Warnf(ev.KeyOffset, e.OtherCode, "%q is another agent's event name, and %s has no such event: %s, so these hooks never run", ev.Key, e.Agent, e.Skips)
			default:
				r.Warnf(ev.KeyOffset, e.UnknownCode, "%q is not a %s hook event: %s, so these hooks never run.%s", ev.Key, e.Agent, e.Skips, diag.DidYouMean(ev.Key, e.Names))
			}
			continue
		}
		if ev.Kind != jsondoc.Array {
			r.Errorf(ev.Offset, e.ShapeCode, "%s must be a list of %s", ev.Key, e.ListOf)
			continue
		}
		f(ev.Key, ev)
	}
}

// Unknown warns of n's members that are not fields: what is what n is
// ("hook field"), agent who reads them; also are keys reported elsewhere.
func (r *Reader) Unknown(n *jsondoc.Node, fields []string, code, what, agent string, also ...string) {
	for _, k := range n.Children {
		if !slices.Contains(fields, k.Key) && !slices.Contains(also, k.Key) {
			r.Warnf(k.KeyOffset, code, "unknown %s %q: %s reads %s.%s", what, k.Key, agent, quoted(fields), diag.DidYouMean(k.Key, fields))
		}
	}
}

func quoted(xs []string) string {
	out := ""
	for i, x := range xs {
		switch {
		case i == 0:
		case i == len(xs)-1:
			out += " and "
		default:
			out += ", "
		}
		out += fmt.Sprintf("%q", x)
	}
	return out
}
