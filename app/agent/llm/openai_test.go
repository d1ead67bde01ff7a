package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

func newTestOpenAI(t *testing.T, s *server, tune func(*Options)) *OpenAI {
	t.Helper()
	o := Options{BaseURL: s.URL + "/v1", Model: "test-model", APIKey: fakeKey, MaxRetries: 0, RetryBase: time.Millisecond}
	if tune != nil {
		tune(&o)
	}
	m, err := NewOpenAI(o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// realRunScript is the server side of the full scenario: a planning
// decision, two agent rounds with tool calls, a final answer.
func realRunScript() []handler {
	return []handler{
		openAIText(`{"need_tool": `, `true, "plan": "read main.go, `, `then grep for TODO"}`),
		sse(
			chunk(`{"role":"assistant","content":"Reading it."}`, ""),
			chunk(toolDelta(0, "call_r1", "read_file", ""), ""),
			chunk(toolDelta(0, "", "", `{"pa`), ""),
			chunk(toolDelta(0, "", "", `th": "main.go"}`), ""),
			chunk(`{}`, "tool_calls"),
			"[DONE]",
		),
		sse(
			chunk(toolDelta(0, "call_g1", "grep", `{"pattern":`), ""),
			chunk(toolDelta(1, "call_r2", "read_file", `{"path":"go.mod"}`), ""),
			chunk(toolDelta(0, "", "", `"TODO"}`), ""),
			chunk(`{}`, "tool_calls"),
			"[DONE]",
		),
		openAIText("All ", "TODOs ", "fixed."),
	}
}

func TestOpenAIFullScenario(t *testing.T) {
	s := newServer(t, realRunScript()...)
	m := newTestOpenAI(t, s, nil)
	sc, hs := testScenario()
	var mu sync.Mutex
	streamed := map[int]string{}
	runner := &ToolRunner{Results: NewToolResults([]ToolResultSpec{
		{Name: "read_file", Results: []ArgResult{{Arguments: map[string]any{"path": "main.go"}, Result: "package main // TODO"}}, Result: ptr("module demo")},
		{Name: "grep", Result: ptr("main.go:1: TODO")},
	})}
	tr, err := engine.Run(context.Background(), sc, hs, engine.Config{
		Model: m, Tools: runner, MaxRounds: 10,
		OnStream: func(call int, text string) { mu.Lock(); streamed[call] += text; mu.Unlock() },
	})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(tr.Calls) != 4 {
		t.Fatalf("calls = %d, want 4", len(tr.Calls))
	}
	if nt := tr.Calls[0].NeedTool; nt == nil || !*nt {
		t.Errorf("planning decision = %v, want need_tool true", nt)
	}
	if !strings.Contains(tr.Calls[0].Content, `"plan"`) {
		t.Errorf("planning content lost the raw answer: %q", tr.Calls[0].Content)
	}
	if got := tr.Calls[1].ToolCalls; len(got) != 1 || got[0].ID != "call_r1" || got[0].Arguments["path"] != "main.go" || got[0].Result != "package main // TODO" {
		t.Errorf("round 0 tool calls = %+v", got)
	}
	got := tr.Calls[2].ToolCalls
	if len(got) != 2 || got[0].Name != "grep" || got[0].Arguments["pattern"] != "TODO" || got[1].Name != "read_file" || got[1].Result != "module demo" {
		t.Errorf("round 1 tool calls = %+v", got)
	}
	if tr.Requests[0].Reply != "All TODOs fixed." {
		t.Errorf("reply = %q", tr.Requests[0].Reply)
	}
	for c := range tr.Calls {
		if want := tr.Calls[c].Content; streamed[c] != want {
			t.Errorf("call %d streamed %q, want %q", c, streamed[c], want)
		}
	}

	// The wire: one message per engine message, roles kept (hooks'
	// system messages stay system), tools only in the agent phase.
	for c := range tr.Calls {
		body := s.body(t, c)
		if body["model"] != "test-model" || body["stream"] != true {
			t.Errorf("call %d: model/stream = %v/%v", c, body["model"], body["stream"])
		}
		wire := body["messages"].([]any)
		want := tr.CallMessages(c)
		if len(wire) != len(want) {
			t.Fatalf("call %d: %d wire messages, trace has %d", c, len(wire), len(want))
		}
		for k, w := range wire {
			wm := w.(map[string]any)
			if wm["role"] != want[k].Role {
				t.Errorf("call %d msg %d: role %v, want %s (%s)", c, k, wm["role"], want[k].Role, want[k].Tag())
			}
			if want[k].Role == "tool" && wm["tool_call_id"] != want[k].ToolCallID {
				t.Errorf("call %d msg %d: tool_call_id %v, want %s", c, k, wm["tool_call_id"], want[k].ToolCallID)
			}
		}
		_, hasTools := body["tools"]
		if hasTools != (tr.Calls[c].Phase == engine.PhaseAgent) {
			t.Errorf("call %d (%s): tools offered = %v", c, tr.Calls[c].Phase, hasTools)
		}
	}
	last := s.body(t, 3)
	tools := last["tools"].([]any)
	fn := tools[0].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "read_file" || fn["parameters"].(map[string]any)["required"] == nil {
		t.Errorf("tool 0 on the wire = %v", fn)
	}
	// The assistant message of round 1 carries both calls with their ids.
	var asst map[string]any
	for _, w := range last["messages"].([]any) {
		if wm := w.(map[string]any); wm["role"] == "assistant" && len(wm["tool_calls"].([]any)) == 2 {
			asst = wm
		}
	}
	if asst == nil {
		t.Fatal("no assistant message with two tool calls in the last request")
	}
	tc := asst["tool_calls"].([]any)[0].(map[string]any)
	if tc["id"] != "call_g1" || tc["function"].(map[string]any)["arguments"] != `{"pattern":"TODO"}` {
		t.Errorf("assistant tool call on the wire = %v", tc)
	}
	for i, r := range s.requests() {
		if r.Header.Get("Authorization") != "Bearer "+fakeKey {
			t.Errorf("request %d: Authorization = %q", i, r.Header.Get("Authorization"))
		}
		if strings.Contains(string(r.Body), fakeKey) {
			t.Errorf("request %d body holds the key", i)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestOpenAIStreamingQuirks(t *testing.T) {
	type wantCall struct {
		id   string // "" means any generated id
		name string
		args map[string]any
	}
	tests := []struct {
		name    string
		events  []string
		content string
		calls   []wantCall
	}{
		{
			name: "missing index",
			events: []string{
				chunk(toolDelta(-1, "a", "read_file", ""), ""),
				chunk(toolDelta(-1, "", "", `{"pa`), ""),
				chunk(toolDelta(-1, "", "", `th":"x"}`), ""),
				chunk(toolDelta(-1, "b", "grep", `{}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"a", "read_file", map[string]any{"path": "x"}}, {"b", "grep", nil}},
		},
		{
			name: "repeated index with new ids",
			events: []string{
				chunk(toolDelta(0, "a", "read_file", `{"path":"x"}`), ""),
				chunk(toolDelta(0, "b", "read_file", `{"path":"y"}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"a", "read_file", map[string]any{"path": "x"}}, {"b", "read_file", map[string]any{"path": "y"}}},
		},
		{
			name: "repeated index without ids",
			events: []string{
				chunk(toolDelta(0, "", "read_file", `{"path":"x"}`), ""),
				chunk(toolDelta(0, "", "grep", `{"pattern":"y"}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"", "read_file", map[string]any{"path": "x"}}, {"", "grep", map[string]any{"pattern": "y"}}},
		},
		{
			name: "missing id on the first delta",
			events: []string{
				chunk(toolDelta(0, "", "read_file", `{"path":`), ""),
				chunk(toolDelta(0, "", "", `"x"}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"", "read_file", map[string]any{"path": "x"}}},
		},
		{
			name: "id arrives after the first delta",
			events: []string{
				chunk(toolDelta(-1, "", "read_file", `{"path":`), ""),
				chunk(toolDelta(-1, "late", "", `"x"}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"late", "read_file", map[string]any{"path": "x"}}},
		},
		{
			name: "arguments split into single characters",
			events: func() []string {
				ev := []string{chunk(toolDelta(0, "a", "grep", ""), "")}
				for _, r := range `{"pattern": "a\"b"}` {
					ev = append(ev, chunk(toolDelta(0, "", "", string(r)), ""))
				}
				return append(ev, chunk(`{}`, "tool_calls"), "[DONE]")
			}(),
			calls: []wantCall{{"a", "grep", map[string]any{"pattern": `a"b`}}},
		},
		{
			name:    "no usage chunk, no finish_reason, [DONE] only",
			events:  []string{textChunk("Hel"), textChunk("lo"), "[DONE]"},
			content: "Hello",
		},
		{
			name:    "finish_reason without [DONE]",
			events:  []string{textChunk("Hi"), chunk(`{}`, "stop")},
			content: "Hi",
		},
		{
			name: "usage chunk with no choices",
			events: []string{textChunk("Hi"), chunk(`{}`, "stop"),
				`{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":1,"total_tokens":4}}`, "[DONE]"},
			content: "Hi",
		},
		{
			name: "content and tool deltas in one chunk",
			events: []string{
				chunk(`{"content":"Let me look.","tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"x\"}"}}]}`, ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			content: "Let me look.",
			calls:   []wantCall{{"a", "read_file", map[string]any{"path": "x"}}},
		},
		{
			name: "invalid arguments JSON is kept raw",
			events: []string{
				chunk(toolDelta(0, "a", "read_file", `{path: main.go`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"a", "read_file", map[string]any{RawArgumentsKey: `{path: main.go`}}},
		},
		{
			name: "double-encoded arguments",
			events: []string{
				chunk(toolDelta(0, "a", "read_file", `"{\"path\":\"x\"}"`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"a", "read_file", map[string]any{"path": "x"}}},
		},
		{
			name: "parallel calls interleaved by index",
			events: []string{
				chunk(toolDelta(0, "a", "read_file", `{"path"`), ""),
				chunk(toolDelta(1, "b", "grep", `{"pattern"`), ""),
				chunk(toolDelta(1, "", "", `:"p"}`), ""),
				chunk(toolDelta(0, "", "", `:"x"}`), ""),
				chunk(`{}`, "tool_calls"), "[DONE]",
			},
			calls: []wantCall{{"a", "read_file", map[string]any{"path": "x"}}, {"b", "grep", map[string]any{"pattern": "p"}}},
		},
	}
	sc, _ := testScenario()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, sse(tt.events...))
			m := newTestOpenAI(t, s, nil)
			var streamed strings.Builder
			call := callFor(engine.PhaseAgent, userOnly("go"), sc.Tools)
			call.Stream = func(s string) { streamed.WriteString(s) }
			rep, err := m.Complete(context.Background(), call)
			if err != nil {
				t.Fatalf("complete: %v", err)
			}
			if rep.Content != tt.content || streamed.String() != tt.content {
				t.Errorf("content = %q, streamed %q, want %q", rep.Content, streamed.String(), tt.content)
			}
			if len(rep.ToolCalls) != len(tt.calls) {
				t.Fatalf("tool calls = %+v, want %d", rep.ToolCalls, len(tt.calls))
			}
			ids := map[string]bool{}
			for k, w := range tt.calls {
				g := rep.ToolCalls[k]
				if g.ID == "" || (w.id != "" && g.ID != w.id) || ids[g.ID] {
					t.Errorf("call %d id = %q, want %q (unique, non-empty)", k, g.ID, w.id)
				}
				ids[g.ID] = true
				if g.Name != w.name || CanonicalJSON(g.Arguments) != CanonicalJSON(w.args) {
					t.Errorf("call %d = %s %v, want %s %v", k, g.Name, g.Arguments, w.name, w.args)
				}
			}
		})
	}
}

func TestOpenAIFailures(t *testing.T) {
	keyEcho := `{"error":{"message":"Incorrect API key provided: ` + fakeKey + `","type":"invalid_request_error","code":"invalid_api_key"}}`
	tests := []struct {
		name     string
		script   []handler
		tune     func(*Options)
		is       error
		requests int
		retries  int
		text     []string // the error's text holds these
		status   int      // a *StatusError's status, when set
		message  string   // and its server message
	}{
		{
			name: "timeout",
			script: []handler{func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(5 * time.Second):
				}
			}},
			tune:     func(o *Options) { o.Timeout = 100 * time.Millisecond },
			is:       ErrTimeout,
			requests: 1,
			text:     []string{"no complete answer within 100ms"},
		},
		{
			name:     "401 key rejected",
			script:   []handler{status(401, nil, keyEcho)},
			is:       ErrKeyRejected,
			requests: 1,
			text:     []string{"key rejected by 127.0.0.1:", "401 Unauthorized"},
		},
		{
			name:     "403 key rejected",
			script:   []handler{status(403, nil, keyEcho)},
			is:       ErrKeyRejected,
			requests: 1,
			text:     []string{"key rejected by"},
		},
		{
			name:     "500 three times, then give up",
			script:   []handler{status(500, nil, `{"error":{"message":"boom"}}`)},
			tune:     func(o *Options) { o.MaxRetries = 2 },
			is:       ErrHTTPStatus,
			requests: 3,
			retries:  2,
			status:   500,
			message:  "boom",
		},
		{
			name:     "400 is not retried",
			script:   []handler{status(400, nil, `{"error":{"message":"bad"}}`)},
			tune:     func(o *Options) { o.MaxRetries = 2 },
			is:       ErrHTTPStatus,
			requests: 1,
			status:   400,
			message:  "bad",
		},
		{
			name: "dropped stream mid-chunk",
			script: []handler{func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				writeEvent(w, textChunk("Half an ans"))
				io := w.(http.Flusher)
				w.Write([]byte(`data: {"id":"chatcmpl-1","object":"chat.comp`))
				io.Flush()
				panic(http.ErrAbortHandler) // the connection goes down mid-chunk
			}},
			is:       ErrStreamDropped,
			requests: 1,
		},
		{
			name:     "stream ends without [DONE] or finish_reason",
			script:   []handler{sse(textChunk("Half"))},
			is:       ErrStreamDropped,
			requests: 1,
			text:     []string{"without [DONE]"},
		},
		{
			name:     "malformed chunk",
			script:   []handler{sse(textChunk("ok so far"), `{"id":"x","choices":[{"index":0,"delta":{"content":"a"`)},
			is:       ErrMalformedStream,
			requests: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.script...)
			var mu sync.Mutex
			var retries []string
			m := newTestOpenAI(t, s, func(o *Options) {
				o.OnRetry = func(attempt int, wait time.Duration, err error) {
					mu.Lock()
					retries = append(retries, err.Error())
					mu.Unlock()
				}
				if tt.tune != nil {
					tt.tune(o)
				}
			})
			_, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				t.Errorf("err %v looks like a cancellation", err)
			}
			for _, want := range tt.text {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("err %q does not say %q", err, want)
				}
			}
			if tt.status != 0 {
				var se *StatusError
				if !errors.As(err, &se) || se.Status != tt.status || se.Message != tt.message || se.Attempts != tt.requests {
					t.Errorf("err = %#v, want status %d, message %q after %d attempts", se, tt.status, tt.message, tt.requests)
				}
			}
			if strings.Contains(err.Error(), fakeKey) {
				t.Errorf("err holds the key: %v", err)
			}
			if n := len(s.requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(retries) != tt.retries {
				t.Errorf("retries reported = %d, want %d", len(retries), tt.retries)
			}
			for _, r := range retries {
				if strings.Contains(r, fakeKey) {
					t.Errorf("retry report holds the key: %s", r)
				}
			}
		})
	}
}

func TestOpenAIRetryAfter(t *testing.T) {
	s := newServer(t, status(429, map[string]string{"Retry-After": "1"}, `{"error":{"message":"slow down"}}`), openAIText("fine"))
	type retry struct {
		attempt int
		wait    time.Duration
		err     error
	}
	var got []retry
	m := newTestOpenAI(t, s, func(o *Options) {
		o.MaxRetries = 3
		o.OnRetry = func(a int, w time.Duration, err error) { got = append(got, retry{a, w, err}) }
	})
	start := time.Now()
	rep, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Content != "fine" {
		t.Errorf("content = %q", rep.Content)
	}
	if len(got) != 1 || got[0].attempt != 1 || got[0].wait != time.Second || !strings.Contains(got[0].err.Error(), "429") {
		t.Fatalf("retries = %+v, want one after attempt 1 waiting 1s for a 429", got)
	}
	if el := time.Since(start); el < time.Second {
		t.Errorf("answered after %s: Retry-After not honoured", el)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.h, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %s, want %s", tt.h, got, tt.want)
		}
	}
}

func TestOpenAICancelMidStream(t *testing.T) {
	observed := make(chan struct{})
	s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		writeEvent(w, textChunk("first words"))
		select {
		case <-r.Context().Done():
			close(observed)
		case <-time.After(10 * time.Second):
		}
	})
	m := newTestOpenAI(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	call := callFor(engine.PhaseDirect, userOnly("hi"), nil)
	call.Stream = func(string) { cancel() } // the user cancels once tokens appear
	start := time.Now()
	_, err := m.Complete(ctx, call)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	select {
	case <-observed:
	case <-time.After(20 * time.Second):
		t.Fatal("the server never saw the request cancelled")
	}
	if el := time.Since(start); el > 15*time.Second {
		t.Errorf("cancellation took %s", el)
	}
}

func TestOpenAIRequestBody(t *testing.T) {
	s := newServer(t, openAIText("x"))
	m := newTestOpenAI(t, s, func(o *Options) { o.Temperature = ptr(0.2); o.MaxTokens = 99 })
	sc, _ := testScenario()
	b, err := m.RequestBody(callFor(engine.PhaseAgent, userOnly("hi"), sc.Tools))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatal(err)
	}
	if body["temperature"] != 0.2 || body["max_tokens"] != float64(99) || body["stream"] != true || len(body["tools"].([]any)) != 2 {
		t.Errorf("request body = %s", b)
	}
	if strings.Contains(string(b), fakeKey) {
		t.Error("request body holds the key")
	}
}
