package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hookstudio/app/hooks/skills"
)

// Apply records one hook invocation as a hook_call step and carries out its
// effect, so the next hook of the chain sees the change. Fields the point
// does not support are left out and noted as warnings on the invocation.
// It returns the invocation's index in Trace.HookCalls.
func (e *Event) Apply(call HookCall, eff Effect) int {
	r := e.r
	t := r.t
	ci := int32(len(t.HookCalls))
	call.Point = e.Point
	t.HookCalls = append(t.HookCalls, call)
	t.begin(StepHookCall, r.pos, "", ci)
	a := applier{e: e, r: r, t: t, ci: ci}
	a.apply(&eff)
	hc := &t.HookCalls[ci]
	hc.Changes = append(hc.Changes, a.changes...)
	hc.Changes = append(hc.Changes, eff.Extra...)
	hc.Warnings = append(hc.Warnings, a.warnings...)
	if eff.Notice != "" {
		hc.Notice = eff.Notice
	}
	if hc.Outcome == OutcomeOK || hc.Outcome == "" {
		switch {
		case a.outcome != "":
			hc.Outcome = a.outcome
		case len(hc.Changes) > 0:
			hc.Outcome = OutcomeModified
		default:
			hc.Outcome = OutcomeOK
		}
	}
	return int(ci)
}

// Record is Apply for an invocation with no effect (a failure, a timeout,
// a notification).
func (e *Event) Record(call HookCall) int { return e.Apply(call, Effect{}) }

type applier struct {
	e        *Event
	r        *runner
	t        *Trace
	ci       int32
	changes  []string
	warnings []string
	outcome  Outcome
}

func (a *applier) changed(format string, args ...any) {
	a.changes = append(a.changes, fmt.Sprintf(format, args...))
}

func (a *applier) unsupported(field string) {
	a.warnings = append(a.warnings, fmt.Sprintf("%s has no effect at %s; it was ignored", field, a.e.Point))
}

// allowed says whether the point supports field, warning when it does not.
func (a *applier) allowed(field string, set bool, points ...Point) bool {
	if !set {
		return false
	}
	for _, p := range points {
		if p == a.e.Point {
			return true
		}
	}
	a.unsupported(field)
	return false
}

func (a *applier) apply(eff *Effect) {
	e, st := a.e, a.e.state
	overlay := e.Point == PointBeforeLLM // changes for this call only
	if a.allowed("user_input", eff.UserInput != nil, PointBeforeSend) && *eff.UserInput != e.UserInput {
		e.UserInput = *eff.UserInput
		a.r.userEdit = a.ci + 1
		a.changed("user input replaced")
	}
	if a.allowed("system_prompt", eff.SystemPrompt != nil, PointBeforeLLM) && *eff.SystemPrompt != e.SystemPrompt() {
		a.setSystem(*eff.SystemPrompt, overlay)
		a.changed("system prompt replaced")
	}
	if a.allowed("messages", eff.Messages != nil, PointBeforeLLM, PointAfterCompact) {
		if n := a.replaceList(eff.Messages, overlay); n > 0 {
			a.changed("message list replaced (%d messages changed)", n)
		}
	}
	if a.allowed("inject_messages", len(eff.Inject) > 0, PointBeforeLLM) {
		for _, m := range eff.Inject {
			a.addHookMessage(m, float64(len(a.t.msgs)), overlay) // at the end
		}
		a.changed("%d message(s) injected", len(eff.Inject))
	}
	// after_tool: jcli's post_tool_execution_failure appends additional_context too (cmdhook).
	if a.allowed("additional_context", eff.AppendSystem != "", PointBeforeLLM, PointStop, PointBeforeCompact, PointAfterTool, PointSessionStart) {
		switch e.Point {
		case PointSessionStart:
			a.r.sessionSystem, a.r.sessionEdit = joinText(a.r.sessionSystem, eff.AppendSystem), a.ci+1
			a.changed("context appended to the system prompt of every request")
		case PointBeforeCompact:
			a.r.compactContext = append(a.r.compactContext, eff.AppendSystem)
			a.changed("context added to the compaction")
		default:
			a.setSystem(joinText(e.SystemPrompt(), eff.AppendSystem), overlay)
			a.changed("context appended to the system prompt")
		}
	}
	if a.allowed("context", len(eff.Context) > 0, PointSessionStart, PointBeforeSend, PointBeforeTool, PointAfterTool, PointAfterTools, PointSubagentStart) {
		for _, m := range eff.Context {
			nm := msg{content: m.Content, role: skills.Role(m.Role), origin: OriginHook, ref: -1, req: a.r.pos.req, edit: a.ci + 1}
			switch e.Point {
			case PointSessionStart, PointBeforeSend, PointBeforeTool, PointSubagentStart:
				a.r.pendingContext = append(a.r.pendingContext, nm) // placed after the message to come
			default:
				a.t.add(nm)
			}
		}
		a.changed("%d context message(s) added to the conversation", len(eff.Context))
	}
	if a.allowed("context", len(eff.ContextBefore) > 0, PointSessionStart, PointBeforeSend, PointBeforeTool, PointAfterTool) {
		for _, m := range eff.ContextBefore {
			nm := msg{content: m.Content, role: skills.Role(m.Role), origin: OriginHook, ref: -1, req: a.r.pos.req, edit: a.ci + 1}
			if e.Point == PointAfterTool {
				if id, ok := a.r.toolMsg[e.Tool.ID]; ok {
					a.t.addAt(nm, a.t.slotBefore(id))
				}
				continue
			}
			a.r.pendingBefore = append(a.r.pendingBefore, nm) // placed before the message to come
		}
		a.changed("%d context message(s) added to the conversation", len(eff.ContextBefore))
	}
	if a.allowed("append_result", eff.AppendResult != "", PointAfterTool, PointAfterTools) {
		tc := e.Tool
		if e.Point == PointAfterTools && len(e.ToolCalls) > 0 {
			tc = &e.ToolCalls[len(e.ToolCalls)-1]
		}
		if tc != nil {
			a.appendResult(tc, eff.AppendResult)
		}
	}
	if a.allowed("preface", len(eff.Preface) > 0, PointSessionStart, PointBeforeSend) {
		for _, m := range eff.Preface {
			a.r.pendingPreface = append(a.r.pendingPreface, msg{content: m.Content, role: skills.Role(m.Role), origin: OriginHook, ref: -1, req: a.r.pos.req, edit: a.ci + 1})
		}
		a.changed("%d message(s) placed before the prompt", len(eff.Preface))
	}
	if a.allowed("only_tools", eff.OnlyTools != nil, PointBeforeLLM) {
		a.onlyTools(*eff.OnlyTools)
	}
	if a.allowed("model", eff.Model != nil, PointBeforeLLM) && *eff.Model != e.Model {
		a.changed("model %s → %s", e.Model, *eff.Model)
		e.Model = *eff.Model
	}
	if a.allowed("tools", len(eff.AddTools) > 0, PointBeforeLLM) {
		for _, tl := range eff.AddTools {
			e.Tools = append(e.Tools, tl)
			st.addTools = append(st.addTools, tl)
			a.changed("tool %s offered to the model", tl.Name)
		}
	}
	if a.allowed("assistant_output", eff.Answer != nil, PointBeforeLLM, PointAfterLLM) {
		switch {
		case e.Point == PointBeforeLLM:
			v := *eff.Answer
			st.answer, st.answerBy = &v, a.hookName()
			a.changed("answered in the model's place: the model is not asked")
		case *eff.Answer != e.Answer:
			e.Answer = *eff.Answer
			a.changed("answer replaced")
		}
	}
	if a.allowed("tool_calls", eff.ToolCalls != nil, PointAfterLLM) {
		a.rewriteCalls(*eff.ToolCalls)
	}
	if a.allowed("tool_arguments", eff.ToolArguments != nil, PointBeforeTool) && !equalJSON(eff.ToolArguments, e.Tool.Arguments) {
		if e.Tool.OriginalArguments == nil {
			e.Tool.OriginalArguments = maps.Clone(e.Tool.Arguments)
			if e.Tool.OriginalArguments == nil {
				e.Tool.OriginalArguments = map[string]any{}
			}
		}
		e.Tool.Arguments = eff.ToolArguments
		a.changed("arguments of %s rewritten", e.Tool.Name)
	}
	toolFailed := e.Tool != nil && e.Tool.Error != ""
	if eff.ToolResult != nil && e.Point == PointAfterTool && toolFailed {
		a.warnings = append(a.warnings, "tool_result has no effect after a failed tool (use tool_error); it was ignored")
	} else if a.allowed("tool_result", eff.ToolResult != nil, PointAfterTool) {
		a.rewriteTool(*eff.ToolResult, "result")
	}
	if eff.ToolError != nil && e.Point == PointAfterTool && !toolFailed {
		a.warnings = append(a.warnings, "tool_error has no effect after a successful tool (use tool_result); it was ignored")
	} else if a.allowed("tool_error", eff.ToolError != nil, PointAfterTool) {
		a.rewriteTool(*eff.ToolError, "error")
	}
	if a.allowed("respond", eff.Respond != nil, PointBeforeTool) {
		v := *eff.Respond
		st.respond, st.respondBy, st.replacedBy = &v, a.t.HookCalls[a.ci].Hook, a.ci+1
		a.changed("answered in place of %s", e.Tool.Name)
	}
	if a.allowed("approved", eff.Approved != nil, PointApproveTool) {
		v := *eff.Approved
		st.approved = &v
		if !v {
			a.deny(ToolDenied, eff.Reason)
		}
	}
	if eff.RetryFeedback != "" || len(eff.Feedback) > 0 {
		if a.allowed("retry_feedback", true, PointBeforeSend, PointBeforeLLM, PointAfterLLM, PointStop, PointSubagentStop) {
			if eff.RetryFeedback != "" {
				st.retry = append(st.retry, NewMessage{Role: string(skills.User), Content: eff.RetryFeedback})
			}
			st.retry = append(st.retry, eff.Feedback...)
			a.changed("retry with feedback")
		}
	}
	switch eff.Action {
	case ActionNone:
	case ActionStop:
		if a.allowed("action stop", true, PointBeforeSend, PointBeforeLLM, PointAfterLLM, PointBeforeTool, PointAfterTool, PointAfterTools, PointStop, PointBeforeCompact,
			PointSubagentStop) {
			st.stopped = a.hookName()
			a.outcome = OutcomeStopped
			a.changed("stopped: %s", orText(eff.Reason, "no reason given"))
		}
	case ActionSkip, ActionDeny:
		if a.allowed("action "+string(eff.Action), true, PointBeforeTool, PointApproveTool) {
			status := ToolSkipped
			if eff.Action == ActionDeny {
				status = ToolDenied
			}
			a.deny(status, eff.Reason)
		}
	case ActionHardAbort:
		st.hardAbort = a.hookName()
		a.outcome = OutcomeStopped
		a.changed("run aborted: %s", orText(eff.Reason, "no reason given"))
	default:
		a.warnings = append(a.warnings, fmt.Sprintf("unknown action %q; it was ignored", eff.Action))
	}
}

func (a *applier) hookName() string {
	hc := &a.t.HookCalls[a.ci]
	return hc.System + " hook " + hc.Hook
}

// deny marks the tool call skipped or denied; the tool does not run and
// the model reads the reason in the tool message.
func (a *applier) deny(status ToolStatus, reason string) {
	tc, st := a.e.Tool, a.e.state
	verb := "skipped"
	a.outcome = OutcomeSkipped
	if status == ToolDenied {
		verb, a.outcome = "denied", OutcomeDenied
	}
	st.skipped, st.replacedBy = a.t.HookCalls[a.ci].Hook, a.ci+1
	st.deny = orText(reason, fmt.Sprintf("Tool call %s was %s by hook %s.", tc.Name, verb, st.skipped))
	tc.Status, tc.By = status, st.skipped
	a.changed("tool %s %s", tc.Name, verb)
}

// setSystem replaces the system-prompt message (or puts one first).
func (a *applier) setSystem(content string, overlay bool) {
	if id, ok := a.r.systemID(); ok {
		a.replace(id, content, overlay)
		return
	}
	first := a.r.firstPos()
	m := msg{content: content, role: skills.System, origin: OriginSystemPrompt, req: a.r.pos.req, edit: a.ci + 1}
	a.track(a.t.addAt(m, first-1), overlay)
}

// replace puts a rewritten copy of id in its place.
func (a *applier) replace(id int32, content string, overlay bool) int32 {
	old := a.t.msgs[id]
	nm := old
	nm.content, nm.edit = content, a.ci+1
	a.takeOut(id, overlay)
	nid := a.t.addAt(nm, a.t.posOf(id))
	if overlay {
		a.r.overlayAdded = append(a.r.overlayAdded, nid)
	} else {
		if a.t.replacedBy == nil {
			a.t.replacedBy = map[int32]int32{}
		}
		a.t.replacedBy[id] = nid
	}
	return nid
}

// takeOut removes id from the list: for this call only (hidden, restored
// after the call) unless it was itself added for this call only.
func (a *applier) takeOut(id int32, overlay bool) {
	if overlay && !slices.Contains(a.r.overlayAdded, id) {
		a.t.hide(id)
		a.r.overlayHidden = append(a.r.overlayHidden, id)
		return
	}
	a.t.remove(id)
}

func (a *applier) track(id int32, overlay bool) {
	if overlay {
		a.r.overlayAdded = append(a.r.overlayAdded, id)
	}
}

func (a *applier) addHookMessage(m NewMessage, pos float64, overlay bool) int32 {
	nm := msg{content: m.Content, role: skills.Role(m.Role), origin: OriginHook, ref: -1, req: a.r.pos.req, edit: a.ci + 1}
	id := a.t.addAt(nm, pos)
	a.track(id, overlay)
	return id
}

// replaceList makes the list equal to want, keeping (by identity) every
// current message that want keeps in the same order, so the step shows
// only what really changed. It returns how many messages were added or taken out.
func (a *applier) replaceList(want []NewMessage, overlay bool) int {
	cur := a.t.MessageIDsAt(len(a.t.steps) - 1)
	keep := make([]int, len(want)) // index into cur, or -1
	k := 0
	for i, w := range want {
		keep[i] = -1
		for j := k; j < len(cur); j++ {
			m := &a.t.msgs[cur[j]]
			if string(m.role) == w.Role && m.content == w.Content {
				keep[i], k = j, j+1
				break
			}
		}
	}
	kept := map[int]bool{}
	for _, j := range keep {
		if j >= 0 {
			kept[j] = true
		}
	}
	changed := 0
	for j, id := range cur {
		if !kept[j] {
			changed++
			a.takeOut(int32(id), overlay)
		}
	}
	// New messages go between the kept neighbours they stand between.
	lo := a.r.firstPos() - 1
	for i := 0; i < len(want); {
		if keep[i] >= 0 {
			lo = a.t.posOf(int32(cur[keep[i]]))
			i++
			continue
		}
		end := i
		for end < len(want) && keep[end] < 0 {
			end++
		}
		hi := lo + 1
		if end < len(want) {
			hi = a.t.posOf(int32(cur[keep[end]]))
		} else if len(cur) > 0 {
			hi = max(lo, a.t.posOf(int32(cur[len(cur)-1]))) + 1
		}
		n := float64(end - i + 1)
		for j := i; j < end; j++ {
			a.addHookMessage(want[j], lo+(hi-lo)*float64(j-i+1)/n, overlay)
			changed++
		}
		i = end
	}
	return changed
}

// rewriteCalls puts a hook's tool calls in place of the answer's, matched
// by position: a call keeps the result scripted for the call it replaces
// (a hook cannot script one) and, when the hook gave it no id, that call's
// id. Calls the hook handed back unchanged change nothing; the step names
// each call that did change.
func (a *applier) rewriteCalls(hook []ToolCall) {
	e := a.e
	old := e.ToolCalls
	calls := make([]ToolCall, len(hook))
	var notes []string
	for i, h := range hook {
		c := ToolCall{ID: h.ID, Name: h.Name, Arguments: h.Arguments}
		if i >= len(old) {
			if c.ID == "" {
				c.ID = a.r.callID(i)
			}
			calls[i] = c
			notes = append(notes, fmt.Sprintf("tool call %d (%s) added: no result is scripted for it, the model reads an empty result", i+1, c.Name))
			continue
		}
		o := old[i]
		if c.ID == "" {
			c.ID = o.ID
		}
		var what []string
		if c.Name != o.Name {
			what = append(what, fmt.Sprintf("name %s → %s", o.Name, c.Name))
		}
		if !equalJSON(c.Arguments, o.Arguments) {
			what = append(what, "arguments "+string(must(json.Marshal(orEmpty(c.Arguments)))))
			c.OriginalArguments = maps.Clone(orEmpty(o.Arguments)) // the step shows before and after
		}
		if c.ID != o.ID {
			what = append(what, fmt.Sprintf("id %s → %s", o.ID, c.ID))
		}
		if len(what) == 0 {
			calls[i] = o
			continue
		}
		c.Result, c.Error = o.Result, o.Error
		calls[i] = c
		notes = append(notes, fmt.Sprintf("tool call %d (%s) rewritten: %s; it keeps the scripted result of the call it replaced", i+1, o.Name, strings.Join(what, ", ")))
	}
	for i := len(hook); i < len(old); i++ {
		notes = append(notes, fmt.Sprintf("tool call %d (%s) removed", i+1, old[i].Name))
	}
	if len(notes) == 0 {
		return
	}
	e.ToolCalls = calls
	e.state.toolCalls = true
	for _, n := range notes {
		a.changed("%s", n)
	}
}

// onlyTools keeps in the call's offer only the tools named; the rest are
// withheld for this call.
func (a *applier) onlyTools(names []string) {
	e, st := a.e, a.e.state
	kept := e.Tools[:0:0]
	for _, tl := range e.Tools {
		if slices.Contains(names, tl.Name) {
			kept = append(kept, tl)
			continue
		}
		st.withheld = append(st.withheld, tl.Name)
		a.changed("tool %s withheld from this call", tl.Name)
	}
	e.Tools = kept
}

// rewriteTool replaces the tool message of the event's call in place.
func (a *applier) rewriteTool(content, what string) {
	tc := a.e.Tool
	id, ok := a.r.toolMsg[tc.ID]
	if !ok {
		a.warnings = append(a.warnings, "the tool message was not found; the "+what+" was not rewritten")
		return
	}
	if a.t.msgs[id].content == content {
		return
	}
	a.r.toolMsg[tc.ID] = a.replace(id, content, false)
	if what == "result" {
		tc.Result = content
	} else {
		tc.Error = content
	}
	a.changed("tool %s of %s rewritten", what, tc.Name)
}

// appendResult appends text to the tool message of tc, after a blank line.
func (a *applier) appendResult(tc *ToolCall, text string) {
	id, ok := a.r.toolMsg[tc.ID]
	if !ok {
		a.warnings = append(a.warnings, "the tool message was not found; nothing was appended to it")
		return
	}
	a.r.toolMsg[tc.ID] = a.replace(id, joinText(a.t.msgs[id].content, text), false)
	a.changed("text appended to the result of %s", tc.Name)
}

func must(b []byte, _ error) []byte { return b }

// equalJSON compares arguments as the model's JSON: no arguments and {}
// are the same call.
func equalJSON(a, b map[string]any) bool {
	return string(must(json.Marshal(orEmpty(a)))) == string(must(json.Marshal(orEmpty(b))))
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n\n" + b
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
