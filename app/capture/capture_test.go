package capture

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

const script = `answers:
  - tool_calls: [{name: Bash, arguments: {command: "rm -rf build"}}]
  - content: "Blocked, so I left build alone. Déjà vu: nothing removed."
  - error: {status: 529, message: overloaded}
`

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	if opts.Answerer == nil {
		s, err := ParseScript("answers.yaml", []byte(script))
		if err != nil {
			t.Fatal(err)
		}
		opts.Answerer = s
	}
	srv, err := Listen(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

func post(t *testing.T, url, body string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res, data
}

// recorded waits until srv has recorded n calls (a call is recorded once
// its answer went out, off the request's path) and returns them.
func recorded(t testing.TB, srv *Server, n int) []Call {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		if c := srv.Calls(); len(c) >= n {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d calls recorded, waited for %d", len(srv.Calls()), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// events reads an SSE body into (event, data) pairs.
func events(t *testing.T, body []byte) [][2]string {
	t.Helper()
	var out [][2]string
	var ev string
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			ev = e
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, [2]string{ev, d})
			ev = ""
		}
	}
	return out
}

// A Claude Code-like conversation: the second request carries the hook's
// block in the tool result and hook context in a <system-reminder>.
const claudeFirst = `{"model":"claude-sonnet-4-5","stream":true,"max_tokens":32000,
 "system":[{"type":"text","text":"You are Claude Code."}],
 "tools":[{"name":"Bash","input_schema":{"type":"object"}},{"name":"Read","input_schema":{"type":"object"}}],
 "messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>\nToday's date is 2026-11-24.\n</system-reminder>"},{"type":"text","text":"clean the build"},{"type":"text","text":"Skills:\n- init\n\nUserPromptSubmit hook success: the build folder is shared"}]}]}`

const claudeSecond = `{"model":"claude-sonnet-4-5","stream":false,
 "system":"You are Claude Code.",
 "messages":[{"role":"user","content":"clean the build"},
  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_01_1","name":"Bash","input":{"command":"rm -rf build"}}]},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01_1","is_error":true,"content":"PreToolUse:Bash hook error: [./guard.sh]: blocked by test hook"}]},
  {"role":"assistant","content":"Blocked."},
  {"role":"user","content":[{"type":"text","text":"Stop hook feedback:\nRun the tests before you stop."}]}]}`

func TestAnthropicStreamThenJSON(t *testing.T) {
	var seen []Call
	srv := start(t, Options{OnCall: func(c Call) { seen = append(seen, c) }})
	res, body := post(t, srv.URL()+"/v1/messages?beta=true", claudeFirst, map[string]string{"x-api-key": "sk-ant-secret-123", "anthropic-version": "2023-06-01", "anthropic-beta": "tools"})
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d %s: %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	evs := events(t, body)
	var types []string
	var args string
	for _, e := range evs {
		types = append(types, e[0])
		var d struct {
			Delta struct {
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		_ = json.Unmarshal([]byte(e[1]), &d)
		args += d.Delta.PartialJSON
	}
	if types[0] != "message_start" || types[len(types)-1] != "message_stop" || !strings.Contains(string(body), `"type":"tool_use"`) || !strings.Contains(string(body), `"stop_reason":"tool_use"`) {
		t.Errorf("events %v", types)
	}
	if args != `{"command":"rm -rf build"}` {
		t.Errorf("input_json_delta parts make %q", args)
	}

	res, body = post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	var msg struct {
		Content []struct{ Type, Text string } `json:"content"`
		Stop    string                        `json:"stop_reason"`
	}
	if err := json.Unmarshal(body, &msg); err != nil || res.StatusCode != 200 || msg.Content[0].Text != "Blocked, so I left build alone. Déjà vu: nothing removed." || msg.Stop != "end_turn" {
		t.Fatalf("%d %s (%v)", res.StatusCode, body, err)
	}

	calls := recorded(t, srv, 2)
	if len(calls) != 2 || len(seen) != 2 {
		t.Fatalf("%d calls recorded, %d told", len(calls), len(seen))
	}
	first := calls[0]
	if first.API != Anthropic || first.Path != "/v1/messages?beta=true" || !first.Stream || first.Model != "claude-sonnet-4-5" || strings.Join(first.Tools, ",") != "Bash,Read" {
		t.Errorf("first call %+v", first)
	}
	want := []struct{ role, origin, hook string }{{"system", OriginSystem, ""}, {"user", OriginContext, ""}, {"user", OriginUser, ""},
		{"user", OriginUser, ""}, {"user", OriginHook, "UserPromptSubmit"}} // the hook's line split from the block it ends
	for i, w := range want {
		if m := first.Messages[i]; m.Role != w.role || m.Origin != w.origin || m.Hook != w.hook {
			t.Errorf("message %d: %+v, want %+v", i, m, w)
		}
	}
	second := calls[1].Messages
	if stop := second[len(second)-1]; stop.Origin != OriginHook || stop.Hook != "Stop" {
		t.Errorf("the Stop hook's reason: %+v", stop)
	}
	last := second[len(second)-3]
	if last.Role != "tool" || !last.IsError || last.Origin != OriginHook || last.Hook != "PreToolUse:Bash" || last.ToolCallID != "toolu_01_1" {
		t.Errorf("the hook's block in the tool result: %+v", last)
	}
	if a := second[2]; a.Role != "assistant" || len(a.ToolCalls) != 1 || string(a.ToolCalls[0].Arguments) != `{"command":"rm -rf build"}` {
		t.Errorf("assistant %+v", a)
	}
	// the key appears nowhere in what is recorded
	all, _ := json.Marshal(calls)
	if strings.Contains(string(all), "sk-ant-secret-123") || first.Headers["x-api-key"] != "[redacted]" || first.Headers["anthropic-beta"] != "tools" {
		t.Errorf("headers %v", first.Headers)
	}
	if !json.Valid(first.Body) || !strings.Contains(string(first.Body), "clean the build") {
		t.Errorf("body %s", first.Body)
	}

	// the third answer is an error in the API's shape; a fourth request has none
	res, body = post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	if res.StatusCode != 529 || !strings.Contains(string(body), `"type":"overloaded_error"`) {
		t.Errorf("scripted error: %d %s", res.StatusCode, body)
	}
	res, body = post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	if res.StatusCode != 500 || !strings.Contains(string(body), `"type":"error"`) || !strings.Contains(string(body), "has 3 answers") {
		t.Errorf("beyond the answers: %d %s", res.StatusCode, body)
	}
	if c := recorded(t, srv, 4)[3]; c.Status != 500 || !strings.Contains(c.Error, "has 3 answers") {
		t.Errorf("the capture does not say why: %+v", c)
	}
}

func TestOpenAIStreamAndJSON(t *testing.T) {
	srv := start(t, Options{})
	body := `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},
	  "tools":[{"type":"function","function":{"name":"Bash","parameters":{}}}],
	  "messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"clean"}]}]}`
	res, data := post(t, srv.URL()+"/v1/chat/completions", body, map[string]string{"Authorization": "Bearer sk-openai-secret"})
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, data)
	}
	evs := events(t, data)
	if evs[len(evs)-1][1] != "[DONE]" {
		t.Errorf("no [DONE]: %v", evs[len(evs)-1])
	}
	var args, finish string
	var usage bool
	for _, e := range evs[:len(evs)-1] {
		var c struct {
			Choices []struct {
				Delta struct {
					ToolCalls []struct {
						Function struct{ Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
				Finish *string `json:"finish_reason"`
			} `json:"choices"`
			Usage *struct{ TotalTokens int } `json:"usage"`
		}
		if err := json.Unmarshal([]byte(e[1]), &c); err != nil {
			t.Fatal(err)
		}
		usage = usage || c.Usage != nil
		for _, ch := range c.Choices {
			for _, tc := range ch.Delta.ToolCalls {
				args += tc.Function.Arguments
			}
			if ch.Finish != nil {
				finish = *ch.Finish
			}
		}
	}
	if args != `{"command":"rm -rf build"}` || finish != "tool_calls" || !usage {
		t.Errorf("arguments %q finish %q usage %v", args, finish, usage)
	}
	res, data = post(t, srv.URL()+"/v1/chat/completions", `{"model":"gpt-x","messages":[{"role":"user","content":"go"},
	  {"role":"assistant","content":null,"tool_calls":[{"id":"call_01_1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"rm -rf build\"}"}}]},
	  {"role":"tool","tool_call_id":"call_01_1","content":"denied"}]}`, nil)
	if res.StatusCode != 200 || !strings.Contains(string(data), `"finish_reason":"stop"`) || !strings.Contains(string(data), "Déjà vu") {
		t.Errorf("%d %s", res.StatusCode, data)
	}
	c := recorded(t, srv, 2)
	if c[0].Headers["authorization"] != "[redacted]" || c[0].Messages[0].Origin != OriginSystem || c[1].Messages[2].Role != "tool" || c[1].Messages[2].ToolCallID != "call_01_1" {
		t.Errorf("recorded %+v / %+v", c[0], c[1].Messages)
	}
	res, data = post(t, srv.URL()+"/v1/chat/completions", `{"model":"gpt-x","messages":[{"role":"user","content":"go"}]}`, nil)
	if res.StatusCode != 529 || !strings.Contains(string(data), `"error":{"code":null,"message":"overloaded"`) {
		t.Errorf("error shape %d %s", res.StatusCode, data)
	}
	get, err := http.Get(srv.URL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	get.Body.Close()
	if get.StatusCode != 200 {
		t.Errorf("models %d", get.StatusCode)
	}
}

func TestBadRequests(t *testing.T) {
	srv := start(t, Options{MaxBody: 1 << 20})
	cases := []struct {
		name, path, body string
		status           int
		shape            string
	}{
		{"malformed Anthropic", "/v1/messages", `{"model":`, 400, `"type":"invalid_request_error"`},
		{"malformed OpenAI", "/v1/chat/completions", `not json`, 400, `"type":"invalid_request_error"`},
		{"no messages", "/v1/messages", `{"model":"m"}`, 400, "messages is required"},
		{"unknown path", "/v1/complete", `{}`, 404, `"error":{`},
		{"too big", "/v1/messages", `{"messages":[],"x":"` + strings.Repeat("a", 2<<20) + `"}`, 413, `"type":"request_too_large"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, data := post(t, srv.URL()+c.path, c.body, nil)
			if res.StatusCode != c.status || !strings.Contains(string(data), c.shape) {
				t.Errorf("%d %s", res.StatusCode, data)
			}
		})
	}
	for _, c := range recorded(t, srv, 4) {
		if c.Status < 400 || c.Error == "" {
			t.Errorf("recorded without why: %+v", c)
		}
	}
	if res, data := post(t, srv.URL()+"/v1/messages/count_tokens", `{"messages":[{"role":"user","content":"hi"}]}`, nil); res.StatusCode != 200 || !strings.Contains(string(data), "input_tokens") {
		t.Errorf("count_tokens %d %s", res.StatusCode, data)
	}
}

// waitsForGoodbye answers only when the client has gone.
type waitsForGoodbye struct{ asked chan struct{} }

func (w waitsForGoodbye) Answer(ctx context.Context, _ int, _ *Request) (*Answer, error) {
	close(w.asked)
	<-ctx.Done()
	return nil, ctx.Err()
}

func TestClientGoesAway(t *testing.T) {
	asked := make(chan struct{})
	told := make(chan Call, 1)
	srv := start(t, Options{Answerer: waitsForGoodbye{asked}, OnCall: func(c Call) { told <- c }})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/v1/messages", strings.NewReader(claudeSecond))
	go func() { <-asked; cancel() }()
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("request: %v", err)
	}
	c := <-told
	if !c.Disconnected || c.Status != 499 || len(c.Messages) == 0 {
		t.Errorf("recorded %+v", c)
	}
}

func TestListenErrors(t *testing.T) {
	srv := start(t, Options{})
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(srv.URL(), "http://"))
	if _, err := Listen(Options{Addr: "127.0.0.1:" + port, Answerer: &Script{}}); err == nil || !strings.Contains(err.Error(), port) {
		t.Errorf("port in use: %v", err)
	}
	if _, err := Listen(Options{Addr: "0.0.0.0:0", Answerer: &Script{}}); !errors.Is(err, ErrNeedsToken) {
		t.Errorf("beyond loopback without a token: %v", err)
	}
	tok := start(t, Options{Token: "t0ken"})
	if res, _ := post(t, tok.URL()+"/v1/messages", claudeSecond, map[string]string{"x-api-key": "wrong"}); res.StatusCode != 401 {
		t.Errorf("wrong token: %d", res.StatusCode)
	}
	if res, _ := post(t, tok.URL()+"/v1/messages", claudeSecond, map[string]string{"Authorization": "Bearer t0ken"}); res.StatusCode != 200 {
		t.Errorf("right token: %d", res.StatusCode)
	}
}

func TestAnswersFileProblems(t *testing.T) {
	_, err := ParseScript("a.yaml", []byte("answers:\n  - {}\n  - error: {status: 200}\n  - tool_calls: [{arguments: {x: 1}}]\n"))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"a.yaml:2:5: answers[0]: give content", "a.yaml:3:5: answers[1]: error.status 200", "answers[2].tool_calls[0]: name is required"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	if _, err := ParseScript("b.yaml", []byte("answer:\n  - content: x\n")); err == nil {
		t.Error("an unknown key was accepted")
	}
}

func BenchmarkAnthropicRoundTrip(b *testing.B) {
	var as []string
	for range 64 {
		as = append(as, "  - content: \"The answer.\"")
	}
	sc, _ := ParseScript("bench.yaml", []byte("answers:\n"+strings.Join(as, "\n")+"\n"))
	srv, err := Listen(Options{Answerer: loop{sc}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	b.ResetTimer()
	for range b.N {
		res, err := http.Post(srv.URL()+"/v1/messages", "application/json", strings.NewReader(claudeFirst))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
}

// loop answers forever with a script's first answer.
type loop struct{ s *Script }

func (l loop) Answer(context.Context, int, *Request) (*Answer, error) {
	a := l.s.answers[0]
	return &a, nil
}
