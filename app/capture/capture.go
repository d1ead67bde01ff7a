// Package capture makes Hook Studio a real agent's model endpoint: it speaks
// the Anthropic Messages API, the OpenAI Chat Completions and Responses APIs
// and the Gemini API on a local port, answers from a script (or a waiting
// user, or a model profile it forwards to), and records every request — the
// exact body, the message list with where each message came from, the tools
// offered, the answer — so what a real agent and its real hooks send the
// model can be read like a simulated run (docs/capture.md).
package capture

import (
	"context"
	"encoding/json"
	"time"

	"hookstudio/app/agentdata/identify"
)

// API is the wire protocol of a request.
type API string

const (
	Anthropic API = "anthropic" // Messages
	OpenAI    API = "openai"    // Chat Completions
	Responses API = "responses" // OpenAI Responses (Codex CLI)
	Gemini    API = "gemini"    // generateContent (Gemini CLI)
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
	// Kind is the item or part's type when it is not text, a tool call or
	// a tool result (a Responses reasoning item, a Gemini thought, a type
	// this capture does not know): Content is then the item as it came.
	Kind string `json:"kind,omitempty"`
	// AgentBefore and AgentAfter are the agent's own words around a
	// hook's in Content (its wrapper and preamble: Claude Code 2.1.332's
	// "<system-reminder>\nThe text below is the output of a hook …"), so
	// they are shown as the agent's, not the hook's.
	AgentBefore string `json:"agent_before,omitempty"`
	AgentAfter  string `json:"agent_after,omitempty"`

	block int    // the system-role text block a paragraph came from (1-based; 0 none)
	lead  string // what separates the paragraph from the one before it in its block ("\n\n")
}

// Request is what the agent asked, as the answerer sees it.
type Request struct {
	API      API       `json:"api"`
	Model    string    `json:"model"`
	Stream   bool      `json:"stream"`
	Messages []Message `json:"messages"`
	Tools    []string  `json:"tools"`
	// Side is set for a side request: a call the agent makes on its own
	// beside the user's turn (side.go).
	Side *Side `json:"side,omitempty"`
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

// Answerer answers call n (0-based, every request the capture received
// counts) of a capture. It is asked only for a request that is answered: a
// rejected one (bad JSON, too big, the wrong shape) never reaches it.
type Answerer interface {
	Answer(ctx context.Context, n int, req *Request) (*Answer, error)
}

// messageReader is an Answerer that reads the request's messages (the
// user answering in the app): the request is parsed for it before it is
// asked. Others get the request's model, stream and side only, and the
// parse happens after the answer went out.
type messageReader interface{ ReadsMessages() bool }

// sideAnswerer is an Answerer that may script side requests; one that
// does not (or has no answer left for them) leaves the endpoint to give
// the minimal valid answer.
type sideAnswerer interface {
	AnswerSide(ctx context.Context, n int, req *Request) (*Answer, bool)
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
	// Side is the kind of side request the call is (side.go; "": none).
	Side string `json:"side,omitempty"`
	// Warnings are what the capture could not read the way it reads the
	// rest (an item type it does not know, kept as it came).
	Warnings []string `json:"warnings,omitempty"`
	// Agent is the agent CLI that sent the request, when it tells
	// (AgentReader): its rendering profile read the messages' origins.
	Agent *identify.Agent `json:"agent,omitempty"`
}
