package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"hookstudio/app/agent/engine"
)

// Anthropic is an engine.Model over the Anthropic Messages API, streaming
// every answer. See docs/providers.md for how the engine's messages map
// onto it.
type Anthropic struct {
	opts Options
	svc  anthropic.MessageService
}

// NewAnthropic returns a model for the endpoint (base URL without /v1,
// e.g. https://api.anthropic.com). The SDK reads no environment variables
// or credential files here and never retries: Options.withRetries does.
func NewAnthropic(opts Options) (*Anthropic, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("anthropic provider: %w", err)
	}
	ro := []option.RequestOption{
		option.WithHTTPClient(opts.httpClient()),
		option.WithBaseURL(opts.BaseURL),
		option.WithMaxRetries(0),
		// Error answers are read here, whatever their body (a proxy's HTML
		// page, plain text, an empty body).
		option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			return opts.checkStatus(next(req))
		}),
	}
	if opts.APIKey != "" {
		ro = append(ro, option.WithAPIKey(opts.APIKey))
	}
	return &Anthropic{opts: opts, svc: anthropic.NewMessageService(ro...)}, nil
}

// SystemOpen and SystemClose wrap a system message that comes after the
// conversation started: the Messages API has no system turns, so it
// travels as a text block of the user turn it stands in.
const (
	SystemOpen  = "<system>\n"
	SystemClose = "\n</system>"
)

// Params is the request the call sends.
func (m *Anthropic) Params(call engine.Call) anthropic.MessageNewParams {
	system, turns := anthropicMessages(call.Messages())
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(m.opts.Model),
		MaxTokens: DefaultAnthropicMaxTokens,
		Messages:  turns,
	}
	if system != "" {
		p.System = []anthropic.TextBlockParam{{Text: system}}
	}
	if m.opts.MaxTokens > 0 {
		p.MaxTokens = int64(m.opts.MaxTokens)
	}
	if m.opts.Temperature != nil {
		p.Temperature = anthropic.Float(*m.opts.Temperature)
	}
	if call.Phase == engine.PhaseAgent {
		for _, t := range call.Tools {
			p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: &anthropic.ToolParam{
				Name:        t.Name,
				Description: anthropic.String(t.Description),
				InputSchema: inputSchema(t.Parameters),
			}})
		}
	}
	return p
}

// RequestBody is the exact JSON body the call will send. It never holds the key.
func (m *Anthropic) RequestBody(call engine.Call) ([]byte, error) {
	return streamingBody(m.Params(call))
}

// Complete streams one answer, retrying 429 and 5xx (529 overloaded
// included) before any text came.
func (m *Anthropic) Complete(ctx context.Context, call engine.Call) (engine.Reply, error) {
	params := m.Params(call)
	var usage engine.Usage
	rep, err := m.opts.complete(ctx, call, func(ctx context.Context) (string, []engine.ToolCall, error) {
		usage = engine.Usage{}
		return m.attempt(ctx, call, params, &usage)
	})
	return withUsage(rep, usage), err
}

func (m *Anthropic) attempt(ctx context.Context, call engine.Call, params anthropic.MessageNewParams, usage *engine.Usage) (string, []engine.ToolCall, error) {
	stream := m.svc.NewStreaming(ctx, params)
	defer stream.Close()
	var text strings.Builder
	blocks := map[int64]*partialCall{}
	var order []*partialCall
	stopped := false
	for stream.Next() {
		ev := stream.Current()
		switch ev.Type {
		case "message_start": // input tokens (cache reads and writes are input too)
			u := ev.Message.Usage
			usage.InputTokens = int(u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens)
			usage.OutputTokens = int(u.OutputTokens)
		case "message_delta": // the output so far; the last one is the total
			usage.OutputTokens = int(ev.Usage.OutputTokens)
		case "content_block_start":
			switch ev.ContentBlock.Type {
			case "tool_use":
				c := &partialCall{id: ev.ContentBlock.ID, name: ev.ContentBlock.Name}
				blocks[ev.Index] = c
				order = append(order, c)
			case "text":
				if t := ev.ContentBlock.Text; t != "" {
					text.WriteString(t)
					call.Stream(t)
				}
			}
		case "content_block_delta":
			switch ev.Delta.Type {
			case "text_delta":
				text.WriteString(ev.Delta.Text)
				call.Stream(ev.Delta.Text)
			case "input_json_delta":
				c := blocks[ev.Index]
				if c == nil {
					return "", nil, fmt.Errorf("%s: %w: input_json_delta for block %d, which is not a tool_use block", m.opts.host(), ErrMalformedStream, ev.Index)
				}
				c.args.WriteString(ev.Delta.PartialJSON)
			}
		case "message_stop":
			stopped = true
		}
	}
	if err := stream.Err(); err != nil {
		if isAnswerFailure(err) {
			return "", nil, err // an error status, read by checkStatus
		}
		var apiErr *anthropic.Error
		if errors.As(err, &apiErr) {
			if apiErr.StatusCode >= 400 {
				var h http.Header
				if apiErr.Response != nil {
					h = apiErr.Response.Header
				}
				return "", nil, m.opts.httpFailure(apiErr.StatusCode, h, []byte(apiErr.RawJSON()))
			}
			// An error event inside the stream (e.g. overloaded_error).
			return "", nil, m.opts.streamFailure([]byte(apiErr.RawJSON()), text.Len() > 0 || len(order) > 0)
		}
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		if data, ok := strings.CutPrefix(err.Error(), "received error while streaming: "); ok {
			return "", nil, m.opts.streamFailure([]byte(data), text.Len() > 0 || len(order) > 0)
		}
		if text.Len() == 0 && len(order) == 0 && !isJSONError(err) {
			return "", nil, fmt.Errorf("%s: %w", m.opts.host(), err)
		}
		return "", nil, m.opts.streamError(err)
	}
	if !stopped {
		return "", nil, fmt.Errorf("%s: %w: the stream ended without message_stop", m.opts.host(), ErrStreamDropped)
	}
	var calls []engine.ToolCall
	for _, c := range order {
		id := c.id
		if id == "" {
			id = newCallID()
		}
		calls = append(calls, engine.ToolCall{ID: id, Name: c.name, Arguments: ParseArguments(c.args.String())})
	}
	return text.String(), calls, nil
}

// anthropicMessages maps the engine's messages onto the Messages API:
//   - the leading system messages, joined by a blank line, are the
//     top-level system;
//   - a later system message (a hook or a built-in prompt) is a text block
//     SystemOpen + content + SystemClose in a user turn;
//   - user messages are text blocks, tool messages tool_result blocks, in
//     a user turn;
//   - an assistant message is a text block (if it has text) and one
//     tool_use block per tool call, in an assistant turn;
//   - adjacent messages of the same side merge into one turn, block after
//     block in list order, so turns alternate.
func anthropicMessages(msgs []engine.Message) (string, []anthropic.MessageParam) {
	var system []string
	i := 0
	for ; i < len(msgs) && msgs[i].Role == "system"; i++ {
		system = append(system, msgs[i].Content)
	}
	var turns []anthropic.MessageParam
	for _, m := range msgs[i:] {
		role := anthropic.MessageParamRoleUser
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case "assistant":
			role = anthropic.MessageParamRoleAssistant
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
			for _, tc := range m.ToolCalls {
				input := tc.Arguments
				if input == nil {
					input = map[string]any{}
				}
				blocks = append(blocks, anthropic.NewToolUseBlock(tc.ID, input, tc.Name))
			}
		case "system":
			blocks = append(blocks, anthropic.NewTextBlock(SystemOpen+m.Content+SystemClose))
		case "tool":
			blocks = append(blocks, anthropic.NewToolResultBlock(m.ToolCallID, m.Content, false))
		default:
			if m.Content != "" {
				blocks = append(blocks, anthropic.NewTextBlock(m.Content))
			}
		}
		if len(blocks) == 0 {
			continue // the API rejects empty text blocks; nothing is lost
		}
		if n := len(turns); n > 0 && turns[n-1].Role == role {
			turns[n-1].Content = append(turns[n-1].Content, blocks...)
			continue
		}
		turns = append(turns, anthropic.MessageParam{Role: role, Content: blocks})
	}
	return strings.Join(system, "\n\n"), turns
}

// inputSchema maps a JSON Schema object onto the SDK's input schema,
// keeping every keyword.
func inputSchema(p map[string]any) anthropic.ToolInputSchemaParam {
	s := anthropic.ToolInputSchemaParam{Properties: map[string]any{}}
	for k, v := range p {
		switch k {
		case "type":
		case "properties":
			s.Properties = v
		case "required":
			if list, ok := v.([]any); ok {
				for _, r := range list {
					if name, ok := r.(string); ok {
						s.Required = append(s.Required, name)
					}
				}
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = map[string]any{}
			}
			s.ExtraFields[k] = v
		}
	}
	return s
}
