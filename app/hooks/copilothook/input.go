package copilothook

import (
	"fmt"
	"path/filepath"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hookrun"
)

// vscodeTools are the names Copilot CLI gives its tools in the VS Code
// format's tool_name, which a PascalCase event's matcher is compared with
// too (seen, 1.0.102); others pass as they are.
var vscodeTools = map[string]string{"bash": "Bash", "view": "Read", "edit": "Edit", "create": "Write", "grep": "Grep", "glob": "Glob", "task": "Agent"}

// compatName is a tool's name in the VS Code format.
func compatName(tool string) string {
	if n, ok := vscodeTools[tool]; ok {
		return n
	}
	return tool
}

// stdin is each camelCase event's stdin as Copilot CLI 1.0.102 sends it
// (seen), and compatStdin a PascalCase event's, the VS Code format: its
// keys in snake_case (seen for each event, 1.0.102).
var (
	camel       = []string{"sessionId", "timestamp=timestamp_ms", "cwd"}
	compatFirst = []string{"hook_event_name", "session_id=sessionId", "timestamp=timestamp_iso", "cwd"}
	stdin       = hookrun.Stdin{
		string(SessionStart):        hookrun.Keys(camel, []string{"source:=new", "initialPrompt"}),
		string(UserPromptSubmitted): hookrun.Keys(camel, []string{"prompt"}),
		string(PreToolUse):          hookrun.Keys(camel, []string{"toolName", "toolArgs"}),
		string(PostToolUse):         hookrun.Keys(camel, []string{"toolName", "toolArgs", "toolResult"}),
		string(PostToolUseFailure):  hookrun.Keys(camel, []string{"toolName", "toolArgs", "error"}),
		string(AgentStop):           hookrun.Keys(camel, []string{"transcriptPath", "stopReason:=end_turn", "stop_hook_active"}),
		string(PreCompact):          hookrun.Keys(camel, []string{"transcriptPath", "trigger:=auto", "customInstructions:="}),
		string(SessionEnd):          hookrun.Keys(camel, []string{"reason:=complete"}),
	}
	compatStdin = hookrun.Stdin{
		string(SessionStart):        hookrun.Keys(compatFirst, []string{"source:=new", "initial_prompt=initialPrompt"}),
		string(UserPromptSubmitted): hookrun.Keys(compatFirst, []string{"prompt"}),
		string(PreToolUse):          hookrun.Keys(compatFirst, []string{"tool_name=compatTool", "tool_input=toolArgs"}),
		string(PostToolUse):         hookrun.Keys(compatFirst, []string{"tool_name=compatTool", "tool_input=toolArgs", "tool_result=compatResult"}),
		string(PostToolUseFailure):  hookrun.Keys(compatFirst, []string{"tool_name=compatTool", "tool_input=toolArgs", "error"}),
		string(AgentStop):           hookrun.Keys(compatFirst, []string{"transcript_path=transcriptPath", "stop_reason:=end_turn", "stop_hook_active"}),
		string(PreCompact):          hookrun.Keys(compatFirst, []string{"transcript_path=transcriptPath", "trigger:=auto", "custom_instructions:="}),
		string(SessionEnd):          hookrun.Keys(compatFirst, []string{"reason:=complete"}),
	}
)

// input is the stdin JSON of event (as declared: camelCase or
// PascalCase) at ev.
func (h *Handler) input(event Event, ev *engine.Event) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	h.mu.Lock()
	active := h.stopActive
	h.mu.Unlock()
	result := func(resultType, text string) *hookrun.Fields {
		f := &hookrun.Fields{}
		f.Add(resultType, "success")
		f.Add(text, ev.Tool.Result)
		return f
	}
	v := hookrun.Values{
		"sessionId": h.Session, "timestamp_ms": now.UnixMilli(), "timestamp_iso": now.Format("2006-01-02T15:04:05.000Z"), "cwd": h.cfg.Root,
		"hook_event_name": string(event), "prompt": ev.UserInput, "transcriptPath": transcript, "stop_hook_active": active,
		"initialPrompt": func() any {
			if p := h.firstPrompt(); p != "" {
				return p
			}
			return hookrun.Omit{}
		},
		"toolName":     func() any { return ev.Tool.Name },
		"compatTool":   func() any { return compatName(ev.Tool.Name) },
		"toolArgs":     func() any { return args(ev.Tool) },
		"toolResult":   func() any { return result("resultType", "textResultForLlm") },
		"compatResult": func() any { return result("result_type", "text_result_for_llm") },
		"error":        func() any { return ev.Tool.Error },
	}
	table := stdin
	if event.Compat() {
		table = compatStdin
	}
	// the keys in the calibrated CLI's order, when a request model has one
	return ev.RequestModel().OrderStdin(string(event), table.Build(string(event.Base()), v).JSON()), nil
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
	file := filepath.Join(h.Dir, "session-state", h.Session, "events.jsonl")
	var lines []any
	for _, m := range ev.Messages() {
		if m.Origin == engine.OriginSystemPrompt {
			continue
		}
		lines = append(lines, map[string]any{"type": m.Role + ".message", "data": map[string]any{"content": m.Content}})
	}
	if err := hookrun.WriteJSONL(file, lines); err != nil {
		return "", fmt.Errorf("copilot cli hooks: %w", err)
	}
	return file, nil
}
