package llm

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
)

// Sentinels of the real providers' failures; match them with errors.Is.
var (
	// ErrKeyRejected: the endpoint answered 401 or 403.
	ErrKeyRejected = errors.New("key rejected")
	// ErrTimeout: the call's own timeout (Options.Timeout) ran out. It does
	// not wrap context.DeadlineExceeded, so a run ends as an error, not as a
	// cancellation by the user.
	ErrTimeout = errors.New("timed out")
	// ErrStreamDropped: the answer stream ended before the answer was complete.
	ErrStreamDropped = errors.New("stream dropped")
	// ErrMalformedStream: a stream chunk was not what the wire format says.
	ErrMalformedStream = errors.New("malformed stream chunk")
	// ErrHTTPStatus: the endpoint answered an error status (after retries
	// where the status is retryable); the error is a *StatusError.
	ErrHTTPStatus = errors.New("error status")
	// ErrStreamError: the endpoint sent an error event inside the answer
	// stream; the error is a *StatusError with InStream set.
	ErrStreamError = errors.New("the stream reported an error")
	// ErrUndecidable: a planning answer said neither yes nor no to tools.
	ErrUndecidable = errors.New("planning answer has no tool decision")
	// ErrNoToolResult: no scripted result for a tool call and nobody to ask.
	ErrNoToolResult = errors.New("no result for tool call")
)

// KeyRejectedError is a 401/403 (or an authentication error sent inside
// the stream). It names the host and the server's message, never the key.
type KeyRejectedError struct {
	Host     string
	Status   int
	Message  string // the server's own message, cleaned (see StatusError.Message)
	InStream bool
}

func (e *KeyRejectedError) Error() string {
	s := fmt.Sprintf("key rejected by %s (%d %s)", e.Host, e.Status, http.StatusText(e.Status))
	if e.InStream {
		s += " in the stream"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is makes errors.Is(err, ErrKeyRejected) true.
func (e *KeyRejectedError) Is(target error) bool { return target == ErrKeyRejected }

// StatusError is an error answer of the endpoint: a non-2xx HTTP status
// whatever its body, or an error event inside a 200 stream.
type StatusError struct {
	Host string
	// Status is the HTTP status, or for an error inside the stream the
	// status its body names (a "status" or numeric "code", else its type:
	// rate_limit_error is 429, overloaded_error 529, …); 0 when it names none.
	Status int
	// Message is the server's own message (OpenAI's error.message, a string
	// "error" with its "message", FastAPI's "detail", an HTML page's title,
	// plain text), whitespace collapsed, at most MaxServerMessage runes, the
	// key and key-like tokens redacted; "" when the body had none.
	Message string
	// Kind is the error's type or code when the body gave one
	// ("invalid_request_error", "SyntaxError", …).
	Kind     string
	InStream bool // sent as an event inside the answer stream
	Attempts int  // how many attempts got this answer (1 when not retried)
}

// MaxServerMessage bounds the server's message kept in an error.
const MaxServerMessage = 300

// Retryable is true for the statuses that are worth another attempt:
// 429 and every 5xx.
func (e *StatusError) Retryable() bool { return retryableStatus(e.Status) }

func retryableStatus(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500 && status <= 599
}

// Error reads "server error 500 from HOST: MESSAGE", then where it came
// from and how often it was tried.
func (e *StatusError) Error() string {
	var b strings.Builder
	switch s := e.Status; {
	case s == 0:
		b.WriteString("error from " + e.Host)
	case s == http.StatusTooManyRequests:
		b.WriteString("rate limited (429) by " + e.Host)
	case s >= 500:
		fmt.Fprintf(&b, "server error %d from %s", s, e.Host)
	case s >= 400:
		fmt.Fprintf(&b, "client error %d from %s", s, e.Host)
	default:
		fmt.Fprintf(&b, "unexpected status %d from %s", s, e.Host)
	}
	if e.InStream {
		b.WriteString(" in the stream")
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if msg == "" {
		msg = "no message"
	}
	b.WriteString(": " + msg)
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (gave up after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Is makes errors.Is(err, ErrHTTPStatus) true for an error that has a
// status, and errors.Is(err, ErrStreamError) for one sent in the stream.
func (e *StatusError) Is(target error) bool {
	return target == ErrHTTPStatus && e.Status != 0 || target == ErrStreamError && e.InStream
}

// UndecidableError carries the planning answer that could not be read as
// a decision, so the caller can show it.
type UndecidableError struct {
	Raw string
}

func (e *UndecidableError) Error() string {
	raw := e.Raw
	if r := []rune(raw); len(r) > 300 {
		raw = string(r[:300]) + "…"
	}
	return fmt.Sprintf("%v: the model answered %q; expected a JSON object like {\"need_tool\": true, \"plan\": \"...\"} or a plain yes/no", ErrUndecidable, raw)
}

// Unwrap makes errors.Is(err, ErrUndecidable) true.
func (e *UndecidableError) Unwrap() error { return ErrUndecidable }

// redactedError replaces every occurrence of a secret in an error's text
// while keeping the chain for errors.Is/As.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact makes sure err's text never carries the key, whatever a server
// or a transport put in it.
func redact(err error, key string) error {
	if err == nil {
		return err
	}
	msg := err.Error()
	clean := redactText(msg, key)
	if clean == msg {
		return err
	}
	return &redactedError{msg: clean, err: err}
}

// keyLike matches what servers echo of a key: "sk-…" tokens (OpenAI's,
// Anthropic's, DeepSeek's, masked or not) and bearer tokens.
var keyLike = regexp.MustCompile(`(?i)\b(?:sk|pk|ak|rk)-[A-Za-z0-9_\-*]{6,}|\bbearer\s+[A-Za-z0-9_\-*.~+/=]{6,}`)

// redactText replaces the key, any run of its first 12 characters (a
// server echoing a truncated key), and key-like tokens.
func redactText(s, key string) string {
	if key != "" {
		s = strings.ReplaceAll(s, key, "[redacted]")
		if len(key) >= 16 {
			prefix := key[:12]
			for {
				i := strings.Index(s, prefix)
				if i < 0 {
					break
				}
				j := i + len(prefix)
				for j < len(s) && s[j] != ' ' && s[j] != '"' && s[j] != '\'' && s[j] != ',' && s[j] != '\n' {
					j++
				}
				s = s[:i] + "[redacted]" + s[j:]
			}
		}
	}
	return keyLike.ReplaceAllString(s, "[redacted]")
}
