package calibrate

import (
	"encoding/json"
	"fmt"
	"strings"

	"hookstudio/app/capture"
)

// unitsOf reads a request of api into the pieces the model reads, in
// order: each message's text parts (units of one message are siblings),
// tool results and answers.
func unitsOf(api capture.API, body json.RawMessage) ([]unit, error) {
	switch api {
	case capture.Anthropic:
		return units(body)
	case capture.OpenAI:
		return chatUnits(body)
	case capture.Responses:
		return responsesUnits(body)
	case capture.Gemini:
		return geminiUnits(body)
	}
	return nil, fmt.Errorf("a request of API %q", api)
}

// asMessage numbers units as one message's (siblings) and appends them.
func asMessage(out []unit, msg int, role string, us []unit) []unit {
	results := 0
	for _, u := range us {
		if u.kind == "tool_result" {
			results++
		}
	}
	for i := range us {
		us[i].msg, us[i].role, us[i].siblings, us[i].toolResults = msg, role, len(us), results
	}
	return append(out, us...)
}

// textsOf reads a content that is a string or a list of parts with text.
func textsOf(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return out
}

func chatUnits(body json.RawMessage) ([]unit, error) {
	var req struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("a request is not a Chat Completions request: %w", err)
	}
	var out []unit
	for i, m := range req.Messages {
		switch m.Role {
		case "assistant":
			u := unit{kind: "answer", text: strings.Join(textsOf(m.Content), "\n"), calls: map[string]string{}}
			for _, tc := range m.ToolCalls {
				u.calls[tc.ID] = tc.Function.Arguments
			}
			out = asMessage(out, i, m.Role, []unit{u})
		case "tool":
			out = asMessage(out, i, m.Role, []unit{{kind: "tool_result", text: strings.Join(textsOf(m.Content), "\n"), callID: m.ToolCallID}})
		default:
			var us []unit
			for _, t := range textsOf(m.Content) {
				us = append(us, unit{kind: "text", text: t})
			}
			out = asMessage(out, i, m.Role, us)
		}
	}
	return out, nil
}

func responsesUnits(body json.RawMessage) ([]unit, error) {
	var req struct {
		Input []struct {
			Type      string          `json:"type"`
			Role      string          `json:"role"`
			Content   json.RawMessage `json:"content"`
			CallID    string          `json:"call_id"`
			Arguments string          `json:"arguments"`
			Output    json.RawMessage `json:"output"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("a request is not a Responses API request: %w", err)
	}
	var out []unit
	for i, it := range req.Input {
		switch {
		case it.Type == "function_call" || it.Type == "custom_tool_call":
			// a turn's calls are one answer (the message before them, if any)
			if n := len(out); n > 0 && out[n-1].kind == "answer" {
				out[n-1].calls[it.CallID] = it.Arguments
				continue
			}
			out = asMessage(out, i, "assistant", []unit{{kind: "answer", calls: map[string]string{it.CallID: it.Arguments}}})
		case strings.HasSuffix(it.Type, "_output"):
			out = asMessage(out, i, "tool", []unit{{kind: "tool_result", text: strings.Join(textsOf(it.Output), "\n"), callID: it.CallID}})
		case it.Role == "assistant":
			out = asMessage(out, i, it.Role, []unit{{kind: "answer", text: strings.Join(textsOf(it.Content), "\n"), calls: map[string]string{}}})
		case it.Type == "" || it.Type == "message":
			var us []unit
			for _, t := range textsOf(it.Content) {
				us = append(us, unit{kind: "text", text: t})
			}
			out = asMessage(out, i, it.Role, us)
		}
	}
	return out, nil
}

func geminiUnits(body json.RawMessage) ([]unit, error) {
	type part struct {
		Text         *string `json:"text"`
		FunctionCall *struct {
			ID   string          `json:"id"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
		FunctionResponse *struct {
			ID       string `json:"id"`
			Response struct {
				Output *string `json:"output"`
				Error  *string `json:"error"`
			} `json:"response"`
		} `json:"functionResponse"`
	}
	var req struct {
		SystemInstruction struct {
			Parts []part `json:"parts"`
		} `json:"systemInstruction"`
		Contents []struct {
			Role  string `json:"role"`
			Parts []part `json:"parts"`
		} `json:"contents"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("a request is not a Gemini API request: %w", err)
	}
	var out, sys []unit
	for _, p := range req.SystemInstruction.Parts {
		if p.Text != nil {
			sys = append(sys, unit{kind: "text", text: *p.Text})
		}
	}
	out = asMessage(out, -1, "system", sys)
	for i, c := range req.Contents {
		if c.Role == "model" {
			u := unit{kind: "answer", calls: map[string]string{}}
			for _, p := range c.Parts {
				switch {
				case p.Text != nil:
					u.text += *p.Text
				case p.FunctionCall != nil:
					u.calls[p.FunctionCall.ID] = string(p.FunctionCall.Args)
				}
			}
			out = asMessage(out, i, "assistant", []unit{u})
			continue
		}
		var us []unit
		for _, p := range c.Parts {
			switch {
			case p.Text != nil:
				us = append(us, unit{kind: "text", text: *p.Text})
			case p.FunctionResponse != nil:
				r := p.FunctionResponse.Response
				u := unit{kind: "tool_result", callID: p.FunctionResponse.ID}
				if r.Output != nil {
					u.text = *r.Output
				} else if r.Error != nil {
					u.text, u.isError = *r.Error, true
				}
				us = append(us, u)
			}
		}
		out = asMessage(out, i, c.Role, us)
	}
	return out, nil
}
