package request

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Msg is one message of a request as a run holds it: a capture's reader
// gives the same list back from the body Build writes.
type Msg struct {
	Role string // system, developer, user, assistant, tool
	Text string
	// System: a piece of the system prompt, not of the conversation;
	// Cache its prompt-cache marker; Own: a text of the agent's own, as
	// learned (its framing included; Framing.MergeOwn groups those of the
	// conversation).
	System bool
	Cache  bool
	Own    bool
	// ToolCalls of an assistant message; ToolCallID and IsError of a
	// tool's result.
	ToolCalls  []ToolCall
	ToolCallID string
	ToolName   string
	IsError    bool
	// Join: this message's text and the next one's are one text on the
	// wire, joined by it (a hook's words the agent writes on the prompt:
	// Part.Join).
	Join string
	// Starts: the message starts an API message of its own, where the
	// agent would merge it into the one before (Side.TurnApart).
	Starts bool
	// JoinBefore: the agent writes the text after the message before it,
	// with JoinBefore between, as one text (Framing.Join).
	JoinBefore string
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
	tools, err := m.toolDefs(v, offered)
	if err != nil {
		return nil, err
	}
	return m.build(m.Keys, m.Fields, msgs, tools)
}

// BuildSide writes the body of the agent's side call s for msgs (its
// system prompt's pieces marked System) with the run's values v: its own
// tools, and its own keys and fields where it has them (else the
// agent's).
func BuildSide(m *Model, s *Side, v Values, msgs []Msg) (json.RawMessage, error) {
	sm := *m
	sm.Tools = s.Tools
	tools, err := sm.toolDefs(v, nil)
	if err != nil {
		return nil, err
	}
	keys, fields := m.Keys, m.Fields
	if len(s.Keys) > 0 {
		keys = s.Keys
	}
	if s.Fields != nil {
		fields = s.Fields
	}
	return m.build(keys, fields, msgs, tools)
}

func (m *Model) build(keys []string, fieldList []Field, msgs []Msg, tools []json.RawMessage) (json.RawMessage, error) {
	var sys, conv []Msg
	for _, x := range msgs {
		if x.System {
			sys = append(sys, x)
		} else {
			conv = append(conv, x)
		}
	}
	parts := map[string]any{}
	switch m.API {
	case Anthropic:
		parts["system"], parts["messages"], parts["tools"] = anthropicSystem(sys), m.anthropicMessages(conv), tools
	case Responses:
		if m.Framing.SystemMessage {
			parts["input"] = m.responsesInput(slices.Concat(sys, conv))
		} else {
			parts["instructions"], parts["input"] = joinTexts(sys), m.responsesInput(conv)
		}
		parts["tools"] = tools
	case Gemini:
		parts["systemInstruction"], parts["contents"] = geminiSystem(sys), m.geminiContents(conv)
		parts["tools"] = []any{map[string]any{"functionDeclarations": tools}}
	case Chat:
		parts["messages"], parts["tools"] = m.chatMessages(sys, conv), tools
	default:
		return nil, fmt.Errorf("request model %s: api %q", m.Ref(), m.API)
	}
	if len(keys) == 0 {
		keys = []string{"model"}
		for _, k := range []string{"system", "instructions", "systemInstruction", "messages", "input", "contents", "tools"} {
			if _, ok := parts[k]; ok {
				keys = append(keys, k)
			}
		}
	}
	fields := map[string]json.RawMessage{}
	for _, f := range fieldList {
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
		if n := len(out); n > 0 && m.Framing.Merge && !x.Starts && wire(out[n-1][0]) == wire(x) {
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
	for i, x := range conv {
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
			// a part of the message before: every message of a role in a
			// row (Merge), or the agent's own pieces (MergeOwn)
			if n := len(out); n > 0 && out[n-1]["type"] == "message" && out[n-1]["role"] == role &&
				(m.Framing.Merge || m.Framing.MergeOwn && x.Own && !x.System && i > 0 && conv[i-1].Own && !conv[i-1].System) {
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

// geminiContents are the conversation as Gemini CLI writes it: a content
// per wire role run (parts, then role), a function call's id, args and
// name and a function response's name, response and id in its order, a
// hook's words joined to the prompt in one text part, the calls of the
// model's answers since the user last spoke signed (CallSignature).
func (m *Model) geminiContents(conv []Msg) []json.RawMessage {
	wire := func(x Msg) string {
		if x.Role == "assistant" {
			return "model"
		}
		return "user"
	}
	gs := m.groups(conv, wire)
	// the user's last words: the model's answers after them are signed
	spoke := -1
	for gi, g := range gs {
		if wire(g[0]) == "user" && slices.ContainsFunc(g, func(x Msg) bool { return x.Role != "tool" }) {
			spoke = gi
		}
	}
	out := make([]json.RawMessage, 0, len(gs))
	for gi, g := range gs {
		var parts []json.RawMessage
		join := ""
		for _, x := range g {
			switch x.Role {
			case "assistant":
				if x.Text != "" {
					parts = append(parts, object("text", x.Text))
				}
				for k, tc := range x.ToolCalls {
					args := tc.Arguments
					if len(args) == 0 || !json.Valid(args) {
						args = json.RawMessage(`{}`)
					}
					fc := object("id", tc.ID, "args", args, "name", tc.Name)
					if k == 0 && gi > spoke && m.Framing.CallSignature != "" {
						parts = append(parts, object("functionCall", fc, "thoughtSignature", m.Framing.CallSignature))
						continue
					}
					parts = append(parts, object("functionCall", fc))
				}
			case "tool":
				parts = append(parts, object("functionResponse", object("name", x.ToolName, "response", object("output", x.Text), "id", x.ToolCallID)))
			default:
				if x.Join != "" {
					join += x.Text + x.Join
					continue
				}
				parts = append(parts, object("text", join+x.Text))
				join = ""
			}
		}
		if join != "" { // nothing followed the words to join
			parts = append(parts, object("text", strings.TrimSuffix(join, g[len(g)-1].Join)))
		}
		if parts == nil {
			parts = []json.RawMessage{}
		}
		out = append(out, object("parts", parts, "role", wire(g[0])))
	}
	return out
}

// object writes keys and values as a JSON object in the order given.
func object(kv ...any) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(kv[i])
		b.Write(k)
		b.WriteByte(':')
		if raw, ok := kv[i+1].(json.RawMessage); ok {
			b.Write(raw)
			continue
		}
		v, _ := marshal(kv[i+1])
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes()
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
		if n := len(out); n > 0 && x.JoinBefore != "" && out[n-1].Role == x.Role {
			out[n-1].Text += x.JoinBefore + x.Text
			continue
		}
		out = append(out, x)
	}
	return out
}
