package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	anthropicssestream "github.com/anthropics/anthropic-sdk-go/packages/ssestream"
	"github.com/openai/openai-go/v3"
	openaissestream "github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"

	"hookstudio/app/agent/llm"
	"hookstudio/app/store/profiles"
)

// Upstream is a model profile's endpoint: a forwarding capture relays each
// request there with the profile's model and key, and the answer back
// unchanged.
type Upstream struct {
	Profile string `json:"profile"`
	API     API    `json:"api"`
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// Key is the profile's key (keyring, else the provider's variable);
	// never marshalled, logged or shown.
	Key string `json:"-"`
	// Timeout bounds one relayed request to the end of its answer (0: none).
	Timeout time.Duration `json:"-"`
	// Client sends the requests (nil: a client of its own).
	Client *http.Client `json:"-"`
}

// UpstreamOf is the profile's endpoint with its key, resolved the way a
// real run resolves it (profiles.Store.Model: keyring, else environment).
func UpstreamOf(store *profiles.Store, name string) (*Upstream, error) {
	p, err := store.Get(name)
	if err != nil {
		return nil, err
	}
	var opts llm.Options
	// The model is not used: building it validates the profile, and tune
	// sees the options a real run would send with, key included.
	if _, err := store.Model(p, func(o *llm.Options) { opts = *o }); err != nil {
		return nil, err
	}
	api := OpenAI
	if p.Provider == profiles.Anthropic {
		api = Anthropic
	}
	return &Upstream{Profile: p.Name, API: api, BaseURL: strings.TrimRight(opts.BaseURL, "/"), Model: opts.Model, Key: opts.APIKey, Timeout: opts.Timeout}, nil
}

// Host is the upstream's host, as the app and the progress lines name it.
func (u *Upstream) Host() string {
	if p, err := url.Parse(u.BaseURL); err == nil && p.Host != "" {
		return p.Host
	}
	return u.BaseURL
}

// target is where a request to path (/v1/messages, /v1/chat/completions,
// /v1/responses) goes: an Anthropic base URL has no /v1 (the SDK's
// convention), an OpenAI-compatible one ends in it.
func (u *Upstream) target(r *http.Request) string {
	path := r.URL.Path
	if u.API == OpenAI {
		path = strings.TrimPrefix(path, "/v1")
	}
	t := u.BaseURL + path
	if r.URL.RawQuery != "" {
		t += "?" + r.URL.RawQuery
	}
	return t
}

func (u *Upstream) client() *http.Client {
	if u.Client != nil {
		return u.Client
	}
	return http.DefaultClient
}

// dropHeader is a header never relayed upstream: the client's own
// credentials (the profile's key goes instead), hop-by-hop headers, and
// those the relay sets itself.
func dropHeader(lk string) bool {
	switch lk {
	case "authorization", "proxy-authorization", "cookie", "host", "content-length", "accept-encoding",
		"connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection":
		return true
	}
	return strings.Contains(lk, "key") || strings.Contains(lk, "token") || strings.Contains(lk, "secret")
}

// hopHeader is a response header the relay does not copy back.
func hopHeader(lk string) bool {
	switch lk {
	case "connection", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade", "proxy-connection", "content-length", "content-encoding":
		return true
	}
	return false
}

// withModel is the body with its top-level "model" replaced, every other
// byte as the agent sent it.
func withModel(data []byte, model string) ([]byte, error) {
	quoted, _ := json.Marshal(model)
	// The usual case, the model first (Claude Code, the SDKs): splice
	// without reading the rest of a large body.
	if rest, ok := bytes.CutPrefix(data, []byte(`{"model":"`)); ok {
		if end := bytes.IndexByte(rest, '"'); end >= 0 && !bytes.ContainsRune(rest[:end], '\\') {
			out := make([]byte, 0, len(data)+len(quoted))
			out = append(append(append(out, `{"model":`...), quoted...), rest[end+1:]...)
			return out, nil
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("the body is not a JSON object")
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		if key == "model" {
			end := int(dec.InputOffset())
			start := end - len(raw)
			out := make([]byte, 0, len(data)-len(raw)+len(quoted))
			out = append(append(append(out, data[:start]...), quoted...), data[end:]...)
			return out, nil
		}
	}
	// no model given: the profile's goes in first
	i := bytes.IndexByte(data, '{')
	sep := []byte(",")
	if bytes.TrimSpace(data[i+1:])[0] == '}' {
		sep = nil
	}
	out := append(append([]byte{}, data[:i+1]...), []byte(`"model":`)...)
	out = append(append(append(out, quoted...), sep...), data[i+1:]...)
	return out, nil
}

// relayed is what a forwarded request came to: the status answered, why
// it failed (nil: it did not), and the answer's bytes as relayed.
type relayed struct {
	status       int
	err          error
	body         []byte
	disconnected bool
}

// relay forwards the request; the call is in the journal before the
// answer's end reaches the agent, and is read for the record (the request
// parsed, the answer read back from what was relayed) once it is done.
func (s *Server) relay(w http.ResponseWriter, r *http.Request, c Call, data []byte, gp geminiPath) {
	up := s.opts.Upstream
	c.Upstream = &UpstreamCall{Profile: up.Profile, Host: up.Host(), Model: up.Model}
	keep := func(status int, err error, answer []byte) {
		k := c
		k.Status = status
		if err != nil {
			k.Error = err.Error()
		}
		s.keep(k, data, answer)
	}
	res := s.forward(w, r, c.API, data, keep)
	c.DurationMS = float64(time.Since(c.Started).Microseconds()) / 1000
	s.jobs <- func() {
		readRelayed(&c, res, s.opts.Tokens, up.redact)
		completeCall(&c, data, gp, nil, s.opts.Tokens, false, s.opts.Agents)
		s.record(c)
	}
}

// readRelayed puts what the upstream answered into the call: the status,
// the answer (text, tool calls, its token counts) or the error.
func readRelayed(c *Call, res relayed, tokens TokenCounter, redact func(string) string) {
	c.Status, c.Disconnected = res.status, res.disconnected
	switch {
	case res.status >= 400 && len(res.body) > 0:
		c.Answer = &Answer{Error: &AnswerError{Status: res.status, Message: redact(errorMessage(res.body))}}
	case res.status >= 200 && res.status < 300:
		ans, in, out := readAnswer(c.API, res.body)
		c.Answer = ans
		if in > 0 {
			c.InputTokens = in // the provider's own count
		}
		c.OutputTokens = out
		if out == 0 && ans != nil {
			c.OutputTokens = countAnswer(tokens, ans)
		}
	}
	if res.err != nil {
		c.Error = res.err.Error()
	}
}

// apiRelays says whether a profile of API up takes requests of api
// unchanged: an OpenAI-compatible provider serves Chat Completions and
// the Responses API.
func apiRelays(up, api API) bool {
	return up == api || up == OpenAI && api == Responses
}

// terminal is the text that ends an API's event stream: the agent has its
// answer once it reads it, so the call is kept before it goes out.
func terminal(api API) []string {
	switch api {
	case Anthropic:
		return []string{"message_stop", "event: error"}
	case Responses:
		return []string{"response.completed", "response.failed", "response.incomplete", "event: error"}
	default:
		return []string{"[DONE]"}
	}
}

// forward relays the request to the upstream with the profile's model and
// key, and the answer back as it comes: an event stream chunk by chunk,
// a JSON answer whole. keep (nil: the request is no call, a token count)
// is told the answer before its end goes out.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, api API, data []byte, keep func(status int, err error, answer []byte)) relayed {
	up := s.opts.Upstream
	kept := false
	keepOnce := func(status int, err error, answer []byte) {
		if keep != nil && !kept {
			kept = true
			keep(status, err, answer)
		}
	}
	fail := func(status int, msg string) relayed {
		err := errors.New(msg)
		keepOnce(status, err, nil)
		_ = writeError(w, api, status, msg)
		return relayed{status: status, err: err}
	}
	if !apiRelays(up.API, api) {
		return fail(http.StatusBadRequest, fmt.Sprintf("this capture forwards to profile %s, which speaks the %s; a %s request cannot be relayed unchanged: point a client of the %s here, or forward to a profile of the %s",
			up.Profile, apiName(up.API), apiName(api), apiName(up.API), apiName(api)))
	}
	body := data
	if up.Model != "" {
		var err error
		if body, err = withModel(data, up.Model); err != nil {
			return fail(http.StatusBadRequest, fmt.Sprintf("the body is not a request of the %s: %v", apiName(api), err))
		}
	}
	ctx := r.Context()
	if up.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, up.Timeout)
		defer cancel()
	}
	out, err := http.NewRequestWithContext(ctx, http.MethodPost, up.target(r), bytes.NewReader(body))
	if err != nil {
		return fail(http.StatusBadGateway, up.redact(err.Error()))
	}
	for k, v := range r.Header {
		if !dropHeader(strings.ToLower(k)) {
			out.Header[k] = v
		}
	}
	out.Header.Set("Content-Type", "application/json")
	if up.API == Anthropic {
		if up.Key != "" {
			out.Header.Set("x-api-key", up.Key)
		}
		if out.Header.Get("anthropic-version") == "" {
			out.Header.Set("anthropic-version", "2023-06-01")
		}
	} else if up.Key != "" {
		out.Header.Set("Authorization", "Bearer "+up.Key)
	}
	res, err := up.client().Do(out)
	if err != nil {
		if r.Context().Err() != nil {
			err := fmt.Errorf("the client went away before the upstream answered: %w", r.Context().Err())
			keepOnce(499, err, nil)
			return relayed{status: 499, disconnected: true, err: err}
		}
		// the error names the URL, never the key; redacted all the same
		return fail(http.StatusBadGateway, up.redact(fmt.Sprintf("profile %s (%s) could not be reached: %v", up.Profile, up.Host(), err)))
	}
	defer res.Body.Close()
	for k, v := range res.Header {
		if !hopHeader(strings.ToLower(k)) {
			w.Header()[k] = v
		}
	}
	stream := strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream")
	if res.ContentLength >= 0 && !res.Uncompressed {
		// the client's read ends with the last byte, not when the handler returns
		w.Header().Set("Content-Length", strconv.FormatInt(res.ContentLength, 10))
	}
	upstreamErr := func(got []byte) error {
		if res.StatusCode >= 400 {
			return up.errorf("upstream %s answered %d: %s", up.Host(), res.StatusCode, errorMessage(got))
		}
		return nil
	}
	f, _ := w.(http.Flusher)
	var got bytes.Buffer
	var werr, rerr error
	if !stream {
		// a JSON answer is read whole, kept, then sent
		_, rerr = io.Copy(&got, res.Body)
		if rerr == nil {
			keepOnce(res.StatusCode, upstreamErr(got.Bytes()), got.Bytes())
		}
		w.WriteHeader(res.StatusCode)
		_, werr = w.Write(got.Bytes())
	} else {
		w.WriteHeader(res.StatusCode)
		ends := terminal(api)
		buf := make([]byte, 32<<10)
		for werr == nil {
			n, err := res.Body.Read(buf)
			if n > 0 {
				from := max(got.Len()-32, 0)
				got.Write(buf[:n])
				for _, end := range ends {
					if bytes.Contains(got.Bytes()[from:], []byte(end)) {
						keepOnce(res.StatusCode, upstreamErr(got.Bytes()), got.Bytes())
					}
				}
				if _, werr = w.Write(buf[:n]); werr == nil && f != nil {
					f.Flush()
				}
			}
			if err != nil {
				if err != io.EOF {
					rerr = err
				}
				break
			}
		}
	}
	out2 := relayed{status: res.StatusCode, body: got.Bytes()}
	switch {
	case werr != nil || r.Context().Err() != nil:
		out2.disconnected = true
		out2.err = fmt.Errorf("the client went away during the answer: %w", errors.Join(werr, r.Context().Err()))
	case rerr != nil:
		out2.err = up.errorf("the upstream's answer broke off: %v", rerr)
	default:
		out2.err = upstreamErr(out2.body)
	}
	keepOnce(out2.status, out2.err, out2.body) // a stream that ended without its last event
	return out2
}

func (u *Upstream) redact(s string) string {
	if u.Key == "" {
		return s
	}
	return strings.ReplaceAll(s, u.Key, "[redacted]")
}

func (u *Upstream) errorf(format string, args ...any) error {
	return errors.New(u.redact(fmt.Sprintf(format, args...)))
}

func apiName(a API) string {
	switch a {
	case Anthropic:
		return "Anthropic Messages API"
	case Responses:
		return "OpenAI Responses API"
	case Gemini:
		return "Gemini API"
	}
	return "OpenAI Chat Completions API"
}

// errorMessage is an error answer's message: both APIs' {"error":
// {"message"}}, a plain {"error": "…"}, else the body's start.
func errorMessage(body []byte) string {
	var v struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &v) == nil && len(v.Error) > 0 {
		var inner struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
		var s string
		if json.Unmarshal(v.Error, &s) == nil && s != "" {
			return s
		}
	}
	text := strings.TrimSpace(string(body))
	if r := []rune(text); len(r) > 500 {
		text = string(r[:500]) + "…"
	}
	if text == "" {
		return "(an empty body)"
	}
	return text
}

// readAnswer reads what the upstream answered — text, tool calls, the
// tokens it counted — from a JSON answer or its event stream, with the
// API's SDK: the Anthropic SDK's Message.Accumulate, openai-go's
// ChatCompletionAccumulator and ResponseAccumulator.
func readAnswer(api API, body []byte) (*Answer, int, int) {
	stream := bytes.HasPrefix(bytes.TrimSpace(body), []byte("event:")) || bytes.HasPrefix(bytes.TrimSpace(body), []byte("data:"))
	switch api {
	case Anthropic:
		var m anthropic.Message
		if stream {
			st := anthropicssestream.NewStream[anthropic.MessageStreamEventUnion](anthropicssestream.NewDecoder(sseResponse(body)), nil)
			for st.Next() {
				if m.Accumulate(st.Current()) != nil {
					break
				}
			}
		} else if json.Unmarshal(body, &m) != nil {
			return nil, 0, 0
		}
		bs := make([]anthropicBlock, len(m.Content))
		for i, b := range m.Content {
			bs[i] = anthropicBlock{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, Input: b.Input}
		}
		am := assistantMessage(bs)
		return &Answer{Content: am.Content, ToolCalls: am.ToolCalls}, int(m.Usage.InputTokens), int(m.Usage.OutputTokens)
	case Responses:
		var r *responses.Response
		if stream {
			var acc responses.ResponseAccumulator
			st := openaissestream.NewStream[responses.ResponsesServerEventUnion](openaissestream.NewDecoder(sseResponse(body)), nil)
			for st.Next() {
				if acc.AddEvent(st.Current()) != nil {
					break
				}
			}
			r, _ = acc.ReconstructedResponse()
		} else {
			r = &responses.Response{}
			if json.Unmarshal(body, r) != nil {
				r = nil
			}
		}
		if r == nil {
			return nil, 0, 0
		}
		a := &Answer{Content: r.OutputText()}
		for _, it := range r.Output {
			switch it.Type {
			case "function_call":
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: it.CallID, Name: it.Name, Arguments: rawArgs(it.Arguments.OfString)})
			case "custom_tool_call":
				args, _ := json.Marshal(map[string]string{"input": it.Input})
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: it.CallID, Name: it.Name, Arguments: args})
			}
		}
		return a, int(r.Usage.InputTokens), int(r.Usage.OutputTokens)
	}
	var cc openai.ChatCompletion
	if stream {
		var acc openai.ChatCompletionAccumulator
		st := openaissestream.NewStream[openai.ChatCompletionChunk](openaissestream.NewDecoder(sseResponse(body)), nil)
		for st.Next() {
			acc.AddChunk(st.Current())
		}
		cc = acc.ChatCompletion
	} else if json.Unmarshal(body, &cc) != nil {
		return nil, 0, 0
	}
	a := &Answer{}
	if len(cc.Choices) > 0 {
		a.Content = cc.Choices[0].Message.Content
		for _, tc := range cc.Choices[0].Message.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: rawArgs(tc.Function.Arguments)})
		}
	}
	return a, int(cc.Usage.PromptTokens), int(cc.Usage.CompletionTokens)
}

// sseResponse wraps relayed stream bytes for the SDKs' decoders.
func sseResponse(body []byte) *http.Response {
	return &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
}

func rawArgs(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage(`{}`)
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}

// UpstreamCall names where a forwarded call went (never its key).
type UpstreamCall struct {
	Profile string `json:"profile"`
	Host    string `json:"host"`
	Model   string `json:"model"`
}
