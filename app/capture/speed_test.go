package capture_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/capture"
	"hookstudio/app/store/history"
)

// sized builds a streamed request of about 50 KB in api's format, the size
// Claude Code and Codex send: a long system prompt, 12 tools, 6 turns of
// tool calls and results, and a last user text that differs per request
// (an agent's next request is its last one and a little more).
func sized(api capture.API, n int) (path, body string) {
	system := strings.Repeat("You are a coding agent. Follow the rules. ", 380)
	desc := strings.Repeat("Does one thing well. ", 70)
	reminder := strings.Repeat("context line ", 80)
	files := strings.Repeat("file.go ", 150)
	last := fmt.Sprintf("go on with step %d", n)
	var tools, turns []string
	switch api {
	case capture.Anthropic:
		for i := range 12 {
			tools = append(tools, fmt.Sprintf(`{"name":"Tool%d","description":"%s","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}`, i, desc))
		}
		for i := range 6 {
			turns = append(turns, fmt.Sprintf(`{"role":"user","content":[{"type":"text","text":"<system-reminder>\n%s\n</system-reminder>"},{"type":"text","text":"step %d"}]}`, reminder, i),
				fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_use","id":"toolu_%d","name":"Tool0","input":{"command":"ls"}}]}`, i),
				fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_%d","content":"%s"}]}`, i, files))
		}
		return "/v1/messages?beta=true", `{"model":"claude-sonnet-4-5","stream":true,"max_tokens":32000,"system":[{"type":"text","text":"` + system + `"}],"tools":[` +
			strings.Join(tools, ",") + `],"messages":[` + strings.Join(turns, ",") + `,{"role":"user","content":"` + last + `"}]}`
	case capture.OpenAI:
		for i := range 12 {
			tools = append(tools, fmt.Sprintf(`{"type":"function","function":{"name":"Tool%d","description":"%s","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}`, i, desc))
		}
		for i := range 6 {
			turns = append(turns, fmt.Sprintf(`{"role":"user","content":"%s step %d"}`, reminder, i),
				fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"Tool0","arguments":"{\"command\":\"ls\"}"}}]}`, i),
				fmt.Sprintf(`{"role":"tool","tool_call_id":"call_%d","content":"%s"}`, i, files))
		}
		return "/v1/chat/completions", `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},"tools":[` + strings.Join(tools, ",") +
			`],"messages":[{"role":"system","content":"` + system + `"},` + strings.Join(turns, ",") + `,{"role":"user","content":"` + last + `"}]}`
	case capture.Responses:
		for i := range 12 {
			tools = append(tools, fmt.Sprintf(`{"type":"function","name":"Tool%d","description":"%s","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}`, i, desc))
		}
		for i := range 6 {
			turns = append(turns, fmt.Sprintf(`{"type":"message","role":"user","content":[{"type":"input_text","text":"%s step %d"}]}`, reminder, i),
				fmt.Sprintf(`{"type":"function_call","call_id":"call_%d","name":"Tool0","arguments":"{\"command\":\"ls\"}"}`, i),
				fmt.Sprintf(`{"type":"function_call_output","call_id":"call_%d","output":"%s"}`, i, files))
		}
		return "/v1/responses", `{"model":"gpt-5-codex","stream":true,"tools":[` + strings.Join(tools, ",") + `],"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"` +
			system + `"}]},` + strings.Join(turns, ",") + `,{"type":"message","role":"user","content":[{"type":"input_text","text":"` + last + `"}]}]}`
	default:
		for i := range 12 {
			tools = append(tools, fmt.Sprintf(`{"name":"Tool%d","description":"%s","parameters":{"type":"OBJECT","properties":{"command":{"type":"STRING"}}}}`, i, desc))
		}
		for i := range 6 {
			turns = append(turns, fmt.Sprintf(`{"role":"user","parts":[{"text":"%s step %d"}]}`, reminder, i),
				`{"role":"model","parts":[{"functionCall":{"name":"Tool0","args":{"command":"ls"}}}]}`,
				fmt.Sprintf(`{"role":"user","parts":[{"functionResponse":{"name":"Tool0","response":{"output":"%s"}}}]}`, files))
		}
		return "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse", `{"systemInstruction":{"parts":[{"text":"` + system + `"}]},"tools":[{"functionDeclarations":[` +
			strings.Join(tools, ",") + `]}],"contents":[` + strings.Join(turns, ",") + `,{"role":"user","parts":[{"text":"` + last + `"}]}]}`
	}
}

// bare is a loopback HTTP server that reads each request and answers the
// bytes it is given, as capture does (one write with its length): the
// floor the capture's own cost is measured against.
type bare struct {
	srv         *http.Server
	url         string
	contentType string
	answer      []byte
}

func startBare(b *testing.B) *bare {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := &bare{url: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", s.contentType)
		w.Header().Set("Content-Length", strconv.Itoa(len(s.answer)))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(s.answer)
		w.(http.Flusher).Flush()
	})}
	go func() { _ = s.srv.Serve(ln) }()
	b.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// BenchmarkCaptureAddedLatency: for each of the four APIs, a streamed
// ~50 KB request sent once to a bare loopback server answering the same
// bytes and once through a capture answering from an answers file with
// the history on (each call in the journal before its answer ends, the
// run built again every second), the client in the same process. The
// record (the request parsed, its tokens counted) runs after the answer
// went out and is waited for outside the timings, as an agent's next
// request comes after it has read the answer and run its tools; the run's
// builds go on beside the requests. Reported: p50 and p95 of each, and the
// p50 added.
func BenchmarkCaptureAddedLatency(b *testing.B) {
	counter, err := tokens.NewCounter()
	if err != nil {
		b.Fatal(err)
	}
	for _, api := range []capture.API{capture.Anthropic, capture.OpenAI, capture.Responses, capture.Gemini} {
		b.Run(string(api), func(b *testing.B) { benchAdded(b, api, counter) })
	}
}

func benchAdded(b *testing.B, api capture.API, counter *tokens.Counter) {
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(b.TempDir(), "history.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	answers := "answers:\n"
	for range b.N + 2 {
		answers += "  - {content: \"I will list the files.\", tool_calls: [{name: Tool0, arguments: {command: ls}}]}\n"
	}
	sc, err := capture.ParseScript("bench.yaml", []byte(answers))
	if err != nil {
		b.Fatal(err)
	}
	keeper := capture.NewKeeper(store, counter, time.Now())
	keeper.OnSaved = func(_ int64, err error) {
		if err != nil {
			b.Error(err)
		}
	}
	recorded := make(chan struct{}, 1)
	srv, err := capture.Listen(capture.Options{Answerer: sc, Journal: keeper.Journal(), Tokens: counter,
		OnCall: func(c capture.Call) { keeper.Add(c); recorded <- struct{}{} }})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = srv.Close(); _, _ = keeper.Close() }()
	floor := startBare(b)
	client := &http.Client{}
	send := func(url, path, body string) (time.Duration, []byte, string) {
		t0 := time.Now()
		res, err := client.Post(url+path, "application/json", strings.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		got, _ := io.ReadAll(res.Body)
		res.Body.Close()
		d := time.Since(t0)
		if res.StatusCode != 200 {
			b.Fatalf("status %d: %s", res.StatusCode, got)
		}
		return d, got, res.Header.Get("Content-Type")
	}
	// the bare server answers what the capture answers
	path, body := sized(api, -1)
	_, floor.answer, floor.contentType = send(srv.URL(), path, body)
	<-recorded
	send(floor.url, path, body)
	bareT, captureT := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	runtime.GC()
	b.ResetTimer()
	for i := range b.N {
		path, body := sized(api, i)
		d, _, _ := send(floor.url, path, body)
		bareT = append(bareT, d)
		d, _, _ = send(srv.URL(), path, body)
		captureT = append(captureT, d)
		b.StopTimer()
		<-recorded // parsed and counted, outside the timings
		b.StartTimer()
	}
	b.StopTimer()
	pct := func(d []time.Duration, p float64) float64 {
		s := slices.Clone(d)
		slices.Sort(s)
		return float64(s[int(float64(len(s)-1)*p)].Microseconds()) / 1000
	}
	b.ReportMetric(pct(bareT, 0.5), "bare-p50-ms")
	b.ReportMetric(pct(bareT, 0.95), "bare-p95-ms")
	b.ReportMetric(pct(captureT, 0.5), "capture-p50-ms")
	b.ReportMetric(pct(captureT, 0.95), "capture-p95-ms")
	b.ReportMetric(pct(captureT, 0.5)-pct(bareT, 0.5), "added-p50-ms")
	b.ReportMetric(float64(len(body))/1024, "request-KiB")
}
