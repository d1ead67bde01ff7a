package copilothook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"hookstudio/app/agent/engine"
)

// fields is a JSON object that keeps its keys in the order added.
type fields struct {
	keys []string
	vals []any
}

func (f *fields) add(k string, v any) { f.keys, f.vals = append(f.keys, k), append(f.vals, v) }

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

func marshal(v any) []byte {
	if f, ok := v.(*fields); ok {
		return f.json()
	}
	b, _ := json.Marshal(v)
	return b
}

// vscodeTools are the names Copilot CLI gives its tools in the VS Code
// format's tool_name (seen: bash → Bash, view → Read); others pass as they are.
var vscodeTools = map[string]string{"bash": "Bash", "view": "Read"}

// input is the stdin JSON of an event as Copilot CLI 1.0.102 sends it:
// camelCase keys for camelCase events (seen), the VS Code format for the
// PascalCase ones (seen for PreToolUse).
func (h *Handler) input(event Event, ev *engine.Event) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	f := &fields{}
	compat := event.Compat()
	key := func(camel, snake string) string {
		if compat {
			return snake
		}
		return camel
	}
	if compat {
		f.add("hook_event_name", string(event))
		f.add("session_id", h.session)
		f.add("timestamp", now.Format("2006-01-02T15:04:05.000Z"))
	} else {
		f.add("sessionId", h.session)
		f.add("timestamp", now.UnixMilli())
	}
	f.add("cwd", h.cfg.Root)
	tool := func() string {
		if compat {
			if n, ok := vscodeTools[ev.Tool.Name]; ok {
				return n
			}
		}
		return ev.Tool.Name
	}
	h.mu.Lock()
	active := h.stopActive
	h.mu.Unlock()
	switch event.Base() {
	case SessionStart:
		f.add("source", "new")
		if p := h.firstPrompt(); p != "" {
			f.add(key("initialPrompt", "initial_prompt"), p)
		}
	case UserPromptSubmitted:
		f.add("prompt", ev.UserInput)
	case PreToolUse:
		f.add(key("toolName", "tool_name"), tool())
		f.add(key("toolArgs", "tool_input"), args(ev.Tool))
	case PostToolUse:
		f.add(key("toolName", "tool_name"), tool())
		f.add(key("toolArgs", "tool_input"), args(ev.Tool))
		res := &fields{}
		res.add(key("resultType", "result_type"), "success")
		res.add(key("textResultForLlm", "text_result_for_llm"), ev.Tool.Result)
		f.add(key("toolResult", "tool_result"), res)
	case PostToolUseFailure:
		f.add(key("toolName", "tool_name"), tool())
		f.add(key("toolArgs", "tool_input"), args(ev.Tool))
		f.add("error", ev.Tool.Error)
	case AgentStop:
		f.add(key("transcriptPath", "transcript_path"), transcript)
		f.add(key("stopReason", "stop_reason"), "end_turn")
		f.add("stop_hook_active", active)
	case PreCompact:
		f.add(key("transcriptPath", "transcript_path"), transcript)
		f.add("trigger", "auto")
		f.add(key("customInstructions", "custom_instructions"), "")
	case SessionEnd:
		f.add("reason", "complete")
	}
	return ev.RequestModel().OrderStdin(string(event), f.json()), nil // the calibrated CLI's order, when there is one
}

// firstPrompt is the prompt the session starts with (copilot -p's).
func (h *Handler) firstPrompt() string {
	if h.sc != nil && len(h.sc.Requests) > 0 {
		return h.sc.Requests[0].User
	}
	return ""
}

func args(tc *engine.ToolCall) map[string]any {
	if tc.Arguments == nil {
		return map[string]any{}
	}
	return tc.Arguments
}

// writeTranscript writes the conversation so far as JSON Lines, where
// transcriptPath points (Copilot CLI's session events.jsonl).
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.tmp, "session-state", h.session, "events.jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", fmt.Errorf("copilot cli hooks: transcript: %w", err)
	}
	var buf []byte
	for _, m := range ev.Messages() {
		if m.Origin == engine.OriginSystemPrompt {
			continue
		}
		line, err := json.Marshal(map[string]any{"type": m.Role + ".message", "data": map[string]any{"content": m.Content}})
		if err != nil {
			return "", fmt.Errorf("copilot cli hooks: transcript: %w", err)
		}
		buf = append(append(buf, line...), '\n')
	}
	if err := os.WriteFile(file, buf, 0o600); err != nil {
		return "", fmt.Errorf("copilot cli hooks: transcript: %w", err)
	}
	return file, nil
}
