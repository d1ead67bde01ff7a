package capture

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// parseResponses reads a Responses API request (what Codex CLI speaks)
// that inspect has checked (gjson, a level at a time: see parseAnthropic).
func parseResponses(data []byte) (*Request, []string, error) {
	root := fieldsOf(gjson.ParseBytes(data))
	req := &Request{API: Responses, Model: root.Get("model").Str, Stream: root.Get("stream").Bool(), Tools: []string{}}
	root.Get("tools").ForEach(func(_, t gjson.Result) bool {
		name := t.Get("name").Str
		if name == "" {
			name = t.Get("type").Str // a built-in tool: web_search, local_shell, …
		}
		req.Tools = append(req.Tools, name)
		return true
	})
	if ins := root.Get("instructions").Str; ins != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: ins, Origin: OriginSystem})
	}
	input := root.Get("input")
	if input.Type == gjson.String {
		req.Messages = append(req.Messages, userText(input.Str)...)
		return req, nil, nil
	}
	var warnings []string
	i := 0
	input.ForEach(func(_, raw gjson.Result) bool {
		it := fieldsOf(raw)
		at := fmt.Sprintf("input[%d]", i)
		i++
		switch typ := it.Get("type").Str; typ {
		case "", "message":
			parts, w := responsesParts(it.Get("content"), at+".content")
			warnings = append(warnings, w...)
			switch it.Get("role").Str {
			case "assistant":
				req.Messages = append(req.Messages, Message{Role: "assistant", Content: strings.Join(parts, "\n"), Origin: OriginAssistant})
			case "system", "developer":
				for _, p := range parts {
					// Codex sends no instructions: its prompt is the first
					// developer text; the later ones are its context (and
					// hooks' words)
					m := Message{Role: "system", Content: p, Origin: OriginContext}
					if len(req.Messages) == 0 {
						m.Origin = OriginSystem
					}
					req.Messages = append(req.Messages, m)
				}
			default:
				for _, p := range parts {
					req.Messages = append(req.Messages, userText(p)...)
				}
			}
		case "function_call":
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.Get("call_id").Str, Name: it.Get("name").Str, Arguments: rawArgs(it.Get("arguments").Str)})
		case "custom_tool_call":
			args, _ := json.Marshal(map[string]string{"input": it.Get("input").Str})
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.Get("call_id").Str, Name: it.Get("name").Str, Arguments: args})
		case "local_shell_call":
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.Get("call_id").Str, Name: "local_shell", Arguments: rawOr(json.RawMessage(it.Get("action").Raw))})
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			parts, w := responsesParts(it.Get("output"), at+".output")
			warnings = append(warnings, w...)
			req.Messages = append(req.Messages, toolResult(it.Get("call_id").Str, strings.Join(parts, "\n"), false))
		case "reasoning":
			// kept as it came (its summary, its encrypted content): the
			// model's own earlier thinking, sent back
			req.Messages = append(req.Messages, Message{Role: "assistant", Content: raw.Raw, Origin: OriginAssistant, Kind: typ})
		default:
			role := "user"
			if strings.HasSuffix(typ, "_call") {
				role = "assistant"
			}
			req.Messages = append(req.Messages, Message{Role: role, Content: raw.Raw, Origin: OriginContext, Kind: typ})
			warnings = append(warnings, fmt.Sprintf("%s: an item of type %q, which this capture does not read: kept as it came", at, typ))
		}
		return true
	})
	return req, warnings, nil
}

// withToolCall adds a call to the assistant turn just before it (a
// Responses turn is a message item and then one item per call), or starts
// one.
func withToolCall(ms []Message, tc ToolCall) []Message {
	if n := len(ms); n > 0 && ms[n-1].Role == "assistant" && ms[n-1].Kind == "" {
		ms[n-1].ToolCalls = append(ms[n-1].ToolCalls, tc)
		return ms
	}
	return append(ms, Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{tc}})
}

func rawOr(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage(`{}`)
	}
	return raw
}

// responsesParts are a message content's or an output's texts: a string,
// or the text of each part (another part kind as "[kind]").
func responsesParts(r gjson.Result, path string) ([]string, []string) {
	if r.Type == gjson.String {
		return []string{r.Str}, nil
	}
	var out, warnings []string
	j := 0
	r.ForEach(func(_, pr gjson.Result) bool {
		p := fieldsOf(pr)
		switch typ := p.Get("type").Str; typ {
		case "input_text", "output_text", "text", "summary_text", "reasoning_text":
			out = append(out, p.Get("text").Str)
		case "refusal":
			out = append(out, p.Get("refusal").Str)
		case "input_image", "input_file", "input_audio":
			out = append(out, "["+typ+"]")
		default:
			out = append(out, "["+typ+"]")
			warnings = append(warnings, fmt.Sprintf("%s[%d]: a part of type %q, which this capture does not read: kept as its type", path, j, typ))
		}
		j++
		return true
	})
	return out, warnings
}

// The Responses API's answer, as the API writes one.
type (
	responsesObject struct {
		ID                string            `json:"id"`
		Object            string            `json:"object"`
		CreatedAt         int64             `json:"created_at"`
		Status            string            `json:"status"`
		Model             string            `json:"model"`
		Output            []any             `json:"output"`
		Usage             *responsesUsage   `json:"usage"`
		Error             *json.RawMessage  `json:"error"`
		IncompleteDetails *json.RawMessage  `json:"incomplete_details"`
		ParallelToolCalls bool              `json:"parallel_tool_calls"`
		ToolChoice        string            `json:"tool_choice"`
		Tools             []json.RawMessage `json:"tools"`
	}
	responsesUsage struct {
		InputTokens         int            `json:"input_tokens"`
		InputTokensDetails  map[string]int `json:"input_tokens_details"`
		OutputTokens        int            `json:"output_tokens"`
		OutputTokensDetails map[string]int `json:"output_tokens_details"`
		TotalTokens         int            `json:"total_tokens"`
	}
	responsesText struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Annotations []any  `json:"annotations"`
	}
	responsesMessage struct {
		ID      string          `json:"id"`
		Type    string          `json:"type"`
		Status  string          `json:"status"`
		Role    string          `json:"role"`
		Content []responsesText `json:"content"`
	}
	responsesCall struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		Status    string `json:"status"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	responsesEvent struct {
		Type           string           `json:"type"`
		SequenceNumber int              `json:"sequence_number"`
		Response       *responsesObject `json:"response,omitempty"`
		OutputIndex    *int             `json:"output_index,omitempty"`
		ItemID         string           `json:"item_id,omitempty"`
		ContentIndex   *int             `json:"content_index,omitempty"`
		Item           any              `json:"item,omitempty"`
		Part           *responsesText   `json:"part,omitempty"`
		Delta          *string          `json:"delta,omitempty"`
		Text           *string          `json:"text,omitempty"`
		Name           string           `json:"name,omitempty"`
		Arguments      *string          `json:"arguments,omitempty"`
		Logprobs       []any            `json:"logprobs,omitempty"`
	}
)

// responsesOutputItems are the answer's output items: a message when it
// has text (or nothing else), then one function_call per tool call.
func responsesOutputItems(n int, a *Answer, done bool) []any {
	status := "in_progress"
	if done {
		status = "completed"
	}
	var out []any
	if a.Content != "" || len(a.ToolCalls) == 0 {
		text := ""
		if done {
			text = a.Content
		}
		content := []responsesText{{Type: "output_text", Text: text, Annotations: []any{}}}
		if !done {
			content = []responsesText{}
		}
		out = append(out, responsesMessage{ID: fmt.Sprintf("msg_capture_%04d", n+1), Type: "message", Status: status, Role: "assistant", Content: content})
	}
	for i, tc := range a.ToolCalls {
		args := ""
		if done {
			args = string(tc.Arguments)
		}
		out = append(out, responsesCall{ID: fmt.Sprintf("fc_capture_%04d_%d", n+1, i+1), Type: "function_call", Status: status, CallID: tc.ID, Name: tc.Name, Arguments: args})
	}
	return out
}

func responsesResponse(model string, n int, a *Answer, u usage, done bool) *responsesObject {
	r := &responsesObject{ID: fmt.Sprintf("resp_capture_%04d", n+1), Object: "response", CreatedAt: time.Now().Unix(), Status: "in_progress", Model: model,
		Output: []any{}, ParallelToolCalls: true, ToolChoice: "auto", Tools: []json.RawMessage{}}
	if done {
		r.Status, r.Output = "completed", responsesOutputItems(n, a, true)
		r.Usage = &responsesUsage{InputTokens: u.in, InputTokensDetails: map[string]int{"cached_tokens": 0}, OutputTokens: u.out,
			OutputTokensDetails: map[string]int{"reasoning_tokens": 0}, TotalTokens: u.in + u.out}
	}
	return r
}

// renderResponsesStream is the answer as the Responses API streams one:
// response.created and .in_progress; per output item its .added, for the
// message a content part with output_text deltas, for a call its
// arguments' deltas, and its .done; then response.completed with usage.
func renderResponsesStream(model string, n int, a *Answer, u usage) []byte {
	var e sseBuf
	seq := 0
	send := func(ev responsesEvent) {
		ev.SequenceNumber = seq
		seq++
		e.event(ev.Type, ev)
	}
	ptr := func(i int) *int { return &i }
	sptr := func(s string) *string { return &s }
	send(responsesEvent{Type: "response.created", Response: responsesResponse(model, n, a, u, false)})
	send(responsesEvent{Type: "response.in_progress", Response: responsesResponse(model, n, a, u, false)})
	started, finished := responsesOutputItems(n, a, false), responsesOutputItems(n, a, true)
	for i, item := range started {
		send(responsesEvent{Type: "response.output_item.added", OutputIndex: ptr(i), Item: item})
		switch it := item.(type) {
		case responsesMessage:
			empty := responsesText{Type: "output_text", Text: "", Annotations: []any{}}
			send(responsesEvent{Type: "response.content_part.added", ItemID: it.ID, OutputIndex: ptr(i), ContentIndex: ptr(0), Part: &empty})
			for _, c := range chunks(a.Content) {
				send(responsesEvent{Type: "response.output_text.delta", ItemID: it.ID, OutputIndex: ptr(i), ContentIndex: ptr(0), Delta: sptr(c), Logprobs: []any{}})
			}
			send(responsesEvent{Type: "response.output_text.done", ItemID: it.ID, OutputIndex: ptr(i), ContentIndex: ptr(0), Text: sptr(a.Content), Logprobs: []any{}})
			full := responsesText{Type: "output_text", Text: a.Content, Annotations: []any{}}
			send(responsesEvent{Type: "response.content_part.done", ItemID: it.ID, OutputIndex: ptr(i), ContentIndex: ptr(0), Part: &full})
		case responsesCall:
			args := finished[i].(responsesCall).Arguments
			for _, c := range chunks(args) {
				send(responsesEvent{Type: "response.function_call_arguments.delta", ItemID: it.ID, OutputIndex: ptr(i), Delta: sptr(c)})
			}
			send(responsesEvent{Type: "response.function_call_arguments.done", ItemID: it.ID, OutputIndex: ptr(i), Name: it.Name, Arguments: sptr(args)})
		}
		send(responsesEvent{Type: "response.output_item.done", OutputIndex: ptr(i), Item: finished[i]})
	}
	send(responsesEvent{Type: "response.completed", Response: responsesResponse(model, n, a, u, true)})
	return e.b
}
