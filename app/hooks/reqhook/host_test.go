package reqhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/process"
	"hookstudio/app/hooks/skills"
)

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// parseScenario parses a scenario text, failing on errors.
func parseScenario(t *testing.T, src string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse("t/scenarios/t.yaml", []byte(src))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatalf("scenario: %v", ds)
		}
	}
	return sc
}

const twoDirect = `name: t
requests:
  - user: one
    reply: first
  - user: two
    reply: second
`

// countingModel counts the calls that reach the model.
type countingModel struct {
	inner engine.Model
	n     atomic.Int32
}

func (m *countingModel) Complete(ctx context.Context, c engine.Call) (engine.Reply, error) {
	m.n.Add(1)
	return m.inner.Complete(ctx, c)
}

// simulate runs sc with a Host built from opts.
func simulate(t *testing.T, ctx context.Context, sc *scenario.Scenario, opts Options, model engine.Model, modelName string) (*engine.Trace, *Host, error) {
	t.Helper()
	opts.Scenario = sc
	h := New(opts)
	if model == nil {
		model = llm.NewMock(sc)
	}
	tr, err := engine.Run(ctx, sc, noHooks{}, engine.Config{Model: h.Model(model), Handlers: []engine.Handler{h}, ModelName: modelName})
	return tr, h, err
}

func hook(event, name, command string, timeout time.Duration) Hook {
	return Hook{Name: name, Command: command, Timeout: timeout, Event: event, Source: "test"}
}

func readLog(t *testing.T, root string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Fields(string(data))
}

func requestCalls(tr *engine.Trace) []engine.HookCall {
	var out []engine.HookCall
	for _, hc := range tr.HookCalls {
		if hc.System == System {
			out = append(out, hc)
		}
	}
	return out
}

func decodeRC(t *testing.T, raw json.RawMessage) RequestContext {
	t.Helper()
	var rc RequestContext
	if err := json.Unmarshal(raw, &rc); err != nil {
		t.Fatalf("request context %s: %v", raw, err)
	}
	return rc
}

// TestOrderIsolationTimeout: start and end hooks run serially in order
// around each request; a failing hook and a hook that times out (with a
// child process) are shown and stop neither the others nor the call.
func TestOrderIsolationTimeout(t *testing.T) {
	root := t.TempDir()
	cfg := &Config{
		Start: []Hook{
			hook(EventStart, "s1", `id=$(sed 's/.*"request_id":"\([^"]*\)".*/\1/'); echo "s1:$id" >> log`, 5*time.Second),
			hook(EventStart, "s2", `echo broken >&2; exit 1`, 5*time.Second),
			hook(EventStart, "s3", `sleep 30 & echo $! > child.pid; wait`, 300*time.Millisecond),
			hook(EventStart, "s4", `echo s4 >> log; echo '{"note": "fine"}'`, 5*time.Second),
		},
		End: []Hook{
			hook(EventEnd, "e1", `grep -q '"success":true' && echo e1 >> log`, 5*time.Second),
			hook(EventEnd, "e2", `echo e2 >> log; env > env.txt`, 5*time.Second),
		},
	}
	t.Setenv("OPENAI_API_KEY", "sk-secret-must-not-leak")
	start := time.Now()
	tr, _, err := simulate(t, context.Background(), parseScenario(t, twoDirect), Options{Root: root, Config: cfg}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("run took %s: the timed-out hook was waited for", el)
	}
	want := []string{"s1:req-0", "s4", "e1", "e2", "s1:req-1", "s4", "e1", "e2"}
	if got := readLog(t, root); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("log %v, want %v", got, want)
	}
	var outcomes []string
	for _, hc := range requestCalls(tr) {
		outcomes = append(outcomes, hc.Hook+"="+string(hc.Outcome))
	}
	wantOut := "s1=ok s2=error s3=timeout s4=ok usage_stats=ok e1=ok e2=ok"
	if got := strings.Join(outcomes, " "); got != wantOut+" "+wantOut {
		t.Errorf("outcomes %s", got)
	}
	calls := requestCalls(tr)
	if calls[1].Stderr != "broken\n" || calls[1].ExitCode == nil || *calls[1].ExitCode != 1 {
		t.Errorf("failing hook: %+v", calls[1])
	}
	if string(calls[3].Output) != `{"note": "fine"}` {
		t.Errorf("JSON output %q", calls[3].Output)
	}
	if calls[0].Point != engine.PointBeforeLLM || calls[6].Point != engine.PointAfterLLM {
		t.Errorf("points %s %s", calls[0].Point, calls[6].Point)
	}
	// The timed-out hook's child died with it.
	pid, err := os.ReadFile(filepath.Join(root, "child.pid"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(pid)))
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(n, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if syscall.Kill(n, 0) == nil {
		t.Errorf("child %d of the timed-out hook is still alive", n)
	}
	env, _ := os.ReadFile(filepath.Join(root, "env.txt"))
	if strings.Contains(string(env), "sk-secret") || !strings.Contains(string(env), "HOOKSTUDIO_REQUEST_EVENT=request_end") {
		t.Errorf("hook environment:\n%s", env)
	}
	// The end context is complete.
	rc := decodeRC(t, calls[6].Input)
	if !rc.Success || rc.HTTPStatus != 200 || rc.EndTime == nil || rc.FirstByteTime == nil || len(rc.Attempts) != 1 ||
		rc.Attempts[0].StatusCode != 200 || rc.Route != "mock.chat" || rc.Model != "mock" || rc.Phase != "direct" {
		t.Errorf("end context %+v", rc)
	}
}

// TestStartDeny: a start hook denies by exit status or JSON; the call
// fails with a *DeniedError, the model is not asked, later start hooks
// do not run and the end hooks still run once.
func TestStartDeny(t *testing.T) {
	for _, tc := range []struct {
		name, command string
		status        int
		message       string
	}{
		{"exit status", `echo "not today" >&2; exit 2`, 403, "not today"},
		{"json", `echo '{"deny": {"message": "over quota", "status": 429}}'`, 429, "over quota"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			cfg := &Config{
				Start: []Hook{hook(EventStart, "gate", tc.command, 5*time.Second), hook(EventStart, "later", `echo later >> log`, 5*time.Second)},
				End:   []Hook{hook(EventEnd, "end", `echo end >> log`, 5*time.Second)},
			}
			sc := parseScenario(t, twoDirect)
			m := &countingModel{inner: llm.NewMock(sc)}
			tr, _, err := simulate(t, context.Background(), sc, Options{Root: root, Config: cfg}, m, "")
			var de *DeniedError
			if !errors.As(err, &de) || de.Status != tc.status || de.Message != tc.message || de.Hook != "gate" || !errors.Is(err, ErrDenied) {
				t.Fatalf("error %v (%#v)", err, de)
			}
			if m.n.Load() != 0 {
				t.Errorf("the model was asked %d times", m.n.Load())
			}
			if got := readLog(t, root); strings.Join(got, " ") != "end" {
				t.Errorf("log %v, want end once", got)
			}
			calls := requestCalls(tr)
			if len(calls) != 3 || calls[0].Outcome != engine.OutcomeDenied || calls[1].Hook != "usage_stats" || calls[2].Hook != "end" {
				t.Fatalf("calls %+v", calls)
			}
			rc := decodeRC(t, calls[2].Input)
			if rc.Success || rc.HTTPStatus != tc.status || !strings.Contains(rc.Error, tc.message) {
				t.Errorf("end context %+v", rc)
			}
			if tr.Status != engine.StatusError || !strings.Contains(tr.Calls[0].Error, tc.message) {
				t.Errorf("trace status %s, call error %q", tr.Status, tr.Calls[0].Error)
			}
		})
	}
}

// TestPolicy: deny by model glob, allow list, rate limit per minute and
// token quota.
func TestPolicy(t *testing.T) {
	sc := parseScenario(t, twoDirect)
	t.Run("deny by model", func(t *testing.T) {
		p := NewPolicy(PolicyConfig{Deny: []string{"gpt-4o*"}}, nil)
		tr, _, err := simulate(t, context.Background(), sc, Options{Policy: p}, nil, "gpt-4o-mini")
		var de *DeniedError
		if !errors.As(err, &de) || de.Status != 403 || de.Hook != "policy" || !strings.Contains(de.Message, "gpt-4o-mini") {
			t.Fatalf("error %v", err)
		}
		calls := requestCalls(tr)
		if len(calls) != 2 || calls[0].Outcome != engine.OutcomeDenied || !strings.Contains(string(calls[0].Output), `"status":403`) {
			t.Errorf("calls %+v", calls)
		}
	})
	t.Run("allow list", func(t *testing.T) {
		p := NewPolicy(PolicyConfig{Allow: []string{"claude-*"}}, nil)
		if _, _, err := simulate(t, context.Background(), sc, Options{Policy: p}, nil, "mock"); !errors.Is(err, ErrDenied) {
			t.Errorf("mock not in allow list: %v", err)
		}
		p = NewPolicy(PolicyConfig{Allow: []string{"mo?k"}}, nil)
		if _, _, err := simulate(t, context.Background(), sc, Options{Policy: p}, nil, "mock"); err != nil {
			t.Errorf("allowed: %v", err)
		}
	})
	t.Run("rate limit", func(t *testing.T) {
		now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		p := NewPolicy(PolicyConfig{RateLimitPerMinute: 1}, func() time.Time { return now })
		_, _, err := simulate(t, context.Background(), sc, Options{Policy: p}, nil, "")
		var de *DeniedError
		if !errors.As(err, &de) || de.Status != 429 || !strings.Contains(de.Message, "rate limit") {
			t.Fatalf("second request in the same minute: %v", err)
		}
		now = now.Add(61 * time.Second)
		if ok, _, _ := p.Check("mock"); !ok {
			t.Errorf("a minute later the request is still limited")
		}
	})
	t.Run("quota", func(t *testing.T) {
		p := NewPolicy(PolicyConfig{TokenQuota: 1}, nil)
		_, h, err := simulate(t, context.Background(), sc, Options{Policy: p, Counter: byteCounter{}}, nil, "")
		var de *DeniedError
		if !errors.As(err, &de) || de.Status != 429 || !strings.Contains(de.Message, "quota") || p.Used() == 0 {
			t.Fatalf("quota: %v (used %d)", err, p.Used())
		}
		st := h.Stats()
		if len(st) != 1 || st[0].Requests != 2 || st[0].Successes != 1 || st[0].Failures != 1 || st[0].PromptTokens == 0 {
			t.Errorf("stats %+v", st)
		}
	})
}

// byteCounter counts a token per byte plus one for the framing.
type byteCounter struct{}

func (byteCounter) CountMessage(role, content string) int { return 1 + len(content) }

// TestMockAttempts: scripted tries become the context's attempts; a
// script that ends in a failure fails the call with its status.
func TestMockAttempts(t *testing.T) {
	src := `name: retry
tools: [{name: read}]
requests:
  - user: go
    planning:
      need_tool: true
      attempts: [{status: 429, reason: rate limited}, {status: 503}, {status: 200}]
    rounds:
      - content: done
  - user: again
    planning:
      need_tool: false
      content: no
      attempts: [{status: 500, reason: boom}, {status: 502, reason: bad gateway}]
`
	sc := parseScenario(t, src)
	tick := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { tick = tick.Add(time.Millisecond); return tick }
	tr, h, err := simulate(t, context.Background(), sc, Options{Now: now, Counter: byteCounter{}}, nil, "")
	var se *llm.StatusError
	if !errors.As(err, &se) || se.Status != 502 || se.Attempts != 2 {
		t.Fatalf("error %v", err)
	}
	var ends []RequestContext
	for _, hc := range requestCalls(tr) {
		if hc.Event == EventEnd {
			ends = append(ends, decodeRC(t, hc.Input))
		}
	}
	if len(ends) != 3 {
		t.Fatalf("%d end contexts, want 3 (planning, round, failed planning)", len(ends))
	}
	statuses := func(rc RequestContext) (out []int) {
		for _, a := range rc.Attempts {
			out = append(out, a.StatusCode)
		}
		return out
	}
	if s := fmt.Sprint(statuses(ends[0])); s != "[429 503 200]" || ends[0].Attempts[0].Reason != "rate limited" || !ends[0].Success {
		t.Errorf("planning attempts %s: %+v", s, ends[0])
	}
	for i := 1; i < len(ends[0].Attempts); i++ {
		if !ends[0].Attempts[i].Timestamp.After(ends[0].Attempts[i-1].Timestamp) {
			t.Errorf("attempt timestamps not increasing: %+v", ends[0].Attempts)
		}
	}
	if s := fmt.Sprint(statuses(ends[1])); s != "[200]" {
		t.Errorf("round attempts %s", s)
	}
	if s := fmt.Sprint(statuses(ends[2])); s != "[500 502]" || ends[2].Success || ends[2].HTTPStatus != 502 || ends[2].UsageMetadata == nil || ends[2].UsageMetadata.CompletionTokens != 0 {
		t.Errorf("failed request %s: %+v", s, ends[2])
	}
	if u := ends[0].UsageMetadata; u == nil || !u.Counted || u.PromptTokens == 0 || u.TotalTokens != u.PromptTokens+u.CompletionTokens {
		t.Errorf("usage %+v", u)
	}
	if st := h.Stats(); len(st) != 1 || st[0].Requests != 3 || st[0].Failures != 1 {
		t.Errorf("stats %+v", st)
	}
}

// blockingModel answers only when its context ends.
type blockingModel struct{ started chan struct{} }

func (m blockingModel) Complete(ctx context.Context, c engine.Call) (engine.Reply, error) {
	close(m.started)
	<-ctx.Done()
	return engine.Reply{}, ctx.Err()
}

// TestEndOnceOnCancel: the run is cancelled during the model call; the
// end hooks still run, once, on their own context.
func TestEndOnceOnCancel(t *testing.T) {
	root := t.TempDir()
	cfg := &Config{End: []Hook{hook(EventEnd, "end", `sleep 0.1; echo end >> log`, 5*time.Second)}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := blockingModel{started: make(chan struct{})}
	go func() {
		<-m.started
		cancel()
	}()
	tr, _, err := simulate(t, ctx, parseScenario(t, twoDirect), Options{Root: root, Config: cfg}, m, "")
	if !errors.Is(err, context.Canceled) || tr.Status != engine.StatusCancelled {
		t.Fatalf("run: %v, status %s", err, tr.Status)
	}
	if got := readLog(t, root); strings.Join(got, " ") != "end" {
		t.Errorf("log %v, want end exactly once", got)
	}
	calls := requestCalls(tr)
	if len(calls) != 2 || calls[1].Outcome != engine.OutcomeOK || calls[1].Point != engine.PointAfterLLM {
		t.Fatalf("calls %+v", calls)
	}
	if rc := decodeRC(t, calls[1].Input); rc.Success || !strings.Contains(rc.Error, "canceled") {
		t.Errorf("end context %+v", rc)
	}
}

// TestRealProviderAttemptsAndAbortedStream: against a local
// OpenAI-compatible server that answers 429, then starts a stream and
// drops it: the attempts are the provider's, the first byte is set, and
// the end hooks run once.
func TestRealProviderAttemptsAndAbortedStream(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After-Ms", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"message":"slow down"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"Hel"}}]}`+"\n\n")
		w.(http.Flusher).Flush()
		// Drop the connection mid-answer.
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	model, err := llm.NewOpenAI(llm.Options{BaseURL: srv.URL + "/v1", Model: "gpt-test", MaxRetries: 2, RetryBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cfg := &Config{End: []Hook{hook(EventEnd, "end", `echo end >> log`, 5*time.Second)}}
	sc := parseScenario(t, "name: t\nrequests: [{user: hi, reply: x}]\n")
	tr, _, err := simulate(t, context.Background(), sc, Options{Root: root, Config: cfg, Real: true, Route: "openai.chat",
		Credential: "work", Email: "dev@example.com", Streaming: true}, model, "gpt-test")
	if !errors.Is(err, llm.ErrStreamDropped) {
		t.Fatalf("run error %v", err)
	}
	if got := readLog(t, root); strings.Join(got, " ") != "end" {
		t.Errorf("log %v, want end exactly once", got)
	}
	calls := requestCalls(tr)
	rc := decodeRC(t, calls[len(calls)-1].Input)
	if len(rc.Attempts) != 2 || rc.Attempts[0].StatusCode != 429 || !strings.Contains(rc.Attempts[0].Reason, "slow down") ||
		rc.Attempts[1].StatusCode != 0 || rc.Attempts[1].CredID != "work" || rc.Attempts[1].EmailMasked != "d***@example.com" {
		t.Errorf("attempts %+v", rc.Attempts)
	}
	if rc.FirstByteTime == nil || rc.Success || !rc.IsStreaming || rc.Route != "openai.chat" || rc.CurrentCredentialEmail != "d***@example.com" {
		t.Errorf("end context %+v", rc)
	}
}

func TestNeeded(t *testing.T) {
	plain := parseScenario(t, twoDirect)
	if Needed(nil, plain, nil) || Needed(&Config{}, plain, nil) {
		t.Error("a plain scenario needs no host")
	}
	if !Needed(&Config{End: []Hook{{}}}, plain, nil) || !Needed(nil, plain, NewPolicy(PolicyConfig{}, nil)) {
		t.Error("hooks or a policy need a host")
	}
	if !Needed(nil, parseScenario(t, "requests: [{user: a, reply: b, attempts: [{status: 200}]}]\n"), nil) {
		t.Error("scripted attempts need a host")
	}
	if !Needed(nil, parseScenario(t, "request_policy: {deny: [x]}\nrequests: [{user: a, reply: b}]\n"), nil) {
		t.Error("a request policy needs a host")
	}
}

func TestTimeoutDuration(t *testing.T) {
	h := hook(EventStart, "s3", `sleep 30 & echo $! > child.pid; wait`, 300*time.Millisecond)
	res := run(context.Background(), process.NewGroup(), &h, t.TempDir(), nil)
	if !res.timedOut || res.duration > 1500*time.Millisecond {
		t.Errorf("timed out %v after %s", res.timedOut, res.duration)
	}
}

// Issue 25: request hooks wrap the call and cannot rewrite its answer; a
// start and an end hook that print the RequestContext back leave the
// answer's tool calls and the tool results the model reads as they were.
func TestEchoingHooksLeaveTheAnswer(t *testing.T) {
	sc := parseScenario(t, `name: t
tools: [{name: read_file}]
requests:
  - user: go
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: a}, result: ORIGINAL-NOTES}]
      - content: done
`)
	plain, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &Config{Start: []Hook{hook(EventStart, "s", "cat", 5*time.Second)}, End: []Hook{hook(EventEnd, "e", "cat", 5*time.Second)}}
	tr, _, err := simulate(t, context.Background(), sc, Options{Root: t.TempDir(), Config: cfg}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	text := func(tr *engine.Trace) string {
		b, _ := json.Marshal(tr.CallMessages(len(tr.Calls) - 1))
		return string(b)
	}
	if got, want := text(tr), text(plain); got != want || !strings.Contains(got, "ORIGINAL-NOTES") {
		t.Errorf("the last call reads\n%s\nwant\n%s", got, want)
	}
	for _, hc := range requestCalls(tr) {
		if len(hc.Changes) > 0 {
			t.Errorf("%s: changes %q", hc.Hook, hc.Changes)
		}
	}
}
