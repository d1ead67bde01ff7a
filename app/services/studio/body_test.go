package studio

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
)

// testModel is a request model of our own words for claude-code@2.1.332
// (the claude-guard scenario's agent), as calibration would save it.
func testModel() *request.Model {
	lit := func(s string) request.Text { return request.Text{{Lit: s}} }
	return &request.Model{
		Agent: "claude-code", Version: "2.1.332", API: request.Anthropic, Model: "test-model",
		System: []request.Piece{{ID: "system.1", Role: "system", Text: lit("You are the test agent of body_test.go."), Cache: true}},
		Turn: []request.Part{
			{Piece: &request.Piece{ID: "turn.1", Role: "user", Text: lit("<context>the test's own context</context>")}},
			{Prompt: true},
		},
		Tools: []request.Tool{
			{Name: "Bash", Definition: lit(`{"name":"Bash","description":"Runs a command.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 17}},
			{Name: "Edit", Definition: lit(`{"name":"Edit","description":"Edits a file.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 15}},
			{Name: "Skill", Definition: lit(`{"name":"Skill","description":"Uses a skill.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 15}},
		},
		Loop: request.Loop{KeepsBlockedAnswer: true},
		Keys: []string{"model", "messages", "system", "tools"},
	}
}

// CallBody writes the request body of a call of the shown agent's run,
// indented, with the agent's own words and the tools it offered; a view
// simulated again since, and a run that is no agent's, have none.
func TestCallBody(t *testing.T) {
	data := t.TempDir()
	file := request.Path(data, "claude-code", "2.1.332")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, request.Encode(testModel()), 0o644); err != nil {
		t.Fatal(err)
	}
	agents, err := LoadAgents(data)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: data, Tokens: counter(t), Emit: rec.emit, Agents: agents}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	copyTree(t, "../../../skills/claude-guard", filepath.Join(root, "claude-guard"))
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v := waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending && v.Agent != nil })
	if v.Agent.Request != "calibrated" || len(v.Calls) == 0 {
		t.Fatalf("the run's agent %+v, %d calls", v.Agent, len(v.Calls))
	}

	body, err := s.CallBody(v.Revision, 0)
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		System   []struct{ Text string } `json:"system"`
		Messages []json.RawMessage       `json:"messages"`
		Tools    []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		t.Fatalf("the body is no JSON: %v\n%s", err, body)
	}
	if !strings.Contains(body, "\n  \"") {
		t.Errorf("the body is not indented:\n%s", body)
	}
	if !slices.ContainsFunc(req.System, func(b struct{ Text string }) bool { return b.Text == "You are the test agent of body_test.go." }) {
		t.Errorf("the agent's system prompt is not in the body:\n%s", body)
	}
	var tools []string
	for _, tl := range req.Tools {
		tools = append(tools, tl.Name)
	}
	if !slices.Equal(tools, v.Calls[0].Offered) || len(tools) == 0 {
		t.Errorf("the body offers %v, the call %v", tools, v.Calls[0].Offered)
	}
	if !strings.Contains(body, "the test's own context") {
		t.Errorf("the agent's context is not in the body:\n%s", body)
	}

	for _, c := range []struct {
		name           string
		revision, call int
		want           error
	}{
		{"stale revision", v.Revision - 1, 0, ErrStaleView},
		{"no such call", v.Revision, len(v.Calls), nil},
		{"negative call", v.Revision, -1, nil},
	} {
		if _, err := s.CallBody(c.revision, c.call); err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}

	// seed 000's flow: no agent, no body
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	seed := s.Trace()
	if seed.Agent != nil || len(seed.Calls) == 0 {
		t.Fatalf("the seed run: agent %+v, %d calls", seed.Agent, len(seed.Calls))
	}
	if _, err := s.CallBody(seed.Revision, 0); !errors.Is(err, ErrNoRequestBody) {
		t.Errorf("a seed run's body: %v", err)
	}
}
