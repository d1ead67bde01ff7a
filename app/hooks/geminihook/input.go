package geminihook

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
)

// fields is a JSON object that keeps its keys in the order added, as
// Gemini CLI's JSON.stringify of its input objects does.
type fields struct {
	keys []string
	vals []any
}

func (f *fields) add(k string, v any) { f.keys, f.vals = append(f.keys, k), append(f.vals, v) }

// order puts the keys of keys first, in that order, the others after as
// they were.
func (f *fields) order(keys []string) {
	if len(keys) == 0 {
		return
	}
	rank := func(k string) int {
		if i := slices.Index(keys, k); i >= 0 {
			return i
		}
		return len(keys)
	}
	idx := make([]int, len(f.keys))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return rank(f.keys[a]) - rank(f.keys[b]) })
	ks, vs := make([]string, len(idx)), make([]any, len(idx))
	for i, j := range idx {
		ks[i], vs[i] = f.keys[j], f.vals[j]
	}
	f.keys, f.vals = ks, vs
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

func marshal(v any) []byte {
	if f, ok := v.(*fields); ok {
		return f.json()
	}
	b, _ := json.Marshal(v)
	return b
}

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

func (r llmRequest) json() *fields {
	f := &fields{}
	f.add("model", r.model)
	msgs := r.messages
	if msgs == nil {
		msgs = []llmMessage{}
	}
	f.add("messages", msgs)
	f.add("config", generationConfig)
	return f
}

// responseOf is the model's answer as hooks see it: its text parts only
// (tool calls are not shown to AfterModel).
func responseOf(answer string) *fields {
	parts := []string{}
	if answer != "" {
		parts = append(parts, answer)
	}
	f := &fields{}
	if answer != "" {
		f.add("text", answer)
	}
	cand := &fields{}
	cand.add("content", map[string]any{"role": "model", "parts": parts})
	cand.add("finishReason", "STOP")
	f.add("candidates", []any{cand.json()})
	return f
}

// input is the stdin JSON of an event, with the keys in the order Gemini
// CLI 0.61's hook event handler builds them.
func (h *Handler) input(event Event, ev *engine.Event) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	f := &fields{}
	f.add("session_id", h.session)
	f.add("transcript_path", transcript)
	f.add("cwd", h.cfg.Root)
	f.add("hook_event_name", string(event))
	f.add("timestamp", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	switch event {
	case SessionStart:
		f.add("source", "startup")
	case BeforeAgent:
		f.add("prompt", h.promptText(ev))
	case BeforeModel, BeforeToolSelection:
		f.add("llm_request", requestOf(ev).json())
	case AfterModel:
		f.add("llm_request", requestOf(ev).json())
		f.add("llm_response", responseOf(ev.Answer))
	case BeforeTool:
		f.add("tool_name", ev.Tool.Name)
		f.add("tool_input", args(ev.Tool))
	case AfterTool:
		f.add("tool_name", ev.Tool.Name)
		f.add("tool_input", args(ev.Tool))
		resp := &fields{}
		resp.add("llmContent", ev.Tool.Result)
		resp.add("returnDisplay", ev.Tool.Result)
		if ev.Tool.Error != "" {
			resp.vals[0], resp.vals[1] = ev.Tool.Error, ev.Tool.Error
			resp.add("error", map[string]any{"message": ev.Tool.Error})
		}
		f.add("tool_response", resp.json())
	case AfterAgent:
		h.mu.Lock()
		prompt, answer, active := h.turnPrompt, h.cumulative, h.stopActive
		h.mu.Unlock()
		if answer == "" {
			answer = orText(ev.Answer, "[no response text]")
		}
		f.add("prompt", prompt)
		f.add("prompt_response", answer)
		f.add("stop_hook_active", active)
	case PreCompress:
		f.add("trigger", "auto")
	case SessionEnd:
		f.add("reason", "exit")
	}
	// the order the CLI writes them in, as its request model's
	// calibration saw it
	if t := ev.Trace(); t != nil && t.RequestModel() != nil {
		f.order(t.RequestModel().Stdin[string(event)])
	}
	return f.json(), nil
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

// writeTranscript writes the conversation so far as a JSON file, where
// transcript_path points (Gemini CLI's chat recording).
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.tmp, "chats", "session-"+h.session[:8]+".jsonl")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return "", fmt.Errorf("gemini cli hooks: transcript: %w", err)
	}
	type entry struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	msgs := []entry{}
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
		msgs = append(msgs, entry{Type: kind, Content: m.Content})
	}
	var data []byte
	for _, m := range msgs {
		line, err := json.Marshal(m)
		if err != nil {
			return "", fmt.Errorf("gemini cli hooks: transcript: %w", err)
		}
		data = append(append(data, line...), '\n')
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		return "", fmt.Errorf("gemini cli hooks: transcript: %w", err)
	}
	return file, nil
}

func orText(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
