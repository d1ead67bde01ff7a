package capture

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxBody is the largest request body accepted (413 above it).
const MaxBody = 32 << 20

// ErrNeedsToken is returned for a listen address other than loopback
// without a token: anyone on the network could use the endpoint.
var ErrNeedsToken = errors.New("listening beyond loopback needs a token")

// TokenCounter counts a text's tokens (app/agent/tokens.Counter).
type TokenCounter interface{ Count(text string) int }

// Options configure a Server.
type Options struct {
	// Addr is host:port; "" is 127.0.0.1 and a free port.
	Addr string
	// Token, when set, must come as "Authorization: Bearer TOKEN" or
	// "x-api-key: TOKEN". Required beyond loopback.
	Token    string
	Answerer Answerer
	// Upstream, when set, answers instead of Answerer: each request is
	// relayed to it and its answer relayed back unchanged (forward mode).
	Upstream *Upstream
	// OnCall is told each call once it is answered, in order, so it can
	// be kept as it arrives (no partial capture is lost).
	OnCall func(Call)
	Tokens TokenCounter
	// MaxBody overrides MaxBody (tests).
	MaxBody int64
}

// Server is a running capture endpoint.
type Server struct {
	opts Options
	ln   net.Listener
	srv  *http.Server
	done chan struct{}

	mu    sync.Mutex
	next  int // the next request's index
	calls []Call

	// Forward mode records off the request's path: a relayed call is read
	// (its messages parsed, its answer read back from what was relayed) by
	// one goroutine, in the order the answers finished, so parsing a large
	// request adds nothing to the agent's wait.
	jobs      chan func()
	inflight  sync.WaitGroup // relaying handlers yet to queue their job
	recorded  chan struct{}  // closed when the recorder has run every job
	closeJobs sync.Once      // a second Close is harmless
}

// Listen binds the endpoint and starts serving; Close stops it.
func Listen(opts Options) (*Server, error) {
	addr := opts.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" && opts.Token == "" {
		return nil, fmt.Errorf("%s: %w (set one, and send it as the API key)", addr, ErrNeedsToken)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("port %s is not free (%w): pick another with --port, or stop what holds it", port, err)
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = MaxBody
	}
	s := &Server{opts: opts, ln: ln, done: make(chan struct{})}
	if opts.Upstream != nil {
		s.jobs, s.recorded = make(chan func(), 256), make(chan struct{})
		go func() {
			defer close(s.recorded)
			for job := range s.jobs {
				job()
			}
		}()
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln) // ends with ErrServerClosed at Close
	}()
	return s, nil
}

// URL is the base URL to give an agent (http://127.0.0.1:PORT).
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// Close stops accepting and lets the answers in flight finish (the last
// request of a --max-requests capture is answered whole), up to a few
// seconds, then cuts what is left.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	<-s.done
	if s.jobs != nil {
		// handlers cut by Close return once their connection is gone
		s.inflight.Wait()
		s.closeJobs.Do(func() { close(s.jobs) })
		<-s.recorded
	}
	return err
}

// Calls are the calls recorded so far, in the order they were answered.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	on := s.opts.OnCall
	if on != nil {
		on(c) // under the lock: OnCall sees the calls in order
	}
	s.mu.Unlock()
}

func (s *Server) take() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.next
	s.next++
	return n
}

// ServeHTTP routes the two APIs' paths.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	api := OpenAI
	if strings.HasPrefix(r.URL.Path, "/v1/messages") {
		api = Anthropic
	}
	if !s.authorised(r) {
		writeError(w, api, http.StatusUnauthorized, "this capture endpoint needs its token as the API key")
		return
	}
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		s.message(w, r, Anthropic)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
		s.message(w, r, OpenAI)
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.countTokens(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
			{"id": "hookstudio-capture", "object": "model", "created": 0, "owned_by": "hookstudio"}}})
	default:
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("%s %s is not an endpoint of this capture: it serves POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/chat/completions and GET /v1/models", r.Method, r.URL.Path))
	}
}

func (s *Server) authorised(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	got := r.Header.Get("x-api-key")
	if b, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		got = b
	}
	return subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) == 1
}

// readBody reads at most MaxBody; a larger body is a 413.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the request body is over %d MiB", s.opts.MaxBody>>20)
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("read the request body: %w", err)
	}
	return data, http.StatusOK, nil
}

func (s *Server) message(w http.ResponseWriter, r *http.Request, api API) {
	started := time.Now()
	c := Call{API: api, Method: r.Method, Path: r.URL.RequestURI(), Started: started, Headers: redact(r.Header)}
	finish := func(status int, err error) {
		c.Status = status
		if err != nil {
			c.Error = err.Error()
		}
		c.DurationMS = float64(time.Since(started).Microseconds()) / 1000
		s.record(c)
	}
	c.N = s.take()
	data, status, err := s.readBody(w, r)
	if err != nil {
		writeError(w, api, status, err.Error())
		finish(status, err)
		return
	}
	if s.opts.Upstream != nil {
		s.relay(w, r, c, data)
		return
	}
	var req *Request
	if api == Anthropic {
		req, err = parseAnthropic(data)
	} else {
		req, err = parseOpenAI(data)
	}
	if err != nil {
		c.RawBody = string(data)
		writeError(w, api, http.StatusBadRequest, err.Error())
		finish(http.StatusBadRequest, err)
		return
	}
	c.Body = json.RawMessage(data)
	c.Model, c.Stream, c.Messages, c.Tools = req.Model, req.Stream, req.Messages, req.Tools
	c.InputTokens = s.count(req.Messages)

	ans, err := s.opts.Answerer.Answer(r.Context(), c.N, req)
	switch {
	case r.Context().Err() != nil:
		c.Disconnected = true
		finish(499, fmt.Errorf("the client went away before the answer: %w", r.Context().Err()))
		return
	case err != nil:
		writeError(w, api, http.StatusInternalServerError, err.Error())
		finish(http.StatusInternalServerError, err)
		return
	case ans.Error != nil:
		c.Answer = ans
		writeError(w, api, ans.Error.Status, ans.Error.Message)
		finish(ans.Error.Status, fmt.Errorf("answered with an error: %s", ans.Error.Message))
		return
	}
	ans = withIDs(ans, api, c.N)
	c.Answer = ans
	c.OutputTokens = s.countAnswer(ans)
	usage := usage{in: c.InputTokens, out: c.OutputTokens}
	switch {
	case api == Anthropic && req.Stream:
		err = streamAnthropic(w, req.Model, c.N, ans, usage)
	case api == Anthropic:
		writeJSON(w, http.StatusOK, anthropicMessage(req.Model, c.N, ans, usage))
	case req.Stream:
		err = streamOpenAI(w, req.Model, c.N, ans, usage, includeUsage(data))
	default:
		writeJSON(w, http.StatusOK, openAICompletion(req.Model, c.N, ans, usage))
	}
	if err != nil || r.Context().Err() != nil {
		c.Disconnected = true
		finish(http.StatusOK, fmt.Errorf("the client went away during the answer: %w", errors.Join(err, r.Context().Err())))
		return
	}
	finish(http.StatusOK, nil)
}

func (s *Server) countTokens(w http.ResponseWriter, r *http.Request) {
	data, status, err := s.readBody(w, r)
	if err != nil {
		writeError(w, Anthropic, status, err.Error())
		return
	}
	if up := s.opts.Upstream; up != nil && up.API == Anthropic {
		// the provider's own count, for the profile's model; not a call of
		// the capture (the model answers nothing)
		s.forward(w, r, Anthropic, data)
		return
	}
	req, err := parseAnthropic(data)
	if err != nil {
		writeError(w, Anthropic, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"input_tokens": s.count(req.Messages)})
}

func (s *Server) count(ms []Message) int {
	if s.opts.Tokens == nil {
		return 0
	}
	n := 0
	for _, m := range ms {
		n += s.opts.Tokens.Count(m.Content)
		for _, tc := range m.ToolCalls {
			n += s.opts.Tokens.Count(tc.Name) + s.opts.Tokens.Count(string(tc.Arguments))
		}
	}
	return n
}

func (s *Server) countAnswer(a *Answer) int {
	return s.count([]Message{{Content: a.Content, ToolCalls: a.ToolCalls}})
}

type usage struct{ in, out int }

// withIDs gives the answer's tool calls the IDs the API's clients expect
// where the script left them out.
func withIDs(a *Answer, api API, n int) *Answer {
	out := *a
	out.ToolCalls = make([]ToolCall, len(a.ToolCalls))
	for i, tc := range a.ToolCalls {
		if tc.ID == "" {
			prefix := "call_"
			if api == Anthropic {
				prefix = "toolu_"
			}
			tc.ID = fmt.Sprintf("%s%02d_%d", prefix, n+1, i+1)
		}
		if len(tc.Arguments) == 0 {
			tc.Arguments = json.RawMessage(`{}`)
		}
		out.ToolCalls[i] = tc
	}
	return &out
}

// redact copies the headers, hiding every key, token and authorization.
func redact(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		if lk == "authorization" || lk == "cookie" || strings.Contains(lk, "key") || strings.Contains(lk, "token") || strings.Contains(lk, "secret") {
			out[lk] = "[redacted]"
			continue
		}
		out[lk] = strings.Join(v, ", ")
	}
	return out
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers in the API's own error shape.
func writeError(w http.ResponseWriter, api API, status int, msg string) {
	if api == Anthropic {
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
			413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error"}[status]
		if typ == "" {
			typ = "api_error"
		}
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
		return
	}
	typ := map[int]string{400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
		413: "invalid_request_error", 429: "rate_limit_exceeded"}[status]
	if typ == "" {
		typ = "server_error"
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil}})
}

// sse writes server-sent events, flushing each, and reports a write that
// failed (the client went away).
type sse struct {
	w   http.ResponseWriter
	f   http.Flusher
	err error
}

func newSSE(w http.ResponseWriter) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return &sse{w: w, f: f}
}

func (e *sse) send(event string, v any) {
	if e.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	if event != "" {
		_, e.err = fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, data)
	} else {
		_, e.err = fmt.Fprintf(e.w, "data: %s\n\n", data)
	}
	e.flush()
}

func (e *sse) raw(line string) {
	if e.err != nil {
		return
	}
	_, e.err = io.WriteString(e.w, line)
	e.flush()
}

func (e *sse) flush() {
	if e.err == nil && e.f != nil {
		e.f.Flush()
	}
}

// chunks splits text into pieces as a model streams it, at word ends
// where it can and never inside a character.
func chunks(text string) []string {
	var out []string
	for len(text) > 0 {
		n := min(len(text), 24)
		for n < len(text) && (text[n] != ' ' && n < 64 || !utf8.RuneStart(text[n])) {
			n++
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}
