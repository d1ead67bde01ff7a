// Package capture makes Hook Studio a real agent's model endpoint: it speaks
// the Anthropic Messages API and the OpenAI Chat Completions API on a local
// port, answers from a script (or a waiting user), and records every request
// — the exact body, the message list with where each message came from, the
// tools offered, the answer — so what a real agent and its real hooks send
// the model can be read like a simulated run (docs/capture.md).
package capture

import (
	"context"
	"encoding/json"
	"time"
)

// API is the wire protocol of a request.
type API string

const (
	Anthropic API = "anthropic"
	OpenAI    API = "openai"
)

// Origins of a recorded message, told from its role and its text.
const (
	OriginSystem     = "system_prompt"
	OriginUser       = "user_input"
	OriginAssistant  = "assistant"
	OriginToolResult = "tool_result"
	// OriginHook is text a hook put there, in the agent's wording of hook
	// output ("UserPromptSubmit hook success: …", "Stop hook feedback: …",
	// "PreToolUse:Bash hook error: …" in a tool result).
	OriginHook = "hook"
	// OriginContext is context the agent itself adds (Claude Code's
	// <system-reminder> blocks: the date, CLAUDE.md, the skills list).
	OriginContext = "agent_context"
)

// ToolCall is a call the model asked for (or, in an answer, will ask for).
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// Message is one message of a request, normalised across the two APIs: a
// content block list becomes one message per text or tool result.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Origin  string `json:"origin"`
	// Hook names the hook event when the text tells it ("PreToolUse:Bash").
	Hook       string     `json:"hook,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	IsError    bool       `json:"is_error,omitempty"`
}

// Request is what the agent asked, as the answerer sees it.
type Request struct {
	API      API       `json:"api"`
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []Message `json:"messages"`
	Tools    []string  `json:"tools"`
}

// Answer is what the model says: text, tool calls, or an API error.
type Answer struct {
	Content   string       `json:"content,omitempty"`
	ToolCalls []ToolCall   `json:"tool_calls,omitempty"`
	Error     *AnswerError `json:"error,omitempty"`
}

// AnswerError is answered in the API's own error shape with Status.
type AnswerError struct {
	Status  int    `json:"status"`
	Message string `json:"message"`
}

// Answerer answers the n-th request (0-based) of a capture.
type Answerer interface {
	Answer(ctx context.Context, n int, req *Request) (*Answer, error)
}

// Call is one recorded request and how it was answered.
type Call struct {
	N          int       `json:"n"`
	API        API       `json:"api"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Started    time.Time `json:"started"`
	DurationMS float64   `json:"duration_ms"`
	// Headers as sent, with every key, token and authorization redacted.
	Headers map[string]string `json:"headers"`
	// Body is the exact request body (JSON), or RawBody when it is not JSON.
	Body     json.RawMessage `json:"body,omitempty"`
	RawBody  string          `json:"raw_body,omitempty"`
	Model    string          `json:"model,omitempty"`
	Stream   bool            `json:"stream"`
	Messages []Message       `json:"messages"`
	Tools    []string        `json:"tools"`
	Answer   *Answer         `json:"answer,omitempty"`
	// Upstream is where a forwarding capture relayed the call.
	Upstream *UpstreamCall `json:"upstream,omitempty"`
	// Status is the HTTP status answered; Error why it was not a 200.
	Status       int    `json:"status"`
	Error        string `json:"error,omitempty"`
	Disconnected bool   `json:"disconnected,omitempty"`
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
}
