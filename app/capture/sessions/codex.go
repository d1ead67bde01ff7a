package sessions

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

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
// each model call's input is rebuilt from the items before its answer,
// and Codex does not record its hooks' runs either, only the context they
// gave the model (a developer message marked as a hook's), so each hook is
// known by its words and its place.
type codexReader struct {
	im   *Importer
	b    *builder
	cv   *conversation
	list []*entry
	// the call the model is answering (-1: none; the next answer item starts one)
	call    int
	turnAt  int // where the current turn's user prompt is in list (-1: none yet)
	answers bool
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
	if t, err := time.Parse(time.RFC3339Nano, rec.Timestamp); err == nil {
		if s.Started.IsZero() || t.Before(s.Started) {
			s.Started = t
		}
		if t.After(s.Ended) {
			s.Ended = t
		}
	}
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
			r.list = append(r.list, &entry{msgs: []capture.Message{{Role: "system", Content: m.Instructions.Text, Origin: capture.OriginSystem}}})
		}
	case "turn_context":
		var tc struct {
			Model string `json:"model"`
		}
		_ = json.Unmarshal(rec.Payload, &tc)
		if s.Model == "" {
			s.Model = tc.Model
		}
	case "response_item":
		var it codexItem
		if err := json.Unmarshal(rec.Payload, &it); err != nil {
			r.im.unknown.add("response_item", n, data)
			return
		}
		r.item(n, &it, data)
	case "event_msg":
		// what Codex showed its user; the model's input is in the response items
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

func (r *codexReader) item(n int, it *codexItem, data []byte) {
	if fromModel(it) {
		r.answer(n, it)
		return
	}
	r.call = -1 // input after an answer: the next answer is a new call
	var e *entry
	switch it.Type {
	case "message":
		text := codexText(it.Content)
		role := it.Role
		switch {
		case it.Meta != nil && slices.Contains(it.Meta.Kinds, "hooks.additional_context"):
			h := r.hook(n, text)
			e = &entry{hook: h, msgs: []capture.Message{{Role: "system", Content: text, Origin: capture.OriginHook, Hook: h.label}}}
		case role == "user" && it.Meta != nil && slices.Contains(it.Meta.Kinds, "user.text"):
			e = &entry{msgs: []capture.Message{{Role: "user", Content: text, Origin: capture.OriginUser}}}
			r.turnAt, r.answers = len(r.list), false
			r.im.sess.Turns++
			if r.im.sess.Prompt == "" {
				r.im.sess.Prompt = cutRunes(text, PromptMax)
			}
		case role == "developer" || role == "system":
			e = &entry{msgs: []capture.Message{{Role: "system", Content: text, Origin: capture.OriginContext}}}
		default:
			e = &entry{msgs: []capture.Message{{Role: "user", Content: text, Origin: capture.OriginContext}}}
		}
	case "function_call_output", "custom_tool_call_output":
		e = &entry{msgs: []capture.Message{{Role: "tool", Content: codexOutput(it.Output), Origin: capture.OriginToolResult, ToolCallID: it.CallID}}}
	default:
		r.im.unknown.add("response_item/"+it.Type, n, data)
		return
	}
	r.list = append(r.list, e)
}

// hook is a hook known by the context it gave: its event told by where
// the context is (Codex puts SessionStart's before the prompt,
// UserPromptSubmit's after it, PostToolUse's after a tool's output, Stop's
// after an answer without tool calls).
func (r *codexReader) hook(n int, text string) *hookRun {
	event := "SessionStart"
	if r.turnAt >= 0 {
		event = "UserPromptSubmit"
		last := r.list[len(r.list)-1].msgs
		switch {
		case len(last) > 0 && last[len(last)-1].Role == "tool":
			event = "PostToolUse"
		case r.answers:
			event = "Stop"
		}
	}
	h := newHookRun(event, event, "", n)
	h.call.System = string(Codex)
	h.call.Outcome = engine.OutcomeOK
	h.call.Warnings = []string{"Codex records only the context a hook gave the model, not its run: its command, time and exit are not known, and its event is told by where the context is"}
	h.texts = []string{text}
	return r.b.fire(r.cv, h)
}

// answer adds a model item: to the call being answered, else a new call
// whose input is everything before it.
func (r *codexReader) answer(n int, it *codexItem) {
	r.answers = true
	if r.call < 0 {
		if len(r.im.sess.Calls) == 0 {
			r.im.note(0, NoteRebuilt, "requests rebuilt from the rollout's items (Codex does not record its requests): the tools and parameters are not known")
		}
		r.call = r.b.call(r.cv, slices.Clone(r.list), r.im.sess.Model)
		r.im.sess.Calls = append(r.im.sess.Calls, CallInfo{Line: n, Model: r.im.sess.Model, Tools: []string{}, conv: r.cv, k: r.call})
		r.list = append(r.list, &entry{msgs: []capture.Message{{Role: "assistant", Origin: capture.OriginAssistant}}})
	}
	last := r.list[len(r.list)-1]
	m := &last.msgs[0]
	switch it.Type {
	case "message":
		text := codexText(it.Content)
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
		m.ToolCalls = append(m.ToolCalls, tc)
		r.b.answer(r.cv, r.call, "", []capture.ToolCall{tc}, "")
	}
}

func jsonString(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// codexText joins a message's text parts.
func codexText(content json.RawMessage) string {
	var parts []codexPart
	if json.Unmarshal(content, &parts) != nil {
		var s string
		_ = json.Unmarshal(content, &s)
		return s
	}
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		} else if p.Type != "" {
			out = append(out, "["+p.Type+"]")
		}
	}
	return strings.Join(out, "\n")
}

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
