package llm

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm/mockllm"
	"hookstudio/app/agent/scenario"
)

// TestMockLLM runs scenarios through the OpenAI provider and the engine
// against @dwmkerr/mock-llm, a server nobody here wrote, with the rules of
// testdata/mock-llm/rules.yaml: each request's marker picks its rules.
func TestMockLLM(t *testing.T) {
	srv := mockllm.Start(t, "testdata/mock-llm/rules.yaml")
	if got := srv.Listening(); got != srv.Host {
		t.Errorf("mock-llm listens on %q, want only %s", got, srv.Host)
	}
	type outcome struct {
		reply    string // the last request's reply, when the run succeeds
		warned   []int  // calls with the empty-answer warning
		retries  int
		status   int  // a failed run: the *StatusError / *KeyRejectedError status
		rejected bool // a *KeyRejectedError
		inStream bool
		message  string // the failure's server message starts with this
		attempts int
	}
	tests := []struct {
		name string
		user string
		v1   bool // base URL ends in /v1 (false: a wrong base URL)
		want outcome
	}{
		{"planning JSON, no tool", "[plain] What is 2+2?", true, outcome{reply: `{"need_tool": false, "answer": "Four."}`}},
		{"planning, then a plain agent answer", "[tool] Which module is this?", true, outcome{reply: "The module is called demo and needs Go 1.26."}},
		{"an empty agent answer is warned", "[empty] Which module is this?", true, outcome{reply: "", warned: []int{1}}},
		{"429 in the stream, then success", "[429] Anything?", true, outcome{reply: `{"need_tool": false, "answer": "Answered after the rate limit."}`, retries: 1}},
		{"401 in the stream", "[401] Hello", true, outcome{status: 401, rejected: true, inStream: true, message: "Incorrect API key provided: [redacted]."}},
		{"500 with a string error in the stream", "[500] Hello", true, outcome{status: 500, inStream: true, message: "Bad control character in string literal in JSON at position 42", attempts: 3, retries: 2}},
		{"mock-llm's own 500: its template breaks on a multi-line message", "[echo] Hello", true, outcome{status: 500, message: "Bad control character in string literal in JSON", attempts: 3, retries: 2}},
		{"an answer with only tool calls cannot be streamed by mock-llm", "[tool-call] Read go.mod", true, outcome{status: 500, message: "Cannot read properties of null", attempts: 3, retries: 2}},
		{"a base URL without /v1: mock-llm's 404", "[plain] Hello", false, outcome{status: 404, message: "Cannot POST /chat/completions", attempts: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Reset(t)
			base := srv.URL
			if tt.v1 {
				base += "/v1"
			}
			var mu sync.Mutex
			retries := 0
			m, err := NewOpenAI(Options{BaseURL: base, Model: "mock", APIKey: fakeKey, MaxRetries: 2, RetryBase: time.Millisecond, Timeout: 20 * time.Second,
				OnRetry: func(int, time.Duration, error) { mu.Lock(); retries++; mu.Unlock() }})
			if err != nil {
				t.Fatal(err)
			}
			sc, _ := testScenario()
			sc.Requests = []scenario.Request{{User: tt.user}}
			tr, err := engine.Run(context.Background(), sc, hooks{}, engine.Config{
				Model: m, Tools: &ToolRunner{}, MaxRounds: 5, AfterCall: MarkWarnings(nil),
			})
			mu.Lock()
			if retries != tt.want.retries {
				t.Errorf("retries = %d, want %d", retries, tt.want.retries)
			}
			mu.Unlock()
			if tt.want.status == 0 {
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				if got := tr.Requests[0].Reply; got != tt.want.reply {
					t.Errorf("reply = %q, want %q", got, tt.want.reply)
				}
				var warned []int
				for _, c := range tr.Calls {
					if c.Warning != "" {
						warned = append(warned, c.Index)
					}
				}
				if !equalInts(warned, tt.want.warned) {
					t.Errorf("calls warned = %v, want %v", warned, tt.want.warned)
				}
				return
			}
			if tr.Status != engine.StatusError || len(tr.Calls) == 0 || tr.Calls[len(tr.Calls)-1].Error == "" {
				t.Errorf("trace status %s, calls %+v: want the failure on the last call", tr.Status, tr.Calls)
			}
			var status, attempts int
			var message, host string
			var inStream bool
			if tt.want.rejected {
				var kr *KeyRejectedError
				if !errors.As(err, &kr) {
					t.Fatalf("err = %v, want a key rejection", err)
				}
				status, message, host, inStream, attempts = kr.Status, kr.Message, kr.Host, kr.InStream, 0
			} else {
				var se *StatusError
				if !errors.As(err, &se) {
					t.Fatalf("err = %v, want a *StatusError", err)
				}
				status, message, host, inStream, attempts = se.Status, se.Message, se.Host, se.InStream, se.Attempts
			}
			if status != tt.want.status || inStream != tt.want.inStream || host != srv.Host || !strings.HasPrefix(message, tt.want.message) {
				t.Errorf("failure = %d from %s (in stream %v) %q; want %d from %s (in stream %v) %q…", status, host, inStream, message, tt.want.status, srv.Host, tt.want.inStream, tt.want.message)
			}
			if attempts != tt.want.attempts {
				t.Errorf("attempts = %d, want %d", attempts, tt.want.attempts)
			}
			if strings.Contains(err.Error(), fakeKey) || strings.Contains(err.Error(), "sk-mock-000000000000") {
				t.Errorf("err holds a key: %v", err)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
