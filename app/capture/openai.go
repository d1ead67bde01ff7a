package capture

import (
	"encoding/json"
	"errors"
	"fmt"
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

func parseOpenAI(data []byte) (*Request, []string, error) {
	var in openAIRequest
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, nil, fmt.Errorf("the body is not a Chat Completions request: %w", err)
	}
	req := &Request{API: OpenAI, Model: in.Model, Stream: in.Stream, Tools: []string{}}
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	for i, m := range in.Messages {
		parts, err := openAIParts(m.Content)
		if err != nil {
			return nil, nil, fmt.Errorf("messages[%d].content: %w", i, err)
		}
		text := strings.Join(parts, "\n")
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
			// a list of parts is a message per part, as the Messages API's
			// blocks are (Qwen Code sends a hook's context as a part of its own)
			for _, p := range parts {
				req.Messages = append(req.Messages, userText(p)...)
			}
		}
	}
	return req, nil, nil
}

// openAIParts reads a content that is a string, null or a list of parts:
// each part's text ("[type]" for another kind).
func openAIParts(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return []string{""}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return []string{s}, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return nil, errors.New("neither a string nor a list of content parts")
	}
	out := []string{}
	for _, p := range parts {
		if p.Type == "text" {
			out = append(out, p.Text)
		} else {
			out = append(out, "["+p.Type+"]")
		}
	}
	return out, nil
}

// The Chat Completions answer.
type (
	openAIFunction struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	openAIOutCall struct {
		Index    *int           `json:"index,omitempty"`
		ID       string         `json:"id,omitempty"`
		Type     string         `json:"type,omitempty"`
		Function openAIFunction `json:"function"`
	}
	openAIOutMessage struct {
		Role      string          `json:"role,omitempty"`
		Content   *string         `json:"content,omitempty"`
		ToolCalls []openAIOutCall `json:"tool_calls,omitempty"`
	}
	openAIChoice struct {
		Index        int               `json:"index"`
		Message      *openAIOutMessage `json:"message,omitempty"`
		Delta        *openAIOutMessage `json:"delta,omitempty"`
		FinishReason *string           `json:"finish_reason"`
	}
	openAIUsageOut struct {
		Prompt     int `json:"prompt_tokens"`
		Completion int `json:"completion_tokens"`
		Total      int `json:"total_tokens"`
	}
	openAIOut struct {
		ID      string          `json:"id"`
		Object  string          `json:"object"`
		Created int64           `json:"created"`
		Model   string          `json:"model"`
		Choices []openAIChoice  `json:"choices"`
		Usage   *openAIUsageOut `json:"usage,omitempty"`
	}
)

func finishReason(a *Answer) string {
	if len(a.ToolCalls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func openAIUsage(u usage) *openAIUsageOut {
	return &openAIUsageOut{Prompt: u.in, Completion: u.out, Total: u.in + u.out}
}

func openAICompletion(model string, n int, a *Answer, u usage) *openAIOut {
	msg := &openAIOutMessage{Role: "assistant", Content: &a.Content}
	for _, tc := range a.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, openAIOutCall{ID: tc.ID, Type: "function", Function: openAIFunction{Name: tc.Name, Arguments: string(tc.Arguments)}})
	}
	if len(a.ToolCalls) > 0 && a.Content == "" {
		msg.Content = nil
	}
	finish := finishReason(a)
	return &openAIOut{ID: fmt.Sprintf("chatcmpl-capture-%04d", n+1), Object: "chat.completion", Created: time.Now().Unix(), Model: model,
		Choices: []openAIChoice{{Message: msg, FinishReason: &finish}}, Usage: openAIUsage(u)}
}

// renderOpenAIStream is the answer as Chat Completions streams one: a role
// chunk, content chunks, tool call chunks, the finish, the usage if asked,
// and [DONE].
func renderOpenAIStream(model string, n int, a *Answer, u usage, withUsage bool) []byte {
	var e sseBuf
	id, created := fmt.Sprintf("chatcmpl-capture-%04d", n+1), time.Now().Unix()
	chunk := func(delta *openAIOutMessage, finish *string) openAIOut {
		return openAIOut{ID: id, Object: "chat.completion.chunk", Created: created, Model: model, Choices: []openAIChoice{{Delta: delta, FinishReason: finish}}}
	}
	empty := ""
	e.data(chunk(&openAIOutMessage{Role: "assistant", Content: &empty}, nil))
	for _, c := range chunks(a.Content) {
		e.data(chunk(&openAIOutMessage{Content: &c}, nil))
	}
	for i, tc := range a.ToolCalls {
		e.data(chunk(&openAIOutMessage{ToolCalls: []openAIOutCall{{Index: &i, ID: tc.ID, Type: "function", Function: openAIFunction{Name: tc.Name}}}}, nil))
		for _, c := range chunks(string(tc.Arguments)) {
			e.data(chunk(&openAIOutMessage{ToolCalls: []openAIOutCall{{Index: &i, Function: openAIFunction{Arguments: c}}}}, nil))
		}
	}
	finish := finishReason(a)
	e.data(chunk(&openAIOutMessage{}, &finish))
	if withUsage {
		e.data(openAIOut{ID: id, Object: "chat.completion.chunk", Created: created, Model: model, Choices: []openAIChoice{}, Usage: openAIUsage(u)})
	}
	e.b = append(e.b, "data: [DONE]\n\n"...)
	return e.b
}
