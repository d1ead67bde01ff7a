package sessions

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/capture"
)

// geminiRecord is one line of a Gemini CLI chat log
// (~/.gemini/tmp/<project>/chats/session-*.jsonl): its first line says
// which session (sessionId, projectHash, startTime), then a message each
// (by id: a later record of the same id stands in for the earlier, as the
// CLI adds the tool calls to an answer), $set (metadata; messages: the
// whole list anew) and $rewindTo (the list cut back to before an id).
type geminiRecord struct {
	SessionID string          `json:"sessionId"`
	StartTime string          `json:"startTime"`
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	ToolCalls []struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"toolCalls"`
	Set      map[string]json.RawMessage `json:"$set"`
	RewindTo *string                    `json:"$rewindTo"`
}

// geminiTypes are the types of a Gemini CLI log's messages; info, error
// and warning are shown to the user only.
var geminiTypes = map[string]bool{"user": true, "gemini": true, "info": true, "error": true, "warning": true}

// geminiReader reads a Gemini CLI chat log. The CLI records neither its
// requests nor its hooks' runs: each call's contents are rebuilt from the
// messages before its answer, and a hook is known by the words it put
// before the model (capture's reader of a Gemini CLI request tells them).
type geminiReader struct {
	im   *Importer
	b    *builder
	cv   *conversation
	msgs []*geminiMessage // the list as the CLI keeps it
	byID map[string]*geminiMessage
	// calls are the answers' calls by id: a list set anew ($set) that
	// holds an answer again is not a call again
	calls map[string]int
}

type geminiMessage struct {
	id    string
	entry *entry // nil: not sent to the model (info, error, warning)
	// call is the call this answer is of (-1: not an answer)
	call int
}

func newGeminiReader(im *Importer) *geminiReader {
	r := &geminiReader{im: im, b: im.b, byID: map[string]*geminiMessage{}, calls: map[string]int{}}
	r.cv = r.b.conv("main")
	im.sess.Project = geminiProject(im.sess.File)
	return r
}

// geminiProject is the folder a Gemini CLI log's project is: the CLI
// writes it beside its chats folder (tmp/<project>/.project_root).
func geminiProject(file string) string {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(file)), ".project_root"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func (r *geminiReader) line(n int, data []byte) {
	var rec geminiRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		r.im.note(n, NoteNotJSON, notJSON(err))
		return
	}
	s := &r.im.sess
	widen(&s.Started, &s.Ended, firstOf(rec.Timestamp, rec.StartTime))
	switch {
	case rec.RewindTo != nil:
		r.rewind(*rec.RewindTo)
	case rec.Set != nil:
		if raw, ok := rec.Set["messages"]; ok {
			var list []json.RawMessage
			_ = json.Unmarshal(raw, &list)
			r.msgs, r.byID = nil, map[string]*geminiMessage{}
			for _, m := range list {
				r.line(n, m)
			}
		}
		var t string
		_ = json.Unmarshal(rec.Set["lastUpdated"], &t)
		widen(&s.Started, &s.Ended, t)
	case rec.ID != "" && geminiTypes[rec.Type]:
		r.message(n, &rec)
	case rec.SessionID != "":
		s.ID = firstOf(s.ID, rec.SessionID)
	case rec.ID != "":
		r.im.unknown.add("message/"+rec.Type, n, data)
	default:
		r.im.unknown.add("(no id)", n, data)
	}
}

// rewind cuts the list back to before id (the whole list when it is not
// in it), as the CLI does.
func (r *geminiReader) rewind(id string) {
	at := slices.IndexFunc(r.msgs, func(m *geminiMessage) bool { return m.id == id })
	if at < 0 {
		at = 0
	}
	for _, m := range r.msgs[at:] {
		delete(r.byID, m.id)
	}
	r.msgs = r.msgs[:at]
}

func (r *geminiReader) message(n int, rec *geminiRecord) {
	m, again := r.byID[rec.ID]
	if !again {
		m = &geminiMessage{id: rec.ID, call: -1}
		r.byID[rec.ID] = m
		r.msgs = append(r.msgs, m)
	}
	switch rec.Type {
	case "user":
		m.entry = &entry{msgs: r.read(r.content("user", rec.Content, nil))}
		if !again {
			r.im.turn(m.entry.msgs)
		}
	case "gemini":
		var calls []json.RawMessage
		for _, tc := range rec.ToolCalls {
			call, _ := json.Marshal(map[string]any{"functionCall": map[string]any{"id": tc.ID, "name": tc.Name, "args": json.RawMessage(orNull(tc.Args))}})
			calls = append(calls, call)
		}
		// a fresh entry: one a call sent is the builder's to keep as it was
		m.entry = &entry{msgs: r.read(r.content("model", rec.Content, calls))}
		s := &r.im.sess
		s.Model = firstOf(s.Model, rec.Model)
		if k, ok := r.calls[rec.ID]; ok && m.call < 0 {
			m.call = k
		}
		if m.call < 0 {
			if len(s.Calls) == 0 {
				r.im.note(0, NoteRebuilt, "requests rebuilt from the log's messages (Gemini CLI records neither its requests nor its version): "+
					"the system prompt, the tools and the parameters are not known, nor the calls it makes on its own (its model router)")
			}
			var list []*entry
			for _, x := range r.msgs {
				if x != m && x.entry != nil {
					list = append(list, x.entry)
				}
				if x == m {
					break
				}
			}
			m.call = r.b.call(r.cv, list, rec.Model)
			r.calls[rec.ID] = m.call
			s.Calls = append(s.Calls, CallInfo{Line: n, Model: rec.Model, Tools: []string{}, conv: r.cv, k: m.call})
		}
		r.b.reanswer(r.cv, m.call)
		for _, x := range m.entry.msgs {
			r.b.answer(r.cv, m.call, x.Content, x.ToolCalls, "")
		}
	default:
		m.entry = nil // shown to the user only
	}
}

// content is a message's content as the CLI sends it: a Gemini API
// content of role, its parts (a string content is one text part) and
// calls after them.
func (r *geminiReader) content(role string, content json.RawMessage, calls []json.RawMessage) json.RawMessage {
	content = bytes.TrimSpace(content)
	if len(calls) == 0 && len(content) > 0 && content[0] == '[' {
		// the parts as written, not decoded and written again (a tool's output is most of a log)
		raw := make([]byte, 0, len(content)+32)
		raw = append(append(append(raw, `{"role":"`...), role...), `","parts":`...)
		return append(append(raw, content...), '}')
	}
	var parts []json.RawMessage
	var text string
	switch {
	case json.Unmarshal(content, &text) == nil:
		if text != "" {
			p, _ := json.Marshal(map[string]string{"text": text})
			parts = append(parts, p)
		}
	default:
		_ = json.Unmarshal(content, &parts)
	}
	raw, _ := json.Marshal(map[string]any{"role": role, "parts": append(parts, calls...)})
	return raw
}

// read is a content as a capture of Gemini CLI's request reads it.
func (r *geminiReader) read(content json.RawMessage) []capture.Message {
	ms, _ := capture.GeminiContent(content)
	var out []capture.Message
	for _, m := range ms {
		out = append(out, r.im.agents.Message(string(GeminiCLI), m, r.lastTool)...)
	}
	detach(out)
	return out
}

// lastTool is the tool the model called last in the list.
func (r *geminiReader) lastTool() string {
	for i := len(r.msgs) - 1; i >= 0; i-- {
		if e := r.msgs[i].entry; e != nil {
			if name := lastToolOf(e.msgs); name != "" {
				return name
			}
		}
	}
	return ""
}

// lastToolOf is the last tool call's name in ms ("" none).
func lastToolOf(ms []capture.Message) string {
	for j := len(ms) - 1; j >= 0; j-- {
		if n := len(ms[j].ToolCalls); n > 0 {
			return ms[j].ToolCalls[n-1].Name
		}
	}
	return ""
}

func (sc *summarizer) gemini(line []byte) {
	var r struct {
		SessionID string                     `json:"sessionId"`
		StartTime string                     `json:"startTime"`
		ID        string                     `json:"id"`
		Timestamp string                     `json:"timestamp"`
		Type      string                     `json:"type"`
		Model     string                     `json:"model"`
		Content   json.RawMessage            `json:"content"`
		Set       map[string]json.RawMessage `json:"$set"`
	}
	if json.Unmarshal(line, &r) != nil {
		return
	}
	s := sc.s
	sc.times(firstOf(r.Timestamp, r.StartTime))
	if r.Set != nil {
		var t string
		_ = json.Unmarshal(r.Set["lastUpdated"], &t)
		sc.times(t)
		var list []json.RawMessage
		_ = json.Unmarshal(r.Set["messages"], &list)
		for _, m := range list {
			sc.gemini(m)
		}
		return
	}
	s.ID = firstOf(s.ID, r.SessionID)
	switch r.Type {
	case "user":
		if sc.answers[r.ID] {
			return // counted
		}
		sc.answers[r.ID] = true
		prompt, hooks := geminiText(r.Content)
		for range hooks {
			sc.hook("hook context")
		}
		sc.prompt(prompt)
	case "gemini":
		sc.answer(r.ID, r.Model)
	}
}

// geminiText is what a user message's text parts say without the CLI's
// tagged context and hooks' context, and how many hook contexts it holds
// (in its texts and the tools' results it carries).
func geminiText(content json.RawMessage) (string, int) {
	type part struct {
		Text             *string `json:"text"`
		FunctionResponse *struct {
			Response struct {
				Output string `json:"output"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	var parts []part
	if json.Unmarshal(content, &parts) != nil {
		var s string
		_ = json.Unmarshal(content, &s)
		parts = append(parts, part{Text: &s})
	}
	var b strings.Builder
	hooks := 0
	for _, p := range parts {
		if p.FunctionResponse != nil {
			hooks += strings.Count(p.FunctionResponse.Response.Output, "<hook_context>")
		}
		if p.Text == nil {
			continue
		}
		text := *p.Text
		for _, tag := range []string{"session_context", "hook_context"} {
			for {
				open := strings.Index(text, "<"+tag+">")
				end := strings.Index(text, "</"+tag+">")
				if open < 0 || end < open {
					break
				}
				if tag == "hook_context" {
					hooks++
				}
				text = text[:open] + text[end+len(tag)+3:]
			}
		}
		b.WriteString(text)
	}
	return strings.TrimSpace(b.String()), hooks
}
