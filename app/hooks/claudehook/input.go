package claudehook

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/request"
)

// input is the stdin JSON of an event, with the fields and in the order
// the real CLI (2.1.197) sends them (docs/claude-code-hooks.md).
func (h *Handler) input(event Event, ev *engine.Event) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	promptID := h.promptID()
	h.mu.Lock()
	stopActive := h.stopActive
	h.mu.Unlock()
	f := fields{}
	f.add("session_id", h.session)
	f.add("transcript_path", transcript)
	f.add("cwd", h.cfg.Root)
	if event != SessionStart {
		f.add("prompt_id", promptID)
	}
	if event != SessionStart && event != SessionEnd {
		f.add("permission_mode", "default")
	}
	if event.isTool() || event == Stop || event == PostToolBatch {
		f.add("effort", map[string]string{"level": "high"})
	}
	f.add("hook_event_name", string(event))
	switch event {
	case SessionStart:
		f.add("source", "startup")
	case UserPromptSubmit:
		f.add("prompt", ev.UserInput)
	case PreToolUse, PermissionRequest:
		f.add("tool_name", ev.Tool.Name)
		f.add("tool_input", h.observed(ev.Tool))
		f.add("tool_use_id", ev.Tool.ID)
	case PostToolUse:
		f.add("tool_name", ev.Tool.Name)
		f.add("tool_input", h.observed(ev.Tool))
		f.add("tool_response", toolResponse(ev.Tool))
		f.add("tool_use_id", ev.Tool.ID)
	case PostToolUseFailure:
		f.add("tool_name", ev.Tool.Name)
		f.add("tool_input", h.observed(ev.Tool))
		f.add("tool_use_id", ev.Tool.ID)
		f.add("error", ev.Tool.Error)
	case PostToolBatch:
		calls := []any{}
		for i := range ev.ToolCalls {
			tc := &ev.ToolCalls[i]
			calls = append(calls, map[string]any{"tool_name": tc.Name, "tool_input": h.observed(tc), "tool_use_id": tc.ID, "tool_response": tc.Result})
		}
		f.add("tool_calls", calls)
	case Stop:
		f.add("stop_hook_active", stopActive)
		f.add("last_assistant_message", ev.Answer)
		f.add("background_tasks", []any{})
		f.add("session_crons", []any{})
	case PreCompact:
		f.add("trigger", "auto")
		f.add("custom_instructions", "")
	case PostCompact:
		f.add("trigger", "auto")
	case SessionEnd:
		f.add("reason", "other")
	}
	if event == PostToolUse || event == PostToolUseFailure {
		f.add("duration_ms", 0) // the scripted tool took no time
	}
	if m := ev.RequestModel(); m != nil {
		if keys := m.Stdin[string(event)]; len(keys) > 0 {
			f = f.as(keys) // the keys the CLI sends, in its order
		}
	}
	return f.json(), nil
}

// promptID is the id of the user's prompt being answered.
func (h *Handler) promptID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return fmt.Sprintf("%s-%04d", h.session[:23], h.prompt)
}

func args(tc *engine.ToolCall) map[string]any {
	if tc.Arguments == nil {
		return map[string]any{}
	}
	return tc.Arguments
}

// pathFields are the tools whose file path Claude Code resolves before
// its hooks read the call, and that path's field (measured on 2.1.197
// and 2.1.332: Read, Write and Edit; NotebookEdit's by the same code).
var pathFields = map[string]string{"Read": "file_path", "Write": "file_path", "Edit": "file_path", "NotebookEdit": "notebook_path"}

// observed is a tool call's input as Claude Code's hooks read it: a file
// path resolved against the project (~ as the home folder), cleaned.
func (h *Handler) observed(tc *engine.ToolCall) map[string]any {
	in, _ := resolvePath(tc, h.cfg.Root)
	return in
}

// resolvePath is tc's input with its file path resolved, and whether that
// changed the path (Claude Code words a deny of such a call apart).
func resolvePath(tc *engine.ToolCall, root string) (map[string]any, bool) {
	in := args(tc)
	field, ok := pathFields[tc.Name]
	if !ok {
		return in, false
	}
	p, ok := in[field].(string)
	if !ok || p == "" {
		return in, false
	}
	abs := p
	if rest, tilde := strings.CutPrefix(p, "~"); tilde && (rest == "" || strings.HasPrefix(rest, "/")) {
		if home, err := os.UserHomeDir(); err == nil {
			abs = home + rest
		}
	}
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, abs)
	}
	if abs = filepath.Clean(abs); abs == p {
		return in, false
	}
	out := maps.Clone(in)
	out[field] = abs
	return out, true
}

// toolResponse is the tool's answer as the hook reads it: Bash's is an
// object, as the real CLI's Bash tool answers; any other tool's the text.
func toolResponse(tc *engine.ToolCall) any {
	if tc.Name == "Bash" {
		return map[string]any{"stdout": tc.Result, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
	}
	return tc.Result
}

// fields is a JSON object that keeps its keys in the order added.
type fields struct {
	keys []string
	vals []any
}

func (f *fields) add(k string, v any) { f.keys, f.vals = append(f.keys, k), append(f.vals, v) }

// as is f with keys, in that order: those f has (the CLI sends no other).
func (f fields) as(keys []string) fields {
	var out fields
	for _, k := range keys {
		for i, fk := range f.keys {
			if fk == k {
				out.add(k, f.vals[i])
				break
			}
		}
	}
	return out
}

func (f *fields) json() []byte {
	out := []byte{'{'}
	for i, k := range f.keys {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, marshal(k)...)
		out = append(out, ':')
		out = append(out, marshal(f.vals[i])...)
	}
	return append(out, '}')
}

// writeTranscript writes the conversation so far as Claude Code's JSONL
// transcript (one entry per message), which some hooks read.
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.tmp, h.session+".jsonl")
	msgs := ev.Messages()
	key := fmt.Sprintf("%s/%d", ev.Point, len(msgs))
	if n := len(msgs); n > 0 {
		key += fmt.Sprintf("/%d/%d", msgs[n-1].ID, len(msgs[n-1].Content))
	}
	if ev.Point == engine.PointStop {
		key += "/" + ev.Answer
	}
	h.mu.Lock()
	same := h.transcriptKey == key
	h.transcriptKey = key
	h.mu.Unlock()
	if same { // the conversation has not changed since the last event
		return file, nil
	}
	if m := ev.RequestModel(); m != nil && m.Transcript != nil && m.Transcript.Format == request.TranscriptClaudeCode {
		data, err := h.transcriptEntries(m.Transcript, ev, msgs)
		if err != nil {
			return "", fmt.Errorf("claude code hooks: transcript: %w", err)
		}
		if err := writeTranscriptFile(file, data); err != nil {
			return "", fmt.Errorf("claude code hooks: transcript: %w", err)
		}
		return file, nil
	}
	var buf []byte
	for _, m := range msgs {
		kind := "user"
		switch m.Role {
		case "assistant":
			kind = "assistant"
		case "system":
			kind = "system"
		}
		var content any = m.Content
		if len(m.ToolCalls) > 0 { // as Claude Code's transcript: text and tool_use blocks
			blocks := []any{}
			if m.Content != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": m.Content})
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": args(&tc)})
			}
			content = blocks
		}
		line, err := json.Marshal(map[string]any{"type": kind, "sessionId": h.session, "cwd": h.cfg.Root,
			"message": map[string]any{"role": m.Role, "content": content}})
		if err != nil {
			return "", fmt.Errorf("claude code hooks: transcript: %w", err)
		}
		buf = append(append(buf, line...), '\n')
	}
	if err := os.WriteFile(file, buf, 0o600); err != nil {
		return "", fmt.Errorf("claude code hooks: transcript: %w", err)
	}
	return file, nil
}
