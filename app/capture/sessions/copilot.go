package sessions

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
)

// copilotEvent is one line of a Copilot CLI session's events
// (~/.copilot/session-state/<session>/events.jsonl).
type copilotEvent struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
}

// copilotData are the fields of the events read.
type copilotData struct {
	// session.start
	SessionID      string `json:"sessionId"`
	CopilotVersion string `json:"copilotVersion"`
	StartTime      string `json:"startTime"`
	SelectedModel  string `json:"selectedModel"`
	Context        struct {
		Cwd string `json:"cwd"`
	} `json:"context"`
	NewModel string `json:"newModel"`
	// user.message, system.message, assistant.message
	Content            string `json:"content"`
	TransformedContent string `json:"transformedContent"`
	Role               string `json:"role"`
	Model              string `json:"model"`
	ToolRequests       []struct {
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	} `json:"toolRequests"`
	// tool.execution_complete
	ToolCallID string `json:"toolCallId"`
	Success    *bool  `json:"success"`
	Result     *struct {
		Content string `json:"content"`
	} `json:"result"`
	Error json.RawMessage `json:"error"`
	// hook.start, hook.end
	HookInvocationID string          `json:"hookInvocationId"`
	HookType         string          `json:"hookType"`
	Input            json.RawMessage `json:"input"`
	Output           json.RawMessage `json:"output"`
	// an event of a sub-agent's run
	ParentToolCallID string `json:"parentToolCallId"`
	// session.compaction_complete, session.truncation
	MessagesRemoved   int `json:"messagesRemoved"`
	MessagesTruncated int `json:"messagesRemovedDuringTruncation"`
}

// copilotQuiet are the event types that carry nothing the model read.
var copilotQuiet = map[string]bool{
	"session.start": true, "session.resume": true, "session.shutdown": true, "session.usage_record": true, "session.usage_info": true,
	"session.usage_checkpoint": true, "session.info": true, "session.warning": true, "session.error": true, "session.idle": true,
	"session.title_changed": true, "session.todos_changed": true, "session.mode_changed": true, "session.plan_changed": true,
	"session.workspace_file_changed": true, "session.skills_loaded": true, "session.tools_updated": true, "session.model_change": true,
	"session.context_changed": true, "session.compaction_start": true, "session.mcp_servers_loaded": true, "session.mcp_server_status_changed": true,
	"session.mcp_server_tools_loaded": true, "session.extensions_loaded": true, "session.custom_agents_updated": true, "session.background_tasks_changed": true,
	"assistant.turn_start": true, "assistant.turn_end": true, "assistant.usage": true, "assistant.intent": true, "assistant.idle": true,
	"assistant.reasoning": true, "assistant.message_start": true, "assistant.message_delta": true, "assistant.reasoning_delta": true,
	"assistant.streaming_delta": true, "assistant.tool_call_delta": true, "assistant.turn_retry": true,
	"tool.execution_start": true, "tool.execution_progress": true, "tool.execution_partial_result": true, "tool.shell_output": true,
	"hook.progress": true, "permission.requested": true, "permission.completed": true, "abort": true,
}

// copilotReader reads a Copilot CLI session's events. Copilot CLI records
// its system prompt, each prompt as it sent it, the model's answers, the
// tools' results as the model read them, and each hook's run (its event,
// input and output) — not its requests: each call's messages are rebuilt
// from the events before its answer, as Copilot CLI sends Chat
// Completions, read as a capture reads them; what a hook added that no
// event holds (sessionStart's context) is worded by the version's
// rendering profile.
type copilotReader struct {
	im     *Importer
	b      *builder
	cv     *conversation
	system *entry
	list   []*entry
	hooks  map[string]*copilotHook // running, by invocation id
	last   string                  // the tool called last
}

type copilotHook struct {
	run     *hookRun
	started time.Time
	calls   []string // the tool calls it is for
}

func newCopilotReader(im *Importer) *copilotReader {
	r := &copilotReader{im: im, b: im.b, hooks: map[string]*copilotHook{}}
	r.cv = r.b.conv("main")
	return r
}

func (r *copilotReader) line(n int, raw []byte) {
	var ev copilotEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		r.im.note(n, NoteNotJSON, notJSON(err))
		return
	}
	var d copilotData
	if err := json.Unmarshal(ev.Data, &d); err != nil && len(ev.Data) > 0 {
		r.im.unknown.add(firstOf(ev.Type, "(no type)"), n, raw)
		return
	}
	s := &r.im.sess
	widen(&s.Started, &s.Ended, ev.Timestamp)
	if d.ParentToolCallID != "" {
		// a sub-agent's run: its own list, which the events do not keep apart
		r.im.unknown.add("sub-agent/"+ev.Type, n, raw)
		return
	}
	switch ev.Type {
	case "session.start", "session.resume":
		s.ID, s.Project, s.Version = firstOf(s.ID, d.SessionID), firstOf(s.Project, d.Context.Cwd), firstOf(s.Version, d.CopilotVersion)
		s.Model = firstOf(s.Model, d.SelectedModel)
		widen(&s.Started, &s.Ended, d.StartTime)
	case "session.model_change":
		s.Model = firstOf(d.NewModel, s.Model)
	case "system.message":
		r.system = &entry{msgs: r.read(map[string]any{"role": "system", "content": d.Content})}
	case "user.message":
		e := &entry{msgs: r.read(map[string]any{"role": "user", "content": firstOf(d.TransformedContent, d.Content)})}
		r.list = append(r.list, e)
		s.Turns++
		if s.Prompt == "" {
			s.Prompt = cutRunes(d.Content, PromptMax)
		}
	case "assistant.message":
		r.answer(n, &d)
	case "tool.execution_complete":
		text := ""
		if d.Result != nil && (d.Success == nil || *d.Success) {
			text = d.Result.Content
		} else {
			text = copilotError(d.Error)
		}
		r.list = append(r.list, &entry{msgs: r.read(map[string]any{"role": "tool", "tool_call_id": d.ToolCallID, "content": text})})
	case "hook.start":
		r.hookStart(n, &d, ev.Timestamp)
	case "hook.end":
		r.hookEnd(&d, ev.Timestamp)
	case "session.compaction_complete":
		if d.MessagesRemoved > 0 {
			r.im.note(n, NoteRebuilt, fmt.Sprintf("Copilot CLI compacted its list here (%d messages replaced by a summary): the calls after it are rebuilt with them", d.MessagesRemoved))
		}
	case "session.truncation":
		if d.MessagesTruncated > 0 {
			r.im.note(n, NoteRebuilt, fmt.Sprintf("Copilot CLI dropped %d messages of its list here: the calls after it are rebuilt with them", d.MessagesTruncated))
		}
	default:
		if !copilotQuiet[ev.Type] {
			r.im.unknown.add(firstOf(ev.Type, "(no type)"), n, raw)
		}
	}
}

// read is a Chat Completions message as a capture of Copilot CLI's request
// reads it.
func (r *copilotReader) read(m map[string]any) []capture.Message {
	raw, _ := json.Marshal(m)
	var out []capture.Message
	for _, cm := range capture.ChatMessage(raw) {
		out = append(out, r.im.agents.Message(string(CopilotCLI), cm, func() string { return r.last })...)
	}
	detach(out)
	return out
}

// answer is a model call whose list is the system prompt and everything
// before its answer.
func (r *copilotReader) answer(n int, d *copilotData) {
	s := &r.im.sess
	if len(s.Calls) == 0 {
		r.im.note(0, NoteRebuilt, "requests rebuilt from the session's events (Copilot CLI records its system prompt, prompts, answers, tools' results and hooks' runs, "+
			"not its requests): the tools and the parameters are not known, nor a preToolUse hook's context (its event does not keep that output)")
	}
	list := make([]*entry, 0, len(r.list)+1)
	if r.system != nil {
		list = append(list, r.system)
	}
	list = append(list, r.list...)
	model := firstOf(d.Model, s.Model)
	k := r.b.call(r.cv, list, model)
	s.Calls = append(s.Calls, CallInfo{Line: n, Model: model, Tools: []string{}, conv: r.cv, k: k})
	var calls []map[string]any
	for _, tr := range d.ToolRequests {
		args, _ := json.Marshal(json.RawMessage(orNull(tr.Arguments)))
		calls = append(calls, map[string]any{"id": tr.ToolCallID, "type": "function", "function": map[string]string{"name": tr.Name, "arguments": string(args)}})
		r.last = tr.Name
	}
	m := map[string]any{"role": "assistant", "content": d.Content}
	if len(calls) > 0 {
		m["tool_calls"] = calls
	}
	e := &entry{msgs: r.read(m)}
	r.list = append(r.list, e)
	for _, x := range e.msgs {
		r.b.answer(r.cv, k, x.Content, x.ToolCalls, "")
	}
}

// copilotError is a failed tool's error as the model reads it.
func copilotError(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(raw, &o)
	return o.Message
}

// copilotInput is what a hook's input names: the tool and its calls.
type copilotInput struct {
	ToolName  string `json:"toolName"`
	ToolCalls []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"toolCalls"`
}

func (r *copilotReader) hookStart(n int, d *copilotData, ts string) {
	var in copilotInput
	_ = json.Unmarshal(d.Input, &in)
	label := d.HookType
	tool := in.ToolName
	h := &copilotHook{}
	for _, tc := range in.ToolCalls {
		tool = firstOf(tool, tc.Name)
		h.calls = append(h.calls, tc.ID)
	}
	if tool != "" {
		label += ":" + tool
	}
	h.run = newHookRun(d.HookType, label, "", n)
	h.run.call.Input = bytesOrNil(d.Input)
	h.run.call.Outcome = engine.OutcomeOK
	h.run.call.Warnings = []string{"Copilot CLI records a hook's event, input and output, not its command or exit code"}
	h.started, _ = time.Parse(time.RFC3339Nano, ts)
	r.b.fire(r.cv, h.run)
	r.hooks[d.HookInvocationID] = h
}

func (r *copilotReader) hookEnd(d *copilotData, ts string) {
	h := r.hooks[d.HookInvocationID]
	if h == nil {
		return
	}
	delete(r.hooks, d.HookInvocationID)
	c := &h.run.call
	if end, err := time.Parse(time.RFC3339Nano, ts); err == nil && !h.started.IsZero() {
		c.DurationMS = float64(end.Sub(h.started).Microseconds()) / 1000
	}
	c.Output = bytesOrNil(d.Output)
	if d.Success != nil && !*d.Success {
		c.Outcome, c.Error = engine.OutcomeError, firstOf(copilotError(d.Error), string(d.Error), "it failed")
		return
	}
	var out struct {
		AdditionalContext  string `json:"additionalContext"`
		Decision           string `json:"decision"`
		Reason             string `json:"reason"`
		PermissionDecision string `json:"permissionDecision"`
		PermissionReason   string `json:"permissionDecisionReason"`
	}
	_ = json.Unmarshal(d.Output, &out)
	switch {
	case out.Decision == "block" || out.Decision == "deny":
		c.Outcome = engine.OutcomeBlocked
		h.run.texts = append(h.run.texts, out.Reason)
	case out.PermissionDecision == "deny":
		c.Outcome = engine.OutcomeDenied
		h.run.texts = append(h.run.texts, out.PermissionReason)
	}
	// a preToolUse's denial: the words the tool's result is, by call id
	var denied map[string]json.RawMessage
	if json.Unmarshal(d.Output, &denied) == nil {
		ids := make([]string, 0, len(denied))
		for id := range denied {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			var text string
			if slices.Contains(h.calls, id) && json.Unmarshal(denied[id], &text) == nil && text != "" {
				c.Outcome = engine.OutcomeDenied
				h.run.texts = append(h.run.texts, text)
			}
		}
	}
	if out.AdditionalContext == "" {
		return
	}
	h.run.texts = append(h.run.texts, out.AdditionalContext)
	if len(h.calls) > 0 {
		return // a tool hook's context: in the result the event holds (a preToolUse's is not recorded)
	}
	// what no event holds (sessionStart's context): worded by the profile, where the hook ran
	for _, rd := range r.im.renderings().Hook(OutputAdditionalContext, h.run.label, out.AdditionalContext, "") {
		r.list = append(r.list, &entry{hook: h.run, msgs: []capture.Message{{Role: rd.Role, Content: rd.Content, Origin: capture.OriginHook, Hook: h.run.label}}})
	}
}

func bytesOrNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return append(json.RawMessage(nil), raw...)
}

// copilotType says whether t is a Copilot CLI event's type
// ("session.start", "tool.execution_complete").
func copilotType(t string) bool {
	kind, _, ok := strings.Cut(t, ".")
	return ok && kind != ""
}

func (sc *summarizer) copilot(line []byte) {
	var ev copilotEvent
	if json.Unmarshal(line, &ev) != nil {
		return
	}
	var d copilotData
	if json.Unmarshal(ev.Data, &d) != nil || d.ParentToolCallID != "" {
		return
	}
	s := sc.s
	sc.times(ev.Timestamp)
	switch ev.Type {
	case "session.start", "session.resume":
		s.ID, s.Project, s.Version = firstOf(s.ID, d.SessionID), firstOf(s.Project, d.Context.Cwd), firstOf(s.Version, d.CopilotVersion)
		s.Model = firstOf(s.Model, d.SelectedModel)
		sc.times(d.StartTime)
	case "user.message":
		s.Turns++ // a prompt of attachments only is a turn too, as the import counts it
		if s.Prompt == "" {
			s.Prompt = cutRunes(d.Content, PromptMax)
		}
	case "assistant.message":
		sc.answer(ev.ID, d.Model)
	case "hook.start":
		sc.hook(d.HookType)
	}
}
