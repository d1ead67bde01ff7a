package engine

import (
	"context"
	"slices"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

type hookList []skills.Hook

func (l hookList) Hooks(enabled []string) []skills.Hook {
	var out []skills.Hook
	for _, h := range l {
		if enabled == nil || slices.Contains(enabled, h.Skill) {
			out = append(out, h)
		}
	}
	return out
}

type script struct{ sc *scenario.Scenario }

func (s script) Complete(_ context.Context, c Call) (Reply, error) {
	req := s.sc.Requests[c.Request]
	switch c.Phase {
	case PhasePlanning:
		return Reply{Content: req.Planning.Content, NeedTool: req.Planning.NeedTool}, nil
	case PhaseAgent:
		if c.Round < len(req.Rounds) {
			r := Reply{Content: req.Rounds[c.Round].Content}
			for _, tc := range req.Rounds[c.Round].ToolCalls {
				r.ToolCalls = append(r.ToolCalls, ToolCall{Name: tc.Name, Result: tc.Result})
			}
			return r, nil
		}
	}
	return Reply{Content: req.Reply}, nil
}

func TestFlowTags(t *testing.T) {
	h := func(name string, tm skills.Timing, role skills.Role, p bool, f ...string) skills.Hook {
		return skills.Hook{Skill: "demo", Name: name, Timing: tm, Role: role, Persistent: p, ToolFilter: f, Content: name + " text"}
	}
	hooks := hookList{
		h("user-context", skills.AfterUserInput, skills.System, false),
		h("memory", skills.AfterUserInput, skills.System, true),
		h("plan-style", skills.BeforePlanning, skills.System, false),
		h("loop-rules", skills.BeforeFirstAgent, skills.System, false),
		h("step-reminder", skills.BeforeEachAgent, skills.User, false),
		h("truncated-content-hint", skills.AfterToolCall, skills.System, false, "read_file", "search_text"),
	}
	sc := &scenario.Scenario{Name: "x", SystemPrompt: "sys", EnableTools: true,
		Tools: []scenario.Tool{{Name: "read_file"}, {Name: "list_dir"}},
		Requests: []scenario.Request{
			{User: "q1", Planning: &scenario.Planning{NeedTool: true}, Rounds: []scenario.Round{
				{ToolCalls: []scenario.ToolCall{{Name: "read_file", Result: "r"}}},
				{ToolCalls: []scenario.ToolCall{{Name: "list_dir", Result: "l"}}},
				{Content: "done"},
			}},
			{User: "q2", Planning: &scenario.Planning{Content: "welcome"}},
			{User: "q3", EnabledSkills: []string{}, Planning: &scenario.Planning{Content: "bye"}},
		}}
	tr, err := Run(context.Background(), sc, hooks, Config{Model: script{sc}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"system", "user", "hook:user-context", "hook:memory", "hook:plan-style", "prompt:planning"},
		{"system", "user", "hook:user-context", "hook:memory", "hook:step-reminder", "hook:loop-rules", "prompt:first_step"},
		{"system", "user", "hook:user-context", "hook:memory", "hook:loop-rules", "assistant", "tool:read_file", "hook:truncated-content-hint", "hook:step-reminder", "prompt:agent_loop"},
		{"system", "user", "hook:user-context", "hook:memory", "hook:loop-rules", "assistant", "tool:read_file", "assistant", "tool:list_dir", "hook:step-reminder", "prompt:agent_loop"},
		{"system", "h.user", "h.hook:memory", "h.assistant", "user", "hook:user-context", "hook:memory", "hook:plan-style", "prompt:planning"},
		{"system", "h.user", "h.hook:memory", "h.assistant", "h.user", "h.hook:memory", "h.assistant", "user", "prompt:planning"},
	}
	if len(tr.Calls) != len(want) {
		t.Fatalf("calls = %d, want %d", len(tr.Calls), len(want))
	}
	for i, w := range want {
		if got := tr.CallTags(i); !slices.Equal(got, w) {
			t.Errorf("call %d:\n got %v\nwant %v", i, got, w)
		}
	}
}
