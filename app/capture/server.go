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
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"hookstudio/app/agentdata/profile"
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
	// Token, when set, must come as "Authorization: Bearer TOKEN",
	// "x-api-key: TOKEN" or "x-goog-api-key: TOKEN". Required beyond
	// loopback.
	Token    string
	Answerer Answerer
	// Upstream, when set, answers instead of Answerer: each request is
	// relayed to it and its answer relayed back unchanged (forward mode).
	Upstream *Upstream
	// Journal, when set, keeps each call durably before its answer ends
	// (Keeper.Journal): a capture killed outright keeps every call
	// answered so far.
	Journal *Journal
	// OnCall is told each call once it is recorded, in the order the
	// answers finished.
	OnCall func(Call)
	Tokens TokenCounter
	// Agents reads each call with the rendering profiles of the agent that
	// sent it (nil: the bundled profiles).
	Agents *AgentReader
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

	// A call is recorded off the request's path: its request is parsed
	// (messages, origins, tokens) by one goroutine, in the order the
	// answers finished, so parsing a large request adds nothing to the
	// agent's wait.
	jobs      chan func()
	inflight  sync.WaitGroup // handlers yet to queue their job
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
	if opts.Agents == nil {
		opts.Agents = NewAgentReader(profile.NewCatalog(""))
	}
	s := &Server{opts: opts, ln: ln, done: make(chan struct{}), jobs: make(chan func(), 256), recorded: make(chan struct{})}
	go func() {
		defer close(s.recorded)
		for job := range s.jobs {
			job()
		}
	}()
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
// seconds, then cuts what is left; every call answered is recorded when it
// returns.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		err = s.srv.Close()
	}
	<-s.done
	// handlers cut by Close return once their connection is gone
	s.inflight.Wait()
	s.closeJobs.Do(func() { close(s.jobs) })
	<-s.recorded
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

// apiOf is the API a path belongs to, for its error shape.
func apiOf(path string) API {
	switch {
	case strings.HasPrefix(path, "/v1/messages"):
		return Anthropic
	case strings.HasPrefix(path, "/v1/responses"):
		return Responses
	case strings.HasPrefix(path, "/v1beta/"), strings.HasPrefix(path, "/v1alpha/"), strings.Contains(path, ":generateContent"),
		strings.Contains(path, ":streamGenerateContent"), strings.Contains(path, ":countTokens"):
		return Gemini
	}
	return OpenAI
}

const endpoints = "POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/chat/completions, POST /v1/responses, GET /v1/models, " +
	"POST /v1beta/models/{model}:generateContent, :streamGenerateContent and :countTokens, GET /v1beta/models"

// ServeHTTP routes the four APIs' paths.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	api := apiOf(path)
	if !s.authorised(r) {
		writeError(w, api, http.StatusUnauthorized, "this capture endpoint needs its token as the API key")
		return
	}
	gp, isGemini := parseGeminiPath(path)
	switch {
	case r.Method == http.MethodPost && path == "/v1/messages":
		s.call(w, r, Anthropic, geminiPath{})
	case r.Method == http.MethodPost && path == "/v1/chat/completions":
		s.call(w, r, OpenAI, geminiPath{})
	case r.Method == http.MethodPost && path == "/v1/responses":
		s.call(w, r, Responses, geminiPath{})
	case r.Method == http.MethodPost && isGemini && (gp.method == "generateContent" || gp.method == "streamGenerateContent"):
		s.call(w, r, Gemini, gp)
	case r.Method == http.MethodPost && path == "/v1/messages/count_tokens":
		s.countTokens(w, r, Anthropic, gp)
	case r.Method == http.MethodPost && isGemini && gp.method == "countTokens":
		s.countTokens(w, r, Gemini, gp)
	case r.Method == http.MethodGet && path == "/v1/models":
		writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
			{"id": "hookstudio-capture", "object": "model", "created": 0, "owned_by": "hookstudio"}}})
	case r.Method == http.MethodGet && (path == "/v1beta/models" || path == "/v1/models/"):
		writeJSON(w, http.StatusOK, map[string]any{"models": []map[string]any{{"name": "models/hookstudio-capture", "displayName": "Hook Studio capture",
			"supportedGenerationMethods": []string{"generateContent", "streamGenerateContent", "countTokens"}}}})
	default:
		writeError(w, api, http.StatusNotFound, fmt.Sprintf("%s %s is not an endpoint of this capture: it serves %s", r.Method, path, endpoints))
	}
}

func (s *Server) authorised(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	got := r.Header.Get("x-api-key")
	if g := r.Header.Get("x-goog-api-key"); g != "" {
		got = g
	}
	if k := r.URL.Query().Get("key"); k != "" {
		got = k
	}
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
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("%w: the request body is over %d MiB", ErrBadRequest, s.opts.MaxBody>>20)
	case err != nil:
		return nil, http.StatusBadRequest, fmt.Errorf("read the request body: %w", err)
	}
	return data, http.StatusOK, nil
}

// call answers one request of a model API and records it: the body is
// read and checked (a bad one is refused in the API's shape and takes no
// answer), the answerer is asked, the call goes into the journal while
// the answer is rendered, and the answer's bytes go out once the call is
// durable. The request is parsed for the record afterwards.
func (s *Server) call(w http.ResponseWriter, r *http.Request, api API, gp geminiPath) {
	s.inflight.Add(1)
	defer s.inflight.Done()
	ctx := r.Context()
	c := Call{API: api, Method: r.Method, Path: redactedURI(r.URL), Started: time.Now(), Headers: redact(r.Header)}
	c.N = s.take()
	data, status, err := s.readBody(w, r)
	if err != nil {
		s.refuse(ctx, w, c, nil, gp, status, err)
		return
	}
	if s.opts.Upstream != nil {
		s.relay(w, r, c, data, gp)
		return
	}
	h, err := inspect(api, data, gp)
	if err != nil {
		s.refuse(ctx, w, c, data, gp, http.StatusBadRequest, err)
		return
	}
	c.Model, c.Stream = h.model, h.stream
	req := &Request{API: api, Model: h.model, Stream: h.stream, Side: h.side, Messages: []Message{}, Tools: []string{},
		Subagent: r.Header.Get(SubagentHeader)}
	var parsed *parsedRequest
	if mr, ok := s.opts.Answerer.(messageReader); ok && mr.ReadsMessages() {
		parsed = parse(api, data, gp)
		if parsed.req != nil {
			// read as the record will be: the hooks' words named
			read := c
			read.Messages = parsed.req.Messages
			s.opts.Agents.Read(&read)
			req.Messages, req.Tools = read.Messages, parsed.req.Tools
		}
	}
	if h.side != nil {
		c.Side = h.side.Kind
	}
	ans, err := s.answer(ctx, c.N, req)
	switch {
	case ctx.Err() != nil:
		c.Disconnected, c.Status, c.Error = true, 499, fmt.Sprintf("the client went away before the answer: %v", ctx.Err())
		s.finish(ctx, c, data, gp, parsed, nil)
		return
	case err != nil:
		c.Status, c.Error = http.StatusInternalServerError, err.Error()
		s.finish(ctx, c, data, gp, parsed, func() error { return writeError(w, api, c.Status, err.Error()) })
		return
	case ans.Error != nil:
		c.Answer, c.Status, c.Error = ans, ans.Error.Status, "answered with an error: "+ans.Error.Message
		s.finish(ctx, c, data, gp, parsed, func() error { return writeError(w, api, ans.Error.Status, ans.Error.Message) })
		return
	}
	ans = withIDs(ans, api, c.N)
	c.Answer, c.Status = ans, http.StatusOK
	// The answer's usage is estimated (four bytes a token): counting a
	// large request's tokens takes longer than answering it. The call
	// records the exact count.
	u := usage{in: (len(data) + 3) / 4, out: (len(ans.Content) + argsLen(ans) + 3) / 4}
	contentType, body := render(api, h, c.N, ans, u)
	s.finish(ctx, c, data, gp, parsed, func() error { return writeBody(w, contentType, body) })
}

// answer asks the answerer; a side request it does not script gets the
// minimal valid answer.
func (s *Server) answer(ctx context.Context, n int, req *Request) (*Answer, error) {
	if req.Side != nil {
		if sa, ok := s.opts.Answerer.(sideAnswerer); ok {
			if a, ok := sa.AnswerSide(ctx, n, req); ok {
				return a, nil
			}
		}
		return minimalAnswer(req.Side), nil
	}
	return s.opts.Answerer.Answer(ctx, n, req)
}

// refuse answers a request that is not one of its API in that API's error
// shape, and records it (it takes no answer).
func (s *Server) refuse(ctx context.Context, w http.ResponseWriter, c Call, data []byte, gp geminiPath, status int, err error) {
	c.Status, c.Error = status, err.Error()
	msg := strings.TrimPrefix(err.Error(), ErrBadRequest.Error()+": ")
	s.finish(ctx, c, data, gp, &parsedRequest{refused: true}, func() error { return writeError(w, c.API, status, msg) })
}

// finish keeps the call in the journal, then sends the answer and queues
// the call's record.
func (s *Server) finish(ctx context.Context, c Call, data []byte, gp geminiPath, parsed *parsedRequest, send func() error) {
	s.keep(c, data, nil)
	if send != nil {
		if err := send(); (err != nil || ctx.Err() != nil) && c.Status == http.StatusOK {
			c.Disconnected = true
			c.Error = fmt.Sprintf("the client went away during the answer: %v", errors.Join(err, ctx.Err()))
		}
	}
	c.DurationMS = float64(time.Since(c.Started).Microseconds()) / 1000
	s.jobs <- func() {
		s.complete(&c, data, gp, parsed)
		s.record(c)
	}
}

// complete reads the request for the record: the body, the messages and
// their origins, the tools, the tokens.
func (s *Server) complete(c *Call, data []byte, gp geminiPath, parsed *parsedRequest) {
	completeCall(c, data, gp, parsed, s.opts.Tokens, parsed == nil || !parsed.refused, s.opts.Agents) // a call answered passed inspect
}

// completeCall reads a call's request (parsed, unless it was already)
// into the call: what a capture records after the answer went out, and
// what a capture rebuilt from its journal reads again. checked says the
// body passed inspect (JSON of its API's shape); agents reads the hooks'
// words with the sending agent's profiles.
func completeCall(c *Call, data []byte, gp geminiPath, parsed *parsedRequest, tokens TokenCounter, checked bool, agents *AgentReader) {
	if data == nil {
		return
	}
	valid := checked || gjson.ValidBytes(data)
	if valid {
		c.Body = json.RawMessage(data)
	} else {
		c.RawBody = string(data)
	}
	if parsed != nil && parsed.refused {
		return
	}
	if !valid {
		c.Warnings = append(c.Warnings, "the request body is not JSON: its messages are not read")
		return
	}
	if parsed == nil {
		parsed = parse(c.API, data, gp)
	}
	c.Warnings = append(c.Warnings, parsed.warnings...)
	if parsed.err != nil {
		c.Warnings = append(c.Warnings, "the request could not be read for its messages: "+parsed.err.Error())
		return
	}
	c.Messages, c.Tools = parsed.req.Messages, parsed.req.Tools
	agents.Read(c)
	if c.Model == "" {
		c.Model, c.Stream = parsed.req.Model, parsed.req.Stream
	}
	if c.InputTokens == 0 { // a forwarded call has the provider's own
		c.InputTokens = count(tokens, c.Messages)
	}
	if c.Answer != nil && c.Answer.Error == nil && c.OutputTokens == 0 {
		c.OutputTokens = countAnswer(tokens, c.Answer)
	}
}

// parsedRequest is a request read whole, or why it could not be.
type parsedRequest struct {
	req      *Request
	warnings []string
	err      error
	refused  bool // not parsed: the endpoint refused it (not JSON, the wrong shape, too big)
}

func parse(api API, data []byte, gp geminiPath) *parsedRequest {
	var p parsedRequest
	switch api {
	case Anthropic:
		p.req, p.warnings, p.err = parseAnthropic(data)
	case OpenAI:
		p.req, p.warnings, p.err = parseOpenAI(data)
	case Responses:
		p.req, p.warnings, p.err = parseResponses(data)
	case Gemini:
		p.req, p.warnings, p.err = parseGemini(data, gp)
	}
	if p.req != nil && p.req.Messages == nil {
		p.req.Messages = []Message{}
	}
	return &p
}

// render is the answer's bytes as the API sends them.
func render(api API, h head, n int, a *Answer, u usage) (string, []byte) {
	const sseType, jsonType = "text/event-stream", "application/json"
	switch {
	case api == Anthropic && h.stream:
		return sseType, renderAnthropicStream(h.model, n, a, u)
	case api == Anthropic:
		return jsonType, mustJSON(anthropicMessage(h.model, n, a, u))
	case api == OpenAI && h.stream:
		return sseType, renderOpenAIStream(h.model, n, a, u, h.includeUsage)
	case api == OpenAI:
		return jsonType, mustJSON(openAICompletion(h.model, n, a, u))
	case api == Responses && h.stream:
		return sseType, renderResponsesStream(h.model, n, a, u)
	case api == Responses:
		return jsonType, mustJSON(responsesResponse(h.model, n, a, u, true))
	case h.stream:
		return sseType, renderGeminiStream(h.model, n, a, u)
	default:
		return jsonType, mustJSON(geminiChunk(h.model, n, geminiParts(a), "STOP", &u))
	}
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("capture: an answer does not marshal: %v", err)) // its types are this package's own
	}
	return data
}

// writeBody sends an answer whole: a scripted answer is known at once, and
// one write is what a client reads fastest; with its length, the client
// has it all with its last byte, before the handler returns.
func writeBody(w http.ResponseWriter, contentType string, body []byte) error {
	w.Header().Set("Content-Type", contentType)
	if contentType == "text/event-stream" {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(body)
	if f, ok := w.(http.Flusher); ok && err == nil {
		f.Flush()
	}
	return err
}

func argsLen(a *Answer) int {
	n := 0
	for _, tc := range a.ToolCalls {
		n += len(tc.Name) + len(tc.Arguments)
	}
	return n
}

// countTokens answers a token count (not a call of the capture: the model
// answers nothing).
func (s *Server) countTokens(w http.ResponseWriter, r *http.Request, api API, gp geminiPath) {
	data, status, err := s.readBody(w, r)
	if err != nil {
		_ = writeError(w, api, status, strings.TrimPrefix(err.Error(), ErrBadRequest.Error()+": "))
		return
	}
	if up := s.opts.Upstream; up != nil && up.API == api {
		// the provider's own count, for the profile's model
		s.forward(w, r, api, data, nil)
		return
	}
	if api == Gemini {
		// countTokens takes {contents} or {generateContentRequest: {…}}
		var wrapped struct {
			Inner json.RawMessage `json:"generateContentRequest"`
		}
		if json.Unmarshal(data, &wrapped) == nil && len(wrapped.Inner) > 0 {
			data = wrapped.Inner
		}
	}
	if _, err := inspect(api, data, gp); err != nil {
		_ = writeError(w, api, http.StatusBadRequest, strings.TrimPrefix(err.Error(), ErrBadRequest.Error()+": "))
		return
	}
	p := parse(api, data, gp)
	if p.err != nil {
		_ = writeError(w, api, http.StatusBadRequest, p.err.Error())
		return
	}
	n := s.count(p.req.Messages)
	if api == Gemini {
		writeJSON(w, http.StatusOK, map[string]int{"totalTokens": n})
		return
	}
	writeJSON(w, http.StatusOK, map[string]int{"input_tokens": n})
}

func (s *Server) count(ms []Message) int { return count(s.opts.Tokens, ms) }

func count(tokens TokenCounter, ms []Message) int {
	if tokens == nil {
		return 0
	}
	n := 0
	for _, m := range ms {
		n += tokens.Count(m.Content)
		for _, tc := range m.ToolCalls {
			n += tokens.Count(tc.Name) + tokens.Count(string(tc.Arguments))
		}
	}
	return n
}

func countAnswer(tokens TokenCounter, a *Answer) int {
	return count(tokens, []Message{{Content: a.Content, ToolCalls: a.ToolCalls}})
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

// secretName says whether a header or query parameter carries a key.
func secretName(name string) bool {
	n := strings.ToLower(name)
	return n == "authorization" || n == "cookie" || strings.Contains(n, "key") || strings.Contains(n, "token") || strings.Contains(n, "secret")
}

// redact copies the headers, hiding every key, token and authorization.
func redact(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		if secretName(lk) {
			out[lk] = "[redacted]"
			continue
		}
		out[lk] = strings.Join(v, ", ")
	}
	return out
}

// redactedURI is the request's path and query with every parameter that
// names a key or token hidden (Gemini clients may send ?key=).
func redactedURI(u *url.URL) string {
	if u.RawQuery == "" {
		return u.Path
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return u.Path + "?[redacted]"
	}
	hidden := false
	for k := range q {
		if secretName(k) {
			q[k], hidden = []string{"[redacted]"}, true
		}
	}
	if !hidden {
		return u.RequestURI()
	}
	return u.Path + "?" + strings.ReplaceAll(q.Encode(), "%5Bredacted%5D", "[redacted]")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// geminiStatus is the google.rpc status an HTTP status stands for.
var geminiStatus = map[int]string{400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
	409: "ABORTED", 413: "INVALID_ARGUMENT", 429: "RESOURCE_EXHAUSTED", 499: "CANCELLED", 500: "INTERNAL", 501: "UNIMPLEMENTED",
	503: "UNAVAILABLE", 504: "DEADLINE_EXCEEDED", 529: "UNAVAILABLE"}

// writeError answers in the API's own error shape.
func writeError(w http.ResponseWriter, api API, status int, msg string) error {
	var v any
	switch api {
	case Anthropic:
		typ := map[int]string{400: "invalid_request_error", 401: "authentication_error", 404: "not_found_error",
			413: "request_too_large", 429: "rate_limit_error", 529: "overloaded_error"}[status]
		if typ == "" {
			typ = "api_error"
		}
		v = map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}}
	case Gemini:
		st := geminiStatus[status]
		if st == "" {
			st = "UNKNOWN"
		}
		v = map[string]any{"error": map[string]any{"code": status, "message": msg, "status": st}}
	default:
		typ := map[int]string{400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
			413: "invalid_request_error", 429: "rate_limit_exceeded"}[status]
		if typ == "" {
			typ = "server_error"
		}
		v = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, err = w.Write(append(data, '\n'))
	return err
}

// sseBuf builds an event stream.
type sseBuf struct{ b []byte }

func (e *sseBuf) event(name string, v any) {
	e.b = append(append(append(e.b, "event: "...), name...), '\n')
	e.data(v)
}

func (e *sseBuf) data(v any) {
	e.b = append(append(append(e.b, "data: "...), mustJSON(v)...), "\n\n"...)
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
