package capture

import (
	"bufio"
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

// target is where a request to path (/v1/messages, /v1/chat/completions)
// goes: an Anthropic base URL has no /v1 (the SDK's convention), an
// OpenAI-compatible one ends in it.
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
	stream       bool
	disconnected bool
}

// relay forwards the request and queues its recording: the request is
// parsed (as the scripted path does before answering) only once the answer
// is on its way.
func (s *Server) relay(w http.ResponseWriter, r *http.Request, c Call, data []byte) {
	s.inflight.Add(1)
	defer s.inflight.Done()
	up := s.opts.Upstream
	c.Upstream = &UpstreamCall{Profile: up.Profile, Host: up.Host(), Model: up.Model}
	res := s.forward(w, r, c.API, data)
	c.DurationMS = float64(time.Since(c.Started).Microseconds()) / 1000
	s.jobs <- func() {
		var req *Request
		var err error
		if c.API == Anthropic {
			req, err = parseAnthropic(data)
		} else {
			req, err = parseOpenAI(data)
		}
		if err != nil {
			c.RawBody = string(data)
		} else {
			c.Body = json.RawMessage(data)
			c.Model, c.Stream, c.Messages, c.Tools = req.Model, req.Stream, req.Messages, req.Tools
			c.InputTokens = s.count(req.Messages)
		}
		c.Status, c.Disconnected = res.status, res.disconnected
		switch {
		case res.status >= 400 && len(res.body) > 0:
			msg := up.redact(errorMessage(res.body))
			c.Answer = &Answer{Error: &AnswerError{Status: res.status, Message: msg}}
		case res.status >= 200 && res.status < 300:
			ans, in, out := readAnswer(c.API, res.stream, res.body)
			c.Answer = ans
			if in > 0 {
				c.InputTokens = in // the provider's own count
			}
			c.OutputTokens = out
			if out == 0 && ans != nil {
				c.OutputTokens = s.countAnswer(ans)
			}
		}
		if res.err != nil {
			c.Error = res.err.Error()
		}
		s.record(c)
	}
}

// forward relays the request to the upstream with the profile's model and
// key, and the answer back chunk by chunk as it comes.
func (s *Server) forward(w http.ResponseWriter, r *http.Request, api API, data []byte) relayed {
	up := s.opts.Upstream
	fail := func(status int, msg string) relayed {
		writeError(w, api, status, msg)
		return relayed{status: status, err: errors.New(msg)}
	}
	if api != up.API {
		return fail(http.StatusBadRequest, fmt.Sprintf("this capture forwards to profile %s, which speaks the %s; a %s request cannot be relayed unchanged: point a %s client here, or forward to a %s profile",
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
			return relayed{status: 499, disconnected: true, err: fmt.Errorf("the client went away before the upstream answered: %w", r.Context().Err())}
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
	if res.ContentLength >= 0 && !res.Uncompressed {
		// the client's read ends with the last byte, not when the handler returns
		w.Header().Set("Content-Length", strconv.FormatInt(res.ContentLength, 10))
	}
	w.WriteHeader(res.StatusCode)
	f, _ := w.(http.Flusher)
	var got bytes.Buffer
	buf := make([]byte, 32<<10)
	var werr, rerr error
	for werr == nil {
		n, err := res.Body.Read(buf)
		if n > 0 {
			got.Write(buf[:n])
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
	out2 := relayed{status: res.StatusCode, body: got.Bytes(), stream: strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream")}
	switch {
	case werr != nil || r.Context().Err() != nil:
		out2.disconnected = true
		out2.err = fmt.Errorf("the client went away during the answer: %w", errors.Join(werr, r.Context().Err()))
	case rerr != nil:
		out2.err = up.errorf("the upstream's answer broke off: %v", rerr)
	case res.StatusCode >= 400:
		out2.err = up.errorf("upstream %s answered %d: %s", up.Host(), res.StatusCode, errorMessage(out2.body))
	}
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
	if a == Anthropic {
		return "Anthropic Messages API"
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
// tokens it counted — from a JSON answer or its event stream.
func readAnswer(api API, stream bool, body []byte) (*Answer, int, int) {
	if stream {
		if api == Anthropic {
			return anthropicStreamAnswer(body)
		}
		return openAIStreamAnswer(body)
	}
	if api == Anthropic {
		var m struct {
			Content []anthropicBlock `json:"content"`
			Usage   struct {
				In  int `json:"input_tokens"`
				Out int `json:"output_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(body, &m) != nil {
			return nil, 0, 0
		}
		am := assistantMessage(m.Content)
		return &Answer{Content: am.Content, ToolCalls: am.ToolCalls}, m.Usage.In, m.Usage.Out
	}
	var m struct {
		Choices []struct {
			Message struct {
				Content   string           `json:"content"`
				ToolCalls []openAIToolCall `json:"tool_calls"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			In  int `json:"prompt_tokens"`
			Out int `json:"completion_tokens"`
		} `json:"usage"`
	}
	if json.Unmarshal(body, &m) != nil {
		return nil, 0, 0
	}
	a := &Answer{}
	if len(m.Choices) > 0 {
		a.Content = m.Choices[0].Message.Content
		for _, tc := range m.Choices[0].Message.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: rawArgs(tc.Function.Arguments)})
		}
	}
	return a, m.Usage.In, m.Usage.Out
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

// sseData calls fn with each event's data.
func sseData(body []byte, fn func(data []byte)) {
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), len(body)+1)
	for sc.Scan() {
		if d, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:")); ok {
			fn(bytes.TrimSpace(d))
		}
	}
}

func anthropicStreamAnswer(body []byte) (*Answer, int, int) {
	a := &Answer{}
	in, out := 0, 0
	var text strings.Builder
	args := map[int]*strings.Builder{}
	index := map[int]int{} // content block → tool call
	sseData(body, func(d []byte) {
		var e struct {
			Type    string `json:"type"`
			Index   int    `json:"index"`
			Message struct {
				Usage struct {
					In int `json:"input_tokens"`
				} `json:"usage"`
			} `json:"message"`
			Block struct {
				Type string `json:"type"`
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				Type        string `json:"type"`
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
			Usage struct {
				Out int `json:"output_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(d, &e) != nil {
			return
		}
		switch e.Type {
		case "message_start":
			in = e.Message.Usage.In
		case "content_block_start":
			if e.Block.Type == "tool_use" {
				index[e.Index] = len(a.ToolCalls)
				args[e.Index] = &strings.Builder{}
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: e.Block.ID, Name: e.Block.Name})
			}
		case "content_block_delta":
			switch e.Delta.Type {
			case "text_delta":
				text.WriteString(e.Delta.Text)
			case "input_json_delta":
				if b := args[e.Index]; b != nil {
					b.WriteString(e.Delta.PartialJSON)
				}
			}
		case "message_delta":
			out = e.Usage.Out
		}
	})
	for blk, i := range index {
		a.ToolCalls[i].Arguments = rawArgs(args[blk].String())
	}
	a.Content = text.String()
	return a, in, out
}

func openAIStreamAnswer(body []byte) (*Answer, int, int) {
	a := &Answer{}
	in, out := 0, 0
	var text strings.Builder
	var args []*strings.Builder
	sseData(body, func(d []byte) {
		var e struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
			Usage *struct {
				In  int `json:"prompt_tokens"`
				Out int `json:"completion_tokens"`
			} `json:"usage"`
		}
		if json.Unmarshal(d, &e) != nil {
			return // [DONE]
		}
		if e.Usage != nil {
			in, out = e.Usage.In, e.Usage.Out
		}
		for _, ch := range e.Choices {
			text.WriteString(ch.Delta.Content)
			for _, tc := range ch.Delta.ToolCalls {
				for len(a.ToolCalls) <= tc.Index {
					a.ToolCalls = append(a.ToolCalls, ToolCall{})
					args = append(args, &strings.Builder{})
				}
				if tc.ID != "" {
					a.ToolCalls[tc.Index].ID = tc.ID
				}
				if tc.Function.Name != "" {
					a.ToolCalls[tc.Index].Name = tc.Function.Name
				}
				args[tc.Index].WriteString(tc.Function.Arguments)
			}
		}
	})
	for i := range a.ToolCalls {
		a.ToolCalls[i].Arguments = rawArgs(args[i].String())
	}
	a.Content = text.String()
	return a, in, out
}

// UpstreamCall names where a forwarded call went (never its key).
type UpstreamCall struct {
	Profile string `json:"profile"`
	Host    string `json:"host"`
	Model   string `json:"model"`
}
