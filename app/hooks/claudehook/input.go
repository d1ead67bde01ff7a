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
	"hookstudio/app/hooks/hookrun"
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
	f := &hookrun.Fields{}
	f.Add("session_id", h.session)
	f.Add("transcript_path", transcript)
	f.Add("cwd", h.cfg.Root)
	if event != SessionStart {
		f.Add("prompt_id", promptID)
	}
	if event != SessionStart && event != SessionEnd {
		f.Add("permission_mode", "default")
	}
	if event.isTool() || event == Stop || event == PostToolBatch {
		f.Add("effort", map[string]string{"level": "high"})
	}
	f.Add("hook_event_name", string(event))
	switch event {
	case SessionStart:
		f.Add("source", "startup")
	case UserPromptSubmit:
		f.Add("prompt", ev.UserInput)
	case PreToolUse, PermissionRequest:
		f.Add("tool_name", ev.Tool.Name)
		f.Add("tool_input", h.observed(ev.Tool))
		f.Add("tool_use_id", ev.Tool.ID)
	case PostToolUse:
		f.Add("tool_name", ev.Tool.Name)
		f.Add("tool_input", h.observed(ev.Tool))
		f.Add("tool_response", toolResponse(ev.Tool))
		f.Add("tool_use_id", ev.Tool.ID)
	case PostToolUseFailure:
		f.Add("tool_name", ev.Tool.Name)
		f.Add("tool_input", h.observed(ev.Tool))
		f.Add("tool_use_id", ev.Tool.ID)
		f.Add("error", ev.Tool.Error)
	case PostToolBatch:
		calls := []any{}
		for i := range ev.ToolCalls {
			tc := &ev.ToolCalls[i]
			calls = append(calls, map[string]any{"tool_name": tc.Name, "tool_input": h.observed(tc), "tool_use_id": tc.ID, "tool_response": tc.Result})
		}
		f.Add("tool_calls", calls)
	case Stop:
		f.Add("stop_hook_active", stopActive)
		f.Add("last_assistant_message", ev.Answer)
		f.Add("background_tasks", []any{})
		f.Add("session_crons", []any{})
	case PreCompact:
		f.Add("trigger", "auto")
		f.Add("custom_instructions", "")
	case PostCompact:
		f.Add("trigger", "auto")
	case SessionEnd:
		f.Add("reason", "other")
	}
	if event == PostToolUse || event == PostToolUseFailure {
		f.Add("duration_ms", 0) // the scripted tool took no time
	}
	if m := ev.RequestModel(); m != nil {
		f.Order(m.Stdin[string(event)]) // the order the CLI writes them in, as calibrated
	}
	return f.JSON(), nil
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
