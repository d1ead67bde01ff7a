package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The Chat Completions request, as much of it as is recorded.
type openAIRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string           `json:"role"`
		Content    json.RawMessage  `json:"content"`
		ToolCallID string           `json:"tool_call_id"`
		ToolCalls  []openAIToolCall `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	Stream        bool `json:"stream"`
	StreamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// openAIToolCall is a tool call as Chat Completions writes one in a message.
type openAIToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func parseOpenAI(data []byte) (*Request, error) {
	var in openAIRequest
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("the body is not a Chat Completions request: %w", err)
	}
	if in.Messages == nil {
		return nil, errors.New("messages: field required")
	}
	req := &Request{API: OpenAI, Model: in.Model, Stream: in.Stream, Tools: []string{}}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for i, m := range in.Messages {
		text, err := openAIText(m.Content)
		if err != nil {
			return nil, fmt.Errorf("messages[%d].content: %w", i, err)
		}
		switch m.Role {
		case "system", "developer":
			req.Messages = append(req.Messages, Message{Role: "system", Content: text, Origin: OriginSystem})
		case "assistant":
			am := Message{Role: "assistant", Content: text, Origin: OriginAssistant}
			for _, tc := range m.ToolCalls {
				args := json.RawMessage(tc.Function.Arguments)
				if !json.Valid(args) {
					args, _ = json.Marshal(tc.Function.Arguments)
				}
				am.ToolCalls = append(am.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
			}
			req.Messages = append(req.Messages, am)
		case "tool":
			req.Messages = append(req.Messages, toolResult(m.ToolCallID, text, false))
		default:
			req.Messages = append(req.Messages, userText(text)...)
		}
	}
	return req, nil
}

// openAIText reads a content that is a string, null or a list of parts.
func openAIText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", errors.New("neither a string nor a list of content parts")
	}
	var out []string
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		} else {
			out = append(out, "["+p.Type+"]")
		}
	}
	return strings.Join(out, "\n"), nil
}

func includeUsage(data []byte) bool {
	var in openAIRequest
	return json.Unmarshal(data, &in) == nil && in.StreamOptions.IncludeUsage
}

func openAIToolCalls(a *Answer) []map[string]any {
	var out []map[string]any
	for _, tc := range a.ToolCalls {
		out = append(out, map[string]any{"id": tc.ID, "type": "function", "function": map[string]string{"name": tc.Name, "arguments": string(tc.Arguments)}})
	}
	return out
}

func finishReason(a *Answer) string {
	if len(a.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func openAIUsage(u usage) map[string]int {
	return map[string]int{"prompt_tokens": u.in, "completion_tokens": u.out, "total_tokens": u.in + u.out}
}

func openAICompletion(model string, n int, a *Answer, u usage) map[string]any {
	msg := map[string]any{"role": "assistant", "content": a.Content}
	if len(a.ToolCalls) > 0 {
		msg["tool_calls"] = openAIToolCalls(a)
		if a.Content == "" {
			msg["content"] = nil
		}
	}
	return map[string]any{"id": fmt.Sprintf("chatcmpl-capture-%04d", n+1), "object": "chat.completion", "created": time.Now().Unix(), "model": model,
		"choices": []map[string]any{{"index": 0, "message": msg, "finish_reason": finishReason(a)}}, "usage": openAIUsage(u)}
}

// streamOpenAI sends the answer as Chat Completions streams one: a role
// chunk, content chunks, tool call chunks, the finish, the usage if asked,
// and [DONE].
func streamOpenAI(w http.ResponseWriter, model string, n int, a *Answer, u usage, withUsage bool) error {
	e := newSSE(w)
	id, created := fmt.Sprintf("chatcmpl-capture-%04d", n+1), time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	e.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	for _, c := range chunks(a.Content) {
		e.send("", chunk(map[string]any{"content": c}, nil))
	}
	for i, tc := range a.ToolCalls {
		e.send("", chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]string{"name": tc.Name, "arguments": ""}}}}, nil))
		for _, c := range chunks(string(tc.Arguments)) {
			e.send("", chunk(map[string]any{"tool_calls": []map[string]any{{"index": i, "function": map[string]string{"arguments": c}}}}, nil))
		}
	}
	e.send("", chunk(map[string]any{}, finishReason(a)))
	if withUsage {
		e.send("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{}, "usage": openAIUsage(u)})
	}
	e.raw("data: [DONE]\n\n")
	return e.err
}
