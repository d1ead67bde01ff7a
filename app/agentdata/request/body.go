package request

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Msg is one message of a request as a run holds it: a capture's reader
// gives the same list back from the body Build writes.
type Msg struct {
	Role string // system, developer, user, assistant, tool
	Text string
	// System: a piece of the system prompt, not of the conversation;
	// Cache its prompt-cache marker; Own: a text of the agent's own, as
	// learned (its framing included).
	System bool
	Cache  bool
	Own    bool
	// ToolCalls of an assistant message; ToolCallID and IsError of a
	// tool's result.
	ToolCalls  []ToolCall
	ToolCallID string
	ToolName   string
	IsError    bool
	// Join: the agent writes the text after the message before it, with
	// Join between, as one text (Framing.Join).
	Join string
}

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments json.RawMessage
}

// Build writes the request body the agent sends for msgs, in its API's
// shape, with the tools offered (nil: every tool of the model).
func Build(m *Model, v Values, msgs []Msg, offered []string) (json.RawMessage, error) {
	var sys, conv []Msg
	for _, x := range msgs {
		if x.System {
			sys = append(sys, x)
		} else {
			conv = append(conv, x)
		}
	}
	tools, err := m.toolDefs(v, offered)
	if err != nil {
		return nil, err
	}
	parts := map[string]any{}
	switch m.API {
	case Anthropic:
		parts["system"], parts["messages"], parts["tools"] = anthropicSystem(sys), m.anthropicMessages(conv), tools
	case Responses:
		parts["instructions"], parts["input"], parts["tools"] = joinTexts(sys), m.responsesInput(conv), tools
	case Gemini:
		parts["systemInstruction"], parts["contents"] = geminiSystem(sys), m.geminiContents(conv)
		parts["tools"] = []any{map[string]any{"functionDeclarations": tools}}
	case Chat:
		parts["messages"], parts["tools"] = m.chatMessages(sys, conv), tools
	default:
		return nil, fmt.Errorf("request model %s: api %q", m.Ref(), m.API)
	}
	keys := m.Keys
	if len(keys) == 0 {
		keys = []string{"model"}
		for _, k := range []string{"system", "instructions", "systemInstruction", "messages", "input", "contents", "tools"} {
			if _, ok := parts[k]; ok {
				keys = append(keys, k)
			}
		}
	}
	fields := map[string]json.RawMessage{}
	for _, f := range m.Fields {
		fields[f.Name] = f.Value
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	n := 0
	write := func(k string, v any) error {
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		kb, _ := json.Marshal(k)
		buf.Write(kb)
		buf.WriteByte(':')
		if raw, ok := v.(json.RawMessage); ok {
			buf.Write(raw)
			return nil
		}
		vb, err := marshal(v)
		if err != nil {
			return err
		}
		buf.Write(vb)
		return nil
	}
	for _, k := range keys {
		var err error
		switch {
		case k == "model" && fields[k] == nil:
			err = write(k, m.Model)
		case parts[k] != nil:
			err = write(k, parts[k])
		case fields[k] != nil:
			err = write(k, fields[k])
		}
		if err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// toolDefs are the offered tools' definitions: a calibrated model's as
// sent, a shipped shape's as a name and a placeholder.
func (m *Model) toolDefs(v Values, offered []string) ([]json.RawMessage, error) {
	out := []json.RawMessage{}
	for _, t := range m.Tools {
		if offered != nil && !contains(offered, t.Name) {
			continue
		}
		if t.Definition == nil {
			def, _ := marshal(map[string]any{"name": t.Name, "description": fmt.Sprintf("[%s %s's %s tool: %d tokens; calibrate to see it]", m.Agent, m.Version, t.Name, t.Shape.Tokens)})
			out = append(out, def)
			continue
		}
		raw := json.RawMessage(t.Definition.FillJSON(v))
		if !json.Valid(raw) {
			return nil, fmt.Errorf("request model %s: tool %s is not JSON once filled", m.Ref(), t.Name)
		}
		out = append(out, raw)
	}
	return out, nil
}

// groups are the conversation's API messages: a run of messages of the
// same wire role when the agent merges them, else one each.
func (m *Model) groups(conv []Msg, wire func(Msg) string) [][]Msg {
	var out [][]Msg
	for _, x := range conv {
		if n := len(out); n > 0 && m.Framing.Merge && wire(out[n-1][0]) == wire(x) {
			out[n-1] = append(out[n-1], x)
			continue
		}
		out = append(out, []Msg{x})
	}
	return out
}

type block map[string]any

func anthropicSystem(sys []Msg) []block {
	out := []block{}
	for _, s := range sys {
		b := block{"type": "text", "text": s.Text}
		if s.Cache {
			b["cache_control"] = map[string]string{"type": "ephemeral"}
		}
		out = append(out, b)
	}
	return out
}

func (m *Model) anthropicMessages(conv []Msg) []any {
	wire := func(x Msg) string {
		if x.Role == "tool" {
			return "user"
		}
		return x.Role
	}
	gs := m.groups(conv, wire)
	out := make([]any, 0, len(gs))
	for gi, g := range gs {
		var blocks []block
		for i := 0; i < len(g); i++ {
			x := g[i]
			switch {
			case x.Role == "assistant":
				if x.Text != "" {
					blocks = append(blocks, block{"type": "text", "text": x.Text})
				}
				for _, tc := range x.ToolCalls {
					args := tc.Arguments
					if len(args) == 0 {
						args = json.RawMessage(`{}`)
					}
					blocks = append(blocks, block{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": args})
				}
			case x.Role == "tool":
				blocks = append(blocks, block{"tool_use_id": x.ToolCallID, "type": "tool_result", "content": x.Text, "is_error": x.IsError})
			case m.Framing.Paragraphs != "" && string(m.Framing.Paragraphs) == x.Role:
				text := x.Text
				for i+1 < len(g) && g[i+1].Role == x.Role {
					i++
					text += m.Framing.Separator + g[i].Text
				}
				blocks = append(blocks, block{"type": "text", "text": text})
			default:
				text := x.Text
				if next := i + 1; next < len(g) && g[next].Role != "assistant" && g[next].Role != "tool" && !x.Own && m.Framing.BlockSuffix != "" {
					text += m.Framing.BlockSuffix
				}
				blocks = append(blocks, block{"type": "text", "text": text})
			}
		}
		last := gi == len(gs)-1
		msg := map[string]any{"role": wire(g[0])}
		switch {
		case last && m.Framing.CacheLast && len(blocks) > 0:
			blocks[len(blocks)-1]["cache_control"] = map[string]string{"type": "ephemeral"}
			msg["content"] = blocks
		case m.Framing.StringContent && len(blocks) == 1 && blocks[0]["type"] == "text":
			msg["content"] = blocks[0]["text"]
		default:
			msg["content"] = blocks
		}
		out = append(out, orderedMessage(msg))
	}
	return out
}

// orderedMessage writes role before content, as every agent does.
func orderedMessage(msg map[string]any) json.RawMessage {
	role, _ := marshal(msg["role"])
	content, _ := marshal(msg["content"])
	return json.RawMessage(`{"role":` + string(role) + `,"content":` + string(content) + `}`)
}

func joinTexts(sys []Msg) string {
	var b bytes.Buffer
	for i, s := range sys {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s.Text)
	}
	return b.String()
}

func (m *Model) responsesInput(conv []Msg) []block {
	out := []block{}
	for _, x := range conv {
		switch x.Role {
		case "assistant":
			if x.Text != "" {
				out = append(out, block{"type": "message", "role": "assistant", "content": []block{{"type": "output_text", "text": x.Text}}})
			}
			for _, tc := range x.ToolCalls {
				out = append(out, block{"type": "function_call", "name": tc.Name, "arguments": string(tc.Arguments), "call_id": tc.ID})
			}
		case "tool":
			out = append(out, block{"type": "function_call_output", "call_id": x.ToolCallID, "output": x.Text})
		default:
			role := x.Role
			if role == "system" {
				role = "developer"
			}
			if n := len(out); n > 0 && m.Framing.Merge && out[n-1]["type"] == "message" && out[n-1]["role"] == role {
				out[n-1]["content"] = append(out[n-1]["content"].([]block), block{"type": "input_text", "text": x.Text})
				continue
			}
			out = append(out, block{"type": "message", "role": role, "content": []block{{"type": "input_text", "text": x.Text}}})
		}
	}
	return out
}

func geminiSystem(sys []Msg) any {
	if len(sys) == 0 {
		return nil
	}
	parts := []block{}
	for _, s := range sys {
		parts = append(parts, block{"text": s.Text})
	}
	return block{"role": "user", "parts": parts}
}

func (m *Model) geminiContents(conv []Msg) []block {
	wire := func(x Msg) string {
		if x.Role == "assistant" {
			return "model"
		}
		return "user"
	}
	out := []block{}
	for _, g := range m.groups(conv, wire) {
		parts := []block{}
		for _, x := range g {
			switch x.Role {
			case "assistant":
				if x.Text != "" {
					parts = append(parts, block{"text": x.Text})
				}
				for _, tc := range x.ToolCalls {
					var args any = map[string]any{}
					_ = json.Unmarshal(tc.Arguments, &args)
					parts = append(parts, block{"functionCall": block{"name": tc.Name, "args": args}})
				}
			case "tool":
				parts = append(parts, block{"functionResponse": block{"id": x.ToolCallID, "name": x.ToolName, "response": block{"output": x.Text}}})
			default:
				parts = append(parts, block{"text": x.Text})
			}
		}
		out = append(out, block{"role": wire(g[0]), "parts": parts})
	}
	return out
}

func (m *Model) chatMessages(sys, conv []Msg) []block {
	out := []block{}
	for _, s := range sys {
		out = append(out, block{"role": "system", "content": s.Text})
	}
	text := func(x Msg) any {
		if m.Framing.Parts {
			return []block{{"type": "text", "text": x.Text}}
		}
		return x.Text
	}
	wire := func(x Msg) string { return x.Role }
	for _, g := range m.groups(joined(conv), wire) {
		x := g[0]
		switch x.Role {
		case "assistant":
			for _, y := range g {
				b := block{"role": "assistant", "content": y.Text}
				if len(y.ToolCalls) > 0 {
					var calls []block
					for _, tc := range y.ToolCalls {
						calls = append(calls, block{"id": tc.ID, "type": "function", "function": block{"name": tc.Name, "arguments": string(tc.Arguments)}})
					}
					b["tool_calls"] = calls
					if y.Text == "" {
						b["content"] = nil // as the agents send a call without words
					}
				}
				out = append(out, b)
			}
		case "tool":
			for _, y := range g {
				out = append(out, block{"role": "tool", "tool_call_id": y.ToolCallID, "content": text(y)})
			}
		default:
			if len(g) == 1 {
				out = append(out, block{"role": x.Role, "content": text(x)})
				continue
			}
			parts := []block{}
			for _, y := range g {
				parts = append(parts, block{"type": "text", "text": y.Text})
			}
			out = append(out, block{"role": x.Role, "content": parts})
		}
	}
	return out
}

// joined is conv with each message the agent joins to the text before
// it (Msg.Join) made part of that text.
func joined(conv []Msg) []Msg {
	out := make([]Msg, 0, len(conv))
	for _, x := range conv {
		if n := len(out); n > 0 && x.Join != "" && out[n-1].Role == x.Role {
			out[n-1].Text += x.Join + x.Text
			continue
		}
		out = append(out, x)
	}
	return out
}
