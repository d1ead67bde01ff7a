package llm

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Attempt is one try of a real provider's call, as request hooks (seed
// 004's AttemptInfo) record it: when it ended, the HTTP status it got
// (200 for a success, 0 when there was no answer) and why it failed.
type Attempt struct {
	N      int       // 1-based
	Status int       // HTTP status; 0: no answer (network, timeout, cancel)
	Reason string    // "" for a success
	Time   time.Time // when the attempt ended
}

type attemptKey struct{}

// WithAttemptObserver returns a context under which a provider's call
// reports every attempt (retries included) to fn, in order, from the
// caller's goroutine. Added for request hooks (app/hooks/reqhook).
func WithAttemptObserver(ctx context.Context, fn func(Attempt)) context.Context {
	return context.WithValue(ctx, attemptKey{}, fn)
}

// observeAttempt tells the context's observer, if any, how attempt n ended.
func observeAttempt(ctx context.Context, n int, err error, key string) {
	fn, _ := ctx.Value(attemptKey{}).(func(Attempt))
	if fn == nil {
		return
	}
	a := Attempt{N: n, Time: time.Now(), Status: http.StatusOK}
	if err != nil {
		a.Status = 0
		a.Reason = redact(err, key).Error()
		var se *StatusError
		var kr *KeyRejectedError
		switch {
		case errors.As(err, &se):
			a.Status = se.Status
		case errors.As(err, &kr):
			a.Status = kr.Status
		}
	}
	fn(a)
}
