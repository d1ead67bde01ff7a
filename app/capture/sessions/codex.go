package sessions

import (
	"encoding/json"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
)

// codexRecord is one line of a Codex rollout.
type codexRecord struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

// codexItem is a response item: what Codex sends the model as input and
// what the model answered, in the Responses API's shape.
type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Meta      *struct {
		Kinds []string `json:"content_item_kinds"`
	} `json:"internal_chat_message_metadata_passthrough"`
}

type codexPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// Rollout record types that carry nothing the model read.
var codexBookkeeping = map[string]bool{"world_state": true, "compacted": true}

// codexReader reads a Codex rollout. Codex does not record its requests:
// each model call's input is rebuilt from the items before its answer.
// Nor does it record its hooks' runs, only what they gave the model: a
// developer message marked as a hook's context (its event told by where it
// stands, as Codex's profile places it), a Stop hook's prompt and a
// PreToolUse block's tool result (told by the profile's wording).
type codexReader struct {
	im   *Importer
	b    *builder
	cv   *conversation
	list []*entry
	// the call the model is answering (-1: none; the next answer item starts one)
	call   int
	turnAt int // where the current turn's prompt is in list (-1: none yet)
}

func newCodexReader(im *Importer) *codexReader {
	r := &codexReader{im: im, b: im.b, call: -1, turnAt: -1}
	r.cv = r.b.conv("main")
	return r
}

func (r *codexReader) line(n int, data []byte) {
	var rec codexRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		r.im.note(n, NoteNotJSON, notJSON(err))
		return
	}
	s := &r.im.sess
	widen(&s.Started, &s.Ended, rec.Timestamp)
	switch rec.Type {
	case "session_meta":
		var m struct {
			ID           string `json:"id"`
			Cwd          string `json:"cwd"`
			CLIVersion   string `json:"cli_version"`
			Instructions *struct {
				Text string `json:"text"`
			} `json:"base_instructions"`
		}
		_ = json.Unmarshal(rec.Payload, &m)
		s.ID, s.Project, s.Version = firstOf(s.ID, m.ID), firstOf(s.Project, m.Cwd), firstOf(s.Version, m.CLIVersion)
		if m.Instructions != nil && m.Instructions.Text != "" && len(r.list) == 0 {
			// the request's instructions
			r.list = append(r.list, &entry{msgs: []capture.Message{{Role: "system", Content: m.Instructions.Text, Origin: capture.OriginSystem}}})
		}
	case "turn_context":
		var tc struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(rec.Payload, &tc)
		if tc.Model != "" {
			s.Model = tc.Model
		}
	case "response_item":
		var it codexItem
		if err := json.Unmarshal(rec.Payload, &it); err != nil {
			r.im.unknown.add("response_item", n, data)
			return
		}
		r.item(n, &it, rec.Payload, data)
	case "event_msg", "token_usage_record":
		// what Codex showed its user and counted; the model's input is in the response items
	default:
		if !codexBookkeeping[rec.Type] {
			r.im.unknown.add(rec.Type, n, data)
		}
	}
}

// fromModel says whether an item is the model's answer (else it is input).
func fromModel(it *codexItem) bool {
	switch it.Type {
	case "message":
		return it.Role == "assistant"
	case "reasoning", "function_call", "custom_tool_call", "local_shell_call", "web_search_call":
		return true
	}
	return false
}

func (r *codexReader) item(n int, it *codexItem, payload, data []byte) {
	if fromModel(it) {
		r.answer(n, it, payload)
		return
	}
	r.call = -1 // input after an answer: the next answer is a new call
	var kinds []string
	if it.Meta != nil {
		kinds = it.Meta.Kinds
	}
	e := &entry{}
	switch it.Type {
	case "message":
		for _, text := range codexParts(it.Content) {
			switch {
			case slices.Contains(kinds, "hooks.additional_context"):
				h := r.hook(n, r.where())
				h.texts = []string{text}
				e.hook = h
				e.msgs = append(e.msgs, capture.Message{Role: "system", Content: text, Origin: capture.OriginHook, Hook: h.label})
			case it.Role == "developer" || it.Role == "system":
				e.msgs = append(e.msgs, capture.Message{Role: "system", Content: text, Origin: capture.OriginContext})
			case slices.Contains(kinds, "user.text"):
				e.msgs = append(e.msgs, capture.Message{Role: "user", Content: text, Origin: capture.OriginUser})
				if r.turnAt < 0 || r.answered() {
					r.turnAt = len(r.list)
					r.im.sess.Turns++
					if r.im.sess.Prompt == "" {
						r.im.sess.Prompt = cutRunes(text, PromptMax)
					}
				}
			default:
				e.msgs = append(e.msgs, r.read(capture.Message{Role: "user", Content: text, Origin: capture.OriginUser})...)
			}
		}
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		m := capture.Message{Role: "tool", Content: codexOutput(it.Output), Origin: capture.OriginToolResult, ToolCallID: it.CallID}
		e.msgs = append(e.msgs, r.read(m)...)
	default:
		r.im.unknown.add("response_item/"+it.Type, n, data)
		return
	}
	r.list = append(r.list, e)
}

// answered says whether the model answered since the current turn began.
func (r *codexReader) answered() bool {
	for _, e := range r.list[max(r.turnAt, 0):] {
		for _, m := range e.msgs {
			if m.Role == "assistant" {
				return true
			}
		}
	}
	return false
}

// read is m as a capture reads it in Codex's request (a Stop hook's
// prompt, a PreToolUse block in the tool's result are a hook's words by
// the Codex profiles' wording; the agent's tagged texts its context).
func (r *codexReader) read(m capture.Message) []capture.Message {
	return r.im.agents.Message(string(Codex), m, r.lastTool)
}

// where is the event a hook's context at the end of the list is for, as
// Codex places it: SessionStart's before the prompt, UserPromptSubmit's
// after it, a tool hook's between the call and its result (PreToolUse's
// and PostToolUse's stand alike), else the end of the turn (Stop).
func (r *codexReader) where() string {
	if r.turnAt < 0 {
		return "SessionStart"
	}
	if last := r.list[len(r.list)-1].msgs; len(last) > 0 {
		if tcs := last[len(last)-1].ToolCalls; len(tcs) > 0 {
			return "PostToolUse/PreToolUse:" + tcs[len(tcs)-1].Name
		}
	}
	if !r.answered() {
		return "UserPromptSubmit"
	}
	return "Stop"
}

func (r *codexReader) lastTool() string {
	for i := len(r.list) - 1; i >= 0; i-- {
		ms := r.list[i].msgs
		for j := len(ms) - 1; j >= 0; j-- {
			if n := len(ms[j].ToolCalls); n > 0 {
				return ms[j].ToolCalls[n-1].Name
			}
		}
	}
	return ""
}

// hook is a hook known by what it gave the model, at line n.
func (r *codexReader) hook(n int, label string) *hookRun {
	event, _, _ := strings.Cut(label, ":")
	event, _, _ = strings.Cut(event, "/")
	h := newHookRun(event, label, "", n)
	h.call.Outcome = engine.OutcomeOK
	h.call.Warnings = []string{"Codex records what a hook gave the model, not its run: its command, time and exit are not known, and its event is told by where its words stand"}
	return r.b.fire(r.cv, h)
}

// answer adds a model item: to the call being answered, else a new call
// whose input is everything before it.
func (r *codexReader) answer(n int, it *codexItem, payload []byte) {
	if r.call < 0 {
		if len(r.im.sess.Calls) == 0 {
			r.im.note(0, NoteRebuilt, "requests rebuilt from the rollout's items (Codex does not record its requests): the tools and parameters are not known")
		}
		r.call = r.b.call(r.cv, slices.Clone(r.list), r.im.sess.Model)
		r.im.sess.Calls = append(r.im.sess.Calls, CallInfo{Line: n, Model: r.im.sess.Model, Tools: []string{}, conv: r.cv, k: r.call})
	}
	last := len(r.list) - 1
	appendTo := func() *capture.Message {
		if last >= 0 {
			if ms := r.list[last].msgs; len(ms) == 1 && ms[0].Role == "assistant" && ms[0].Kind == "" && r.list[last].ids == nil {
				return &r.list[last].msgs[0]
			}
		}
		r.list = append(r.list, &entry{msgs: []capture.Message{{Role: "assistant", Origin: capture.OriginAssistant}}})
		last = len(r.list) - 1
		return &r.list[last].msgs[0]
	}
	switch it.Type {
	case "message":
		text := strings.Join(codexParts(it.Content), "\n")
		m := appendTo()
		if m.Content != "" {
			m.Content += "\n"
		}
		m.Content += text
		r.b.answer(r.cv, r.call, text, nil, "")
	case "function_call", "custom_tool_call", "local_shell_call":
		args := it.Arguments
		if it.Type == "custom_tool_call" {
			args, _ = jsonString(map[string]string{"input": it.Input})
		}
		if args == "" {
			args = "{}"
		}
		tc := capture.ToolCall{ID: it.CallID, Name: firstOf(it.Name, it.Type), Arguments: json.RawMessage(args)}
		if !json.Valid(tc.Arguments) {
			raw, _ := jsonString(map[string]string{"raw": args})
			tc.Arguments = json.RawMessage(raw)
		}
		m := appendTo()
		m.ToolCalls = append(m.ToolCalls, tc)
		r.b.answer(r.cv, r.call, "", []capture.ToolCall{tc}, "")
	default:
		// the model's own reasoning (and other items), sent back as it came
		r.list = append(r.list, &entry{msgs: []capture.Message{{Role: "assistant", Content: string(payload), Origin: capture.OriginAssistant, Kind: it.Type}}})
	}
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// codexParts are a message's texts, a part each.
func codexParts(content json.RawMessage) []string {
	var parts []codexPart
	if json.Unmarshal(content, &parts) != nil {
		var s string
		_ = json.Unmarshal(content, &s)
		return []string{s}
	}
	out := []string{}
	for _, p := range parts {
		if p.Text != "" || p.Type == "input_text" || p.Type == "output_text" {
			out = append(out, p.Text)
		} else {
			out = append(out, "["+p.Type+"]")
		}
	}
	return out
}

// codexText joins a message's text parts.
func codexText(content json.RawMessage) string { return strings.Join(codexParts(content), "\n") }

// codexOutput is a tool call's output: a string, or content parts, or an
// object with its output.
func codexOutput(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Content json.RawMessage `json:"content"`
		Output  string          `json:"output"`
	}
	if json.Unmarshal(raw, &o) == nil && (o.Output != "" || len(o.Content) > 0) {
		if o.Output != "" {
			return o.Output
		}
		return codexText(o.Content)
	}
	return codexText(raw)
}

func (sc *summarizer) codex(line []byte) {
	var r struct {
		Timestamp string `json:"timestamp"`
		Type      string `json:"type"`
		Payload   struct {
			ID         string `json:"id"`
			Cwd        string `json:"cwd"`
			CLIVersion string `json:"cli_version"`
			Model      string `json:"model"`
			Type       string `json:"type"`
			Role       string `json:"role"`
			Content    json.RawMessage
			Meta       *struct {
				Kinds []string `json:"content_item_kinds"`
			} `json:"internal_chat_message_metadata_passthrough"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &r) != nil {
		return
	}
	s, p := sc.s, &r.Payload
	sc.times(r.Timestamp)
	switch r.Type {
	case "session_meta":
		s.ID, s.Project, s.Version = firstOf(s.ID, p.ID), firstOf(s.Project, p.Cwd), firstOf(s.Version, p.CLIVersion)
	case "turn_context":
		s.Model = firstOf(s.Model, p.Model)
	case "response_item":
		switch {
		case p.Meta != nil && slices.Contains(p.Meta.Kinds, "hooks.additional_context"):
			sc.hook("hook context")
		case p.Meta != nil && slices.Contains(p.Meta.Kinds, "user.text"):
			s.Turns++
			if s.Prompt == "" {
				s.Prompt = cutRunes(codexText(p.Content), PromptMax)
			}
		case p.Type == "message" && p.Role == "assistant", p.Type == "function_call":
			if !sc.inAnswer {
				s.Calls++
			}
			sc.inAnswer = true
			return
		}
		if p.Type != "reasoning" {
			sc.inAnswer = false
		}
	}
}
