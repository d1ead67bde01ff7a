package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// The Anthropic Messages API's request, as much of it as is recorded.
type anthropicRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

func parseAnthropic(data []byte) (*Request, error) {
	var in anthropicRequest
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("the body is not a Messages API request: %w", err)
	}
	if in.Messages == nil {
		return nil, errors.New("messages: field required")
	}
	req := &Request{API: Anthropic, Model: in.Model, Stream: in.Stream, Tools: []string{}}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Name)
	}
	system, err := AnthropicSystem(in.System)
	if err != nil {
		return nil, fmt.Errorf("system: %w", err)
	}
	req.Messages = system
	for i, m := range in.Messages {
		ms, err := AnthropicMessage(m.Role, m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages[%d].content: %w", i, err)
		}
		req.Messages = append(req.Messages, ms...)
	}
	return req, nil
}

// AnthropicSystem normalises a Messages API request's system field (a
// string or text blocks): one system message per text block.
func AnthropicSystem(raw json.RawMessage) ([]Message, error) {
	bs, err := blocks(raw)
	if err != nil {
		return nil, err
	}
	var out []Message
	for _, b := range bs {
		if b.Type == "text" {
			out = append(out, Message{Role: "system", Content: b.Text, Origin: OriginSystem})
		}
	}
	return out, nil
}

// AnthropicMessage normalises one message of a Messages API request, as a
// capture records it: a content block list becomes one message per text or
// tool result, each with its origin (hook output told by its wording).
func AnthropicMessage(role string, content json.RawMessage) ([]Message, error) {
	bs, err := blocks(content)
	if err != nil {
		return nil, err
	}
	if role == "assistant" {
		return []Message{assistantMessage(bs)}, nil
	}
	var out []Message
	for _, b := range bs {
		switch b.Type {
		case "text":
			if role == "system" {
				out = append(out, systemText(b.Text)...)
			} else {
				out = append(out, userText(b.Text)...)
			}
		case "tool_result":
			inner, err := blocks(b.Content)
			if err != nil {
				return nil, fmt.Errorf("tool_result: %w", err)
			}
			out = append(out, toolResult(b.ToolUseID, joinText(inner), b.IsError))
		default:
			out = append(out, Message{Role: role, Content: "[" + b.Type + "]", Origin: OriginUser})
		}
	}
	return out, nil
}

// blocks reads a content that is a string or a list of blocks.
func blocks(raw json.RawMessage) ([]anthropicBlock, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []anthropicBlock{{Type: "text", Text: s}}, nil
	}
	var bs []anthropicBlock
	if err := json.Unmarshal(raw, &bs); err != nil {
		return nil, errors.New("neither a string nor a list of content blocks")
	}
	return bs, nil
}

func joinText(bs []anthropicBlock) string {
	var parts []string
	for _, b := range bs {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		} else {
			parts = append(parts, "["+b.Type+"]")
		}
	}
	return strings.Join(parts, "\n")
}

func assistantMessage(bs []anthropicBlock) Message {
	m := Message{Role: "assistant", Origin: OriginAssistant}
	var text []string
	for _, b := range bs {
		switch b.Type {
		case "text":
			text = append(text, b.Text)
		case "tool_use":
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
		}
	}
	m.Content = strings.Join(text, "\n")
	return m
}

// A hook's voice, as Claude Code words hook output for the model (measured
// with the real CLI, docs/capture.md): "<Event>[:<Tool>] hook <kind>: …".
var hookLineRe = regexp.MustCompile(`(?m)^((?:PreToolUse|PostToolUse|PostToolUseFailure|PostToolBatch|UserPromptSubmit|SessionStart|SessionEnd|Stop|SubagentStop|PreCompact|PostCompact|Notification|PermissionRequest)(?::[\w.-]+)?) hook (?:success|feedback|error|blocking error|additional context|stopped continuation)\b`)

// hookAt is where the hook's text starts in text and the hook's name.
func hookAt(text string) (int, string) {
	if !strings.Contains(text, " hook ") {
		return -1, "" // most text: the regexp's scan of a long prompt costs far more
	}
	if m := hookLineRe.FindStringSubmatchIndex(text); m != nil {
		return m[0], text[m[2]:m[3]]
	}
	return -1, ""
}

// userText is one user text block: the user's words, the agent's own
// context, and hook output the agent appended — split where a hook's text
// starts, so each part shows its own origin.
func userText(text string) []Message {
	// A reminder that is all hook output (Claude Code wraps tool hooks'
	// context so) is the hook's message, wrapper and all.
	if inner, ok := strings.CutPrefix(text, "<system-reminder>\n"); ok {
		if at, hook := hookAt(inner); at == 0 && strings.Count(text, "<system-reminder>") == 1 {
			return []Message{{Role: "user", Content: text, Origin: OriginHook, Hook: hook}}
		}
	}
	at, hook := hookAt(text)
	if at < 0 {
		return []Message{plainUser(text)}
	}
	var out []Message
	if before := strings.TrimRight(text[:at], "\n"); strings.TrimSpace(before) != "" {
		out = append(out, plainUser(before))
	}
	return append(out, Message{Role: "user", Content: text[at:], Origin: OriginHook, Hook: hook})
}

// systemText is a system-role message of the list (Claude Code 2.1.197
// sends hook output and its own attachments so, one paragraph each): a
// paragraph that starts with a hook's words is that hook's message, the
// paragraphs between them the agent's context.
func systemText(text string) []Message {
	var out []Message
	var ctx []string
	flush := func() {
		if len(ctx) > 0 {
			out = append(out, Message{Role: "system", Content: strings.Join(ctx, "\n\n"), Origin: OriginContext})
			ctx = nil
		}
	}
	for _, para := range strings.Split(text, "\n\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		if at, hook := hookAt(para); at == 0 {
			flush()
			out = append(out, Message{Role: "system", Content: para, Origin: OriginHook, Hook: hook})
			continue
		}
		ctx = append(ctx, para)
	}
	flush()
	return out
}

func plainUser(text string) Message {
	if strings.Contains(text, "<system-reminder>") {
		return Message{Role: "user", Content: text, Origin: OriginContext}
	}
	return Message{Role: "user", Content: text, Origin: OriginUser}
}

// askRe is the tool result claude -p gives when a PreToolUse hook asked
// for confirmation without a reason and nobody could answer.
var askRe = regexp.MustCompile(`^Hook (PreToolUse(?::[\w.-]+)?) asked for confirmation for this tool$`)

func toolResult(id, text string, isError bool) Message {
	m := Message{Role: "tool", Content: text, Origin: OriginToolResult, ToolCallID: id, IsError: isError}
	if at, hook := hookAt(text); at >= 0 {
		m.Origin, m.Hook = OriginHook, hook
	} else if a := askRe.FindStringSubmatch(text); isError && a != nil {
		m.Origin, m.Hook = OriginHook, a[1]
	}
	return m
}

func anthropicContent(a *Answer) []map[string]any {
	var out []map[string]any
	if a.Content != "" || len(a.ToolCalls) == 0 {
		out = append(out, map[string]any{"type": "text", "text": a.Content})
	}
	for _, tc := range a.ToolCalls {
		out = append(out, map[string]any{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": tc.Arguments})
	}
	return out
}

func stopReason(a *Answer) string {
	if len(a.ToolCalls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

func anthropicMessage(model string, n int, a *Answer, u usage) map[string]any {
	return map[string]any{"id": fmt.Sprintf("msg_capture_%04d", n+1), "type": "message", "role": "assistant", "model": model,
		"content": anthropicContent(a), "stop_reason": stopReason(a), "stop_sequence": nil,
		"usage": map[string]int{"input_tokens": u.in, "output_tokens": u.out}}
}

// streamAnthropic sends the answer as the Messages API streams one.
func streamAnthropic(w http.ResponseWriter, model string, n int, a *Answer, u usage) error {
	e := newSSE(w)
	start := anthropicMessage(model, n, a, usage{in: u.in, out: 1})
	start["content"], start["stop_reason"] = []any{}, nil
	e.send("message_start", map[string]any{"type": "message_start", "message": start})
	e.send("ping", map[string]string{"type": "ping"})
	for i, b := range anthropicContent(a) {
		if b["type"] == "text" {
			e.send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			for _, c := range chunks(a.Content) {
				e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": c}})
			}
		} else {
			e.send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			for _, c := range chunks(string(b["input"].(json.RawMessage))) {
				e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": c}})
			}
		}
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	e.send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason(a), "stop_sequence": nil},
		"usage": map[string]int{"output_tokens": u.out}})
	e.send("message_stop", map[string]string{"type": "message_stop"})
	return e.err
}
