package llm

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
)

// TestReplay records a real run as a mock scenario and re-simulates it:
// the LLM call sequence (every call's messages as tags) is the same.
func TestReplay(t *testing.T) {
	sc, hs := testScenario()
	// A second request, answered directly by the planning round, and a
	// third with tools switched off by skill selection stays in the flow.
	sc.Requests = append(sc.Requests, scenario.Request{User: "Thanks!"})
	script := realRunScript()
	script = append(script, openAIText(`{"need_tool": false, "answer": "You're welcome."}`))
	s := newServer(t, script...)
	m := newTestOpenAI(t, s, nil)
	runner := &ToolRunner{Results: ToolResults{Fixed: map[string]string{"read_file": "package main\n// TODO: x", "grep": "main.go:2: TODO"}}}
	real, err := engine.Run(context.Background(), sc, hs, engine.Config{Model: m, Tools: runner, MaxRounds: 8})
	if err != nil {
		t.Fatalf("real run: %v", err)
	}

	rec, err := ToScenario(sc, real)
	if err != nil {
		t.Fatal(err)
	}
	data, err := MarshalScenarioYAML(rec)
	if err != nil {
		t.Fatal(err)
	}
	parsed, ds := scenario.Parse("skills/s/scenarios/recorded.yaml", data)
	if diag.HasErrors(ds) {
		t.Fatalf("recorded scenario does not parse:\n%v\n%s", ds, data)
	}
	mock, err := engine.Run(context.Background(), parsed, hs, engine.Config{Model: NewMock(parsed)})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if len(mock.Calls) != len(real.Calls) {
		t.Fatalf("replay made %d calls, the real run %d\n%s", len(mock.Calls), len(real.Calls), data)
	}
	for c := range real.Calls {
		if r, m := real.CallTags(c), mock.CallTags(c); !slices.Equal(r, m) {
			t.Errorf("call %d:\nreal   %v\nreplay %v", c, r, m)
		}
		if r, m := real.Calls[c], mock.Calls[c]; r.Content != m.Content || len(r.ToolCalls) != len(m.ToolCalls) {
			t.Errorf("call %d answers differ: %+v vs %+v", c, r, m)
		}
	}
	for k := range real.Requests {
		if real.Requests[k].Reply != mock.Requests[k].Reply {
			t.Errorf("request %d reply %q, replay %q", k, real.Requests[k].Reply, mock.Requests[k].Reply)
		}
	}
	for _, r := range [][]byte{data, mustJSON(t, real.Document()), mustJSON(t, mock.Document())} {
		if strings.Contains(string(r), fakeKey) {
			t.Errorf("the key leaked into a stored value: %.200s", r)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestToScenarioEdgeCases(t *testing.T) {
	sc, hs := testScenario()
	// The server reuses one id and calls an undeclared tool with raw arguments.
	s := newServer(t,
		openAIText(`yes`),
		sse(chunk(toolDelta(0, "call_0", "read_file", `{"path":"a"}`), ""), chunk(`{}`, "tool_calls"), "[DONE]"),
		sse(chunk(toolDelta(0, "call_0", "shell", `ls -la`), ""), chunk(`{}`, "tool_calls"), "[DONE]"),
		openAIText(""),
	)
	m := newTestOpenAI(t, s, nil)
	runner := &ToolRunner{Results: ToolResults{Fixed: map[string]string{"read_file": "x", "shell": "a b"}}}
	real, err := engine.Run(context.Background(), sc, hs, engine.Config{Model: m, Tools: runner})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ToScenario(sc, real)
	if err != nil {
		t.Fatal(err)
	}
	data, err := MarshalScenarioYAML(rec)
	if err != nil {
		t.Fatal(err)
	}
	parsed, ds := scenario.Parse("recorded.yaml", data)
	if diag.HasErrors(ds) {
		t.Fatalf("diagnostics: %v\n%s", ds, data)
	}
	mock, err := engine.Run(context.Background(), parsed, hs, engine.Config{Model: NewMock(parsed)})
	if err != nil {
		t.Fatal(err)
	}
	for c := range real.Calls {
		if !slices.Equal(real.CallTags(c), mock.CallTags(c)) {
			t.Errorf("call %d differs", c)
		}
	}
	if got := parsed.Requests[0].Rounds[1].ToolCalls[0].Arguments[RawArgumentsKey]; got != "ls -la" {
		t.Errorf("raw arguments = %v", got)
	}
	if last := parsed.Requests[0].Rounds[2]; last.Content != "" || len(last.ToolCalls) != 0 {
		t.Errorf("final empty answer = %+v", last)
	}
}

func TestToScenarioFailedRun(t *testing.T) {
	sc, hs := testScenario()
	s := newServer(t, status(401, nil, `{}`))
	m := newTestOpenAI(t, s, nil)
	real, err := engine.Run(context.Background(), sc, hs, engine.Config{Model: m})
	if err == nil || real.Status != engine.StatusError {
		t.Fatalf("run: %v, status %s", err, real.Status)
	}
	if _, err := ToScenario(sc, real); err == nil {
		t.Error("a run without a finished request was recorded")
	}
}
