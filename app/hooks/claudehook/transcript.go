package claudehook

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/request"
)

// transcriptEntries writes the conversation as Claude Code's transcript
// holds it (the request model's Transcript: each kind of entry's keys in
// the CLI's order, its constant fields): the user's prompt, each answer
// with its text and tool_use blocks, each tool's result as a tool_result
// block — and at Stop the answer that made it fire, which the CLI has
// written by then. Ids chain entries as the CLI's parentUuid does; they
// are derived from the session and the entry's place, so the file a hook
// reads twice is the same.
func (h *Handler) transcriptEntries(tr *request.Transcript, ev *engine.Event, msgs []engine.Message) ([]byte, error) {
	var buf []byte
	parent := ""
	n := 0
	start := h.started
	write := func(kind string, message map[string]any, extra map[string]any) error {
		keys := tr.Keys[kind]
		if len(keys) == 0 {
			return nil
		}
		id := entryID(h.session, n)
		vals := map[string]any{"parentUuid": nullable(parent), "uuid": id, "sessionId": h.session, "cwd": h.cfg.Root,
			"timestamp": start.Add(time.Duration(n) * time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z"),
			"promptId":  h.promptID(), "message": ordered(tr.MessageKeys[kind], message)}
		for k, v := range extra {
			vals[k] = v
		}
		f := fields{}
		for _, k := range keys {
			if v, ok := vals[k]; ok {
				f.add(k, v)
			} else if c, ok := tr.Constants[kind][k]; ok {
				f.add(k, c)
			}
		}
		buf = append(append(buf, f.json()...), '\n')
		parent = id
		n++
		return nil
	}
	var lastAssistant string
	for _, m := range msgs {
		kind := m.Origin
		if kind == engine.OriginHistory {
			kind = m.HistoryOf
		}
		switch {
		case kind == engine.OriginUserInput:
			if err := write(request.EntryUser, map[string]any{"role": "user", "content": m.Content}, nil); err != nil {
				return nil, err
			}
		case m.Role == "assistant":
			blocks := []any{}
			if m.Content != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": m.Content})
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": args(&tc)})
			}
			if err := write(request.EntryAssistant, assistantMessage(blocks, len(m.ToolCalls) > 0), nil); err != nil {
				return nil, err
			}
			lastAssistant = entryID(h.session, n-1)
		case m.Role == "tool":
			block := map[string]any{"tool_use_id": m.ToolCallID, "type": "tool_result", "content": m.Content, "is_error": m.InPlace}
			if err := write(request.EntryToolResult, map[string]any{"role": "user", "content": []any{block}},
				map[string]any{"sourceToolAssistantUUID": lastAssistant}); err != nil {
				return nil, err
			}
		}
	}
	if ev.Point == engine.PointStop && ev.Answer != "" {
		blocks := []any{map[string]any{"type": "text", "text": ev.Answer}}
		if err := write(request.EntryAssistant, assistantMessage(blocks, false), nil); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// assistantMessage is an answer's message as the transcript keeps it.
func assistantMessage(blocks []any, tools bool) map[string]any {
	stop := "end_turn"
	if tools {
		stop = "tool_use"
	}
	return map[string]any{"type": "message", "role": "assistant", "content": blocks, "stop_reason": stop, "stop_sequence": nil}
}

// ordered is a message with its keys in the CLI's order (those it has).
func ordered(keys []string, m map[string]any) any {
	if len(keys) == 0 {
		return m
	}
	f := fields{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			f.add(k, v)
		}
	}
	return json.RawMessage(f.json())
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// entryID is the n-th entry's id in a session: a UUID's shape, the same
// whenever the transcript is written again.
func entryID(session string, n int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", session, n)))
	h := fmt.Sprintf("%x", sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// writeFile writes the transcript where hooks read it.
func writeTranscriptFile(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o600)
}
