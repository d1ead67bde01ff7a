package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

// renderer prints a trace for a terminal: each LLM call's message list,
// where every message came from, and what changed since the call before.
type renderer struct {
	w     io.Writer
	color bool
	full  bool
	width int
}

func newRenderer(w io.Writer, color, full bool) *renderer {
	width := 100
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= 40 {
		width = n
	}
	return &renderer{w: w, color: color, full: full, width: width}
}

const (
	bold   = "1"
	dim    = "2"
	red    = "31"
	green  = "32"
	yellow = "33"
	blue   = "34"
	purple = "35"
	cyan   = "36"
)

func (r *renderer) paint(code, s string) string {
	if !r.color {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

var circled = []string{"", "①", "②", "③", "④", "⑤"}

func (r *renderer) diagnostics(ds []diag.Diagnostic) {
	for _, d := range ds {
		fmt.Fprintf(r.w, "%s %s:%d:%d: %s [%s]\n", r.paint(yellow, string(d.Severity)+":"), d.File, d.Line, d.Column, d.Message, d.Code)
	}
	if len(ds) > 0 {
		fmt.Fprintln(r.w)
	}
}

func (r *renderer) trace(t *engine.Trace, root string) {
	fmt.Fprintf(r.w, "%s  (skills: %s)  %d request(s), %d LLM call(s)\n",
		r.paint(bold, "Scenario "+strconv.Quote(t.Scenario)), root, len(t.Requests), len(t.Calls))
	if a := t.Agent; a != nil {
		fmt.Fprintf(r.w, "%s %s  %s\n", r.paint(dim, "renders as"), a.String(), r.paint(dim, "("+agentWhy(a.Agent, a.By)+")"))
	}
	hooked := &hookPrinter{r: r, t: t, seen: map[int]bool{}, last: -1}
	if len(t.Requests) > 0 {
		hooked.upTo(t.Requests[0].FirstStep - 1) // session_start
	}
	for _, req := range t.Requests {
		skillsLabel := "all skills"
		if req.EnabledSkills != nil {
			skillsLabel = "skills: [" + strings.Join(req.EnabledSkills, ", ") + "]"
		}
		fmt.Fprintf(r.w, "\n%s  %s  %s\n", r.paint(bold, fmt.Sprintf("━━ Request %d", req.Index+1)),
			strconv.Quote(r.line(req.User, r.width-40)), r.paint(dim, skillsLabel))
		prev := req.FirstStep // the build_messages step
		for _, c := range req.Calls {
			hooked.upTo(t.Calls[c].Step)
			r.call(t, c, prev)
			prev = t.Calls[c].Step
		}
		hooked.upTo(req.LastStep)
		if req.Status == "stopped" {
			fmt.Fprintf(r.w, "  %s %s\n", r.paint(red, "request stopped by"), req.StoppedBy)
		}
		if len(req.Yielded) > 0 {
			fmt.Fprintf(r.w, "  %s %s\n", r.paint(purple, "yielded to history:"), strings.Join(req.Yielded, ", "))
		}
		if req.LastStep >= 0 && t.Step(req.LastStep).Kind == engine.StepReply {
			fmt.Fprintf(r.w, "  %s %s\n", r.paint(green, "reply:"), r.line(req.Reply, r.width-10))
		}
	}
	hooked.sessionEnd = true
	hooked.last = -1
	hooked.upTo(t.NumSteps() - 1) // session_end, which the last request's steps include
	if t.Status != engine.StatusOK {
		fmt.Fprintf(r.w, "\n%s %s\n", r.paint(red, "run ended: "+string(t.Status)), t.Error)
	}
}

// hookPrinter prints the executable hooks' invocations between the calls,
// each once (a retry_feedback step refers to its invocation again).
type hookPrinter struct {
	r    *renderer
	t    *engine.Trace
	seen map[int]bool
	last int // the last step looked at
	// sessionEnd: print session_end invocations (only); before, skip them.
	sessionEnd bool
}

func (p *hookPrinter) upTo(step int) {
	for ; p.last < step; p.last++ {
		if p.last+1 >= p.t.NumSteps() {
			return
		}
		s := p.t.Step(p.last + 1)
		if s.Kind != engine.StepHookCall || s.HookCallIndex == nil || p.seen[*s.HookCallIndex] ||
			(s.HookCall.Point == engine.PointSessionEnd) != p.sessionEnd {
			continue
		}
		p.seen[*s.HookCallIndex] = true
		p.r.hookCall(s.HookCall)
	}
}

// hookCall prints one invocation: event, hook, where it is declared,
// outcome, duration, then what it changed and any warning, error or notice.
func (r *renderer) hookCall(hc *engine.HookCall) {
	colour := dim
	switch hc.Outcome {
	case engine.OutcomeError, engine.OutcomeTimeout:
		colour = red
	case engine.OutcomeModified:
		colour = green
	case engine.OutcomeSkipped, engine.OutcomeDenied, engine.OutcomeStopped:
		colour = yellow
	}
	took := fmt.Sprintf("%.1fms", hc.DurationMS)
	if hc.Reused {
		took = "reused"
	}
	fmt.Fprintf(r.w, "  %s %s %s %s %s %s\n", r.paint(purple, "⚙ "+hc.System), hc.Event, r.paint(bold, hc.Hook),
		r.paint(dim, "("+hc.Source+")"), r.paint(colour, string(hc.Outcome)), r.paint(dim, took))
	detail := func(label, colour, text string) {
		fmt.Fprintf(r.w, "      %s %s\n", r.paint(colour, label), r.line(text, r.width-10-width(label)))
	}
	for _, c := range hc.Changes {
		detail("·", green, c)
	}
	for _, w := range hc.Warnings {
		detail("warning:", yellow, w)
	}
	if hc.Error != "" {
		detail("error:", red, hc.Error)
		if hc.Stderr != "" {
			detail("stderr:", red, hc.Stderr)
		}
	}
	if hc.Notice != "" {
		detail("notice:", cyan, hc.Notice)
	}
	if hc.Other != "" {
		detail("otherwise:", dim, hc.Other)
	}
}

// call prints one LLM call. Messages added after step prev are marked +,
// and messages removed since then are listed, so each call reads as a diff
// of the one before.
func (r *renderer) call(t *engine.Trace, c, prev int) {
	lc := t.Calls[c]
	title := fmt.Sprintf("LLM call #%d · %s", c+1, lc.Phase)
	if lc.Round != nil {
		title += fmt.Sprintf(" round %d", *lc.Round)
	}
	fmt.Fprintf(r.w, "\n  %s\n", r.paint(bold+";"+blue, title))
	msgs := t.CallMessages(c)
	// Pad origins to one width so the contents line up.
	pad := 0
	for _, m := range msgs {
		pad = max(pad, min(width(plainOrigin(m)), 56))
	}
	for i, m := range msgs {
		mark := " "
		if created, _ := t.Lifetime(m.ID); created > prev {
			mark = r.paint(green, "+")
		}
		plain := plainOrigin(m)
		origin := r.origin(m) + strings.Repeat(" ", max(0, pad-width(plain)))
		prefix := fmt.Sprintf("  %s %3d %-9s ", mark, i+1, m.Role)
		body := m.Content
		for _, tc := range m.ToolCalls {
			body += fmt.Sprintf(" → %s(%s)", tc.Name, argsText(tc.Arguments))
		}
		fmt.Fprintf(r.w, "%s%s  %s\n", prefix, origin, r.content(body, width(prefix)+max(pad, width(plain))+2))
	}
	var removed []string
	for s := prev + 1; s < lc.Step; s++ {
		for _, id := range t.Step(s).Removed {
			m := t.Message(id)
			removed = append(removed, plainOrigin(m))
		}
	}
	if len(removed) > 0 {
		fmt.Fprintf(r.w, "      %s %s\n", r.paint(red, "− removed since the previous call:"), strings.Join(removed, ", "))
	}
	answer := lc.Content
	if lc.NeedTool != nil {
		answer = fmt.Sprintf("need_tool=%t %s", *lc.NeedTool, strconv.Quote(lc.Content))
	}
	for _, tc := range lc.ToolCalls {
		answer += fmt.Sprintf(" → %s(%s)", tc.Name, argsText(tc.Arguments))
	}
	if lc.Error != "" {
		answer = r.paint(red, "error: "+lc.Error)
	}
	fmt.Fprintf(r.w, "      %s %s\n", r.paint(dim, "answer:"), r.line(answer, r.width-14))
	if lc.Warning != "" {
		fmt.Fprintf(r.w, "      %s %s\n", r.paint(yellow, "warning:"), r.line(lc.Warning, r.width-15))
	}
}

func (r *renderer) origin(m engine.Message) string {
	s := plainOrigin(m)
	switch {
	case m.Origin == engine.OriginHook:
		return r.paint(purple, s)
	case m.Origin == engine.OriginHistory:
		return r.paint(dim, s)
	case m.Origin == engine.OriginPrompt:
		return r.paint(cyan, s)
	case m.Origin == engine.OriginTool:
		return r.paint(yellow, s)
	}
	return s
}

// plainOrigin says where a message came from, in words.
func plainOrigin(m engine.Message) string {
	hook := func() string {
		if m.System != "" && m.Skill == "" {
			return m.System + " hook " + m.Hook // added by an executable hook
		}
		s := fmt.Sprintf("hook %s (%s)", m.Hook, m.Skill)
		if n := skills.Timing(m.Timing).Checkpoint(); n > 0 {
			s += " " + circled[n]
		}
		if m.Persistent {
			s += " persistent"
		}
		return s
	}
	switch m.Origin {
	case engine.OriginSystemPrompt:
		return "system prompt"
	case engine.OriginUserInput:
		return "user input"
	case engine.OriginHook:
		return hook()
	case engine.OriginPrompt:
		return "built-in prompt " + string(m.Prompt)
	case engine.OriginAssistant:
		return "assistant"
	case engine.OriginTool:
		return "tool " + m.Tool
	case engine.OriginHistory:
		switch m.HistoryOf {
		case engine.OriginHook:
			return "history: " + hook()
		case engine.OriginUserInput:
			return "history: user"
		}
		return "history: assistant"
	}
	return string(m.Origin)
}

func (r *renderer) content(s string, indent int) string {
	if r.full {
		pad := "\n" + strings.Repeat(" ", 8)
		return pad + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", pad)
	}
	return r.line(s, r.width-indent)
}

// line folds s to one line of at most n terminal columns.
func (r *renderer) line(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	n = max(n, 10)
	if width(s) <= n {
		return s
	}
	w := 0
	for i, c := range s {
		if w+runeWidth(c) > n-1 {
			return s[:i] + "…"
		}
		w += runeWidth(c)
	}
	return s
}

// width is the number of terminal columns s takes.
func width(s string) int {
	n := 0
	for _, c := range s {
		n += runeWidth(c)
	}
	return n
}

// runeWidth is 2 for East Asian wide and fullwidth characters (hook texts
// are often Chinese), 1 otherwise.
func runeWidth(c rune) int {
	switch {
	case c >= 0x1100 && c <= 0x115F, c >= 0x2E80 && c <= 0xA4CF && c != 0x303F,
		c >= 0xAC00 && c <= 0xD7A3, c >= 0xF900 && c <= 0xFAFF, c >= 0xFE30 && c <= 0xFE4F,
		c >= 0xFF00 && c <= 0xFF60, c >= 0xFFE0 && c <= 0xFFE6, c >= 0x20000 && c <= 0x3FFFD:
		return 2
	}
	return 1
}

func visibleLen(s string) int {
	n, esc := 0, false
	for _, c := range s {
		switch {
		case c == '\x1b':
			esc = true
		case esc && c == 'm':
			esc = false
		case !esc:
			n++
		}
	}
	return n
}

func argsText(a map[string]any) string {
	if len(a) == 0 {
		return ""
	}
	var b strings.Builder
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%v", k, a[k])
	}
	return b.String()
}

// agentWhy says why a run renders as its agent version.
func agentWhy(agent, by string) string {
	switch by {
	case "scenario":
		return "the scenario's agent:"
	case "flag":
		return "--agent"
	case "installed":
		return "the installed CLI"
	}
	return "the newest bundled profile; --agent " + agent + "@VERSION picks another"
}
