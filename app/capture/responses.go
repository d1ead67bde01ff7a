package capture

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The OpenAI Responses API's request (what Codex CLI speaks), as much of
// it as is recorded.
type responsesRequest struct {
	Model        string          `json:"model"`
	Instructions *string         `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        []struct {
		Type string `json:"type"`
		Name string `json:"name"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

// responsesItem is one input item, every field any known type has.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
}

func parseResponses(data []byte) (*Request, []string, error) {
	var in responsesRequest
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, nil, fmt.Errorf("the body is not a Responses API request: %w", err)
	}
	req := &Request{API: Responses, Model: in.Model, Stream: in.Stream, Tools: []string{}}
	for _, t := range in.Tools {
		name := t.Name
		if name == "" {
			name = t.Type // a built-in tool: web_search, local_shell, …
		}
		req.Tools = append(req.Tools, name)
	}
	if in.Instructions != nil && *in.Instructions != "" {
		req.Messages = append(req.Messages, Message{Role: "system", Content: *in.Instructions, Origin: OriginSystem})
	}
	var prompt string
	if json.Unmarshal(in.Input, &prompt) == nil {
		req.Messages = append(req.Messages, userText(prompt)...)
		return req, nil, nil
	}
	var items []json.RawMessage
	if len(in.Input) > 0 && string(in.Input) != "null" {
		if err := json.Unmarshal(in.Input, &items); err != nil {
			return nil, nil, fmt.Errorf("input: %w", err)
		}
	}
	var warnings []string
	for i, raw := range items {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			return nil, warnings, fmt.Errorf("input[%d]: %w", i, err)
		}
		switch it.Type {
		case "", "message":
			parts, w := responsesParts(it.Content, fmt.Sprintf("input[%d].content", i))
			warnings = append(warnings, w...)
			switch it.Role {
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
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.CallID, Name: it.Name, Arguments: rawArgs(it.Arguments)})
		case "custom_tool_call":
			args, _ := json.Marshal(map[string]string{"input": it.Input})
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.CallID, Name: it.Name, Arguments: args})
		case "local_shell_call":
			req.Messages = withToolCall(req.Messages, ToolCall{ID: it.CallID, Name: "local_shell", Arguments: rawOr(it.Action)})
		case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
			text, w := responsesOutput(it.Output, fmt.Sprintf("input[%d].output", i))
			warnings = append(warnings, w...)
			req.Messages = append(req.Messages, toolResult(it.CallID, text, false))
		case "reasoning":
			// kept as it came (its summary, its encrypted content): the
			// model's own earlier thinking, sent back
			req.Messages = append(req.Messages, Message{Role: "assistant", Content: string(raw), Origin: OriginAssistant, Kind: it.Type})
		default:
			role := "user"
			if strings.HasSuffix(it.Type, "_call") {
				role = "assistant"
			}
			req.Messages = append(req.Messages, Message{Role: role, Content: string(raw), Origin: OriginContext, Kind: it.Type})
			warnings = append(warnings, fmt.Sprintf("input[%d]: an item of type %q, which this capture does not read: kept as it came", i, it.Type))
		}
	}
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

// responsesParts are a message content's texts: a string, or the text of
// each part (another part kind as "[kind]").
func responsesParts(raw json.RawMessage, path string) ([]string, []string) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, nil
	}
	var parts []struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Refusal string `json:"refusal"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil, []string{path + ": neither a string nor a list of parts; left out"}
	}
	var out, warnings []string
	for j, p := range parts {
		switch p.Type {
		case "input_text", "output_text", "text", "summary_text", "reasoning_text":
			out = append(out, p.Text)
		case "refusal":
			out = append(out, p.Refusal)
		case "input_image", "input_file", "input_audio":
			out = append(out, "["+p.Type+"]")
		default:
			out = append(out, "["+p.Type+"]")
			warnings = append(warnings, fmt.Sprintf("%s[%d]: a part of type %q, which this capture does not read: kept as its type", path, j, p.Type))
		}
	}
	return out, warnings
}

// responsesOutput is a tool output's text: a string, or its parts' texts.
func responsesOutput(raw json.RawMessage, path string) (string, []string) {
	parts, w := responsesParts(raw, path)
	return strings.Join(parts, "\n"), w
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
