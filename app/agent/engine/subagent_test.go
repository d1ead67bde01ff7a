package engine

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
)

// subScript answers a sub-agent's calls from its script, the session's
// from the scenario.
type subScript struct{ sc *scenario.Scenario }

func (s subScript) Complete(ctx context.Context, c Call) (Reply, error) {
	rounds := s.sc.Requests[c.Request].Rounds
	if c.Subagent != nil {
		rounds = c.Subagent.Rounds
	}
	if c.Round >= len(rounds) {
		return Reply{Content: "(no more rounds)"}, nil
	}
	rd := rounds[c.Round]
	r := Reply{Content: rd.Content}
	for _, tc := range rd.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result, Subagent: tc.Subagent})
	}
	return r, nil
}

// TestSubagentRuns: under an agent, a scripted sub-agent (and its own
// sub-agent) runs the agent's sub-agent request model — its system
// prompt, its task as the prompt, its tools — as a request of its own laid
// out after the run's, saying which call started it; its hooks fire at
// subagent_start and subagent_stop (a block makes it answer again, as a
// stop does); its last answer, in the agent's words, is the call's result;
// a stored trace gives the same bodies back.
func TestSubagentRuns(t *testing.T) {
	lit := func(s string) request.Seg { return request.Seg{Lit: s} }
	m := demoModel()
	sub := demoModel()
	sub.System = []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{lit("You are a demo helper.")}}}
	m.Subagent = &request.Subagent{Tool: "Task", Request: sub,
		Result: request.Text{lit("helper "), {Slot: request.SlotAgentID}, lit(" says: "), {Slot: request.SlotAnswer},
			lit(" ("), {Slot: request.SlotToolUses}, lit(" tools: "), {Slot: request.SlotToolsUsed}, lit(")")}}
	m.Tools = append(m.Tools, request.Tool{Name: "Task", Definition: request.Text{lit(`{"name":"Task","input_schema":{"type":"object"}}`)}})
	sub.Tools = m.Tools
	deep := &scenario.Subagent{Rounds: []scenario.Round{{Content: "deep answer"}}}
	helper := &scenario.Subagent{Rounds: []scenario.Round{
		{ToolCalls: []scenario.ToolCall{{Name: "Run", Arguments: map[string]any{"c": "ls"}, Result: "a.o"}}},
		{ToolCalls: []scenario.ToolCall{{Name: "Task", Arguments: map[string]any{"prompt": "go deeper", "subagent_type": "Explore"}, Subagent: deep}}},
		{Content: "first answer"},
		{Content: "helper answer"},
	}}
	sc := &scenario.Scenario{Name: "demo", EnableTools: true, Tools: []scenario.Tool{{Name: "Run"}, {Name: "Task"}},
		Requests: []scenario.Request{{User: "do it", Rounds: []scenario.Round{
			{ToolCalls: []scenario.ToolCall{{Name: "Task", Arguments: map[string]any{"prompt": "look around", "description": "Look"}, Subagent: helper}}},
			{Content: "all done"},
		}}}}
	var starts []string
	stops := 0
	hook := fakeHook{name: "h", effects: map[Point]func(*Event) Effect{
		PointSubagentStart: func(ev *Event) Effect {
			sa := ev.Subagent()
			starts = append(starts, sa.Type+":"+sa.Prompt)
			return Effect{Context: []NewMessage{{Role: "system", Content: "start words for " + sa.Type}}}
		},
		PointSubagentStop: func(ev *Event) Effect {
			if ev.Subagent().Type == DefaultSubagentType && ev.Answer == "first answer" {
				stops++
				return Effect{Feedback: []NewMessage{{Role: "user", Content: "keep going"}}}
			}
			return Effect{}
		},
		PointStop: func(ev *Event) Effect {
			if ev.Subagent() != nil {
				t.Errorf("a sub-agent's stop fired Stop")
			}
			return Effect{}
		},
	}}
	tr, err := Run(context.Background(), sc, hookList(nil), Config{Model: subScript{sc}, Handlers: []Handler{namedEvents{hook}}, Agent: &Agent{Agent: m.Agent, Version: m.Version},
		Request: m, Facts: request.Values{request.SlotCwd: "/work", request.SlotDate: "2026-01-02"}, Session: "s1"})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if !slices.Equal(starts, []string{"general-purpose:look around", "Explore:go deeper"}) || stops != 1 {
		t.Errorf("SubagentStart fired for %v, SubagentStop blocked %d times", starts, stops)
	}
	if len(tr.Requests) != 3 {
		t.Fatalf("%d requests, want the run's and two sub-agents'", len(tr.Requests))
	}
	h, d := tr.Requests[1].Subagent, tr.Requests[2].Subagent
	if h == nil || d == nil || h.Parent != 0 || d.Parent != 1 || h.Type != DefaultSubagentType || d.Type != "Explore" || h.Description != "Look" {
		t.Fatalf("sub-agents %+v %+v", h, d)
	}
	for _, s := range []*Subagent{h, d} {
		c := tr.Calls[s.Call]
		if c.Request != s.Parent || !slices.ContainsFunc(c.ToolCalls, func(tc ToolCall) bool { return tc.ID == s.ToolUseID }) {
			t.Errorf("sub-agent %s: call %d (request %d) did not ask for it", s.AgentID, s.Call, c.Request)
		}
	}
	first := outline(tr.CallMessages(tr.Requests[1].Calls[0]))
	want := []string{"system/system_prompt:You are a demo helper.", "user/agent_context:<note>demo context</note>", "user/user_input:look around",
		"system/hook:start words for general-purpose", "system/agent_context:Today is 2026-01-02."}
	if !slices.Equal(first, want) {
		t.Errorf("the sub-agent's first call\n%q\nwant\n%q", first, want)
	}
	// the deep sub-agent's answer is its call's result in the helper's list
	helperLast := outline(tr.CallMessages(tr.Requests[1].Calls[len(tr.Requests[1].Calls)-1]))
	if !slices.Contains(helperLast, "tool/tool:helper "+d.AgentID+" says: deep answer (0 tools: )") || !slices.Contains(helperLast, "user/hook:keep going") {
		t.Errorf("the helper's last call: %q", helperLast)
	}
	last := outline(tr.CallMessages(tr.Requests[0].Calls[len(tr.Requests[0].Calls)-1]))
	if !slices.Contains(last, "tool/tool:helper "+h.AgentID+" says: helper answer (2 tools: Run, Task)") {
		t.Errorf("the session's last call: %q", last)
	}
	for _, msg := range last {
		if msg == "system/hook:start words for general-purpose" {
			t.Errorf("the session's list holds a sub-agent's hook words: %q", last)
		}
	}
	// bodies: the sub-agent's follow its model, and a stored trace's too
	body, err := tr.Request(tr.Requests[1].Calls[0])
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		System []map[string]any `json:"system"`
	}
	if err := json.Unmarshal(body, &b); err != nil || len(b.System) != 1 || b.System[0]["text"] != "You are a demo helper." {
		t.Errorf("the sub-agent's body %s: %v", body, err)
	}
	back, err := FromRecord(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	back.SetRequestModel(m)
	if again, _ := back.Request(tr.Requests[1].Calls[0]); string(again) != string(body) {
		t.Errorf("a stored trace's body\n%s\nwant\n%s", again, body)
	}
}
