package studio

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
)

// testModel is a request model of our own words for claude-code@2.1.332
// (the claude-guard scenario's agent), as calibration would save it.
func testModel() *request.Model {
	lit := func(s string) request.Text { return request.Text{{Lit: s}} }
	long := "You are the test agent of body_test.go. " + strings.Repeat("Answer in short sentences and name the files you touch. ", 12)
	return &request.Model{
		Agent: "claude-code", Version: "2.1.332", API: request.Anthropic, Model: "test-model",
		System: []request.Piece{
			{ID: "system.1", Role: "system", Text: lit("x-test-header: body_test")},
			{ID: "system.2", Role: "system", Text: lit(long), Cache: true},
		},
		Turn: []request.Part{
			{Piece: &request.Piece{ID: "turn.1", Role: "user", Text: lit("<context>the test's own context</context>")}},
			{Prompt: true},
			{Hooks: "SessionStart"},
			{Piece: &request.Piece{ID: "turn.2", Role: "system", Text: request.Text{{Lit: "# Environment\nWorking folder: "}, {Slot: request.SlotCwd}}}},
		},
		Tools: []request.Tool{
			{Name: "Bash", Definition: lit(`{"name":"Bash","description":"Runs a command.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 17}},
			{Name: "Edit", Definition: lit(`{"name":"Edit","description":"Edits a file.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 15}},
			{Name: "Skill", Definition: lit(`{"name":"Skill","description":"Uses a skill.","input_schema":{"type":"object"}}`), Shape: request.Shape{Tokens: 15}},
		},
		Framing: request.Framing{Merge: true, Paragraphs: "system", Separator: "\n\n", SystemInMessages: true},
		Loop:    request.Loop{KeepsBlockedAnswer: true},
		Keys:    []string{"model", "messages", "system", "tools"},
	}
}

// CallBody writes the request body of a call of the shown agent's run,
// indented, with the agent's own words and the tools it offered; a view
// simulated again since, and a run that is no agent's, have none.
func TestCallBody(t *testing.T) {
	calibrated := func(cfg *Config) {
		file := request.Path(cfg.DataDir, "claude-code", "2.1.332")
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, request.Encode(testModel()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, rec, ctx := newService(t, appHooksOn, calibrated)
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
	if !slices.ContainsFunc(req.System, func(b struct{ Text string }) bool {
		return strings.HasPrefix(b.Text, "You are the test agent of body_test.go.")
	}) {
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
	writeFixture(t, "agent-trace.json", v, root)

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

// writeFixture writes view v as the frontend's fixture name, with the
// folder it ran in as /home/user/project, when HOOKSTUDIO_UPDATE_FIXTURES
// is set.
func writeFixture(t *testing.T, name string, v TraceView, root string) {
	t.Helper()
	if os.Getenv("HOOKSTUDIO_UPDATE_FIXTURES") == "" {
		return
	}
	v.Exec.DurationMS = 25
	for i := range v.Steps {
		if hc := v.Steps[i].HookCall; hc != nil {
			hc.DurationMS = 12
		}
	}
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(root), []byte("/home/user/project"))
	data = regexp.MustCompile(`hookstudio-claude-\d+`).ReplaceAll(data, []byte("hookstudio-claude-1"))
	if err := os.WriteFile(filepath.Join("../../../frontend/src/fixtures", name), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
