package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/shared"

	"hookstudio/app/agent/engine"
)

// OpenAI is an engine.Model over an OpenAI-compatible Chat Completions
// endpoint (OpenAI, DeepSeek, Qwen, Ollama, vLLM, llama.cpp server),
// streaming every answer.
type OpenAI struct {
	opts Options
	svc  openai.ChatCompletionService
}

// NewOpenAI returns a model for the endpoint. The SDK reads no environment
// variables here and never retries: Options.withRetries does, observably.
func NewOpenAI(opts Options) (*OpenAI, error) {
	if err := opts.validate(); err != nil {
		return nil, fmt.Errorf("openai provider: %w", err)
	}
	ro := []option.RequestOption{
		option.WithHTTPClient(opts.httpClient()),
		option.WithBaseURL(opts.BaseURL),
		option.WithMaxRetries(0),
		// Error answers are read here, whatever their body: the SDK would
		// fail on any "error" that is not its own error object.
		option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			return opts.checkStatus(next(req))
		}),
	}
	if opts.APIKey != "" {
		ro = append(ro, option.WithAPIKey(opts.APIKey))
	}
	return &OpenAI{opts: opts, svc: openai.NewChatCompletionService(ro...)}, nil
}

// Params is the request the call sends (without "stream": true, which the
// SDK adds).
func (m *OpenAI) Params(call engine.Call) openai.ChatCompletionNewParams {
	p := openai.ChatCompletionNewParams{
		Model:    shared.ChatModel(m.opts.Model),
		Messages: openAIMessages(call.Messages()),
		// The last chunk then reports the call's usage (token budgets).
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if m.opts.Temperature != nil {
		p.Temperature = openai.Float(*m.opts.Temperature)
	}
	if m.opts.MaxTokens > 0 {
		// max_tokens, not max_completion_tokens: the local servers know it.
		p.MaxTokens = openai.Int(int64(m.opts.MaxTokens))
	}
	if call.Phase == engine.PhaseAgent {
		for _, t := range call.Tools {
			p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
				Name:        t.Name,
				Description: openai.String(t.Description),
				Parameters:  shared.FunctionParameters(schemaOf(t.Parameters)),
			}))
		}
	}
	return p
}

// RequestBody is the exact JSON body the call will send: what a debugger
// shows before the call. It never holds the key.
func (m *OpenAI) RequestBody(call engine.Call) ([]byte, error) { return streamingBody(m.Params(call)) }

// Complete streams one answer, retrying 429 and 5xx before any text came.
func (m *OpenAI) Complete(ctx context.Context, call engine.Call) (engine.Reply, error) {
	params := m.Params(call)
	var usage engine.Usage
	rep, err := m.opts.complete(ctx, call, func(ctx context.Context) (string, []engine.ToolCall, error) {
		usage = engine.Usage{}
		return m.attempt(ctx, call, params, &usage)
	})
	return withUsage(rep, usage), err
}

func (m *OpenAI) attempt(ctx context.Context, call engine.Call, params openai.ChatCompletionNewParams, usage *engine.Usage) (string, []engine.ToolCall, error) {
	var done atomic.Bool
	stream := m.svc.NewStreaming(ctx, params, option.WithMiddleware(watchDone(&done)))
	defer stream.Close()
	var text strings.Builder
	acc := &toolAccumulator{}
	finished := false
	for stream.Next() {
		ch := stream.Current()
		if u := ch.Usage; u.PromptTokens > 0 || u.CompletionTokens > 0 {
			*usage = engine.Usage{InputTokens: int(u.PromptTokens), OutputTokens: int(u.CompletionTokens)}
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue // n > 1 is never asked for; ignore stray choices
			}
			if c.Delta.Content != "" {
				text.WriteString(c.Delta.Content)
				call.Stream(c.Delta.Content)
			}
			for _, d := range c.Delta.ToolCalls {
				acc.add(d)
			}
			if c.FinishReason != "" {
				finished = true
			}
		}
	}
	if err := stream.Err(); err != nil {
		if isAnswerFailure(err) {
			return "", nil, err // an error status, read by checkStatus
		}
		var sErr *ssestream.StreamError
		if errors.As(err, &sErr) {
			return "", nil, m.opts.streamFailure(sErr.Event.Data, text.Len() > 0 || !acc.empty())
		}
		var apiErr *openai.Error
		if errors.As(err, &apiErr) {
			var h http.Header
			if apiErr.Response != nil {
				h = apiErr.Response.Header
			}
			return "", nil, m.opts.httpFailure(apiErr.StatusCode, h, []byte(apiErr.RawJSON()))
		}
		if ctx.Err() != nil {
			return "", nil, ctx.Err()
		}
		if text.Len() == 0 && acc.empty() && !isJSONError(err) && !strings.Contains(err.Error(), "while streaming") {
			// Nothing arrived: the request itself failed (refused, reset).
			return "", nil, fmt.Errorf("%s: %w", m.opts.host(), err)
		}
		return "", nil, m.opts.streamError(err)
	}
	if !finished && !done.Load() {
		return "", nil, fmt.Errorf("%s: %w: the stream ended without [DONE] or a finish_reason", m.opts.host(), ErrStreamDropped)
	}
	calls, err := acc.calls()
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", m.opts.host(), err)
	}
	return text.String(), calls, nil
}

// watchDone marks done once the response body carried the [DONE] event,
// which the SDK's stream swallows: without it and without a finish_reason
// the stream was cut.
func watchDone(done *atomic.Bool) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err == nil && res != nil && res.Body != nil {
			res.Body = &doneReader{rc: res.Body, done: done}
		}
		return res, err
	}
}

type doneReader struct {
	rc   io.ReadCloser
	done *atomic.Bool
	tail []byte // the last bytes read, so a marker split across reads is seen
}

var doneMarker = []byte("data: [DONE]")

func (r *doneReader) Read(p []byte) (int, error) {
	n, err := r.rc.Read(p)
	if n > 0 && !r.done.Load() {
		buf := append(r.tail, p[:n]...)
		if bytes.Contains(buf, doneMarker) || bytes.Contains(buf, []byte("data:[DONE]")) {
			r.done.Store(true)
		}
		keep := min(len(buf), len(doneMarker))
		r.tail = append(r.tail[:0], buf[len(buf)-keep:]...)
	}
	return n, err
}

func (r *doneReader) Close() error { return r.rc.Close() }

// openAIMessages maps the engine's messages to the wire, each keeping its
// role: a hook's system message mid-conversation stays a system message.
func openAIMessages(msgs []engine.Message) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for _, m := range msgs {
		switch m.Role {
		case "system":
			out = append(out, openai.SystemMessage(m.Content))
		case "assistant":
			a := openai.ChatCompletionAssistantMessageParam{}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				a.Content.OfString = openai.String(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
						ID: tc.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
							Name:      tc.Name,
							Arguments: argumentsJSON(tc.Arguments),
						},
					},
				})
			}
			out = append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case "tool":
			out = append(out, openai.ToolMessage(m.Content, m.ToolCallID))
		default:
			out = append(out, openai.UserMessage(m.Content))
		}
	}
	return out
}

// schemaOf is a tool's parameters, or the empty object schema.
func schemaOf(p map[string]any) map[string]any {
	if p == nil {
		return map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return p
}

// toolAccumulator gathers tool calls from stream deltas itself, tolerating
// what servers really send: no index (the call continues the last one
// unless a new id or a second complete call shows up), one index reused
// for several calls (told apart by a new id or by a name arriving after
// complete arguments), the id missing or arriving late, arguments split
// anywhere.
type toolAccumulator struct {
	list    []*partialCall
	byIndex map[int64]*partialCall
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

// complete is true when the arguments so far are a whole JSON value.
func (c *partialCall) complete() bool {
	s := strings.TrimSpace(c.args.String())
	return s != "" && json.Valid([]byte(s))
}

func (a *toolAccumulator) empty() bool { return len(a.list) == 0 }

func (a *toolAccumulator) last() *partialCall {
	if len(a.list) == 0 {
		return nil
	}
	return a.list[len(a.list)-1]
}

func (a *toolAccumulator) add(d openai.ChatCompletionChunkChoiceDeltaToolCall) {
	name := d.Function.Name
	startsNew := func(c *partialCall) bool {
		switch {
		case c == nil:
			return true
		case d.ID != "" && c.id != "" && d.ID != c.id:
			return true
		case d.ID == "" && name != "" && c.name != "" && c.complete():
			return true
		}
		return false
	}
	var c *partialCall
	hasIndex := d.JSON.Index.Valid()
	if hasIndex {
		c = a.byIndex[d.Index]
	} else {
		c = a.last()
		if d.ID != "" {
			for _, p := range a.list {
				if p.id == d.ID {
					c = p
				}
			}
		}
	}
	if startsNew(c) {
		c = &partialCall{}
		a.list = append(a.list, c)
	}
	if hasIndex {
		if a.byIndex == nil {
			a.byIndex = map[int64]*partialCall{}
		}
		a.byIndex[d.Index] = c
	}
	if c.id == "" {
		c.id = d.ID
	}
	switch {
	case c.name == "":
		c.name = name
	case name != "" && name != c.name:
		c.name += name // a name streamed in pieces
	}
	c.args.WriteString(d.Function.Arguments)
}

// calls finishes the calls: ids generated where the server sent none,
// arguments parsed leniently.
func (a *toolAccumulator) calls() ([]engine.ToolCall, error) {
	var out []engine.ToolCall
	for k, c := range a.list {
		if c.name == "" {
			if strings.TrimSpace(c.args.String()) == "" {
				continue
			}
			return nil, fmt.Errorf("%w: tool call %d has arguments but no function name", ErrMalformedStream, k)
		}
		id := c.id
		if id == "" {
			id = newCallID()
		}
		out = append(out, engine.ToolCall{ID: id, Name: c.name, Arguments: ParseArguments(c.args.String())})
	}
	return out, nil
}

func newCallID() string {
	return fmt.Sprintf("call_%016x", rand.Uint64())
}

// reply turns the streamed answer into the engine's Reply; a planning
// answer must carry a decision.
func reply(call engine.Call, content string, calls []engine.ToolCall) (engine.Reply, error) {
	switch call.Phase {
	case engine.PhaseDirect:
		return engine.Reply{Content: content}, nil
	case engine.PhasePlanning:
		if strings.TrimSpace(content) == "" && len(calls) > 0 {
			// Tools were not offered, yet the model reached for one.
			return engine.Reply{NeedTool: true}, nil
		}
		d, ok := ParseDecision(content)
		if !ok {
			return engine.Reply{}, &UndecidableError{Raw: content}
		}
		return engine.Reply{Content: content, NeedTool: d.NeedTool}, nil
	}
	return engine.Reply{Content: content, ToolCalls: calls}, nil
}
