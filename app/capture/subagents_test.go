package capture

import (
	"encoding/json"
	"testing"
)

// TestTraceNestsSubagents: a capture of a session that asked two
// sub-agents alike (the same system prompt, as Claude Code sends each of
// one kind) is three conversations, each sub-agent's nested under the call
// of the Agent tool whose prompt it began with, told apart by the header
// that names each sub-agent.
func TestTraceNestsSubagents(t *testing.T) {
	agentCall := func(id, prompt string) ToolCall {
		args, _ := json.Marshal(map[string]any{"description": "task " + prompt, "prompt": prompt, "subagent_type": "Explore"})
		return ToolCall{ID: id, Name: "Agent", Arguments: args}
	}
	sys := Message{Role: "system", Content: "main prompt", Origin: OriginSystem}
	subSys := Message{Role: "system", Content: "sub-agent prompt", Origin: OriginSystem}
	user := Message{Role: "user", Content: "do it", Origin: OriginUser}
	ask := Message{Role: "assistant", ToolCalls: []ToolCall{agentCall("t1", "look left"), agentCall("t2", "look right")}}
	sub := func(agent, prompt string, answered bool) Call {
		c := Call{Headers: map[string]string{SubagentHeader: agent}, Status: 200,
			Messages: []Message{subSys, {Role: "user", Content: prompt, Origin: OriginUser}}, Answer: &Answer{Content: prompt + ": done"}}
		if answered {
			c.Messages = append(c.Messages, Message{Role: "assistant", Content: "thinking"}, Message{Role: "user", Content: "more", Origin: OriginUser})
		}
		return c
	}
	calls := []Call{
		{Status: 200, Messages: []Message{sys, user}, Answer: &Answer{ToolCalls: ask.ToolCalls}},
		sub("a1", "look left", false),
		sub("a2", "look right", false),
		sub("a1", "look left", true),
		{Status: 200, Messages: []Message{sys, user, ask, {Role: "tool", ToolCallID: "t1", Content: "left"}, {Role: "tool", ToolCallID: "t2", Content: "right"}},
			Answer: &Answer{Content: "both done"}},
	}
	tr, err := Trace("capture", calls)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Requests) != 3 {
		t.Fatalf("%d requests, want the session's and two sub-agents'", len(tr.Requests))
	}
	if tr.Requests[0].Subagent != nil || len(tr.Requests[0].Calls) != 2 {
		t.Errorf("the session's request: %+v", tr.Requests[0])
	}
	for r, want := range []struct {
		agent, tool string
		calls       int
	}{{"a1", "t1", 2}, {"a2", "t2", 1}} {
		got := tr.Requests[r+1]
		s := got.Subagent
		if s == nil || s.AgentID != want.agent || s.Parent != 0 || s.Call != 0 || s.ToolUseID != want.tool || s.Type != "Explore" || len(got.Calls) != want.calls {
			t.Errorf("request %d: %+v (%d calls)", r+1, s, len(got.Calls))
		}
	}
	if s := tr.Requests[1].Subagent; s.Tool < 0 || tr.Record().ToolCalls[s.Tool].ID != "t1" {
		t.Errorf("the sub-agent's tool call: %+v", s)
	}
}
