package capture

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// anthropicBlock is a content block of the Messages API, as much of it as
// is recorded.
type anthropicBlock struct {
	Type      string
	Text      string
	ID        string
	Name      string
	Input     json.RawMessage
	ToolUseID string
	Content   gjson.Result // a tool_result's own content
	IsError   bool
	raw       string // the block as it came
}

// parseAnthropic reads a Messages API request that inspect has checked.
// It walks the JSON with gjson, a level at a time: encoding/json takes
// several times longer on a 50 KB request, and the record is read right
// after the answer went out, beside the agent reading it.
func parseAnthropic(data []byte) (*Request, []string, error) {
	root := fieldsOf(gjson.ParseBytes(data))
	var warnings []string
	req := &Request{API: Anthropic, Model: root.Get("model").Str, Stream: root.Get("stream").Bool(), Tools: []string{}}
	root.Get("tools").ForEach(func(_, t gjson.Result) bool {
		req.Tools = append(req.Tools, t.Get("name").Str)
		return true
	})
	for _, b := range blocks(root.Get("system")) {
		if b.Type == "text" {
			req.Messages = append(req.Messages, Message{Role: "system", Content: b.Text, Origin: OriginSystem})
		}
	}
	i, sysBlocks := 0, 0
	root.Get("messages").ForEach(func(_, mr gjson.Result) bool {
		m := fieldsOf(mr)
		req.Messages = append(req.Messages, messagesOf(m.Get("role").Str, blocks(m.Get("content")), i, &sysBlocks, &warnings)...)
		i++
		return true
	})
	return req, warnings, nil
}

// messagesOf is message i of a request, its blocks normalised: one
// message per text or tool result, each with its origin.
func messagesOf(role string, bs []anthropicBlock, i int, sysBlocks *int, warnings *[]string) []Message {
	if role == "assistant" {
		return []Message{assistantMessage(bs)}
	}
	var out []Message
	for _, b := range bs {
		switch b.Type {
		case "text":
			if role == "system" {
				*sysBlocks++
				out = append(out, systemText(b.Text, *sysBlocks)...)
			} else {
				out = append(out, userText(b.Text)...)
			}
		case "tool_result":
			out = append(out, toolResult(b.ToolUseID, joinText(blocks(b.Content)), b.IsError))
		case "image", "document", "search_result":
			out = append(out, Message{Role: role, Content: "[" + b.Type + "]", Origin: OriginUser, Kind: b.Type})
		default:
			out = append(out, Message{Role: role, Content: b.raw, Origin: OriginUser, Kind: b.Type})
			*warnings = append(*warnings, fmt.Sprintf("messages[%d].content: a block of type %q, which this capture does not read: kept as it came", i, b.Type))
		}
	}
	return out
}

// AnthropicSystem normalises a Messages API request's system field (a
// string or text blocks) as a capture records it: one system message per
// text block.
func AnthropicSystem(raw json.RawMessage) []Message {
	var out []Message
	for _, b := range blocks(gjson.ParseBytes(raw)) {
		if b.Type == "text" {
			out = append(out, Message{Role: "system", Content: b.Text, Origin: OriginSystem})
		}
	}
	return out
}

// AnthropicMessage normalises one message of a Messages API request (its
// role and content) as a capture records it, with the warnings a capture
// would give (blocks it does not read, kept as they came).
func AnthropicMessage(role string, content json.RawMessage) ([]Message, []string) {
	var warnings []string
	sysBlocks := 0 // a system message's paragraphs are one block, as in a whole request
	return messagesOf(role, blocks(gjson.ParseBytes(content)), 0, &sysBlocks, &warnings), warnings
}

// blocks reads a content that is a string or a list of blocks.
func blocks(r gjson.Result) []anthropicBlock {
	if r.Type == gjson.String {
		return []anthropicBlock{{Type: "text", Text: r.Str}}
	}
	var out []anthropicBlock
	r.ForEach(func(_, br gjson.Result) bool {
		b := anthropicBlock{raw: br.Raw}
		br.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "type":
				b.Type = v.Str
			case "text":
				b.Text = v.Str
			case "id":
				b.ID = v.Str
			case "name":
				b.Name = v.Str
			case "input":
				b.Input = json.RawMessage(v.Raw)
			case "tool_use_id":
				b.ToolUseID = v.Str
			case "content":
				b.Content = v
			case "is_error":
				b.IsError = v.Bool()
			}
			return true
		})
		out = append(out, b)
		return true
	})
	return out
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
			m.ToolCalls = append(m.ToolCalls, ToolCall{ID: b.ID, Name: b.Name, Arguments: rawOr(b.Input)})
		}
	}
	m.Content = strings.Join(text, "\n")
	return m
}

// userText is one user text block: the user's words, or the agent's own
// context when it holds its <system-reminder> blocks. Which part is a
// hook's the agent's profiles tell (AgentReader.Read).
func userText(text string) []Message { return []Message{plainUser(text)} }

// systemText is a system-role message of the list (Claude Code sends hook
// output and its own attachments so, one paragraph each): a message per
// paragraph, the agent's context until its profiles tell a hook's
// (AgentReader.Read joins the agent's neighbouring paragraphs again).
func systemText(text string, block int) []Message {
	var out []Message
	lead := "" // what stands between this paragraph and the one before
	for i, para := range strings.Split(text, "\n\n") {
		if i > 0 {
			lead += "\n\n"
		}
		if strings.TrimSpace(para) == "" {
			lead += para
			continue
		}
		out = append(out, Message{Role: "system", Content: para, Origin: OriginContext, block: block, lead: lead})
		lead = ""
	}
	return out
}

func plainUser(text string) Message {
	if strings.Contains(text, "<system-reminder>") {
		return Message{Role: "user", Content: text, Origin: OriginContext}
	}
	return Message{Role: "user", Content: text, Origin: OriginUser}
}

func toolResult(id, text string, isError bool) Message {
	return Message{Role: "tool", Content: text, Origin: OriginToolResult, ToolCallID: id, IsError: isError}
}

// The Messages API's answer.
type (
	anthropicUsage struct {
		In  int `json:"input_tokens"`
		Out int `json:"output_tokens"`
	}
	anthropicText struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	anthropicToolUse struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	anthropicOut struct {
		ID           string         `json:"id"`
		Type         string         `json:"type"`
		Role         string         `json:"role"`
		Model        string         `json:"model"`
		Content      []any          `json:"content"`
		StopReason   *string        `json:"stop_reason"`
		StopSequence *string        `json:"stop_sequence"`
		Usage        anthropicUsage `json:"usage"`
	}
	anthropicEvent struct {
		Type         string          `json:"type"`
		Message      *anthropicOut   `json:"message,omitempty"`
		Index        *int            `json:"index,omitempty"`
		ContentBlock any             `json:"content_block,omitempty"`
		Delta        any             `json:"delta,omitempty"`
		Usage        *anthropicUsage `json:"usage,omitempty"`
	}
	anthropicDelta struct {
		Type        string `json:"type"`
		Text        string `json:"text,omitempty"`
		PartialJSON string `json:"partial_json,omitempty"`
	}
	anthropicStop struct {
		StopReason   string  `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	}
)

func anthropicContent(a *Answer) []any {
	var out []any
	if a.Content != "" || len(a.ToolCalls) == 0 {
		out = append(out, anthropicText{Type: "text", Text: a.Content})
	}
	for _, tc := range a.ToolCalls {
		out = append(out, anthropicToolUse{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: tc.Arguments})
	}
	return out
}

func stopReason(a *Answer) string {
	if len(a.ToolCalls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

func anthropicMessage(model string, n int, a *Answer, u usage) *anthropicOut {
	stop := stopReason(a)
	return &anthropicOut{ID: fmt.Sprintf("msg_capture_%04d", n+1), Type: "message", Role: "assistant", Model: model,
		Content: anthropicContent(a), StopReason: &stop, Usage: anthropicUsage{In: u.in, Out: u.out}}
}

// renderAnthropicStream is the answer as the Messages API streams one.
func renderAnthropicStream(model string, n int, a *Answer, u usage) []byte {
	var e sseBuf
	start := anthropicMessage(model, n, a, usage{in: u.in, out: 1})
	start.Content, start.StopReason = []any{}, nil
	e.event("message_start", anthropicEvent{Type: "message_start", Message: start})
	e.event("ping", anthropicEvent{Type: "ping"})
	for i, b := range anthropicContent(a) {
		switch b := b.(type) {
		case anthropicText:
			e.event("content_block_start", anthropicEvent{Type: "content_block_start", Index: &i, ContentBlock: anthropicText{Type: "text"}})
			for _, c := range chunks(a.Content) {
				e.event("content_block_delta", anthropicEvent{Type: "content_block_delta", Index: &i, Delta: anthropicDelta{Type: "text_delta", Text: c}})
			}
		case anthropicToolUse:
			e.event("content_block_start", anthropicEvent{Type: "content_block_start", Index: &i,
				ContentBlock: anthropicToolUse{Type: "tool_use", ID: b.ID, Name: b.Name, Input: json.RawMessage(`{}`)}})
			for _, c := range chunks(string(b.Input)) {
				e.event("content_block_delta", anthropicEvent{Type: "content_block_delta", Index: &i, Delta: anthropicDelta{Type: "input_json_delta", PartialJSON: c}})
			}
		}
		e.event("content_block_stop", anthropicEvent{Type: "content_block_stop", Index: &i})
	}
	e.event("message_delta", anthropicEvent{Type: "message_delta", Delta: anthropicStop{StopReason: stopReason(a)}, Usage: &anthropicUsage{Out: u.out}})
	e.event("message_stop", anthropicEvent{Type: "message_stop"})
	return e.b
}
