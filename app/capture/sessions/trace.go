package sessions

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/skills"
)

// entry is one message the agent sent (a message of a recorded request, or
// a transcript record a rebuilt request is made of): its messages as a
// capture normalises them and, while it is in its conversation's list,
// their ids there.
type entry struct {
	msgs []capture.Message
	// hook is the hook whose words the entry's hook messages are, when the
	// entry is the hook's own record (a rebuilt request); else they are
	// matched to the hooks that fired by their event and text.
	hook *hookRun
	conv *conversation
	ids  []int32 // nil while not in the list
}

// hookRun is one hook invocation the transcript tells of.
type hookRun struct {
	call engine.HookCall
	// label is the agent's name for it ("PostToolUse:Bash").
	label string
	// command is the handler's command line ("": not recorded).
	command string
	// texts are its own words that the agent put before the model
	// (additional context, a block's reason): how its messages are found.
	texts     []string
	toolUseID string
	index     int32 // in builder.hooks
	conv      *conversation
	added     []string // what it put in the list, in words
}

// conversation is one message list the agent kept: the main one, a side
// request (a title, a compaction) or a subagent's. Each is a request of
// the trace; its messages, steps and calls are numbered locally and placed
// after the conversations before it when the record is made.
type conversation struct {
	key     string
	msgs    []engine.MessageRecord
	steps   []engine.StepRecord
	removed []int32
	calls   []engine.LLMCall
	live    []*entry
	pending []*hookRun
	user    string
	reply   string
}

// builder turns what an import reads into a trace, call by call: only what
// is new in a call's list is added, so a session's cost grows with what
// the agent sent, never with calls × list length.
type builder struct {
	system    string // the hooks' system: the agent ("claude-code", "codex")
	convs     []*conversation
	byKey     map[string]*conversation
	hooks     []*hookRun
	toolCalls []engine.ToolCall
	toolByID  map[string]int32
}

func newBuilder() *builder {
	return &builder{byKey: map[string]*conversation{}, toolByID: map[string]int32{}}
}

// conv is the conversation named key, made on first use.
func (b *builder) conv(key string) *conversation {
	if cv, ok := b.byKey[key]; ok {
		return cv
	}
	cv := &conversation{key: key}
	b.convs = append(b.convs, cv)
	b.byKey[key] = cv
	return cv
}

// fire records a hook invocation in cv; its step is placed before the next
// call (with the messages it added there), or at the end.
func (b *builder) fire(cv *conversation, h *hookRun) *hookRun {
	h.index, h.conv = int32(len(b.hooks)), cv
	if h.call.System == "" {
		h.call.System = b.system
	}
	b.hooks = append(b.hooks, h)
	cv.pending = append(cv.pending, h)
	return h
}

// call adds a model call whose request is list: hook steps for the hooks
// that fired since the previous call (each adding the messages that are
// its words), a step adding the rest of what is new and removing what the
// request no longer holds, and the call. It returns the call's local index.
func (b *builder) call(cv *conversation, list []*entry, model string) int {
	// what stays: the start the list shares with the one the previous call sent
	same := 0
	for same < len(cv.live) && same < len(list) && cv.live[same] == list[same] && list[same].ids != nil {
		same++
	}
	gone := cv.live[same:]
	var toRemove []int32
	for _, e := range gone {
		toRemove = append(toRemove, e.ids...)
		e.ids = nil
	}
	// who wrote each new message: a hook (by its record, or by its event
	// and words), else the agent
	type placed struct {
		e    *entry
		k    int
		hook *hookRun
	}

	var news []*placed
	fresh := slices.Clone(list[same:])
	for i, e := range fresh {
		if e.ids != nil || (e.conv != nil && e.conv != cv) {
			// a message of another list, or twice in this one: its own copy here
			e = &entry{msgs: e.msgs, hook: e.hook}
			fresh[i] = e
		}
		e.conv, e.ids = cv, make([]int32, len(e.msgs))
		for k, m := range e.msgs {
			p := &placed{e: e, k: k}
			if m.Origin == capture.OriginHook {
				if p.hook = e.hook; p.hook == nil || !sameLabel(p.hook.label, m.Hook) {
					p.hook = b.match(cv, m)
				}
			}
			news = append(news, p)
		}
	}
	for _, p := range news {
		if m := p.e.msgs[p.k]; m.Role == "assistant" {
			b.toolsOf(m)
		}
	}
	round := int32(len(cv.calls))
	// The steps in the order of the list they build, so every message is
	// made in its place: the removals with the agent's first additions,
	// then each run of messages by their author — a hook's step adding its
	// words where they are, the agent's additions between them. A hook
	// that fired and said nothing the model read has no place in the list:
	// its step goes where it fired, before the first speaking hook the
	// agent recorded after it.
	said := map[*hookRun]bool{}
	for _, p := range news {
		if p.hook != nil {
			said[p.hook] = true
		}
	}
	var silent []*hookRun
	for _, h := range cv.pending {
		if !said[h] {
			silent = append(silent, h)
		}
	}
	cv.pending = nil
	silentBefore := func(index int32) {
		for len(silent) > 0 && silent[0].index < index {
			cv.steps = append(cv.steps, b.hookStep(cv, silent[0], round, int32(len(cv.msgs))))
			silent = silent[1:]
		}
	}
	first := int32(math.MaxInt32)
	for _, p := range news {
		if p.hook != nil {
			first = p.hook.index
			break
		}
	}
	// the silent hooks that fired before the list's first hook words come
	// before the agent's first additions, as they did
	silentBefore(first)
	st, from, remFrom := int32(len(cv.steps)), int32(len(cv.msgs)), int32(len(cv.removed))
	for _, id := range toRemove {
		cv.msgs[id].Removed = st
	}
	cv.removed = append(cv.removed, toRemove...)
	build := func(st, from, remFrom int32) {
		cv.steps = append(cv.steps, engine.StepRecord{Kind: engine.StepBuildMessages, Phase: engine.PhaseAgent, Round: round, Ref: -1,
			AddFrom: from, AddTo: int32(len(cv.msgs)), RemFrom: remFrom, RemTo: int32(len(cv.removed))})
	}
	i := 0
	for i < len(news) && news[i].hook == nil {
		news[i].e.ids[news[i].k] = b.message(cv, news[i].e.msgs[news[i].k], st, nil)
		i++
	}
	build(st, from, remFrom)
	for i < len(news) {
		h := news[i].hook
		if h != nil {
			silentBefore(h.index) // the silent hooks that fired before it
		}
		st, from = int32(len(cv.steps)), int32(len(cv.msgs))
		for ; i < len(news) && news[i].hook == h; i++ {
			news[i].e.ids[news[i].k] = b.message(cv, news[i].e.msgs[news[i].k], st, h)
		}
		if h != nil {
			cv.steps = append(cv.steps, b.hookStep(cv, h, round, from))
		} else {
			build(st, from, int32(len(cv.removed)))
		}
	}
	silentBefore(math.MaxInt32)
	cv.live = append(cv.live[:same:same], fresh...)
	k := len(cv.calls)
	r := int(round)
	cv.calls = append(cv.calls, engine.LLMCall{Phase: engine.PhaseAgent, Round: &r, Step: len(cv.steps), Model: model})
	end := int32(len(cv.msgs))
	rem := int32(len(cv.removed))
	cv.steps = append(cv.steps, engine.StepRecord{Kind: engine.StepLLMCall, Phase: engine.PhaseAgent, Round: round, Ref: int32(k),
		AddFrom: end, AddTo: end, RemFrom: rem, RemTo: rem})
	for _, p := range news {
		if m := p.e.msgs[p.k]; cv.user == "" && m.Origin == capture.OriginUser {
			cv.user = m.Content
		}
	}
	return k
}

// answer fills in call k's answer (the agent records it after the request).
func (b *builder) answer(cv *conversation, k int, content string, calls []capture.ToolCall, errText string) {
	c := &cv.calls[k]
	if errText != "" {
		c.Error = errText
		return
	}
	if content != "" {
		if c.Content != "" {
			c.Content += "\n"
		}
		c.Content += content
	}
	for _, tc := range calls {
		c.ToolCalls = append(c.ToolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
	}
	cv.reply = c.Content
}

// reanswer clears call k's answer: the agent wrote it again, whole.
func (b *builder) reanswer(cv *conversation, k int) {
	c := &cv.calls[k]
	c.Content, c.ToolCalls, c.Error = "", nil, ""
}

// match is the hook whose words m is: a hook that fired since the last
// call, of m's event, whose text m holds; else a hook made for it from its
// wording alone (the agent recorded no more of it).
func (b *builder) match(cv *conversation, m capture.Message) *hookRun {
	for _, h := range cv.pending {
		if !sameLabel(h.label, m.Hook) {
			continue
		}
		for _, t := range h.texts {
			if t != "" && strings.Contains(m.Content, t) {
				return h
			}
		}
	}
	return b.fire(cv, hookFromText(m))
}

// sameLabel says whether two hook labels name the same event (one may
// leave out what the matcher saw: "PostToolUse" and "PostToolUse:Bash").
func sameLabel(a, b string) bool {
	ea, ma, _ := strings.Cut(a, ":")
	eb, mb, _ := strings.Cut(b, ":")
	return ea == eb && (ma == mb || ma == "" || mb == "")
}

// message adds m to cv's table, created at step st, written by hook h (nil:
// the agent).
func (b *builder) message(cv *conversation, m capture.Message, st int32, h *hookRun) int32 {
	mr := engine.MessageRecord{Content: m.Content, Role: skills.Role(m.Role), Created: st, Removed: -1, Ref: -1}
	switch {
	case m.Role == "tool":
		mr.Origin, mr.Ref = engine.OriginTool, b.tool(m.ToolCallID)
		tc := &b.toolCalls[mr.Ref]
		tc.Result = m.Content
		if m.IsError {
			tc.Error = m.Content
		}
		if h != nil {
			// a hook's words in the tool's place (a block's reason)
			mr.Edit = h.index + 1
			tc.Status, tc.By = engine.ToolDenied, h.call.Hook
			h.added = append(h.added, fmt.Sprintf("wrote %s's result (the tool did not run)", tc.Name))
		}
	case h != nil:
		mr.Origin, mr.Edit = engine.OriginHook, h.index+1
		h.added = append(h.added, fmt.Sprintf("added a %s message before the model", m.Role))
	case m.Role == "system":
		mr.Origin = engine.OriginSystemPrompt
	case m.Role == "assistant":
		mr.Origin, mr.Ref, mr.N = engine.OriginAssistant, b.toolsOf(m), int32(len(m.ToolCalls))
	default:
		mr.Origin = engine.OriginUserInput
	}
	cv.msgs = append(cv.msgs, mr)
	return int32(len(cv.msgs) - 1)
}

// toolsOf lists an answer's tool calls once (an answer's calls are listed
// before its results, which a hook's step may place first) and returns
// the first's index.
func (b *builder) toolsOf(m capture.Message) int32 {
	if len(m.ToolCalls) == 0 {
		return int32(len(b.toolCalls))
	}
	if i, ok := b.toolByID[m.ToolCalls[0].ID]; ok && m.ToolCalls[0].ID != "" && int(i)+len(m.ToolCalls) <= len(b.toolCalls) &&
		b.toolCalls[i].Name == m.ToolCalls[0].Name {
		return i
	}
	first := int32(len(b.toolCalls))
	for _, tc := range m.ToolCalls {
		b.toolByID[tc.ID] = int32(len(b.toolCalls))
		b.toolCalls = append(b.toolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
	}
	return first
}

// tool is the tool call a result answers (one is made for a result whose
// call the transcript does not hold).
func (b *builder) tool(id string) int32 {
	if i, ok := b.toolByID[id]; ok {
		return i
	}
	b.toolCalls = append(b.toolCalls, engine.ToolCall{ID: id, Name: "(unseen call)"})
	b.toolByID[id] = int32(len(b.toolCalls) - 1)
	return b.toolByID[id]
}

// hookStep is h's step, its messages [from, now).
func (b *builder) hookStep(cv *conversation, h *hookRun, round, from int32) engine.StepRecord {
	rem := int32(len(cv.removed))
	return engine.StepRecord{Kind: engine.StepHookCall, Phase: engine.PhaseAgent, Round: round, Ref: h.index,
		AddFrom: from, AddTo: int32(len(cv.msgs)), RemFrom: rem, RemTo: rem}
}

// hookCall is h's invocation as the trace shows it: with what it added.
func hookCall(h *hookRun) engine.HookCall {
	c := h.call
	c.Changes = append(slices.Clone(c.Changes), h.added...)
	if len(h.added) > 0 && (c.Outcome == engine.OutcomeOK || c.Outcome == "") {
		c.Outcome = engine.OutcomeModified
	}
	if c.Outcome == "" {
		c.Outcome = engine.OutcomeOK
	}
	return c
}

// firstCalls is where each conversation's calls start in the trace.
func (b *builder) firstCalls() map[*conversation]int {
	out := make(map[*conversation]int, len(b.convs))
	n := 0
	for _, cv := range b.convs {
		out[cv] = n
		n += len(cv.calls)
	}
	return out
}

// record is the trace of everything read so far, conversation after
// conversation (each a request), as a simulation runs requests. It copies
// what the import goes on changing, so the record stays as it is.
func (b *builder) record(name string) engine.Record {
	rec := engine.Record{Scenario: name, Status: engine.StatusOK, Hooks: []skills.Hook{}, Requests: []engine.RequestInfo{},
		Calls: []engine.LLMCall{}, Messages: []engine.MessageRecord{}, Steps: []engine.StepRecord{}, RemovedIDs: []int32{},
		ToolCalls: slices.Clone(b.toolCalls)}
	if rec.ToolCalls == nil {
		rec.ToolCalls = []engine.ToolCall{}
	}
	for _, h := range b.hooks {
		rec.HookCalls = append(rec.HookCalls, hookCall(h))
	}
	for _, cv := range b.convs {
		if len(cv.steps) == 0 && len(cv.pending) == 0 {
			continue
		}
		req := int32(len(rec.Requests))
		msgOff, stepOff, remOff, callOff := int32(len(rec.Messages)), int32(len(rec.Steps)), int32(len(rec.RemovedIDs)), len(rec.Calls)
		info := engine.RequestInfo{Index: int(req), User: cv.user, Reply: cv.reply, EnabledSkills: []string{}, Calls: []int{}, Yielded: []string{},
			FirstStep: int(stepOff)}
		for _, m := range cv.msgs {
			m.Request, m.Created = req, m.Created+stepOff
			if m.Removed >= 0 {
				m.Removed += stepOff
			}
			rec.Messages = append(rec.Messages, m)
		}
		for _, id := range cv.removed {
			rec.RemovedIDs = append(rec.RemovedIDs, id+msgOff)
		}
		for _, st := range cv.steps {
			st.Request = req
			st.AddFrom, st.AddTo, st.RemFrom, st.RemTo = st.AddFrom+msgOff, st.AddTo+msgOff, st.RemFrom+remOff, st.RemTo+remOff
			if st.Kind == engine.StepLLMCall {
				st.Ref += int32(callOff)
			}
			rec.Steps = append(rec.Steps, st)
		}
		for k, c := range cv.calls {
			c.Index, c.Request, c.Step = callOff+k, int(req), c.Step+int(stepOff)
			c.ToolCalls = slices.Clone(c.ToolCalls)
			rec.Calls = append(rec.Calls, c)
			info.Calls = append(info.Calls, c.Index)
		}
		// hooks that fired after the last call: steps at the end
		round := int32(max(len(cv.calls)-1, 0))
		end, rem := int32(len(rec.Messages)), int32(len(rec.RemovedIDs))
		for _, h := range cv.pending {
			rec.Steps = append(rec.Steps, engine.StepRecord{Kind: engine.StepHookCall, Phase: engine.PhaseAgent, Request: req, Round: round,
				Ref: h.index, AddFrom: end, AddTo: end, RemFrom: rem, RemTo: rem})
		}
		info.LastStep = len(rec.Steps) - 1
		rec.Requests = append(rec.Requests, info)
	}
	return rec
}

func arguments(raw json.RawMessage) map[string]any {
	var m map[string]any
	if len(raw) == 0 {
		return map[string]any{}
	}
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return map[string]any{"raw": string(raw)}
	}
	return m
}
