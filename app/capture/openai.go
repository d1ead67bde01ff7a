package capture

import (
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// parseOpenAI reads a Chat Completions request that inspect has checked
// (gjson, a level at a time: see parseAnthropic).
func parseOpenAI(data []byte) (*Request, []string, error) {
	root := fieldsOf(gjson.ParseBytes(data))
	req := &Request{API: OpenAI, Model: root.Get("model").Str, Stream: root.Get("stream").Bool(), Tools: []string{}}
	root.Get("tools").ForEach(func(_, t gjson.Result) bool {
		req.Tools = append(req.Tools, t.Get("function.name").Str)
		return true
	})
	root.Get("messages").ForEach(func(_, mr gjson.Result) bool {
		m := fieldsOf(mr)
		parts := openAIParts(m.Get("content"))
		text := strings.Join(parts, "\n")
		switch m.Get("role").Str {
		case "system", "developer":
			req.Messages = append(req.Messages, Message{Role: "system", Content: text, Origin: OriginSystem})
		case "assistant":
			am := Message{Role: "assistant", Content: text, Origin: OriginAssistant}
			m.Get("tool_calls").ForEach(func(_, tc gjson.Result) bool {
				fn := tc.Get("function")
				am.ToolCalls = append(am.ToolCalls, ToolCall{ID: tc.Get("id").Str, Name: fn.Get("name").Str, Arguments: rawArgs(fn.Get("arguments").Str)})
				return true
			})
			req.Messages = append(req.Messages, am)
		case "tool":
			req.Messages = append(req.Messages, toolResult(m.Get("tool_call_id").Str, text, false))
		default:
			// a list of parts is a message per part, as the Messages API's
			// blocks are (Qwen Code sends a hook's context as a part of its own)
			for _, p := range parts {
				req.Messages = append(req.Messages, userText(p)...)
			}
		}
		return true
	})
	return req, nil, nil
}

// openAIParts reads a content that is a string, null or a list of parts:
// each part's text ("[type]" for another kind).
func openAIParts(r gjson.Result) []string {
	if r.Type == gjson.String || !r.IsArray() {
		return []string{r.Str}
	}
	out := []string{}
	r.ForEach(func(_, p gjson.Result) bool {
		if t := p.Get("type").Str; t == "text" {
			out = append(out, p.Get("text").Str)
		} else {
			out = append(out, "["+t+"]")
		}
		return true
	})
	return out
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
