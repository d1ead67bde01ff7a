package llm

import (
	"context"
	"encoding/json"
	"fmt"

	"hookstudio/app/agent/engine"
)

// streamingBody is a provider's request parameters as the JSON body the SDK
// sends with streaming on: what a debugger shows before the call.
func streamingBody(params any) ([]byte, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	obj["stream"] = json.RawMessage("true")
	return json.MarshalIndent(obj, "", "  ")
}

// complete runs one streamed attempt under the options' retries and turns
// its text and tool calls into the engine's reply.
func (o *Options) complete(ctx context.Context, call engine.Call, attempt func(context.Context) (string, []engine.ToolCall, error)) (engine.Reply, error) {
	var content string
	var calls []engine.ToolCall
	err := o.withRetries(ctx, func(ctx context.Context) error {
		var err error
		content, calls, err = attempt(ctx)
		return err
	})
	if err != nil {
		return engine.Reply{}, err
	}
	return reply(call, content, calls)
}

// withUsage puts the provider's reported usage on a reply (none reported:
// nil, and token budgets count the messages instead).
func withUsage(rep engine.Reply, u engine.Usage) engine.Reply {
	if u.InputTokens > 0 || u.OutputTokens > 0 {
		rep.Usage = &u
	}
	return rep
}
