package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

// fakeKey is recognisable anywhere it must not be.
const fakeKey = "sk-hookstudio-FAKEKEY-3141592653"

// captured is one request as the server saw it.
type captured struct {
	Path   string
	Header http.Header
	Body   []byte
}

// server is a local endpoint that answers each request with the next
// handler of a script (the last one repeats) and records every request.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []captured
}

type handler func(w http.ResponseWriter, r *http.Request)

func newServer(t *testing.T, script ...handler) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, captured{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		s.mu.Unlock()
		script[min(n, len(script)-1)](w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []captured {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]captured(nil), s.reqs...)
}

// body decodes request i's JSON body.
func (s *server) body(t *testing.T, i int) map[string]any {
	t.Helper()
	reqs := s.requests()
	if i >= len(reqs) {
		t.Fatalf("only %d requests, want request %d", len(reqs), i)
	}
	var m map[string]any
	if err := json.Unmarshal(reqs[i].Body, &m); err != nil {
		t.Fatalf("request %d body: %v\n%s", i, err, reqs[i].Body)
	}
	return m
}

// sse answers with the events as an event stream, flushing after each.
// An event is "name\ndata" for named events or just data.
func sse(events ...string) handler {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, e := range events {
			writeEvent(w, e)
		}
	}
}

func writeEvent(w http.ResponseWriter, e string) {
	if name, data, ok := strings.Cut(e, "\n"); ok && !strings.HasPrefix(name, "{") {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	} else {
		fmt.Fprintf(w, "data: %s\n\n", e)
	}
	w.(http.Flusher).Flush()
}

func status(code int, headers map[string]string, body string) handler {
	return func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// chunk is one Chat Completions chunk whose single choice has this delta
// (a JSON object text) and finish reason ("" for null).
func chunk(delta, finish string) string {
	fr := "null"
	if finish != "" {
		fr = `"` + finish + `"`
	}
	return `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + fr + `}]}`
}

func textChunk(s string) string {
	b, _ := json.Marshal(s)
	return chunk(`{"content":`+string(b)+`}`, "")
}

// toolDelta is a delta with one tool-call fragment; index < 0 leaves it out.
func toolDelta(index int, id, name, args string) string {
	var b strings.Builder
	b.WriteString(`{"tool_calls":[{`)
	var parts []string
	if index >= 0 {
		parts = append(parts, fmt.Sprintf(`"index":%d`, index))
	}
	if id != "" {
		parts = append(parts, `"id":"`+id+`","type":"function"`)
	}
	fn := map[string]string{}
	if name != "" {
		fn["name"] = name
	}
	fn["arguments"] = args
	fb, _ := json.Marshal(fn)
	parts = append(parts, `"function":`+string(fb))
	b.WriteString(strings.Join(parts, ","))
	b.WriteString(`}]}`)
	return b.String()
}

// openAIText is a whole streamed text answer.
func openAIText(parts ...string) handler {
	var ev []string
	ev = append(ev, chunk(`{"role":"assistant","content":""}`, ""))
	for _, p := range parts {
		ev = append(ev, textChunk(p))
	}
	ev = append(ev, chunk(`{}`, "stop"), "[DONE]")
	return sse(ev...)
}

// hooks is a fixed hook source.
type hooks []skills.Hook

func (h hooks) Hooks([]string) []skills.Hook { return h }

// testScenario has two tools and hooks at several checkpoints, among them
// system hooks injected mid-conversation.
func testScenario() (*scenario.Scenario, hooks) {
	sc := &scenario.Scenario{
		Name:         "real-run",
		SystemPrompt: "You are a coding assistant.",
		EnableTools:  true,
		Prompts:      scenario.Prompts{Planning: PlanningPrompt},
		Tools: []scenario.Tool{
			{Name: "read_file", Description: "Read a file", Parameters: map[string]any{
				"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []any{"path"},
			}},
			{Name: "grep", Description: "Search files", Parameters: map[string]any{
				"type": "object", "properties": map[string]any{"pattern": map[string]any{"type": "string"}},
			}},
		},
		Requests: []scenario.Request{{User: "Fix the TODOs in main.go"}},
	}
	hs := hooks{
		{Skill: "s", Name: "ctx", Timing: skills.AfterUserInput, Role: skills.User, Content: "Project uses Go 1.26."},
		{Skill: "s", Name: "plan-hint", Timing: skills.BeforePlanning, Role: skills.System, Content: "Prefer reading before editing."},
		{Skill: "s", Name: "persona", Timing: skills.BeforeEachAgent, Role: skills.System, Persistent: true, Content: "Be terse."},
		{Skill: "s", Name: "tool-hint", Timing: skills.AfterToolCall, Role: skills.System, Content: "Check the tool result for truncation."},
	}
	return sc, hs
}

// callFor builds an engine.Call over fixed messages.
func callFor(phase engine.Phase, msgs []engine.Message, tools []scenario.Tool) engine.Call {
	round := -1
	if phase == engine.PhaseAgent {
		round = 0
	}
	return engine.Call{Phase: phase, Round: round, Tools: tools,
		Messages: func() []engine.Message { return msgs }, Stream: func(string) {}}
}

func userOnly(text string) []engine.Message {
	return []engine.Message{{Role: "system", Content: "sys", Origin: engine.OriginSystemPrompt}, {Role: "user", Content: text, Origin: engine.OriginUserInput}}
}
