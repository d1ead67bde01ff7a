package sessions

import (
	"encoding/json"
	"strings"

	"hookstudio/app/capture"
)

// qwenRecord is one line of a Qwen Code chat log
// (~/.qwen/projects/<project>/chats/<session>.jsonl): Claude Code's shape
// of records (uuid, parentUuid, type) holding Gemini API contents
// (message.role user or model, message.parts).
type qwenRecord struct {
	UUID       string `json:"uuid"`
	ParentUUID string `json:"parentUuid"`
	SessionID  string `json:"sessionId"`
	Timestamp  string `json:"timestamp"`
	Type       string `json:"type"`
	Subtype    string `json:"subtype"`
	Cwd        string `json:"cwd"`
	Version    string `json:"version"`
	Model      string `json:"model"`
	Message    *struct {
		Role  string            `json:"role"`
		Parts []json.RawMessage `json:"parts"`
	} `json:"message"`
}

// qwenPart is a Gemini API part as Qwen Code records it.
type qwenPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Response json.RawMessage `json:"response"`
		Parts    []qwenPart      `json:"parts"`
	} `json:"functionResponse"`
}

// qwenSubtypes are the system records' subtypes Qwen Code 0.24 writes:
// none holds what the model read.
var qwenSubtypes = map[string]bool{
	"chat_compression": true, "slash_command": true, "ui_telemetry": true, "at_command": true, "attribution_snapshot": true,
	"notification": true, "background_task_completed": true, "cron": true, "mid_turn_user_message": true, "realtime_message": true,
	"custom_title": true, "parent_session": true, "rewind": true, "agent_bootstrap": true, "agent_launch_prompt": true, "agent_retry": true,
	"agent_session_ready": true, "file_history_snapshot": true, "session_source": true, "session_model": true, "omni_recall": true,
	"session_sources_snapshot": true, "branch_checkpoint": true, "goal_state": true, "goal_runtime": true, "goal_turn_end": true,
	"turn_result": true, "session_artifact_event": true, "session_artifact_snapshot": true, "managed_session_header_v1": true,
	"managed_session_event_v1": true, "managed_session_commit_v1": true,
}

// qwenReader reads a Qwen Code chat log. Qwen Code records neither its
// requests nor its hooks' runs: each call's messages are rebuilt from the
// records on the path to its answer, sent as Qwen Code sends Chat
// Completions (a Gemini content made messages), and a hook is known by the
// words it put before the model that the records hold.
type qwenReader struct {
	im *Importer
	b  *builder
	cv *conversation
	tree
	// the tool called last on the records read (a tool hook's words name it)
	last string
}

func newQwenReader(im *Importer) *qwenReader {
	r := &qwenReader{im: im, b: im.b, tree: newTree()}
	r.cv = r.b.conv("main")
	return r
}

func (r *qwenReader) line(n int, data []byte) {
	var rec qwenRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		r.im.note(n, NoteNotJSON, notJSON(err))
		return
	}
	s := &r.im.sess
	s.ID, s.Project = firstOf(s.ID, rec.SessionID), firstOf(s.Project, rec.Cwd)
	if rec.Version != "" && s.Version == "" {
		s.Version = rec.Version
	}
	widen(&s.Started, &s.Ended, rec.Timestamp)
	nd := &node{parent: rec.ParentUUID, at: -1, conv: r.cv}
	if rec.UUID != "" {
		r.nodes[rec.UUID] = nd
	}
	switch rec.Type {
	case "user", "tool_result", "assistant":
		if rec.Message == nil {
			return
		}
		nd.entry = &entry{msgs: r.messages(rec.Message.Role, rec.Message.Parts)}
		switch {
		case rec.Type == "assistant":
			r.answer(n, &rec, nd)
		case rec.Type == "user":
			r.im.turn(nd.entry.msgs)
		}
	case "system":
		if !qwenSubtypes[rec.Subtype] {
			r.im.unknown.add("system/"+rec.Subtype, n, data)
		}
	default:
		r.im.unknown.add(firstOf(rec.Type, "(no type)"), n, data)
	}
}

// answer is a model call whose list is the records on the path to the
// answer's parent.
func (r *qwenReader) answer(n int, rec *qwenRecord, nd *node) {
	s := &r.im.sess
	if len(s.Calls) == 0 {
		r.im.note(0, NoteRebuilt, "requests rebuilt from the chat's records (Qwen Code does not record its requests): the system prompt, the agent's own context, "+
			"the tools and the parameters are not known, nor a hook's words it adds only when it sends (SessionStart's on the system prompt, "+
			"UserPromptSubmit's again after tool results, a Stop hook's reason)")
	}
	s.Model = firstOf(s.Model, rec.Model)
	k := r.b.call(r.cv, r.chain(r.cv, rec.ParentUUID), rec.Model)
	s.Calls = append(s.Calls, CallInfo{Line: n, Model: rec.Model, Tools: []string{}, conv: r.cv, k: k})
	for _, m := range nd.entry.msgs {
		r.b.answer(r.cv, k, m.Content, m.ToolCalls, "")
	}
}

// messages are a content's parts as Qwen Code sends them (Chat
// Completions), read as a capture of its request reads them: a model
// content is an assistant message (its texts joined, its calls), a user
// content a tool message per response, then its texts as one message of
// parts.
func (r *qwenReader) messages(role string, parts []json.RawMessage) []capture.Message {
	var chat []json.RawMessage
	add := func(v any) {
		raw, _ := json.Marshal(v)
		chat = append(chat, raw)
	}
	var texts []map[string]string
	var answer strings.Builder
	var calls []map[string]any
	for _, raw := range parts {
		var p qwenPart
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		switch {
		case p.Text != nil && role == "model":
			if !p.Thought {
				answer.WriteString(*p.Text)
			}
		case p.Text != nil:
			if *p.Text != "" {
				texts = append(texts, map[string]string{"type": "text", "text": *p.Text})
			}
		case p.FunctionCall != nil && role == "model":
			args, _ := json.Marshal(json.RawMessage(orNull(p.FunctionCall.Args)))
			if string(args) == "null" {
				args = []byte("{}")
			}
			calls = append(calls, map[string]any{"id": p.FunctionCall.ID, "type": "function",
				"function": map[string]string{"name": p.FunctionCall.Name, "arguments": string(args)}})
			r.last = p.FunctionCall.Name
		case p.FunctionResponse != nil && role != "model":
			content := []string{qwenResponseText(p.FunctionResponse.Response)}
			for _, q := range p.FunctionResponse.Parts {
				if q.Text != nil && *q.Text != "" {
					content = append(content, *q.Text)
				}
			}
			add(map[string]any{"role": "tool", "tool_call_id": p.FunctionResponse.ID, "content": strings.Join(content, "\n")})
		}
	}
	if role == "model" {
		m := map[string]any{"role": "assistant", "content": nil}
		if answer.Len() > 0 {
			m["content"] = answer.String()
		}
		if len(calls) > 0 {
			m["tool_calls"] = calls
		}
		add(m)
	} else if len(texts) > 0 {
		add(map[string]any{"role": "user", "content": texts})
	}
	var out []capture.Message
	for _, raw := range chat {
		for _, m := range capture.ChatMessage(raw) {
			out = append(out, r.im.agents.Message(string(QwenCode), m, func() string { return r.last })...)
		}
	}
	detach(out)
	return out
}

// qwenResponseText is a function response as the tool message's text:
// its output, else its error, else the response as JSON.
func qwenResponseText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Output *string `json:"output"`
		Error  *string `json:"error"`
	}
	if json.Unmarshal(raw, &o) == nil {
		switch {
		case o.Output != nil:
			return *o.Output
		case o.Error != nil:
			return *o.Error
		}
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}

func (sc *summarizer) qwen(line []byte) {
	var r struct {
		UUID          string `json:"uuid"`
		SessionID     string `json:"sessionId"`
		Timestamp     string `json:"timestamp"`
		Type          string `json:"type"`
		Cwd           string `json:"cwd"`
		Version       string `json:"version"`
		Model         string `json:"model"`
		Provenance    string `json:"provenance"`
		SystemPayload struct {
			DisplayText *string `json:"displayText"`
			HookContext string  `json:"hookContext"`
		} `json:"systemPayload"`
		Message *struct {
			Parts []qwenPart `json:"parts"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &r) != nil {
		return
	}
	s := sc.s
	s.ID, s.Project, s.Version = firstOf(s.ID, r.SessionID), firstOf(s.Project, r.Cwd), firstOf(s.Version, r.Version)
	sc.times(r.Timestamp)
	switch r.Type {
	case "user":
		if r.SystemPayload.HookContext != "" {
			sc.hook("UserPromptSubmit")
		}
		prompt := ""
		if r.SystemPayload.DisplayText != nil {
			prompt = *r.SystemPayload.DisplayText
		} else if r.Message != nil && len(r.Message.Parts) > 0 && r.Message.Parts[0].Text != nil {
			prompt = *r.Message.Parts[0].Text
		}
		sc.prompt(prompt)
	case "assistant":
		sc.answer(r.UUID, r.Model)
	}
}
