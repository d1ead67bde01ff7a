package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Options configure a real provider. The key lives only here and in the
// Authorization / x-api-key header of each request.
type Options struct {
	BaseURL     string   // e.g. https://api.openai.com/v1, http://localhost:11434/v1
	Model       string   // the model name the endpoint knows
	APIKey      string   // may be empty for local servers
	Temperature *float64 // nil: the endpoint's default
	MaxTokens   int      // 0: the endpoint's default (Anthropic: DefaultAnthropicMaxTokens)
	// Timeout bounds one attempt of one call, from sending the request to
	// the end of the stream; 0 means no limit beyond ctx.
	Timeout time.Duration
	// MaxRetries is how many times a 429 or 5xx answer is retried; negative
	// means DefaultMaxRetries.
	MaxRetries int
	// RetryBase is the first backoff wait (doubled per retry, with jitter);
	// 0 means DefaultRetryBase.
	RetryBase time.Duration
	// MaxRetryWait caps every wait, Retry-After included; 0 means DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// OnRetry, if set, is told before each retry: the attempt that failed
	// (1-based), how long the wait will be, and why.
	OnRetry func(attempt int, wait time.Duration, err error)
	// HTTPClient, if set, sends the requests (tests, proxies).
	HTTPClient *http.Client
}

// Defaults of Options.
const (
	DefaultMaxRetries         = 2
	DefaultRetryBase          = 500 * time.Millisecond
	DefaultMaxRetryWait       = 30 * time.Second
	DefaultAnthropicMaxTokens = 4096
)

func (o *Options) host() string {
	u, err := url.Parse(o.BaseURL)
	if err != nil || u.Host == "" {
		return "the endpoint"
	}
	return u.Host
}

func (o *Options) validate() error {
	if o.BaseURL == "" {
		return errors.New("no base URL")
	}
	u, err := url.Parse(o.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("base URL %q is not an http(s) URL", o.BaseURL)
	}
	if o.Model == "" {
		return errors.New("no model name")
	}
	return nil
}

func (o *Options) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return &http.Client{}
}

// retryable is a failed attempt that may be tried again after wait
// (0: compute the backoff).
type retryable struct {
	err        error
	retryAfter time.Duration
}

func (r *retryable) Error() string { return r.err.Error() }
func (r *retryable) Unwrap() error { return r.err }

// withRetries runs attempt until it succeeds, fails for good, or the
// retries run out; each attempt gets its own timeout. Waits honour
// Retry-After and stop at once when ctx is done.
func (o *Options) withRetries(ctx context.Context, attempt func(ctx context.Context) error) error {
	max := o.MaxRetries
	if max < 0 {
		max = DefaultMaxRetries
	}
	base := o.RetryBase
	if base <= 0 {
		base = DefaultRetryBase
	}
	capWait := o.MaxRetryWait
	if capWait <= 0 {
		capWait = DefaultMaxRetryWait
	}
	for n := 1; ; n++ {
		err := o.once(ctx, attempt)
		observeAttempt(ctx, n, err, o.APIKey) // request hooks' attempts (attempts.go)
		var r *retryable
		if !errors.As(err, &r) {
			return redact(err, o.APIKey)
		}
		if n > max {
			var se *StatusError
			if errors.As(r.err, &se) {
				se.Attempts = n
			}
			return redact(r.err, o.APIKey)
		}
		wait := r.retryAfter
		if wait <= 0 {
			// Exponential backoff with jitter in [d/2, d).
			d := base << (n - 1)
			if d > capWait || d <= 0 {
				d = capWait
			}
			wait = d/2 + rand.N(d/2+1)
		}
		wait = min(wait, capWait)
		if o.OnRetry != nil {
			o.OnRetry(n, wait, redact(r.err, o.APIKey))
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// once runs one attempt under the per-call timeout and names the failure.
func (o *Options) once(ctx context.Context, attempt func(ctx context.Context) error) error {
	actx, cancel := ctx, context.CancelFunc(func() {})
	if o.Timeout > 0 {
		actx, cancel = context.WithTimeout(ctx, o.Timeout)
	}
	defer cancel()
	err := attempt(actx)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if actx.Err() != nil {
		return fmt.Errorf("%s: no complete answer within %s: %w", o.host(), o.Timeout, ErrTimeout)
	}
	return err
}

// isAnswerFailure is an error answer already read and typed by
// checkStatus (possibly wrapped by the SDK).
func isAnswerFailure(err error) bool {
	var r *retryable
	var se *StatusError
	var kr *KeyRejectedError
	return errors.As(err, &r) || errors.As(err, &se) || errors.As(err, &kr)
}

// retryAfter reads retry-after-ms, then Retry-After (seconds or an HTTP date).
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// streamError names why reading a stream failed: ctx is handled by once.
func (o *Options) streamError(err error) error {
	if isJSONError(err) {
		return fmt.Errorf("%s: %w: %v", o.host(), ErrMalformedStream, err)
	}
	return fmt.Errorf("%s: %w: %v", o.host(), ErrStreamDropped, err)
}

func isJSONError(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te)
}
