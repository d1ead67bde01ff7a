package llm

import (
	"errors"
	"fmt"
	"net/http"
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
	// where the status is retryable).
	ErrHTTPStatus = errors.New("error status")
	// ErrUndecidable: a planning answer said neither yes nor no to tools.
	ErrUndecidable = errors.New("planning answer has no tool decision")
	// ErrNoToolResult: no scripted result for a tool call and nobody to ask.
	ErrNoToolResult = errors.New("no result for tool call")
)

// KeyRejectedError is a 401/403. It names the host, never the key.
type KeyRejectedError struct {
	Host   string
	Status int
}

func (e *KeyRejectedError) Error() string {
	return fmt.Sprintf("key rejected by %s (%d %s)", e.Host, e.Status, http.StatusText(e.Status))
}

// Is makes errors.Is(err, ErrKeyRejected) true.
func (e *KeyRejectedError) Is(target error) bool { return target == ErrKeyRejected }

// StatusError is an error status the endpoint kept answering.
type StatusError struct {
	Host     string
	Status   int
	Attempts int
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("%s answered %d %s", e.Host, e.Status, http.StatusText(e.Status))
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

// Is makes errors.Is(err, ErrHTTPStatus) true.
func (e *StatusError) Is(target error) bool { return target == ErrHTTPStatus }

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
	if err == nil || key == "" {
		return err
	}
	msg := err.Error()
	if !strings.Contains(msg, key) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(msg, key, "[redacted]"), err: err}
}
