package engine

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
)

// TestAgentSideCall: an agent's side call (Gemini CLI's router) is a call
// of phase side before the first call of each prompt of the user's, with
// its own system prompt in place of the agent's and the answer its model
// says the agent got; the scenario's rounds answer the agent's calls
// alone. Its request body is its own (keys, fields, the turn a message of
// its own); a tool's output comes within the agent's words around it.
func TestAgentSideCall(t *testing.T) {
	answer := `{"score":1}`
	m := &request.Model{Agent: "agent", Version: "1", API: request.Gemini, Keys: []string{"contents", "systemInstruction", "tools"},
		System:  []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{{Lit: "AGENT"}}}},
		Turn:    []request.Part{{Piece: &request.Piece{ID: "turn.1", Role: "user", Text: request.Text{{Lit: "CTX"}}}}, {Prompt: true}},
		Tools:   []request.Tool{{Name: "sh", Definition: request.Text{{Lit: `{"name":"sh"}`}}}},
		Framing: request.Framing{Merge: true, Results: map[string]request.Text{"sh": {{Lit: "<o>"}, {Slot: request.SlotResult, Empty: "(none)"}, {Lit: "</o>"}}}},
		Loop: request.Loop{Sides: []request.Side{{Name: "router", When: request.SideTurnStart, Model: "small", TurnApart: true, Answer: &answer,
			System: []request.Piece{{ID: "router.system.1", Role: "system", Text: request.Text{{Lit: "ROUTER"}}}},
			Keys:   []string{"contents", "systemInstruction", "generationConfig"}, Fields: []request.Field{{Name: "generationConfig", Value: json.RawMessage(`{"x":1}`)}}}}},
	}
	sc := &scenario.Scenario{Name: "side", EnableTools: true, Tools: []scenario.Tool{{Name: "sh"}}, Requests: []scenario.Request{
		{User: "hi", Rounds: []scenario.Round{{ToolCalls: []scenario.ToolCall{{Name: "sh", Result: "out"}}}, {Content: "done"}}},
		{User: "again", Rounds: []scenario.Round{{Content: "again done"}}},
	}}
	tr, err := Run(context.Background(), sc, nil, Config{Model: script{sc}, Request: m, Facts: request.Values{}})
	if err != nil {
		t.Fatal(err)
	}
	var phases []Phase
	for _, c := range tr.Calls {
		phases = append(phases, c.Phase)
	}
	if want := []Phase{PhaseSide, PhaseAgent, PhaseAgent, PhaseSide, PhaseAgent}; !slices.Equal(phases, want) {
		t.Fatalf("calls %v, want %v", phases, want)
	}
	if tr.Requests[0].Reply != "done" || tr.Requests[1].Reply != "again done" || tr.Calls[0].Content != answer || tr.Calls[0].Model != "small" {
		t.Errorf("replies %q %q, side call %+v", tr.Requests[0].Reply, tr.Requests[1].Reply, tr.Calls[0])
	}
	texts := func(c int) []string {
		var out []string
		for _, msg := range tr.CallMessages(c) {
			out = append(out, msg.Content)
		}
		return out
	}
	if got := texts(0); !slices.Equal(got, []string{"ROUTER", "CTX", "hi"}) {
		t.Errorf("the side call reads %q", got)
	}
	if got := texts(2); !slices.Equal(got, []string{"AGENT", "CTX", "hi", "", "<o>out</o>"}) {
		t.Errorf("the agent's second call reads %q", got)
	}
	body, err := tr.Request(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"}],"role":"user"},{"parts":[{"text":"hi"}],"role":"user"}],"systemInstruction":{"parts":[{"text":"ROUTER"}],"role":"user"},"generationConfig":{"x":1}}`; string(body) != want {
		t.Errorf("side body\n got %s\nwant %s", body, want)
	}
	body, err = tr.Request(1)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"},{"text":"hi"}],"role":"user"}],"systemInstruction":{"parts":[{"text":"AGENT"}],"role":"user"},"tools":[{"functionDeclarations":[{"name":"sh"}]}]}`; string(body) != want {
		t.Errorf("agent body\n got %s\nwant %s", body, want)
	}
}
