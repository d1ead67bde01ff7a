package capture

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/store/profiles"
)

const (
	profileKey = "sk-profile-secret-0001"
	clientKey  = "sk-client-never-forwarded"
)

// upstreamSaw is what a fake provider received.
type upstreamSaw struct {
	Path, Query string
	Header      http.Header
	Body        []byte
}

// fakeUpstream is a real HTTP provider on loopback; handle answers, and
// every request it received is kept.
func fakeUpstream(t testing.TB, handle func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, func() []upstreamSaw) {
	t.Helper()
	var mu sync.Mutex
	var saw []upstreamSaw
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		saw = append(saw, upstreamSaw{Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
		mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []upstreamSaw { mu.Lock(); defer mu.Unlock(); return slices.Clone(saw) }
}

// anthropicSSE is a Messages API stream as a provider sends it: a text
// block, then a tool_use whose input comes in two partial_json pieces.
var anthropicSSE = []string{
	"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_up\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-up\",\"content\":[],\"usage\":{\"input_tokens\":812,\"output_tokens\":1}}}\n\n",
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"I will list \"}}\n\n",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"the files.\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
	"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_up\",\"name\":\"Bash\",\"input\":{}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"command\\\":\"}}\n\n",
	"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\\\"ls\\\"}\"}}\n\nevent: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":37}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
}

// TestForwardAnthropicStream: a streamed request goes to the profile's
// endpoint with the profile's model and key (the client's key never), the
// stream comes back byte for byte and piece by piece, and the call records
// the answer and the upstream's token counts.
func TestForwardAnthropicStream(t *testing.T) {
	next := make(chan struct{}) // the upstream sends its second piece only once the client read the first
	up, saw := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("request-id", "req_up_1")
		w.WriteHeader(200)
		for i, piece := range anthropicSSE {
			_, _ = io.WriteString(w, piece)
			w.(http.Flusher).Flush()
			if i == 0 {
				select {
				case <-next:
				case <-r.Context().Done():
					return
				}
			}
		}
	})
	told := make(chan Call, 1)
	srv := start(t, Options{Upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "claude-up", Key: profileKey},
		OnCall: func(c Call) { told <- c }})

	req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/v1/messages?beta=true", strings.NewReader(claudeFirst))
	req.Header.Set("x-api-key", clientKey)
	req.Header.Set("Authorization", "Bearer "+clientKey)
	req.Header.Set("anthropic-version", "2023-06-01")
	req.Header.Set("anthropic-beta", "claude-code-20250219")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("request-id") != "req_up_1" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, headers %v", res.StatusCode, res.Header)
	}
	// the first piece arrives while the upstream still holds the rest
	first := make([]byte, len(anthropicSSE[0]))
	if _, err := io.ReadFull(res.Body, first); err != nil || string(first) != anthropicSSE[0] {
		t.Fatalf("first piece %q: %v", first, err)
	}
	close(next)
	rest, err := io.ReadAll(res.Body)
	if err != nil || string(first)+string(rest) != strings.Join(anthropicSSE, "") {
		t.Fatalf("the stream changed on the way (%v):\n%s%s", err, first, rest)
	}

	got := saw()
	if len(got) != 1 {
		t.Fatalf("upstream got %d requests", len(got))
	}
	u := got[0]
	if u.Path != "/v1/messages" || u.Query != "beta=true" {
		t.Errorf("upstream path %s?%s", u.Path, u.Query)
	}
	if u.Header.Get("x-api-key") != profileKey || u.Header.Get("Authorization") != "" || u.Header.Get("anthropic-beta") != "claude-code-20250219" {
		t.Errorf("upstream headers %v", u.Header)
	}
	for k, v := range u.Header {
		if strings.Contains(strings.Join(v, " "), clientKey) {
			t.Errorf("the client's key went upstream in %s", k)
		}
	}
	want := strings.Replace(claudeFirst, `"model":"claude-sonnet-4-5"`, `"model":"claude-up"`, 1)
	if string(u.Body) != want {
		t.Errorf("upstream body differs beyond the model:\n%s", u.Body)
	}

	c := <-told
	if c.Status != 200 || c.Error != "" || c.Disconnected {
		t.Errorf("recorded status %d, error %q", c.Status, c.Error)
	}
	if c.Answer == nil || c.Answer.Content != "I will list the files." || len(c.Answer.ToolCalls) != 1 ||
		c.Answer.ToolCalls[0].ID != "toolu_up" || c.Answer.ToolCalls[0].Name != "Bash" || string(c.Answer.ToolCalls[0].Arguments) != `{"command":"ls"}` {
		t.Errorf("recorded answer %+v", c.Answer)
	}
	if c.InputTokens != 812 || c.OutputTokens != 37 {
		t.Errorf("tokens %d in, %d out; the upstream counted 812 and 37", c.InputTokens, c.OutputTokens)
	}
	if c.Upstream == nil || c.Upstream.Profile != "claude" || c.Upstream.Model != "claude-up" || c.Model != "claude-sonnet-4-5" {
		t.Errorf("upstream %+v, model %s", c.Upstream, c.Model)
	}
	all, _ := json.Marshal(c)
	for _, key := range []string{clientKey, profileKey} {
		if strings.Contains(string(all), key) {
			t.Errorf("a key is in the recorded call: %s", all)
		}
	}
}

// TestForwardOpenAI: the Chat Completions side, JSON and streamed with a
// tool call, the profile's key as the bearer token.
func TestForwardOpenAI(t *testing.T) {
	const completion = `{"id":"chatcmpl-up","object":"chat.completion","model":"gpt-up","choices":[{"index":0,"message":{"role":"assistant","content":"Hello there."},"finish_reason":"stop"}],"usage":{"prompt_tokens":21,"completion_tokens":3,"total_tokens":24}}`
	stream := []string{
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n",
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_up\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"\"}}]}}]}\n\n",
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"path\\\":\\\"a.go\\\"}\"}}]}}]}\n\n",
		"data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":40,\"completion_tokens\":9,\"total_tokens\":49}}\n\ndata: [DONE]\n\n",
	}
	up, saw := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept"), "event-stream") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, completion)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, p := range stream {
			_, _ = io.WriteString(w, p)
			w.(http.Flusher).Flush()
		}
	})
	told := make(chan Call, 2)
	srv := start(t, Options{Upstream: &Upstream{Profile: "gpt", API: OpenAI, BaseURL: up.URL + "/v1", Model: "gpt-up", Key: profileKey},
		OnCall: func(c Call) { told <- c }})

	res, body := post(t, srv.URL()+"/v1/chat/completions", `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`,
		map[string]string{"Authorization": "Bearer " + clientKey})
	if res.StatusCode != 200 || string(body) != completion {
		t.Errorf("JSON answer %d %s", res.StatusCode, body)
	}
	res, body = post(t, srv.URL()+"/v1/chat/completions", `{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"read a.go"}],"tools":[{"type":"function","function":{"name":"read_file"}}]}`,
		map[string]string{"Authorization": "Bearer " + clientKey, "Accept": "text/event-stream"})
	if res.StatusCode != 200 || string(body) != strings.Join(stream, "") {
		t.Errorf("streamed answer %d %s", res.StatusCode, body)
	}
	for i, u := range saw() {
		if u.Path != "/v1/chat/completions" || u.Header.Get("Authorization") != "Bearer "+profileKey || !strings.Contains(string(u.Body), `"model":"gpt-up"`) {
			t.Errorf("upstream request %d: %s %v %s", i, u.Path, u.Header, u.Body)
		}
	}
	calls := []Call{<-told, <-told} // recorded in the order answered
	if a := calls[0].Answer; a == nil || a.Content != "Hello there." || calls[0].InputTokens != 21 || calls[0].OutputTokens != 3 {
		t.Errorf("JSON call %+v", calls[0])
	}
	if a := calls[1].Answer; a == nil || len(a.ToolCalls) != 1 || a.ToolCalls[0].ID != "call_up" || a.ToolCalls[0].Name != "read_file" ||
		string(a.ToolCalls[0].Arguments) != `{"path":"a.go"}` || calls[1].InputTokens != 40 || calls[1].OutputTokens != 9 {
		t.Errorf("streamed call %+v %+v", calls[1], a)
	}
}

// TestForwardErrors: an upstream error comes back with its status and body
// and is recorded; an unreachable upstream and a request in the other API
// are errors in the client's API's shape.
func TestForwardErrors(t *testing.T) {
	const overloaded = `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`
	up, _ := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("retry-after", "7")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, overloaded)
	})
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // a port nothing answers on any more

	tests := []struct {
		name       string
		upstream   *Upstream
		path, body string
		status     int
		wantBody   string // exact, when set
		wantInBody string
		wantError  string
	}{
		{name: "upstream status relayed", upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "m", Key: profileKey},
			path: "/v1/messages", body: claudeSecond, status: 429, wantBody: overloaded, wantError: "answered 429: Number of request tokens"},
		{name: "upstream unreachable", upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: gone.URL, Model: "m", Key: profileKey},
			path: "/v1/messages", body: claudeSecond, status: 502, wantInBody: `"type":"error"`, wantError: "profile claude"},
		{name: "other API", upstream: &Upstream{Profile: "gpt", API: OpenAI, BaseURL: up.URL + "/v1", Model: "m", Key: profileKey},
			path: "/v1/messages", body: claudeSecond, status: 400, wantInBody: "OpenAI Chat Completions API", wantError: "cannot be relayed unchanged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			told := make(chan Call, 1)
			srv := start(t, Options{Upstream: tt.upstream, OnCall: func(c Call) { told <- c }})
			res, body := post(t, srv.URL()+tt.path, tt.body, map[string]string{"x-api-key": clientKey})
			if res.StatusCode != tt.status || tt.wantBody != "" && string(body) != tt.wantBody || !strings.Contains(string(body), tt.wantInBody) {
				t.Errorf("answered %d %s", res.StatusCode, body)
			}
			if tt.status == 429 && res.Header.Get("retry-after") != "7" {
				t.Errorf("retry-after not relayed: %v", res.Header)
			}
			c := <-told
			if c.Status != tt.status || !strings.Contains(c.Error, tt.wantError) {
				t.Errorf("recorded %d %q", c.Status, c.Error)
			}
			if tt.status == 429 && (c.Answer == nil || c.Answer.Error == nil || c.Answer.Error.Status != 429) {
				t.Errorf("recorded answer %+v", c.Answer)
			}
			all, _ := json.Marshal(c)
			if strings.Contains(string(all)+string(body), profileKey) || strings.Contains(string(all), clientKey) {
				t.Errorf("a key leaked: %s %s", all, body)
			}
		})
	}
}

// TestForwardClientGoesAway: a client that leaves mid-stream is recorded
// as such, and the upstream request is cancelled with it.
func TestForwardClientGoesAway(t *testing.T) {
	upstreamDone := make(chan struct{})
	up, _ := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, anthropicSSE[0])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // held open until the relay gives up on it
		close(upstreamDone)
	})
	told := make(chan Call, 1)
	srv := start(t, Options{Upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "m"}, OnCall: func(c Call) { told <- c }})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/v1/messages", strings.NewReader(claudeFirst))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bufio.NewReader(res.Body).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	cancel()
	res.Body.Close()
	select {
	case c := <-told:
		if !c.Disconnected || !strings.Contains(c.Error, "went away") {
			t.Errorf("recorded %+v", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call was never recorded")
	}
	select {
	case <-upstreamDone:
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream request was not cancelled")
	}
}

// TestForwardCountTokens: count_tokens goes to an Anthropic profile for
// the provider's own count, with the profile's model and key, and is no
// call of the capture.
func TestForwardCountTokens(t *testing.T) {
	up, saw := fakeUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":4321}`)
	})
	told := make(chan Call, 1)
	srv := start(t, Options{Upstream: &Upstream{Profile: "claude", API: Anthropic, BaseURL: up.URL, Model: "claude-up", Key: profileKey}, OnCall: func(c Call) { told <- c }})
	res, body := post(t, srv.URL()+"/v1/messages/count_tokens?beta=true", claudeFirst, map[string]string{"x-api-key": clientKey})
	if res.StatusCode != 200 || string(body) != `{"input_tokens":4321}` {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if got := saw(); len(got) != 1 || got[0].Path != "/v1/messages/count_tokens" || got[0].Header.Get("x-api-key") != profileKey || !strings.Contains(string(got[0].Body), `"model":"claude-up"`) {
		t.Errorf("upstream got %+v", got)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-told:
		t.Errorf("count_tokens recorded as a call: %+v", c)
	default:
	}
}

// memKeyring is a keyring in memory.
type memKeyring map[string]string

func (k memKeyring) Get(_, user string) (string, error) {
	if v, ok := k[user]; ok {
		return v, nil
	}
	return "", errors.New("secret not found in keyring")
}
func (k memKeyring) Set(_, user, secret string) error { k[user] = secret; return nil }
func (k memKeyring) Delete(_, user string) error      { delete(k, user); return nil }

func TestUpstreamOfProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profiles.json")
	if err := profiles.Save(path, []profiles.Profile{
		{Name: "claude", Provider: profiles.Anthropic, BaseURL: "https://api.anthropic.example/", Model: "claude-x", Timeout: profiles.Duration(time.Minute)},
		{Name: "local", Provider: profiles.OpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen"},
	}); err != nil {
		t.Fatal(err)
	}
	store := &profiles.Store{Path: path, Keys: memKeyring{"claude": profileKey}, Getenv: func(string) string { return "" }}
	tests := []struct {
		name    string
		want    Upstream
		wantErr string
	}{
		{name: "claude", want: Upstream{Profile: "claude", API: Anthropic, BaseURL: "https://api.anthropic.example", Model: "claude-x", Key: profileKey, Timeout: time.Minute}},
		{name: "local", want: Upstream{Profile: "local", API: OpenAI, BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen"}},
		{name: "nope", wantErr: `no profile "nope"; defined: claude, local`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := UpstreamOf(store, tt.name)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("error %v", err)
				}
				return
			}
			if err != nil || *got != tt.want {
				t.Errorf("got %+v, %v", got, err)
			}
			if data, _ := json.Marshal(got); strings.Contains(string(data), profileKey) {
				t.Errorf("the key is marshalled: %s", data)
			}
		})
	}
}

func TestWithModel(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"model":"a","messages":[]}`, `{"model":"b","messages":[]}`},
		{`{ "messages": [{"model":"inner"}] ,  "model" : "a" }`, `{ "messages": [{"model":"inner"}] ,  "model" : "b" }`},
		{`{"messages":[]}`, `{"model":"b","messages":[]}`},
		{`{}`, `{"model":"b"}`},
		{`{"model":"a\"q","x":1}`, `{"model":"b","x":1}`},
	}
	for _, tt := range tests {
		got, err := withModel([]byte(tt.in), "b")
		if err != nil || string(got) != tt.want {
			t.Errorf("withModel(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
}

// BenchmarkForwardAddedLatency: the latency a forwarding capture adds to a
// request beyond the upstream's own, for a Claude Code-sized request
// (~100 KB: a long system prompt, a dozen tools, a few turns) streamed
// back. Each iteration times one request straight to the upstream and one
// through the capture; the p50s and their difference are reported.
func BenchmarkForwardAddedLatency(b *testing.B) {
	for _, stream := range []bool{true, false} {
		name := "json"
		if stream {
			name = "stream"
		}
		b.Run(name, func(b *testing.B) { benchForward(b, stream, claudeSized(stream)) })
	}
	b.Run("small", func(b *testing.B) {
		benchForward(b, false, `{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":"hi"}]}`)
	})
}

func benchForward(b *testing.B, stream bool, body string) {
	answer := strings.Join(anthropicSSE, "")
	const message = `{"id":"msg_up","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"I will list the files."},{"type":"tool_use","id":"toolu_up","name":"Bash","input":{"command":"ls"}}],"stop_reason":"tool_use","usage":{"input_tokens":812,"output_tokens":37}}`
	up, _ := fakeUpstream(b, func(w http.ResponseWriter, r *http.Request) {
		if stream {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, answer)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, message)
	})
	recorded := make(chan Call, 1)
	srv, err := Listen(Options{Upstream: &Upstream{Profile: "bench", API: Anthropic, BaseURL: up.URL, Model: "claude-up", Key: profileKey},
		OnCall: func(c Call) { recorded <- c }})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	client := &http.Client{}
	send := func(url string) time.Duration {
		t0 := time.Now()
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/messages?beta=true", strings.NewReader(body))
		req.Header.Set("x-api-key", clientKey)
		req.Header.Set("anthropic-version", "2023-06-01")
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
		return time.Since(t0)
	}
	// The recording (parsing the request) runs after the answer went out;
	// it is waited for outside the timings so it does not slow the next
	// request of either kind.
	var inside []time.Duration // the handler's own time, from its start to the answer's end
	proxy := func() time.Duration {
		d := send(srv.URL())
		c := <-recorded
		inside = append(inside, time.Duration(c.DurationMS*float64(time.Millisecond)))
		return d
	}
	send(up.URL)
	proxy()
	bare, proxied := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		bare = append(bare, send(up.URL))
		proxied = append(proxied, proxy())
	}
	b.StopTimer()
	p50 := func(d []time.Duration) float64 {
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	pb, pp := p50(bare), p50(proxied)
	b.ReportMetric(p50(inside), "handler-p50-ms")
	b.ReportMetric(pb, "bare-p50-ms")
	b.ReportMetric(pp, "proxied-p50-ms")
	b.ReportMetric(pp-pb, "added-p50-ms")
	b.ReportMetric(float64(len(body))/1024, "request-KiB")
}

// claudeSized is a request the size of a real Claude Code one.
func claudeSized(stream bool) string {
	var tools []string
	for i := range 12 {
		tools = append(tools, `{"name":"Tool`+string(rune('A'+i))+`","description":"`+strings.Repeat("Does one thing well. ", 150)+`","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}`)
	}
	var turns []string
	for i := range 6 {
		turns = append(turns, `{"role":"user","content":[{"type":"text","text":"<system-reminder>\n`+strings.Repeat("context line ", 100)+`\n</system-reminder>"},{"type":"text","text":"step `+string(rune('0'+i))+`"}]}`,
			`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_`+string(rune('0'+i))+`","name":"Bash","input":{"command":"ls"}}]}`,
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_`+string(rune('0'+i))+`","content":"`+strings.Repeat("file.go ", 200)+`"}]}`)
	}
	s := "false"
	if stream {
		s = "true"
	}
	return `{"model":"claude-sonnet-4-5","stream":` + s + `,"max_tokens":32000,"system":[{"type":"text","text":"` + strings.Repeat("You are Claude Code. ", 800) +
		`"}],"tools":[` + strings.Join(tools, ",") + `],"messages":[` + strings.Join(turns, ",") + `,{"role":"user","content":"go on"}]}`
}
