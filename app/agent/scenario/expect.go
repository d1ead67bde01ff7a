package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
)

// Diagnostic codes of expect: lists (listed in Codes).
const (
	// CodeUnknownExpectation: an expect: entry or an assertion's mapping
	// has a key the format does not define (an error: an assertion that is
	// silently ignored would pass).
	CodeUnknownExpectation = "unknown-expectation"
	// CodeEmptyExpectation: an expect: entry states no assertion.
	CodeEmptyExpectation = "empty-expectation"
	// CodeExpectAddress: an entry's address cannot be used where it is
	// written, or names no request of the scenario.
	CodeExpectAddress = "expect-address"
	// CodeInvalidRegex: a matches: pattern is not a valid RE2 expression.
	CodeInvalidRegex = "invalid-regex"
)

// Expectation kinds: the keys of an expect: entry that state what must
// hold. app/agent/expect evaluates them against a trace.
const (
	ExpectSees        = "sees"              // a call sees a hook (copies: exactly N)
	ExpectNotSees     = "not_sees"          // a call sees no copy of a hook
	ExpectMessage     = "sees_message"      // a call sees a message whose content matches
	ExpectOrder       = "order"             // a hook's copies stand before/after other messages
	ExpectMaxTokens   = "max_prompt_tokens" // a call's prompt costs at most N tokens (o200k)
	ExpectYields      = "yields"            // a request yields exactly these hooks, in order
	ExpectReply       = "reply"             // a request's reply, or a call's answer, matches
	ExpectTool        = "tool"              // a tool call ran, failed, was approved, denied, skipped...
	ExpectHookOutcome = "hook_outcome"      // an executable hook's invocation ended so
	ExpectEvent       = "event"             // an executable hook event fired
	ExpectStatus      = "status"            // the run (or a request) ends with this status
)

// ExpectKinds lists the kinds in the order the documentation presents them.
func ExpectKinds() []string {
	return []string{ExpectSees, ExpectNotSees, ExpectMessage, ExpectOrder, ExpectMaxTokens, ExpectYields,
		ExpectReply, ExpectTool, ExpectHookOutcome, ExpectEvent, ExpectStatus}
}

// Where an expect: list is written; it sets what its entries address by
// default.
const (
	ScopeScenario = "scenario" // the whole run; entries address with call/request/phase/round
	ScopeRequest  = "request"  // one request; entries may narrow with phase/round
	ScopePlanning = "planning" // the request's planning call
	ScopeRound    = "round"    // the LLM call of one scripted agent round
)

// Values the evaluator understands, listed so the parser can reject typos.
var (
	ToolStatuses  = []string{"ran", "error", "approved", "denied", "skipped", "responded"}
	HookOutcomes  = []string{"ok", "modified", "error", "timeout", "skipped", "denied", "stopped", "blocked", "asked"}
	RunStatuses   = []string{"ok", "error", "cancelled", "max_rounds", "stopped"}
	ExpectPhases  = []string{"direct", "planning", "agent"}
	MessageRoles  = []string{"system", "user", "assistant", "tool"}
	MessageOrigin = []string{"system_prompt", "history", "user_input", "hook", "prompt", "assistant", "tool", "compaction"}
	// TagKinds are the message tags order: accepts, alone (any message of
	// the kind) or with :NAME; h. prefixes a history copy. command, process
	// and request tag messages an executable hook system added.
	TagKinds = []string{"system", "user", "assistant", "tool", "hook", "prompt", "compaction", "command", "process", "request"}
)

// Text says how a text must match: contains a substring, matches an RE2
// regular expression, or equals exactly. Every field set must hold.
type Text struct {
	Contains string  `json:"contains,omitempty"`
	Matches  string  `json:"matches,omitempty"`
	Equals   *string `json:"equals,omitempty"`
}

// IsZero reports whether no condition is set.
func (t Text) IsZero() bool { return t.Contains == "" && t.Matches == "" && t.Equals == nil }

// Match reports whether s satisfies every condition. An invalid pattern
// (the parser reports it) never matches.
func (t Text) Match(s string) bool {
	if t.Contains != "" && !strings.Contains(s, t.Contains) {
		return false
	}
	if t.Equals != nil && s != *t.Equals {
		return false
	}
	if t.Matches != "" {
		re, err := regexp.Compile(t.Matches)
		if err != nil || !re.MatchString(s) {
			return false
		}
	}
	return true
}

// String describes the condition for people.
func (t Text) String() string {
	var parts []string
	if t.Contains != "" {
		parts = append(parts, fmt.Sprintf("contains %q", t.Contains))
	}
	if t.Matches != "" {
		parts = append(parts, fmt.Sprintf("matches /%s/", t.Matches))
	}
	if t.Equals != nil {
		parts = append(parts, fmt.Sprintf("equals %q", *t.Equals))
	}
	return strings.Join(parts, " and ")
}

// Expectation is one assertion of an expect: list, with its address and
// where it is written. Indices are 0-based; call and request are written
// 1-based in files (LLM call #1, request 1, as hookctl prints them), round
// 0-based (round 0 is the first agent round). Fields a kind does not use
// stay zero.
type Expectation struct {
	Kind  string `json:"kind"`
	Scope string `json:"scope"`

	// Address. Scope fills in what the file's nesting implies (Resolve).
	Request *int   `json:"request,omitempty"`
	Call    *int   `json:"call,omitempty"`
	Phase   string `json:"phase,omitempty"`
	Round   *int   `json:"round,omitempty"`

	Hook   string   `json:"hook,omitempty"`
	Skill  string   `json:"skill,omitempty"`
	System string   `json:"system,omitempty"`
	Copies *int     `json:"copies,omitempty"` // sees: exactly this many copies
	Count  *int     `json:"count,omitempty"`  // exactly this many matches (nil: at least one)
	Text   Text     `json:"text,omitzero"`
	Role   string   `json:"role,omitempty"`
	Origin string   `json:"origin,omitempty"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
	Max    int      `json:"max,omitempty"`
	Hooks  []string `json:"hooks,omitempty"` // yields
	Tool   string   `json:"tool,omitempty"`
	Status string   `json:"status,omitempty"` // tool: status; hook_outcome: outcome; status: the run's status
	Event  string   `json:"event,omitempty"`

	// Where it is written: the kind's key (or the list entry for the
	// list forms of sees and not_sees).
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Path   string `json:"path"` // e.g. requests[1].rounds[2].expect[0].sees
}

// CallKind reports whether the kind is checked against LLM calls (one
// result per call addressed) rather than a request or the run.
func (e *Expectation) CallKind() bool {
	switch e.Kind {
	case ExpectSees, ExpectNotSees, ExpectMessage, ExpectOrder, ExpectMaxTokens:
		return true
	case ExpectReply:
		return e.Call != nil || e.Phase != "" || e.Round != nil
	}
	return false
}

// Expectations returns every expectation of the scenario with its address
// completed from where it is written, in file order by level: the
// scenario's, then each request's, its planning call's and its rounds'.
func (s *Scenario) Expectations() []Expectation {
	out := slices.Clone(s.Expect)
	for i := range s.Requests {
		r := &s.Requests[i]
		req := i
		for _, e := range r.Expect {
			e.Request = &req
			out = append(out, e)
		}
		if r.Planning != nil {
			for _, e := range r.Planning.Expect {
				e.Request, e.Phase = &req, "planning"
				out = append(out, e)
			}
		}
		for ri := range r.Rounds {
			round := ri
			for _, e := range r.Rounds[ri].Expect {
				e.Request, e.Phase, e.Round = &req, "agent", &round
				out = append(out, e)
			}
		}
	}
	return out
}

// expectField is the expect: key of a level.
func (d *decoder) expectField(scope string, dst *[]Expectation) field {
	return field{name: "expect", decode: func(k, v *yaml.Node, path string) {
		d.list(v, path, func(i int, item *yaml.Node, p string) {
			*dst = append(*dst, d.expectItem(item, p, scope)...)
		})
	}}
}

// expectState gathers one expect: entry while its field table decodes it.
type expectState struct {
	addr  Expectation // address fields only
	addrN map[string]*yaml.Node
	items []Expectation
	kinds []*yaml.Node // kind keys, for the address checks
}

func (d *decoder) expectItem(n *yaml.Node, path, scope string) []Expectation {
	st := &expectState{addrN: map[string]*yaml.Node{}}
	if !d.strict(n, path, d.expectItemFields(st, scope), CodeUnknownExpectation, "assertion or address") {
		return nil
	}
	if len(st.kinds) == 0 && len(st.items) == 0 {
		d.errorf(n, CodeEmptyExpectation, "%s states nothing; add an assertion: %s", path, strings.Join(ExpectKinds(), ", "))
		return nil
	}
	d.checkAddress(st, scope, path)
	out := st.items[:0]
	for _, e := range st.items {
		e.Scope, e.File = scope, d.file
		e.Request, e.Call, e.Phase, e.Round = st.addr.Request, st.addr.Call, st.addr.Phase, st.addr.Round
		if d.kindFits(&e, st, scope) {
			out = append(out, e)
		}
	}
	return out
}

// checkAddress rejects address keys the scope does not allow and
// combinations that address nothing sensible.
func (d *decoder) checkAddress(st *expectState, scope, path string) {
	allowed := map[string][]string{
		ScopeScenario: {"call", "request", "phase", "round"},
		ScopeRequest:  {"phase", "round"},
	}[scope]
	for _, key := range []string{"call", "request", "phase", "round"} {
		n := st.addrN[key]
		if n == nil || slices.Contains(allowed, key) {
			continue
		}
		why := "the entry already addresses the call it is written under"
		if scope == ScopeRequest {
			why = "the entry is written under a request; address its calls with phase and round, or move it to the scenario's expect"
		}
		d.errorf(n, CodeExpectAddress, "%s.%s cannot be used here: %s", path, key, why)
		delete(st.addrN, key)
		switch key {
		case "call":
			st.addr.Call = nil
		case "request":
			st.addr.Request = nil
		case "phase":
			st.addr.Phase = ""
		case "round":
			st.addr.Round = nil
		}
	}
	if n := st.addrN["call"]; n != nil && (st.addrN["request"] != nil || st.addrN["phase"] != nil || st.addrN["round"] != nil) {
		d.errorf(n, CodeExpectAddress, "%s.call names one LLM call already; drop request, phase and round, or address by them instead of call", path)
		st.addr.Call = nil
	}
	if n := st.addrN["round"]; n != nil && st.addr.Phase != "" && st.addr.Phase != "agent" {
		d.errorf(n, CodeExpectAddress, "%s.round counts agent rounds, but phase is %s; drop one of them", path, st.addr.Phase)
		st.addr.Round = nil
	}
	if st.addr.Round != nil && st.addr.Phase == "" {
		st.addr.Phase = "agent"
	}
}

// kindFits checks that the kind can be checked where the entry points.
func (d *decoder) kindFits(e *Expectation, st *expectState, scope string) bool {
	callAddr := e.Call != nil || e.Phase != "" || e.Round != nil || scope == ScopePlanning || scope == ScopeRound
	reqAddr := e.Request != nil || scope == ScopeRequest
	at := &yaml.Node{Line: e.Line, Column: e.Column}
	switch e.Kind {
	case ExpectStatus:
		if callAddr {
			d.errorf(at, CodeExpectAddress, "%s: status is how the run (or, with request: N or under a request, that request) ends; it cannot address calls with call, phase or round", e.Path)
			return false
		}
	case ExpectYields:
		if callAddr || !reqAddr {
			d.errorf(at, CodeExpectAddress, "%s: yields is about a request; state it in the request's expect, or give request: N in the scenario's", e.Path)
			return false
		}
	case ExpectReply:
		if !callAddr && !reqAddr {
			d.errorf(at, CodeExpectAddress, "%s: which reply? state it in a request's expect, give request: N, or address a call to check its answer", e.Path)
			return false
		}
	}
	return true
}

// expectItemFields is the table of an expect: entry: the address keys and
// one key per kind (an entry may state several).
func (d *decoder) expectItemFields(st *expectState, scope string) []field {
	index := func(key string, base int, set func(int)) field {
		return field{name: key, decode: func(k, v *yaml.Node, path string) {
			n, ok := d.integer(v, path)
			if !ok {
				return
			}
			if n < base {
				what := "LLM calls and requests count from 1, as hookctl prints them (call #1, request 1)"
				if base == 0 {
					what = "agent rounds count from 0"
				}
				d.errorf(v, CodeInvalidValue, "%s is %d; %s", path, n, what)
				return
			}
			st.addrN[key] = k
			set(n - base)
		}}
	}
	kind := func(name string, decode func(k, v *yaml.Node, path string) []Expectation) field {
		return field{name: name, decode: func(k, v *yaml.Node, path string) {
			st.kinds = append(st.kinds, k)
			for _, e := range decode(k, v, path) {
				e.Kind = name
				if e.Line == 0 {
					e.Line, e.Column = k.Line, k.Column
				}
				if e.Path == "" {
					e.Path = path
				}
				st.items = append(st.items, e)
			}
		}}
	}
	one := func(k *yaml.Node, path string, e Expectation, ok bool) []Expectation {
		if !ok {
			return nil
		}
		return []Expectation{e}
	}
	return []field{
		index("call", 1, func(n int) { st.addr.Call = &n }),
		index("request", 1, func(n int) { st.addr.Request = &n }),
		{name: "phase", decode: func(k, v *yaml.Node, path string) {
			if p, ok := d.enum(v, path, ExpectPhases); ok {
				st.addrN["phase"] = k
				st.addr.Phase = p
			}
		}},
		index("round", 0, func(n int) { st.addr.Round = &n }),
		kind(ExpectSees, func(k, v *yaml.Node, path string) []Expectation { return d.hookRefs(v, path, true) }),
		kind(ExpectNotSees, func(k, v *yaml.Node, path string) []Expectation { return d.hookRefs(v, path, false) }),
		kind(ExpectMessage, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			ok := d.textOr(v, path, &e.Text, d.messageFields(&e))
			if ok && e.Text.IsZero() {
				d.errorf(v, CodeMissingField, "%s needs contains, matches or equals: what the message's content must hold", path)
				ok = false
			}
			return one(k, path, e, ok)
		}),
		kind(ExpectOrder, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			ok := d.strict(v, path, d.orderFields(&e), CodeUnknownExpectation, "field")
			if ok && len(e.Before) == 0 && len(e.After) == 0 {
				d.errorf(v, CodeMissingField, "%s needs before or after: the messages the hook must stand before or after, e.g. before: prompt:agent_loop", path)
				ok = false
			}
			return one(k, path, e, ok && e.Hook != "")
		}),
		kind(ExpectMaxTokens, func(k, v *yaml.Node, path string) []Expectation {
			n, ok := d.integer(v, path)
			if ok && n < 0 {
				d.errorf(v, CodeInvalidValue, "%s is %d; a token budget is 0 or more", path, n)
				ok = false
			}
			return one(k, path, Expectation{Max: n}, ok)
		}),
		kind(ExpectYields, func(k, v *yaml.Node, path string) []Expectation {
			e := Expectation{Hooks: []string{}}
			ok := d.list(v, path, func(i int, item *yaml.Node, p string) {
				if s, ok := d.str(item, p); ok {
					if s == "" {
						d.errorf(item, CodeEmptyValue, "%s is empty; name a hook (name or skill/name)", p)
						return
					}
					e.Hooks = append(e.Hooks, s)
				}
			})
			return one(k, path, e, ok)
		}),
		kind(ExpectReply, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			ok := d.textOr(v, path, &e.Text, d.textFields(&e.Text))
			if ok && e.Text.IsZero() {
				d.errorf(v, CodeMissingField, "%s needs contains, matches or equals", path)
				ok = false
			}
			return one(k, path, e, ok)
		}),
		kind(ExpectTool, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			return one(k, path, e, d.strict(v, path, d.toolExpectFields(&e), CodeUnknownExpectation, "field"))
		}),
		kind(ExpectHookOutcome, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			return one(k, path, e, d.strict(v, path, d.outcomeFields(&e), CodeUnknownExpectation, "field"))
		}),
		kind(ExpectEvent, func(k, v *yaml.Node, path string) []Expectation {
			var e Expectation
			if rv, ok := d.deref(v); ok && isString(rv) {
				e.Event = rv.Value
				if e.Event == "" {
					d.errorf(v, CodeEmptyValue, "%s is empty; name the event (the hook system's event name or a point such as before_tool)", path)
					return nil
				}
				return []Expectation{e}
			}
			return one(k, path, e, d.strict(v, path, d.eventFields(&e), CodeUnknownExpectation, "field"))
		}),
		kind(ExpectStatus, func(k, v *yaml.Node, path string) []Expectation {
			s, ok := d.enum(v, path, RunStatuses)
			return one(k, path, Expectation{Status: s}, ok)
		}),
	}
}

// hookRefs decodes sees/not_sees: a hook name ("name" or "skill/name"), a
// mapping {hook, skill, copies}, or a list of either.
func (d *decoder) hookRefs(v *yaml.Node, path string, sees bool) []Expectation {
	rv, ok := d.deref(v)
	if !ok {
		return nil
	}
	single := func(n *yaml.Node, p string, pos bool) (Expectation, bool) {
		var e Expectation
		rn, ok := d.deref(n)
		if !ok {
			return e, false
		}
		if pos {
			e.Line, e.Column, e.Path = n.Line, n.Column, p
		}
		if isString(rn) {
			e.Hook = rn.Value
			if skill, name, found := strings.Cut(rn.Value, "/"); found {
				e.Skill, e.Hook = skill, name
			}
			if e.Hook == "" {
				d.errorf(n, CodeEmptyValue, "%s is empty; name a hook (name or skill/name)", p)
				return e, false
			}
			return e, true
		}
		fields := d.hookRefFields(&e, sees)
		if rn.Kind != yaml.MappingNode {
			d.errorf(n, CodeWrongType, "%s must be a hook name (name or skill/name) or a mapping {hook, skill%s}, not %s", p, map[bool]string{true: ", copies", false: ""}[sees], yamlpos.Describe(rn))
			return e, false
		}
		return e, d.strict(n, p, fields, CodeUnknownExpectation, "field") && e.Hook != ""
	}
	if rv.Kind == yaml.SequenceNode {
		var out []Expectation
		d.list(v, path, func(i int, item *yaml.Node, p string) {
			if e, ok := single(item, p, true); ok {
				out = append(out, e)
			}
		})
		if len(rv.Content) == 0 {
			d.errorf(v, CodeEmptyValue, "%s is an empty list; name at least one hook", path)
		}
		return out
	}
	if e, ok := single(v, path, false); ok {
		return []Expectation{e}
	}
	return nil
}

func (d *decoder) hookRefFields(e *Expectation, sees bool) []field {
	fs := []field{
		{name: "hook", required: true, hint: "the hook's name, e.g. hook: user-profile", decode: func(k, v *yaml.Node, path string) {
			e.Hook = d.nonEmpty(v, path)
		}},
		{name: "skill", decode: func(k, v *yaml.Node, path string) { e.Skill = d.nonEmpty(v, path) }},
	}
	if sees {
		fs = append(fs, field{name: "copies", decode: func(k, v *yaml.Node, path string) {
			if n, ok := d.integer(v, path); ok {
				if n < 1 {
					d.errorf(v, CodeInvalidValue, "%s is %d; to say a call sees no copy, use not_sees", path, n)
					return
				}
				e.Copies = &n
			}
		}})
	}
	return fs
}

func (d *decoder) textFields(t *Text) []field {
	return []field{
		{name: "contains", decode: func(k, v *yaml.Node, path string) { t.Contains = d.nonEmpty(v, path) }},
		{name: "matches", decode: func(k, v *yaml.Node, path string) {
			if p := d.nonEmpty(v, path); p != "" {
				if _, err := regexp.Compile(p); err != nil {
					d.errorf(v, CodeInvalidRegex, "%s is not a valid regular expression (RE2): %v", path, err)
					return
				}
				t.Matches = p
			}
		}},
		{name: "equals", decode: func(k, v *yaml.Node, path string) {
			if s, ok := d.str(v, path); ok {
				t.Equals = &s
			}
		}},
	}
}

func (d *decoder) messageFields(e *Expectation) []field {
	return append(d.textFields(&e.Text),
		field{name: "role", decode: func(k, v *yaml.Node, path string) { e.Role, _ = d.enum(v, path, MessageRoles) }},
		field{name: "origin", decode: func(k, v *yaml.Node, path string) { e.Origin, _ = d.enum(v, path, MessageOrigin) }},
		d.countField(e),
	)
}

func (d *decoder) countField(e *Expectation) field {
	return field{name: "count", decode: func(k, v *yaml.Node, path string) {
		if n, ok := d.integer(v, path); ok {
			if n < 0 {
				d.errorf(v, CodeInvalidValue, "%s is %d; a count is 0 or more", path, n)
				return
			}
			e.Count = &n
		}
	}}
}

func (d *decoder) orderFields(e *Expectation) []field {
	tags := func(dst *[]string) func(k, v *yaml.Node, path string) {
		return func(k, v *yaml.Node, path string) {
			add := func(n *yaml.Node, p string) {
				s, ok := d.str(n, p)
				if !ok {
					return
				}
				base, _, _ := strings.Cut(strings.TrimPrefix(s, "h."), ":")
				if !slices.Contains(TagKinds, base) {
					d.errorf(n, CodeInvalidValue, "%s: %q is not a message tag; write system, user, assistant, hook:NAME, prompt:NAME, tool:NAME (h. before it for a history copy), or the kind alone for any.%s", p, s, suggestion(base, TagKinds))
					return
				}
				*dst = append(*dst, s)
			}
			if rv, ok := d.deref(v); ok && rv.Kind == yaml.SequenceNode {
				d.list(v, path, func(i int, item *yaml.Node, p string) { add(item, p) })
				return
			}
			add(v, path)
		}
	}
	return []field{
		{name: "hook", required: true, hint: "the hook whose copies are placed, e.g. hook: step-check", decode: func(k, v *yaml.Node, path string) {
			e.Hook = d.nonEmpty(v, path)
		}},
		{name: "skill", decode: func(k, v *yaml.Node, path string) { e.Skill = d.nonEmpty(v, path) }},
		{name: "before", decode: tags(&e.Before)},
		{name: "after", decode: tags(&e.After)},
	}
}

func (d *decoder) toolExpectFields(e *Expectation) []field {
	return []field{
		{name: "name", decode: func(k, v *yaml.Node, path string) { e.Tool = d.nonEmpty(v, path) }},
		{name: "status", required: true, hint: "what became of the call: " + strings.Join(ToolStatuses, ", "), decode: func(k, v *yaml.Node, path string) {
			e.Status, _ = d.enum(v, path, ToolStatuses)
		}},
		d.countField(e),
	}
}

func (d *decoder) outcomeFields(e *Expectation) []field {
	return []field{
		{name: "hook", required: true, hint: "the executable hook's name", decode: func(k, v *yaml.Node, path string) { e.Hook = d.nonEmpty(v, path) }},
		{name: "system", decode: func(k, v *yaml.Node, path string) { e.System = d.nonEmpty(v, path) }},
		{name: "event", decode: func(k, v *yaml.Node, path string) { e.Event = d.nonEmpty(v, path) }},
		{name: "outcome", required: true, hint: "how the invocation ended: " + strings.Join(HookOutcomes, ", "), decode: func(k, v *yaml.Node, path string) {
			e.Status, _ = d.enum(v, path, HookOutcomes)
		}},
		d.countField(e),
	}
}

func (d *decoder) eventFields(e *Expectation) []field {
	return []field{
		{name: "name", required: true, hint: "the event, e.g. name: before_tool", decode: func(k, v *yaml.Node, path string) { e.Event = d.nonEmpty(v, path) }},
		{name: "hook", decode: func(k, v *yaml.Node, path string) { e.Hook = d.nonEmpty(v, path) }},
		{name: "system", decode: func(k, v *yaml.Node, path string) { e.System = d.nonEmpty(v, path) }},
		d.countField(e),
	}
}

// textOr decodes a string (contains) or a mapping against fields.
func (d *decoder) textOr(v *yaml.Node, path string, t *Text, fields []field) bool {
	rv, ok := d.deref(v)
	if !ok {
		return false
	}
	if isString(rv) {
		t.Contains = rv.Value
		if t.Contains == "" {
			d.errorf(v, CodeEmptyValue, "%s is empty; give the text the content must contain", path)
			return false
		}
		return true
	}
	return d.strict(v, path, fields, CodeUnknownExpectation, "field")
}

// strict is object for expectations: an unknown key is an error, not a
// warning, because an assertion that is silently ignored would pass.
func (d *decoder) strict(n *yaml.Node, path string, fields []field, code, what string) bool {
	before := len(d.diags)
	ok := d.walk(n, path, fields, func(p pair) {
		d.errorf(p.key, code, "%s has no %s %q; expected one of: %s.%s", path, what, p.name, strings.Join(fieldNames(fields), ", "), suggestion(p.name, fieldNames(fields)))
	})
	return ok && !diag.HasErrors(d.diags[before:])
}

// integer decodes a whole number.
func (d *decoder) integer(n *yaml.Node, path string) (int, bool) {
	v, ok := d.deref(n)
	if !ok {
		return 0, false
	}
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
		var i int
		if err := v.Decode(&i); err == nil {
			return i, true
		}
	}
	d.errorf(n, CodeWrongType, "%s must be a whole number, not %s", path, yamlpos.Describe(v))
	return 0, false
}

// enum decodes a string that must be one of values.
func (d *decoder) enum(n *yaml.Node, path string, values []string) (string, bool) {
	s, ok := d.str(n, path)
	if !ok {
		return "", false
	}
	if !slices.Contains(values, s) {
		d.errorf(n, CodeInvalidValue, "%s is %q; expected one of: %s.%s", path, s, strings.Join(values, ", "), suggestion(s, values))
		return "", false
	}
	return s, true
}

// nonEmpty decodes a string that must not be empty; "" means it failed.
func (d *decoder) nonEmpty(n *yaml.Node, path string) string {
	s, ok := d.str(n, path)
	if ok && s == "" {
		d.errorf(n, CodeEmptyValue, "%s is empty", path)
	}
	return s
}

// checkExpectations runs the checks that need the whole file: a request
// address must name a request the scenario has.
func (d *decoder) checkExpectations(s *Scenario) {
	for _, e := range s.Expect {
		if e.Request != nil && *e.Request >= len(s.Requests) {
			d.errorf(&yaml.Node{Line: e.Line, Column: e.Column}, CodeExpectAddress, "%s addresses request %d, but the scenario has %d request(s)", e.Path, *e.Request+1, len(s.Requests))
		}
	}
}

// expectLevels describes the expectation mappings for the schema test.
func expectLevels() []Level {
	var d *decoder
	e := new(Expectation)
	levels := []namedFields{
		{"expectation", d.expectItemFields(new(expectState), ScopeScenario)},
		{"expect_hook", d.hookRefFields(e, true)},
		{"expect_not_hook", d.hookRefFields(e, false)},
		{"expect_message", d.messageFields(e)},
		{"expect_order", d.orderFields(e)},
		{"expect_text", d.textFields(&e.Text)},
		{"expect_tool", d.toolExpectFields(e)},
		{"expect_hook_outcome", d.outcomeFields(e)},
		{"expect_event", d.eventFields(e)},
	}
	return toLevels(levels)
}
