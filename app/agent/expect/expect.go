// Package expect checks a scenario's expectations (expect: lists) against
// the trace of a run: what each LLM call saw, what each request yielded and
// replied, what became of tool calls and executable hooks, and how the run
// ended. hookctl test and the app show the same results.
package expect

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// TokenCounter counts what a chat message costs in a request (app/agent/tokens).
type TokenCounter interface {
	CountMessage(role, content string) int
}

// Result is one check of one expectation: a call assertion gives one result
// per call it addresses, any other one result. An expectation that
// addresses nothing that exists fails; it never passes by default.
type Result struct {
	Kind  string `json:"kind"`
	Title string `json:"title"` // what was checked where, for people
	// Request and Call (0-based) are what the result is about, when known.
	Request  *int   `json:"request"`
	Call     *int   `json:"call"`
	Expected string `json:"expected"`
	Actual   string `json:"actual"`
	Pass     bool   `json:"pass"`
	// Want and Got are the expected and actual sides as lines, for a diff.
	Want []string `json:"want,omitempty"`
	Got  []string `json:"got,omitempty"`
	// At are positions (0-based) in the call's message list the result is
	// about: the hook's copies, the matching messages, the misplaced ones.
	At []int `json:"at,omitempty"`
	// Messages is the call's message list in tag notation, on failures.
	Messages []string `json:"messages,omitempty"`

	// Where the expectation is written.
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Path   string `json:"path"`
}

// Counts returns how many results passed and failed.
func Counts(rs []Result) (passed, failed int) {
	for _, r := range rs {
		if r.Pass {
			passed++
		} else {
			failed++
		}
	}
	return passed, failed
}

// Evaluate checks every expectation of sc against tr, in the order
// Scenario.Expectations lists them.
func Evaluate(sc *scenario.Scenario, tr *engine.Trace, tc TokenCounter) []Result {
	ev := &evaluator{tr: tr, tc: tc, msgs: map[int][]engine.Message{}}
	out := []Result{}
	states := false
	for _, e := range sc.Expectations() {
		out = append(out, ev.expectation(e)...)
		states = states || (e.Kind == scenario.ExpectStatus && e.Request == nil)
	}
	if tr.Status != engine.StatusOK && !states && len(out) > 0 {
		// A run that did not end well never passes by saying nothing about
		// it: state status: to expect it.
		r := Result{Kind: scenario.ExpectStatus, Title: "the run ends ok (implied: the scenario states no status)",
			Expected: "status ok", Actual: "status " + string(tr.Status), Want: []string{"ok"}, Got: []string{string(tr.Status)},
			File: sc.File, Line: 1, Column: 1, Path: "expect"}
		if tr.Error != "" {
			r.Actual += ": " + tr.Error
		}
		out = append(out, r)
	}
	return out
}

type evaluator struct {
	tr   *engine.Trace
	tc   TokenCounter
	msgs map[int][]engine.Message // by call, built once
}

func (ev *evaluator) callMessages(c int) []engine.Message {
	if m, ok := ev.msgs[c]; ok {
		return m
	}
	m := ev.tr.CallMessages(c)
	ev.msgs[c] = m
	return m
}

func newResult(e *scenario.Expectation) Result {
	return Result{Kind: e.Kind, File: e.File, Line: e.Line, Column: e.Column, Path: e.Path, Request: e.Request}
}

func (ev *evaluator) expectation(e scenario.Expectation) []Result {
	switch {
	case e.Kind == scenario.ExpectStatus && e.Request != nil:
		if *e.Request >= len(ev.tr.Requests) {
			return []Result{ev.missing(&e)}
		}
		return []Result{ev.request(&e, *e.Request)}
	case e.Kind == scenario.ExpectStatus:
		r := newResult(&e)
		r.Title = "the run ends " + e.Status
		r.Expected, r.Actual = "status "+e.Status, "status "+string(ev.tr.Status)
		if ev.tr.Error != "" {
			r.Actual += ": " + ev.tr.Error
		}
		r.Pass = string(ev.tr.Status) == e.Status
		r.Want, r.Got = []string{e.Status}, []string{string(ev.tr.Status)}
		return []Result{r}
	case e.CallKind():
		calls := ev.address(&e)
		if len(calls) == 0 {
			return []Result{ev.missing(&e)}
		}
		out := make([]Result, 0, len(calls))
		for _, c := range calls {
			out = append(out, ev.call(&e, c))
		}
		return out
	case e.Kind == scenario.ExpectYields || e.Kind == scenario.ExpectReply:
		if e.Request == nil || *e.Request >= len(ev.tr.Requests) {
			return []Result{ev.missing(&e)}
		}
		return []Result{ev.request(&e, *e.Request)}
	default: // tool, hook_outcome, event: over the calls, request or run addressed
		return []Result{ev.happenings(&e)}
	}
}

// address lists the calls an expectation is about.
func (ev *evaluator) address(e *scenario.Expectation) []int {
	var out []int
	for i, c := range ev.tr.Calls {
		switch {
		case e.Call != nil && i != *e.Call,
			e.Request != nil && c.Request != *e.Request,
			e.Phase != "" && string(c.Phase) != e.Phase,
			e.Round != nil && (c.Round == nil || *c.Round != *e.Round):
			continue
		}
		out = append(out, i)
	}
	return out
}

// where describes an address for people, 1-based like hookctl's output.
func where(e *scenario.Expectation) string {
	var parts []string
	if e.Call != nil {
		parts = append(parts, fmt.Sprintf("LLM call #%d", *e.Call+1))
	}
	if e.Request != nil {
		parts = append(parts, fmt.Sprintf("request %d", *e.Request+1))
	}
	if e.Phase != "" {
		parts = append(parts, e.Phase+" phase")
	}
	if e.Round != nil {
		parts = append(parts, fmt.Sprintf("round %d", *e.Round))
	}
	if len(parts) == 0 {
		return "the run"
	}
	return strings.Join(parts, ", ")
}

func callName(tr *engine.Trace, c int) string {
	lc := tr.Calls[c]
	s := fmt.Sprintf("call #%d (request %d, %s", c+1, lc.Request+1, lc.Phase)
	if lc.Round != nil {
		s += fmt.Sprintf(" round %d", *lc.Round)
	}
	return s + ")"
}

// missing is the failure of an expectation whose address matches nothing.
func (ev *evaluator) missing(e *scenario.Expectation) Result {
	r := newResult(e)
	r.Title = fmt.Sprintf("%s: %s", where(e), describe(e))
	r.Expected = describe(e)
	var have []string
	for i := range ev.tr.Calls {
		have = append(have, callName(ev.tr, i))
	}
	switch {
	case e.CallKind() && len(have) == 0:
		r.Actual = fmt.Sprintf("no LLM call matches %s: the run made none (status %s)", where(e), ev.tr.Status)
	case e.CallKind():
		r.Actual = fmt.Sprintf("no LLM call matches %s; the run made %s", where(e), strings.Join(have, ", "))
	default:
		r.Actual = fmt.Sprintf("%s does not exist: the run has %d request(s) (status %s)", where(e), len(ev.tr.Requests), ev.tr.Status)
	}
	return r
}

// describe says what an expectation expects.
func describe(e *scenario.Expectation) string {
	switch e.Kind {
	case scenario.ExpectSees:
		if e.Copies != nil {
			return fmt.Sprintf("sees %s ×%d", hookName(e.Hook, e.Skill), *e.Copies)
		}
		return "sees " + hookName(e.Hook, e.Skill)
	case scenario.ExpectNotSees:
		return "does not see " + hookName(e.Hook, e.Skill)
	case scenario.ExpectMessage:
		return "sees " + countText(e.Count, "a message") + messageFilter(e)
	case scenario.ExpectOrder:
		var parts []string
		if len(e.Before) > 0 {
			parts = append(parts, "before "+strings.Join(e.Before, ", "))
		}
		if len(e.After) > 0 {
			parts = append(parts, "after "+strings.Join(e.After, ", "))
		}
		return hookName(e.Hook, e.Skill) + " stands " + strings.Join(parts, " and ")
	case scenario.ExpectMaxTokens:
		return fmt.Sprintf("at most %d prompt tokens", e.Max)
	case scenario.ExpectYields:
		return "yields [" + strings.Join(e.Hooks, ", ") + "]"
	case scenario.ExpectReply:
		return "reply " + e.Text.String()
	case scenario.ExpectTool:
		name := "a tool call"
		if e.Tool != "" {
			name = e.Tool
		}
		return fmt.Sprintf("%s %s", countText(e.Count, name), e.Status)
	case scenario.ExpectHookOutcome:
		return fmt.Sprintf("%s ends %s", countText(e.Count, "hook "+e.Hook), e.Status)
	case scenario.ExpectEvent:
		s := "event " + e.Event
		if e.Hook != "" {
			s += " (hook " + e.Hook + ")"
		}
		return countText(e.Count, s) + " fires"
	case scenario.ExpectStatus:
		return "status " + e.Status
	}
	return e.Kind
}

func countText(n *int, what string) string {
	if n == nil {
		return what
	}
	return fmt.Sprintf("%s ×%d", what, *n)
}

func hookName(hook, skill string) string {
	if skill != "" {
		return skill + "/" + hook
	}
	return hook
}

func messageFilter(e *scenario.Expectation) string {
	s := " whose content " + e.Text.String()
	if e.Role != "" {
		s += ", role " + e.Role
	}
	if e.Origin != "" {
		s += ", origin " + e.Origin
	}
	return s
}

func matchesHook(m *engine.Message, hook, skill string) bool {
	return m.Hook == hook && (skill == "" || m.Skill == skill)
}

func tags(ms []engine.Message) []string {
	out := make([]string, len(ms))
	for i := range ms {
		out[i] = ms[i].Tag()
	}
	return out
}

// call checks a call assertion against call c.
func (ev *evaluator) call(e *scenario.Expectation, c int) Result {
	r := newResult(e)
	req := ev.tr.Calls[c].Request
	r.Call, r.Request = &c, &req
	r.Title = fmt.Sprintf("%s %s", callName(ev.tr, c), describe(e))
	r.Expected = describe(e)
	ms := ev.callMessages(c)
	switch e.Kind {
	case scenario.ExpectSees, scenario.ExpectNotSees:
		for i := range ms {
			if matchesHook(&ms[i], e.Hook, e.Skill) {
				r.At = append(r.At, i)
			}
		}
		n := len(r.At)
		r.Actual = copiesText(n, ms, r.At)
		name := hookName(e.Hook, e.Skill)
		switch {
		case e.Kind == scenario.ExpectNotSees:
			r.Pass = n == 0
			r.Want, r.Got = []string{name + " ×0"}, []string{fmt.Sprintf("%s ×%d", name, n)}
		case e.Copies != nil:
			r.Pass = n == *e.Copies
			r.Want, r.Got = []string{fmt.Sprintf("%s ×%d", name, *e.Copies)}, []string{fmt.Sprintf("%s ×%d", name, n)}
		default:
			r.Pass = n > 0
			r.Want, r.Got = []string{name + " ×1 or more"}, []string{fmt.Sprintf("%s ×%d", name, n)}
		}
	case scenario.ExpectMessage:
		for i := range ms {
			m := &ms[i]
			if (e.Role == "" || m.Role == e.Role) && (e.Origin == "" || string(m.Origin) == e.Origin) && e.Text.Match(m.Content) {
				r.At = append(r.At, i)
			}
		}
		n := len(r.At)
		r.Pass = (e.Count == nil && n > 0) || (e.Count != nil && n == *e.Count)
		r.Actual = fmt.Sprintf("%d matching message(s)", n)
		if n > 0 {
			r.Actual += ": " + strings.Join(positions(ms, r.At), ", ")
		}
		r.Want, r.Got = []string{describe(e)}, positions(ms, r.At)
	case scenario.ExpectOrder:
		ev.order(e, ms, &r)
	case scenario.ExpectMaxTokens:
		total, biggest, most := 0, -1, 0
		for i := range ms {
			n := ev.tc.CountMessage(ms[i].Role, ms[i].Content)
			total += n
			if n > most {
				biggest, most = i, n
			}
		}
		r.Pass = total <= e.Max
		r.Actual = fmt.Sprintf("%d prompt tokens", total)
		if biggest >= 0 {
			r.At = []int{biggest}
			r.Actual += fmt.Sprintf(" (largest: #%d %s, %d)", biggest+1, ms[biggest].Tag(), most)
		}
		r.Want, r.Got = []string{fmt.Sprintf("tokens ≤ %d", e.Max)}, []string{fmt.Sprintf("tokens = %d", total)}
	case scenario.ExpectReply:
		lc := ev.tr.Calls[c]
		r.Actual = quoteShort(lc.Content)
		if lc.Error != "" {
			r.Actual = "the call failed: " + lc.Error
		}
		r.Pass = lc.Error == "" && e.Text.Match(lc.Content)
		r.Want, r.Got = []string{e.Text.String()}, []string{lc.Content}
	}
	if !r.Pass {
		r.Messages = tags(ms)
	}
	return r
}

func copiesText(n int, ms []engine.Message, at []int) string {
	switch n {
	case 0:
		return "no copy"
	case 1:
		return "1 copy: " + strings.Join(positions(ms, at), ", ")
	}
	return fmt.Sprintf("%d copies: %s", n, strings.Join(positions(ms, at), ", "))
}

// positions names messages by their 1-based place in the list and tag.
func positions(ms []engine.Message, at []int) []string {
	out := make([]string, len(at))
	for k, i := range at {
		out[k] = fmt.Sprintf("#%d %s", i+1, ms[i].Tag())
	}
	return out
}

// tagMatches reports whether a message tag fits a pattern: the exact tag,
// or a kind alone ("hook", "h.hook", "tool") for any message of that kind.
func tagMatches(tag, pattern string) bool {
	if tag == pattern {
		return true
	}
	return !strings.Contains(pattern, ":") && strings.HasPrefix(tag, pattern+":")
}

// order checks that every copy of the hook stands before every message
// tagged Before and after every message tagged After. A failure names, per
// misplaced copy, the first message it should have been on the other side
// of; Got and Want are those messages in list order and in the order
// required.
func (ev *evaluator) order(e *scenario.Expectation, ms []engine.Message, r *Result) {
	all := tags(ms)
	var copies []int
	for i := range ms {
		if matchesHook(&ms[i], e.Hook, e.Skill) {
			copies = append(copies, i)
		}
	}
	name := hookName(e.Hook, e.Skill)
	if len(copies) == 0 {
		r.Actual = "the call sees no copy of " + name
		r.Want, r.Got = []string{name}, []string{}
		return
	}
	label := func(i int) string { return fmt.Sprintf("#%d %s", i+1, all[i]) }
	var problems, missingBefore, missingAfter []string
	group := map[int]int{} // position → 0 placed before the hook, 1 a copy, 2 placed after it
	check := func(patterns []string, before bool) {
		for _, p := range patterns {
			var at []int
			for i, t := range all {
				if tagMatches(t, p) && !slices.Contains(copies, i) {
					at = append(at, i)
				}
			}
			if len(at) == 0 {
				problems = append(problems, "no message tagged "+p)
				if before {
					missingBefore = append(missingBefore, "(a message tagged "+p+")")
				} else {
					missingAfter = append(missingAfter, "(a message tagged "+p+")")
				}
				continue
			}
			for _, c := range copies {
				for _, i := range at {
					if (before && c > i) || (!before && c < i) {
						rel, g := "after", 2
						if !before {
							rel, g = "before", 0
						}
						problems = append(problems, fmt.Sprintf("%s stands %s %s", label(c), rel, label(i)))
						group[c], group[i] = 1, g
						r.At = append(r.At, c)
						break // the first one says enough about this copy
					}
				}
			}
		}
	}
	check(e.Before, true)
	check(e.After, false)
	if len(problems) == 0 {
		r.Pass = true
		r.Actual = fmt.Sprintf("%s at %s", name, strings.Join(positions(ms, copies), ", "))
		r.At = copies
		r.Got = positions(ms, copies)
		return
	}
	if len(group) == 0 { // only tags that are missing: place the copies
		for _, c := range copies {
			group[c] = 1
		}
	}
	involved := slices.Sorted(maps.Keys(group))
	for _, i := range involved {
		r.Got = append(r.Got, label(i))
	}
	want := slices.Clone(involved)
	slices.SortStableFunc(want, func(a, b int) int { return group[a] - group[b] })
	r.Want = append(r.Want, missingAfter...)
	for _, i := range want {
		r.Want = append(r.Want, label(i))
	}
	r.Want = append(r.Want, missingBefore...)
	slices.Sort(r.At)
	r.At = slices.Compact(r.At)
	if len(problems) > 5 {
		problems = append(problems[:5], fmt.Sprintf("and %d more", len(problems)-5))
	}
	r.Actual = strings.Join(problems, "; ")
}

// request checks yields and a request's reply.
func (ev *evaluator) request(e *scenario.Expectation, i int) Result {
	r := newResult(e)
	info := ev.tr.Requests[i]
	r.Title = fmt.Sprintf("request %d %s", i+1, describe(e))
	r.Expected = describe(e)
	switch e.Kind {
	case scenario.ExpectStatus:
		got := requestStatus(ev.tr, i)
		r.Title = fmt.Sprintf("request %d ends %s", i+1, e.Status)
		r.Pass = got == e.Status
		r.Actual = "status " + got
		if info.StoppedBy != "" {
			r.Actual += " (by " + info.StoppedBy + ")"
		}
		r.Want, r.Got = []string{e.Status}, []string{got}
	case scenario.ExpectYields:
		var got []string
		for s := info.FirstStep; s <= info.LastStep && s < ev.tr.NumSteps(); s++ {
			st := ev.tr.Step(s)
			if st.Kind == engine.StepYield && len(st.Hooks) > 0 {
				got = append(got, st.Hooks[0])
			}
		}
		r.Pass = len(got) == len(e.Hooks)
		for k := range got {
			if k < len(e.Hooks) {
				w, g := e.Hooks[k], got[k]
				if !strings.Contains(w, "/") {
					_, g, _ = strings.Cut(g, "/")
					got[k] = g
				}
				r.Pass = r.Pass && w == g
			}
		}
		r.Want, r.Got = slices.Clone(e.Hooks), got
		r.Actual = "yields [" + strings.Join(got, ", ") + "]"
	case scenario.ExpectReply:
		r.Actual = quoteShort(info.Reply)
		// Hooks may still run after the reply (a process exiting), so look
		// for the reply step anywhere in the request.
		finished := false
		for s := max(info.FirstStep, 0); s <= info.LastStep && s < ev.tr.NumSteps(); s++ {
			finished = finished || ev.tr.Step(s).Kind == engine.StepReply
		}
		if !finished {
			r.Actual = fmt.Sprintf("the request ended without a reply (run status %s)", ev.tr.Status)
		}
		r.Pass = finished && e.Text.Match(info.Reply)
		r.Want, r.Got = []string{e.Text.String()}, []string{info.Reply}
		if !finished {
			r.Got = []string{}
		}
	}
	return r
}

// requestStatus is how request i ended: stopped by a hook, the run's
// status for the request the run ended in, else ok.
func requestStatus(tr *engine.Trace, i int) string {
	info := tr.Requests[i]
	switch {
	case info.Status != "":
		return info.Status
	case i == len(tr.Requests)-1 && tr.Status != engine.StatusOK:
		return string(tr.Status)
	}
	return "ok"
}

func quoteShort(s string) string {
	const limit = 160
	if rs := []rune(s); len(rs) > limit {
		s = string(rs[:limit]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// inScope reports whether something at (request, phase, round) lies in
// the expectation's address: a call address covers what happened in that
// call's request, phase and round.
func (ev *evaluator) inScope(e *scenario.Expectation, req int, phase engine.Phase, round *int) bool {
	if e.Call != nil {
		if *e.Call >= len(ev.tr.Calls) {
			return false
		}
		lc := ev.tr.Calls[*e.Call]
		return req == lc.Request && phase == lc.Phase && eqRound(round, lc.Round)
	}
	switch {
	case e.Request != nil && req != *e.Request,
		e.Phase != "" && string(phase) != e.Phase,
		e.Round != nil && (round == nil || *round != *e.Round):
		return false
	}
	return true
}

func eqRound(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// toolStatus is what became of a tool call, in the words of ToolStatuses.
func toolStatus(tc engine.ToolCall) string {
	switch {
	case tc.Status == engine.ToolApproved && tc.Error == "":
		return "approved"
	case tc.Status != "" && tc.Status != engine.ToolApproved:
		return string(tc.Status)
	case tc.Error != "":
		return "error"
	}
	return "ran"
}

func toolMatches(e *scenario.Expectation, tc engine.ToolCall) bool {
	if e.Tool != "" && tc.Name != e.Tool {
		return false
	}
	st := toolStatus(tc)
	// An approved call ran: "ran" covers it, "approved" says who let it.
	return st == e.Status || (e.Status == "ran" && st == "approved")
}

// happenings checks tool, hook_outcome and event over what the address
// covers: calls, a request, or the whole run.
func (ev *evaluator) happenings(e *scenario.Expectation) Result {
	r := newResult(e)
	r.Title = fmt.Sprintf("%s: %s", where(e), describe(e))
	r.Expected = describe(e)
	if e.Call != nil || e.Phase != "" || e.Round != nil {
		calls := ev.address(e)
		if len(calls) == 0 {
			return ev.missing(e)
		}
		if len(calls) == 1 {
			c := calls[0]
			r.Call = &c
		}
	} else if e.Request != nil && *e.Request >= len(ev.tr.Requests) {
		return ev.missing(e)
	}
	n := 0
	var seen []string
	switch e.Kind {
	case scenario.ExpectTool:
		for _, lc := range ev.tr.Calls {
			if !ev.inScope(e, lc.Request, lc.Phase, lc.Round) {
				continue
			}
			for _, tc := range lc.ToolCalls {
				desc := tc.Name + ": " + toolStatus(tc)
				if tc.By != "" {
					desc += " by " + tc.By
				}
				seen = append(seen, desc)
				if toolMatches(e, tc) {
					n++
				}
			}
		}
		if len(seen) == 0 {
			seen = []string{"no tool call"}
		}
	case scenario.ExpectHookOutcome, scenario.ExpectEvent:
		counted := map[int]bool{} // an invocation may span several steps
		for s := 0; s < ev.tr.NumSteps(); s++ {
			st := ev.tr.Step(s)
			if st.Kind != engine.StepHookCall || st.HookCall == nil || !ev.inScope(e, st.Request, st.Phase, st.Round) {
				continue
			}
			if st.HookCallIndex != nil {
				if counted[*st.HookCallIndex] {
					continue
				}
				counted[*st.HookCallIndex] = true
			}
			hc := st.HookCall
			if e.Kind == scenario.ExpectHookOutcome {
				if hc.Hook != e.Hook || (e.System != "" && hc.System != e.System) || (e.Event != "" && hc.Event != e.Event && string(hc.Point) != e.Event) {
					continue
				}
				seen = append(seen, fmt.Sprintf("%s at %s: %s", hc.Hook, hc.Event, hc.Outcome))
				if string(hc.Outcome) == e.Status {
					n++
				}
				continue
			}
			if (e.Hook != "" && hc.Hook != e.Hook) || (e.System != "" && hc.System != e.System) {
				continue
			}
			if hc.Event == e.Event || string(hc.Point) == e.Event {
				n++
				seen = append(seen, fmt.Sprintf("%s (%s) → %s", hc.Event, hc.Point, hc.Hook))
			}
		}
		if len(seen) == 0 {
			switch e.Kind {
			case scenario.ExpectHookOutcome:
				seen = []string{"hook " + e.Hook + " never ran here"}
			default:
				seen = []string{"never fired"}
			}
		}
	}
	r.Pass = (e.Count == nil && n > 0) || (e.Count != nil && n == *e.Count)
	r.Actual = fmt.Sprintf("%d match(es); %s", n, strings.Join(seen, ", "))
	r.Want, r.Got = []string{describe(e)}, seen
	return r
}
