// Package reqhook hosts seed 004's request hooks: start and end hooks
// around every model request, each receiving the request's
// RequestContext as JSON on stdin, plus the two built-ins the seed names
// (usage statistics and a policy hook). Hooks run serially in declaration
// order, each isolated (its failure is shown, never stops the others or
// the call) and under its own timeout. A start hook may deny the request;
// the call then fails with a *DeniedError carrying its status and message.
// The end hooks fire exactly once per started request, even when the
// stream aborts or the run is cancelled.
package reqhook

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Events of the request hook system, as HookCall.Event names them.
const (
	EventStart = "request_start"
	EventEnd   = "request_end"
	// System is HookCall.System for request hooks.
	System = "request"
)

// RequestContext is seed 004's RequestContext: the whole life of one model
// request, as start and end hooks receive it. There is never an API key in
// it (the seed's auth_key is left out on purpose).
type RequestContext struct {
	RequestID   string `json:"request_id"`
	Route       string `json:"route"` // "openai.chat", "anthropic.messages", "mock.chat"
	Model       string `json:"model"`
	IsStreaming bool   `json:"is_streaming"`
	// The credential the request went out with: the profile (or "mock")
	// and a masked e-mail, never the key.
	CurrentCredentialID    string        `json:"current_credential_id"`
	CurrentCredentialEmail string        `json:"current_credential_email"`
	Attempts               []AttemptInfo `json:"attempts"`
	UsageMetadata          *Usage        `json:"usage_metadata"`
	StartTime              time.Time     `json:"start_time"`
	FirstByteTime          *time.Time    `json:"first_byte_time"`
	EndTime                *time.Time    `json:"end_time"`
	Success                bool          `json:"success"`
	Error                  string        `json:"error"`
	HTTPStatus             int           `json:"http_status"`
	// Where the request sits in the simulated flow.
	Call    int    `json:"call"`
	Request int    `json:"request"`
	Phase   string `json:"phase"`
	Round   int    `json:"round"`
}

// AttemptInfo is one try of the request (seed 004's AttemptInfo): a retry
// adds one.
type AttemptInfo struct {
	CredID      string    `json:"cred_id"`
	EmailMasked string    `json:"email_masked"`
	StatusCode  int       `json:"status_code,omitempty"`
	Reason      string    `json:"reason,omitempty"`
	Timestamp   time.Time `json:"timestamp"`
}

// Usage is the request's token usage: what the provider reported, or for
// the mock the counted tokens of the messages and the answer.
type Usage struct {
	PromptTokens     int  `json:"prompt_tokens"`
	CompletionTokens int  `json:"completion_tokens"`
	ThinkingTokens   int  `json:"thinking_tokens"`
	CachedTokens     int  `json:"cached_tokens"`
	TotalTokens      int  `json:"total_tokens"`
	Counted          bool `json:"counted,omitempty"` // counted here, not reported by the provider
}

// MaskEmail keeps an address's first character and domain: a***@example.com.
func MaskEmail(email string) string {
	local, domain, ok := strings.Cut(email, "@")
	if !ok || local == "" {
		if email == "" {
			return ""
		}
		return "***"
	}
	return local[:1] + "***@" + domain
}

// ErrDenied matches every *DeniedError.
var ErrDenied = errors.New("request denied")

// DeniedError ends a model call a start hook (or the policy) denied: the
// call ends with Status and Message, as seed 004's RequestDeniedError.
type DeniedError struct {
	Hook    string
	Status  int
	Message string
}

func (e *DeniedError) Error() string {
	return fmt.Sprintf("request denied by %s (%d): %s", e.Hook, e.Status, e.Message)
}

// Is makes errors.Is(err, ErrDenied) true.
func (e *DeniedError) Is(target error) bool { return target == ErrDenied }
