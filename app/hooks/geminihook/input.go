package geminihook

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hookrun"
)

// llmMessage is one message of Gemini CLI's hook-side LLMRequest: a text
// content's parts joined; contents without text (tool results, calls
// alone) are left out, and so is the system instruction.
type llmMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// llmRequest is the request as hooks see it, and which messages of the
// list each of its messages stands for: Gemini CLI sends a turn's parts
// (its session context, the prompt, hook context) as one content, whose
// text parts the translator joins.
type llmRequest struct {
	model    string
	messages []llmMessage
	groups   [][]int // indexes into the engine's list per message
}

// requestOf reads the call's message list as Gemini CLI's hook translator
// does: one message per turn with text — consecutive user-side texts are
// one turn — tool results (no text) and the system instruction left out.
func requestOf(ev *engine.Event) llmRequest {
	req := llmRequest{model: ev.Model}
	prev := ""
	for i, m := range ev.Messages() {
		if m.Origin == engine.OriginSystemPrompt {
			continue
		}
		if m.Role == "tool" {
			prev = "tool" // a function response is a turn of its own
			continue
		}
		role := "user"
		if m.Role == "assistant" {
			role = "model"
		}
		if m.Content == "" {
			prev = role
			continue
		}
		if role == "user" && prev == "user" && len(req.messages) > 0 && req.messages[len(req.messages)-1].Role == "user" {
			last := len(req.messages) - 1
			req.messages[last].Content += m.Content
			req.groups[last] = append(req.groups[last], i)
			continue
		}
		req.messages = append(req.messages, llmMessage{Role: role, Content: m.Content})
		req.groups = append(req.groups, []int{i})
		prev = role
	}
	return req
}

// generationConfig is what Gemini CLI 0.61 shows hooks of its main model's
// settings (seen).
var generationConfig = map[string]any{"temperature": 1, "topP": 0.95, "topK": 64}

func (r llmRequest) json() *hookrun.Fields {
	f := &hookrun.Fields{}
	f.Add("model", r.model)
	msgs := r.messages
	if msgs == nil {
		msgs = []llmMessage{}
	}
	f.Add("messages", msgs)
	f.Add("config", generationConfig)
	return f
}

// responseOf is the model's answer as hooks see it: its text parts only
// (tool calls are not shown to AfterModel).
func responseOf(answer string) *hookrun.Fields {
	parts := []string{}
	if answer != "" {
		parts = append(parts, answer)
	}
	f := &hookrun.Fields{}
	if answer != "" {
		f.Add("text", answer)
	}
	cand := &hookrun.Fields{}
	cand.Add("content", map[string]any{"role": "model", "parts": parts})
	cand.Add("finishReason", "STOP")
	f.Add("candidates", []any{cand})
	return f
}

// opening are the keys of Gemini CLI's stdin that open every event.
var opening = []string{"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp"}

// stdin is each event's stdin, with the keys in the order Gemini CLI
// 0.61's hook event handler builds them.
var stdin = hookrun.Stdin{
	string(SessionStart):        hookrun.Keys(opening, []string{"source:=startup"}),
	string(BeforeAgent):         hookrun.Keys(opening, []string{"prompt"}),
	string(BeforeModel):         hookrun.Keys(opening, []string{"llm_request"}),
	string(BeforeToolSelection): hookrun.Keys(opening, []string{"llm_request"}),
	string(AfterModel):          hookrun.Keys(opening, []string{"llm_request", "llm_response"}),
	string(BeforeTool):          hookrun.Keys(opening, []string{"tool_name", "tool_input"}),
	string(AfterTool):           hookrun.Keys(opening, []string{"tool_name", "tool_input", "tool_response"}),
	string(AfterAgent):          hookrun.Keys(opening, []string{"prompt=turn_prompt", "prompt_response", "stop_hook_active"}),
	string(PreCompress):         hookrun.Keys(opening, []string{"trigger:=auto"}),
	string(SessionEnd):          hookrun.Keys(opening, []string{"reason:=exit"}),
}

// input is the stdin JSON of an event.
func (h *Handler) input(event Event, ev *engine.Event) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	turnPrompt, answer, active := h.turnPrompt, h.cumulative, h.stopActive
	h.mu.Unlock()
	v := hookrun.Values{
		"session_id": h.Session, "transcript_path": transcript, "cwd": h.cfg.Root, "hook_event_name": string(event),
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), "turn_prompt": turnPrompt, "stop_hook_active": active,
		"prompt":       func() any { return h.promptText(ev) },
		"llm_request":  func() any { return requestOf(ev).json() },
		"llm_response": func() any { return responseOf(ev.Answer) },
		"tool_name":    func() any { return ev.Tool.Name },
		"tool_input":   func() any { return args(ev.Tool) },
		"tool_response": func() any {
			resp := &hookrun.Fields{}
			if ev.Tool.Error != "" {
				resp.Add("llmContent", ev.Tool.Error)
				resp.Add("returnDisplay", ev.Tool.Error)
				resp.Add("error", map[string]any{"message": ev.Tool.Error})
				return resp
			}
			resp.Add("llmContent", ev.Tool.Result)
			resp.Add("returnDisplay", ev.Tool.Result)
			return resp
		},
		"prompt_response": func() any {
			if answer == "" {
				return orText(ev.Answer, "[no response text]")
			}
			return answer
		},
	}
	return stdin.Build(string(event), v).JSON(), nil
}

// promptText is the request's prompt as Gemini CLI hands it to BeforeAgent:
// with the SessionStart context still waiting prefixed to it.
func (h *Handler) promptText(ev *engine.Event) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prefix != "" {
		return h.prefix + "\n\n" + ev.UserInput
	}
	return ev.UserInput
}

func args(tc *engine.ToolCall) map[string]any {
	if tc.Arguments == nil {
		return map[string]any{}
	}
	return tc.Arguments
}

// writeTranscript writes the conversation so far as JSON Lines, where
// transcript_path points (Gemini CLI's chat recording).
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.Dir, "chats", "session-"+h.Session[:8]+".jsonl")
	type entry struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	lines := []any{}
	for _, m := range ev.Messages() {
		kind := "user"
		switch m.Role {
		case "assistant":
			kind = "gemini"
		case "tool":
			kind = "tool"
		case "system":
			continue
		}
		lines = append(lines, entry{Type: kind, Content: m.Content})
	}
	if err := hookrun.WriteJSONL(file, lines); err != nil {
		return "", fmt.Errorf("gemini cli hooks: %w", err)
	}
	return file, nil
}

func orText(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
