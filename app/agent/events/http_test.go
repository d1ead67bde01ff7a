package events

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
)

// TestCancelAbortsModelRequest: a cancel while a real model request is in
// flight aborts the HTTP request at once (the server sees its request's
// context end) and the run ends cancelled with WORKFLOW_CANCELLED.
func TestCancelAbortsModelRequest(t *testing.T) {
	arrived := make(chan struct{}, 1)
	aborted := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices a closed connection only after the body
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			close(aborted)
		case <-time.After(30 * time.Second):
		}
	}))
	defer srv.Close()
	model, err := llm.NewOpenAI(llm.Options{BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	sc := parseText(t, "s.yaml", "name: s\nrequests:\n  - user: hi\n    reply: hello\n")
	ctl := NewControl()
	ctx, release := ctl.Context(context.Background())
	defer release()
	st := NewStream(StreamOptions{})
	cfg := engine.Config{Model: model}
	m := Attach(&cfg, Options{Stream: st, Control: ctl})
	go func() { <-arrived; ctl.Cancel("user") }()
	start := time.Now()
	tr, err := engine.Run(ctx, sc, noHooks{}, cfg)
	m.Finish(tr, err)
	if !errors.Is(err, context.Canceled) || tr.Status != engine.StatusCancelled {
		t.Fatalf("err %v, status %s", err, tr.Status)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the run took %s to end after the cancel", d)
	}
	select {
	case <-aborted:
	case <-time.After(20 * time.Second):
		t.Fatal("the server never saw the request aborted")
	}
	evs := st.Persistent()
	if last := evs[len(evs)-1]; last.Type != WorkflowCancelled || last.Payload["reason"] != "user" {
		t.Errorf("last event %+v", last)
	}
}

// TestBudgetRealUsage: a real model's reported usage drives the budget:
// an OpenAI-compatible server reports 812 + 37 tokens a call; with 1,000
// tokens the first call is a warning (85 %), the second critical and
// exceeded (170 %).
func TestBudgetRealUsage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, c := range []string{
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`,
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":812,"completion_tokens":37,"total_tokens":849}}`,
			`[DONE]`,
		} {
			_, _ = io.WriteString(w, "data: "+c+"\n\n")
		}
	}))
	defer srv.Close()
	model, err := llm.NewOpenAI(llm.Options{BaseURL: srv.URL + "/v1", Model: "m", MaxRetries: 0})
	if err != nil {
		t.Fatal(err)
	}
	sc := parseText(t, "s.yaml", "name: s\nrequests:\n  - user: one\n    reply: a\n  - user: two\n    reply: b\n")
	st := NewStream(StreamOptions{})
	cfg := engine.Config{Model: model}
	m := Attach(&cfg, Options{Stream: st, Budget: &Budget{TotalTokens: 1000}, Tokens: counter(t)})
	tr, err := engine.Run(context.Background(), sc, noHooks{}, cfg)
	m.Finish(tr, err)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range st.Persistent() {
		if e.Type == BudgetThreshold {
			got = append(got, fmt.Sprintf("%s %v %v %v", e.Payload["level"], e.Payload["call"], e.Payload["used"], e.Payload["source"]))
		}
	}
	want := []string{"warning 0 849 provider", "critical 1 1698 provider", "exceeded 1 1698 provider"}
	if !slices.Equal(got, want) {
		t.Errorf("thresholds %q, want %q", got, want)
	}
}
