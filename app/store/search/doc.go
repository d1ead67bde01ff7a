package search

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
)

// SourceDisk is the source of a transcript on disk that the history does
// not hold; the others are the history's (cli, app, live, capture, session).
const SourceDisk = "disk"

// Doc is one thing to index: a run of the history or a transcript on disk.
type Doc struct {
	// Key names it: RunKey(id) or FileKey(path).
	Key     string
	Source  string
	Run     int64  // 0: a transcript not imported
	File    string // the transcript, when it is one
	Agent   string // claude-code, codex, …; "" for a seed-000 simulation
	Version string
	Project string
	Title   string
	Started time.Time
	// Sig changes when the run or file does (Sync indexes it again).
	Sig string
	// Record is what it holds; nil: nothing to index (Note says why).
	Record *engine.Record
	Note   string
}

// RunKey is the key of run id of the history.
func RunKey(id int64) string { return fmt.Sprintf("run:%d", id) }

// FileKey is the key of a transcript not imported.
func FileKey(path string) string { return "file:" + path }

// Item kinds.
const (
	KindMessage  = "message"   // a message of a model call's list
	KindAnswer   = "answer"    // what the model answered
	KindToolCall = "tool_call" // a tool call the model asked for: its name and arguments
	KindHook     = "hook"      // an executable hook's run: its output, stderr, error
)

// Item is one distinct thing said in a doc, at its first place.
type Item struct {
	Kind   string
	Role   string
	Origin string
	// Call is the model call that received it (a message), gave it (an
	// answer, a tool call) or came next (a hook); -1: none did.
	Call int
	// Message is its message in the trace (-1: none).
	Message int
	Step    int
	Hook    string // the hook that wrote it, or ran
	Event   string // the hook's event (PreToolUse, before_llm_call, …)
	Outcome string // the hook run's outcome (blocked, error, …)
	Tool    string
	// Body is the words; Context what they are about (a tool result's
	// call, a hook's command and input).
	Body, Context string
	// Count is how often the same words stand in the doc at the same
	// hook, event and outcome.
	Count int
}

const (
	// MaxBody caps the words indexed of one item: a whole file a tool read
	// is kept, a dump of megabytes is indexed by its start.
	MaxBody = 512 << 10
	// maxInput caps a hook's input kept as its context.
	maxInput = 4 << 10
)

// Items are what a record holds to search, each distinct thing once, in
// the order of the steps.
func Items(rec *engine.Record) []Item {
	if rec == nil {
		return nil
	}
	calls := callIndex(rec)
	// the hook run that wrote each message: its step's, or its edit's
	byHook := map[int]int{}
	hookStep := make([]int, len(rec.HookCalls))
	for i := range hookStep {
		hookStep[i] = -1
	}
	for si, s := range rec.Steps {
		if s.Kind != engine.StepHookCall || s.Ref < 0 || int(s.Ref) >= len(rec.HookCalls) {
			continue
		}
		if hookStep[s.Ref] < 0 {
			hookStep[s.Ref] = si
		}
		for id := s.AddFrom; id < s.AddTo; id++ {
			byHook[int(id)] = int(s.Ref)
		}
	}
	var out []Item
	for id := range rec.Messages {
		m := &rec.Messages[id]
		if m.Origin == engine.OriginHistory || strings.TrimSpace(m.Content) == "" {
			continue // a copy carried into a later request: the first is indexed
		}
		it := Item{Kind: KindMessage, Role: string(m.Role), Origin: string(m.Origin), Message: id, Step: int(m.Created),
			Call: calls.receiving(m), Body: m.Content}
		if m.Edit > 0 && int(m.Edit) <= len(rec.HookCalls) {
			it.hookRun(&rec.HookCalls[m.Edit-1])
		} else if hc, ok := byHook[id]; ok {
			it.hookRun(&rec.HookCalls[hc])
		} else if m.Origin == engine.OriginHook && m.Ref >= 0 && int(m.Ref) < len(rec.Hooks) {
			h := &rec.Hooks[m.Ref]
			it.Hook, it.Event = h.ID(), string(h.Timing)
		}
		if m.Origin == engine.OriginTool && m.Ref >= 0 && int(m.Ref) < len(rec.ToolCalls) {
			tc := &rec.ToolCalls[m.Ref]
			it.Tool, it.Context = tc.Name, toolText(tc)
		}
		out = append(out, it)
	}
	for ci := range rec.Calls {
		c := &rec.Calls[ci]
		if strings.TrimSpace(c.Content) != "" {
			out = append(out, Item{Kind: KindAnswer, Role: "assistant", Origin: string(engine.OriginAssistant), Call: ci, Message: -1, Step: c.Step, Body: c.Content})
		}
		for ti := range c.ToolCalls {
			tc := &c.ToolCalls[ti]
			out = append(out, Item{Kind: KindToolCall, Role: "assistant", Origin: string(engine.OriginAssistant), Call: ci, Message: -1, Step: c.Step,
				Tool: tc.Name, Body: toolText(tc)})
		}
	}
	for hi := range rec.HookCalls {
		hc := &rec.HookCalls[hi]
		step := hookStep[hi]
		it := Item{Kind: KindHook, Call: -1, Message: -1, Step: step, Body: hookWords(hc), Context: hookContext(hc)}
		it.hookRun(hc)
		if step >= 0 {
			s := rec.Steps[step]
			it.Call = calls.after(int(s.Request), step)
			if s.AddTo > s.AddFrom {
				it.Message = int(s.AddFrom)
			}
		}
		out = append(out, it)
	}
	// the first place of each: by step (an answer before the message that
	// carries it into the next call's list), then as made
	sort.SliceStable(out, func(i, j int) bool { return stepOf(out[i]) < stepOf(out[j]) })
	return dedupe(out)
}

func stepOf(it Item) int {
	if it.Step < 0 {
		return int(^uint(0) >> 1)
	}
	return it.Step
}

func (it *Item) hookRun(hc *engine.HookCall) {
	it.Hook, it.Event, it.Outcome = hc.Hook, hc.Event, string(hc.Outcome)
}

// dedupe keeps the first of each (words, context, hook, event, outcome,
// tool), counting the others, and cuts each body to MaxBody.
func dedupe(items []Item) []Item {
	type key struct{ body, context, hook, event, outcome, tool string }
	seen := make(map[key]int, len(items))
	out := items[:0]
	for _, it := range items {
		k := key{it.Body, it.Context, it.Hook, it.Event, it.Outcome, it.Tool}
		if i, ok := seen[k]; ok {
			out[i].Count++
			continue
		}
		seen[k] = len(out)
		it.Count = 1
		out = append(out, it)
	}
	for i := range out {
		out[i].Body = clean(cut(out[i].Body, MaxBody))
		out[i].Context = clean(out[i].Context)
	}
	return slices.Clip(out)
}

// calls finds a message's model calls by request and step.
type calls struct {
	byReq map[int][][2]int // request → (step, call) by step
}

func callIndex(rec *engine.Record) calls {
	c := calls{byReq: map[int][][2]int{}}
	for i := range rec.Calls {
		r := rec.Calls[i].Request
		c.byReq[r] = append(c.byReq[r], [2]int{rec.Calls[i].Step, i})
	}
	for _, l := range c.byReq {
		slices.SortFunc(l, func(a, b [2]int) int { return a[0] - b[0] })
	}
	return c
}

// receiving is the first call of the message's request whose list holds
// it: at or after the step that made it, before the one that removed it.
func (c calls) receiving(m *engine.MessageRecord) int {
	l := c.byReq[int(m.Request)]
	i, _ := slices.BinarySearchFunc(l, int(m.Created), func(e [2]int, step int) int { return e[0] - step })
	if i == len(l) || (m.Removed >= 0 && int(m.Removed) <= l[i][0]) {
		return -1
	}
	return l[i][1]
}

// after is the first call of the request after step.
func (c calls) after(req, step int) int {
	l := c.byReq[req]
	i, _ := slices.BinarySearchFunc(l, step+1, func(e [2]int, s int) int { return e[0] - s })
	if i == len(l) {
		return -1
	}
	return l[i][1]
}

// toolText is a tool call as words: its name and arguments.
func toolText(tc *engine.ToolCall) string {
	if len(tc.Arguments) == 0 {
		return tc.Name
	}
	args, err := json.Marshal(tc.Arguments)
	if err != nil {
		return tc.Name
	}
	return tc.Name + " " + string(args)
}

// hookWords is what a hook said: its output, stderr and why it failed.
func hookWords(hc *engine.HookCall) string {
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	add(hc.OutputText)
	if len(hc.Output) > 0 && string(hc.Output) != "null" {
		add(string(hc.Output))
	}
	add(hc.Stderr)
	add(hc.Error)
	add(hc.RPCError)
	add(hc.Notice)
	return strings.Join(parts, "\n")
}

// hookContext is what a hook ran on: its command, event and input.
func hookContext(hc *engine.HookCall) string {
	s := hc.Hook + " " + hc.Event
	if len(hc.Input) > 0 {
		s += "\n" + cut(string(hc.Input), maxInput)
	}
	return s
}

// cut keeps at most n bytes of s, ending on a whole rune.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// clean drops the two bytes snippets are marked with, so that a text
// holding them cannot fake a highlight.
func clean(s string) string {
	if !strings.ContainsAny(s, markOpen+markClose) {
		return s
	}
	return strings.NewReplacer(markOpen, "", markClose, "").Replace(s)
}
