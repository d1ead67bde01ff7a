package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// raw answers with a status, a content type and a body as given.
func raw(code int, contentType, body string) handler {
	return func(w http.ResponseWriter, r *http.Request) {
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// expressError is what an Express server (mock-llm among them) answers
// when its handler throws.
const expressError = `{"error":"SyntaxError","message":"Bad control character in string literal in JSON at position 97 (line 6 column 20)","status":500}`

// providers builds each real provider against a test server.
var providers = []struct {
	name string
	make func(*testing.T, *server, func(*Options)) engine.Model
}{
	{"openai", func(t *testing.T, s *server, tune func(*Options)) engine.Model { return newTestOpenAI(t, s, tune) }},
	{"anthropic", func(t *testing.T, s *server, tune func(*Options)) engine.Model { return newTestAnthropic(t, s, tune) }},
}

// okText is a whole text answer in the provider's own stream format.
func okText(provider, text string) handler {
	if provider == "anthropic" {
		return anthropicStream("end_turn", block{text: []string{text}})
	}
	return openAIText(text)
}

func TestErrorAnswersAnyBody(t *testing.T) {
	longMsg := strings.Repeat("overloaded upstream ", 40)
	tests := []struct {
		name     string
		script   []handler
		status   int    // the StatusError's or KeyRejectedError's status; 0: the call succeeds
		message  string // the server message kept ("" none)
		rejected bool   // a *KeyRejectedError
		requests int
	}{
		{"openai error object", []handler{raw(500, "application/json", `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)},
			500, "The server had an error while processing your request.", false, 3},
		{"string error with a message (express, mock-llm)", []handler{raw(500, "application/json; charset=utf-8", expressError)},
			500, "Bad control character in string literal in JSON at position 97 (line 6 column 20)", false, 3},
		{"ollama string error, not retried", []handler{raw(404, "application/json", `{"error":"model \"qwen9:7b\" not found, try pulling it first"}`)},
			404, `model "qwen9:7b" not found, try pulling it first`, false, 1},
		{"vllm error object at the top", []handler{raw(400, "application/json", `{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError","param":null,"code":400}`)},
			400, "This model's maximum context length is 4096 tokens.", false, 1},
		{"fastapi detail list", []handler{raw(422, "application/json", `{"detail":[{"loc":["body","messages"],"msg":"field required","type":"value_error.missing"}]}`)},
			422, "field required", false, 1},
		{"plain text", []handler{raw(502, "text/plain", "upstream connect error or disconnect/reset before headers\n")},
			502, "upstream connect error or disconnect/reset before headers", false, 3},
		{"html from a proxy", []handler{raw(502, "text/html", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n")},
			502, "502 Bad Gateway", false, 3},
		{"html without a title", []handler{raw(503, "text/html", "<!DOCTYPE html><body><h1>Service down</h1><p>Back &amp; soon.</p></body>")},
			503, "Service down Back & soon.", false, 3},
		{"empty body", []handler{raw(503, "", "")}, 503, "", false, 3},
		{"anthropic overloaded", []handler{raw(529, "application/json", `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`)},
			529, "Overloaded", false, 3},
		{"a long message is truncated", []handler{raw(500, "text/plain", longMsg)},
			500, strings.TrimSpace(longMsg)[:MaxServerMessage] + "…", false, 3},
		{"401 echoing the key", []handler{raw(401, "application/json", `{"error":{"message":"Incorrect API key provided: `+fakeKey+`. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","code":"invalid_api_key"}}`)},
			401, "Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys.", true, 1},
		{"403 plain text", []handler{raw(403, "text/plain", "forbidden for this project")}, 403, "forbidden for this project", true, 1},
		{"429 then success", []handler{raw(429, "text/plain", "slow down"), nil}, 0, "", false, 2},
		{"502 html then success", []handler{raw(502, "text/html", "<html><title>502</title></html>"), nil}, 0, "", false, 2},
	}
	for _, p := range providers {
		for _, tt := range tests {
			t.Run(p.name+"/"+tt.name, func(t *testing.T) {
				script := append([]handler(nil), tt.script...)
				for i, h := range script {
					if h == nil {
						script[i] = okText(p.name, "fine")
					}
				}
				s := newServer(t, script...)
				var retries []error
				m := p.make(t, s, func(o *Options) {
					o.MaxRetries = 2
					o.OnRetry = func(_ int, _ time.Duration, err error) { retries = append(retries, err) }
				})
				rep, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
				if n := len(s.requests()); n != tt.requests {
					t.Errorf("requests = %d, want %d", n, tt.requests)
				}
				if len(retries) != tt.requests-1 {
					t.Errorf("retries reported = %d, want %d", len(retries), tt.requests-1)
				}
				if tt.status == 0 {
					if err != nil || rep.Content != "fine" {
						t.Fatalf("Complete = %q, %v; want the answer after the retry", rep.Content, err)
					}
					return
				}
				host := hostOf(t, s.URL)
				var se *StatusError
				var kr *KeyRejectedError
				switch {
				case tt.rejected:
					if !errors.As(err, &kr) || !errors.Is(err, ErrKeyRejected) || kr.Status != tt.status || kr.Message != tt.message || kr.Host != host {
						t.Fatalf("err = %v (%#v), want a key rejection %d by %s saying %q", err, kr, tt.status, host, tt.message)
					}
				default:
					if !errors.As(err, &se) || !errors.Is(err, ErrHTTPStatus) || se.Status != tt.status || se.Message != tt.message || se.Host != host || se.InStream {
						t.Fatalf("err = %v (%#v), want status %d from %s saying %q", err, se, tt.status, host, tt.message)
					}
					if se.Attempts != tt.requests {
						t.Errorf("attempts = %d, want %d", se.Attempts, tt.requests)
					}
					if se.Retryable() != (tt.requests > 1) {
						t.Errorf("retryable = %v for status %d", se.Retryable(), se.Status)
					}
				}
				if errors.Is(err, ErrMalformedStream) || errors.Is(err, ErrStreamDropped) {
					t.Errorf("err %v is reported as a stream failure", err)
				}
				for _, e := range append(retries, err) {
					if strings.Contains(e.Error(), fakeKey) || strings.Contains(e.Error(), fakeKey[:12]) {
						t.Errorf("error holds the key: %v", e)
					}
				}
			})
		}
	}
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

// TestServerErrorHeadline pins the one headline the issue quotes: a 500
// whose body is a string error, after the retries.
func TestServerErrorHeadline(t *testing.T) {
	s := newServer(t, raw(500, "application/json", expressError))
	m := newTestOpenAI(t, s, func(o *Options) { o.MaxRetries = 2 })
	_, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
	want := "server error 500 from " + hostOf(t, s.URL) + ": Bad control character in string literal in JSON at position 97 (line 6 column 20) (gave up after 3 attempts)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant   %s", err, want)
	}
}

func TestOpenAIErrorInsideStream(t *testing.T) {
	tests := []struct {
		name     string
		script   []handler
		status   int // 0 with ok: the call succeeds
		ok       bool
		rejected bool
		message  string
		requests int
	}{
		{"server_error before any text: retried", []handler{sse(`{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)},
			500, false, false, "The server had an error while processing your request.", 3},
		{"string error with a status (mock-llm's 500 rule)", []handler{sse(expressError)},
			500, false, false, "Bad control character in string literal in JSON at position 97 (line 6 column 20)", 3},
		{"rate limit code, then success", []handler{sse(`{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`), openAIText("fine")},
			0, true, false, "", 2},
		{"invalid key code", []handler{sse(`{"error":{"message":"Incorrect API key provided: sk-abc12345678.","type":"invalid_request_error","code":"invalid_api_key"}}`)},
			401, false, true, "Incorrect API key provided: [redacted].", 1},
		{"after text: not retried", []handler{sse(textChunk("Half an "), `{"error":{"message":"The server had an error","type":"server_error"}}`)},
			500, false, false, "The server had an error", 1},
		{"no status named: not retried", []handler{sse(`{"error":{"message":"context window exceeded"}}`)},
			0, false, false, "context window exceeded", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, tt.script...)
			m := newTestOpenAI(t, s, func(o *Options) { o.MaxRetries = 2 })
			rep, err := m.Complete(context.Background(), callFor(engine.PhaseDirect, userOnly("hi"), nil))
			if n := len(s.requests()); n != tt.requests {
				t.Errorf("requests = %d, want %d", n, tt.requests)
			}
			if tt.ok {
				if err != nil || rep.Content != "fine" {
					t.Fatalf("Complete = %q, %v; want the answer after the retry", rep.Content, err)
				}
				return
			}
			if tt.rejected {
				var kr *KeyRejectedError
				if !errors.As(err, &kr) || kr.Status != tt.status || !kr.InStream || kr.Message != tt.message {
					t.Fatalf("err = %v (%#v), want an in-stream key rejection saying %q", err, kr, tt.message)
				}
				return
			}
			var se *StatusError
			if !errors.As(err, &se) || !errors.Is(err, ErrStreamError) || !se.InStream || se.Status != tt.status || se.Message != tt.message {
				t.Fatalf("err = %v (%#v), want an in-stream error %d saying %q", err, se, tt.status, tt.message)
			}
			if errors.Is(err, ErrHTTPStatus) != (tt.status != 0) {
				t.Errorf("errors.Is(err, ErrHTTPStatus) = %v for status %d", errors.Is(err, ErrHTTPStatus), tt.status)
			}
			if errors.Is(err, ErrMalformedStream) {
				t.Errorf("err %v is reported as a malformed stream", err)
			}
		})
	}
}

func TestRedactText(t *testing.T) {
	tests := []struct {
		in, key, want string
	}{
		{"bad key " + fakeKey + " given", fakeKey, "bad key [redacted] given"},
		{"key " + fakeKey[:20] + "… is wrong", fakeKey, "key [redacted] is wrong"},
		{"Incorrect API key provided: sk-proj-********************abcd.", "", "Incorrect API key provided: [redacted]."},
		{"header Authorization: Bearer abcdef123456", "", "header Authorization: [redacted]"},
		{"a desk-lamp and task-runner stay", "", "a desk-lamp and task-runner stay"},
		{"no secret here", "short", "no secret here"},
	}
	for _, tt := range tests {
		if got := redactText(tt.in, tt.key); got != tt.want {
			t.Errorf("redactText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
