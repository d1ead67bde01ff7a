package studio

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/store/history"
	"hookstudio/app/store/profiles"
)

const fakeKey = "sk-test-NEVER-LOG-THIS-1234"

// sse writes OpenAI Chat Completions stream chunks.
func sse(w http.ResponseWriter, chunks ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, c := range chunks {
		fmt.Fprintf(w, "data: %s\n\n", c)
		w.(http.Flusher).Flush()
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func content(text, finish string) string {
	return fmt.Sprintf(`{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":%q},"finish_reason":%s}]}`, text, finish)
}

// fakeOpenAI answers planning, then a list_dir call, then a final answer;
// with hold set it never answers (for cancellation).
func fakeOpenAI(t *testing.T, bodies *[]string, hold bool) *httptest.Server {
	var n atomic.Int32
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*bodies = append(*bodies, string(b))
		if hold {
			<-r.Context().Done()
			return
		}
		switch n.Add(1) {
		case 1:
			sse(w, content(`{"need_tool": true, "plan": "list the folder"}`, `"stop"`))
		case 2:
			sse(w, `{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"list_dir","arguments":"{\"path\":\".\"}"}}]},"finish_reason":null}]}`,
				`{"id":"x","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
		default:
			sse(w, content("It holds ", "null"), content("two files.", `"stop"`))
		}
	}))
}

func realService(t *testing.T, srvURL string) (*Service, *recorder, *fakeRecorder, string) {
	t.Helper()
	ps := profiles.NewStore(filepath.Join(t.TempDir(), "profiles.json"))
	ps.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return fakeKey
		}
		return ""
	}
	ps.Keys = nil
	if err := ps.Put(profiles.Profile{Name: "local", Provider: profiles.OpenAI, BaseURL: srvURL + "/v1", Model: "m"}); err != nil {
		t.Fatal(err)
	}
	ev, hist := &recorder{}, &fakeRecorder{}
	s, err := New(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: ev.emit, History: hist, Profiles: ps})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); s.Close() })
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write(t, filepath.Join(root, "files/hooks/hooks.json"), `{"hooks": [{"name": "ctx", "file": "ctx.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`)
	write(t, filepath.Join(root, "files/hooks/ctx.md"), "Be brief.")
	write(t, filepath.Join(root, "files/scenarios/real.yaml"), `name: real
tools: [{name: list_dir, description: List a folder, parameters: {type: object, properties: {path: {type: string}}}}]
requests:
  - user: What is in this folder?
`)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	return s, ev, hist, root
}

func TestRealRunStepsAsksAndRecords(t *testing.T) {
	var bodies []string
	srv := fakeOpenAI(t, &bodies, false)
	defer srv.Close()
	s, ev, hist, root := realService(t, srv.URL)
	before := hist.count()
	if err := s.StartRun(RunOptions{Profile: "local", Breakpoints: []int{1}}); err != nil {
		t.Fatal(err)
	}
	e := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunPaused })
	pause := e.payload.(RunPause)
	if pause.Call != 1 || !strings.Contains(pause.Request, `"tools"`) || !strings.Contains(pause.Request, "Be brief.") || strings.Contains(pause.Request, fakeKey) {
		t.Fatalf("pause = call %d, request %s", pause.Call, pause.Request)
	}
	if err := s.Resume(false); err != nil {
		t.Fatal(err)
	}
	e = ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunTool })
	if tc := e.payload; !strings.Contains(fmt.Sprint(tc), "list_dir") {
		t.Fatalf("asked for %v", tc)
	}
	if err := s.AnswerTool("a.go b.go"); err != nil {
		t.Fatal(err)
	}
	e = ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded })
	end := e.payload.(RunEnded)
	if end.Status != "ok" || len(end.View.Calls) != 3 || end.View.Requests[0].Reply != "It holds two files." {
		t.Fatalf("ended: %+v", end.Status)
	}
	ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunDelta && e.payload.(RunDelta).Text == "two files." })
	if hist.count() != before+1 || hist.runs[before].Source != history.SourceApp || hist.runs[before].Backend != "openai:local" {
		t.Errorf("history: %d runs, last %+v", hist.count(), hist.runs[hist.count()-1].Backend)
	}
	if !strings.Contains(bodies[2], "a.go b.go") {
		t.Errorf("the user's tool result was not sent: %s", bodies[2])
	}
	ev.mu.Lock()
	all, _ := json.Marshal(ev.events)
	ev.mu.Unlock()
	if strings.Contains(string(all), fakeKey) {
		t.Error("the key leaked into an event")
	}

	file, err := s.SaveRunAsScenario(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(root, file))
	if _, ds := scenario.Parse(file, data); len(ds) > 0 && ds[0].Severity == "error" {
		t.Errorf("replay scenario invalid: %+v", ds)
	}
	if strings.Contains(string(data), fakeKey) {
		t.Error("key in the replay scenario")
	}
	if _, err := s.Select(context.Background(), file); err != nil {
		t.Fatal(err)
	}
	if v := s.Trace(); v.Status != "ok" || len(v.Calls) != 3 {
		t.Errorf("replayed as mock: %s with %d calls", v.Status, len(v.Calls))
	}
}

func TestRealRunCancel(t *testing.T) {
	var bodies []string
	srv := fakeOpenAI(t, &bodies, true)
	defer srv.Close()
	s, ev, _, _ := realService(t, srv.URL)
	if err := s.StartRun(RunOptions{Profile: "local", Step: true}); err != nil {
		t.Fatal(err)
	}
	ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunPaused })
	if err := s.StartRun(RunOptions{Profile: "local"}); err == nil {
		t.Error("a second run started")
	}
	if err := s.Resume(true); err != nil { // the request hangs on the server
		t.Fatal(err)
	}
	if err := s.CancelRun(); err != nil {
		t.Fatal(err)
	}
	e := ev.waitFor(t, 0, func(e event) bool { return e.name == EventRunEnded })
	if st := e.payload.(RunEnded).Status; st != "cancelled" {
		t.Errorf("status = %s", st)
	}
	if err := s.Resume(false); err != ErrNoRun {
		t.Errorf("resume after the end: %v", err)
	}
	if err := s.StartRun(RunOptions{Profile: "nope"}); err == nil {
		t.Error("unknown profile accepted")
	}
}
