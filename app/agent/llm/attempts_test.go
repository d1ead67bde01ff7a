package llm

import (
	"context"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// TestAttemptObserver: a 429, a 503 and a success are three attempts, in
// order, with their statuses and reasons; the key never shows.
func TestAttemptObserver(t *testing.T) {
	s := newServer(t,
		status(429, map[string]string{"Retry-After-Ms": "1"}, `{"error":{"message":"slow down `+fakeKey+`"}}`),
		status(503, map[string]string{"Retry-After-Ms": "1"}, `{"error":{"message":"overloaded"}}`),
		openAIText("fine"))
	m := newTestOpenAI(t, s, func(o *Options) { o.MaxRetries = 3 })
	var got []Attempt
	ctx := WithAttemptObserver(context.Background(), func(a Attempt) { got = append(got, a) })
	before := time.Now()
	if _, err := m.Complete(ctx, callFor(engine.PhaseDirect, userOnly("hi"), nil)); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("attempts %+v, want 3", got)
	}
	want := []struct {
		status int
		reason string
	}{{429, "slow down"}, {503, "overloaded"}, {200, ""}}
	for i, w := range want {
		a := got[i]
		if a.N != i+1 || a.Status != w.status || !strings.Contains(a.Reason, w.reason) || (w.reason == "") != (a.Reason == "") {
			t.Errorf("attempt %d: %+v, want status %d reason %q", i+1, a, w.status, w.reason)
		}
		if strings.Contains(a.Reason, fakeKey) {
			t.Errorf("attempt %d reason holds the key: %s", i+1, a.Reason)
		}
		if a.Time.Before(before) || (i > 0 && a.Time.Before(got[i-1].Time)) {
			t.Errorf("attempt %d time %v out of order", i+1, a.Time)
		}
	}
	// Without an observer nothing is reported and nothing breaks.
	s2 := newServer(t, openAIText("ok"))
	if _, err := newTestOpenAI(t, s2, nil).Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil)); err != nil {
		t.Fatal(err)
	}
}
