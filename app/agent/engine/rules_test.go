package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

func hk(name string, tm skills.Timing, persistent bool, filter ...string) skills.Hook {
	return skills.Hook{Skill: "s", Name: name, Timing: tm, Role: skills.System, Persistent: persistent, ToolFilter: filter, Content: name}
}

func calls(tc ...string) scenario.Round {
	r := scenario.Round{}
	for _, n := range tc {
		r.ToolCalls = append(r.ToolCalls, scenario.ToolCall{Name: n, Result: n + " result"})
	}
	return r
}

func loop(rounds ...scenario.Round) scenario.Request {
	return scenario.Request{User: "u", Planning: &scenario.Planning{NeedTool: true, Content: "plan"}, Rounds: append(rounds, scenario.Round{Content: "final"})}
}

var tools = []scenario.Tool{{Name: "a"}, {Name: "b"}}

// countTag counts messages with the tag in each LLM call.
func countTag(tr *Trace, tag string) []int {
	out := make([]int, len(tr.Calls))
	for c := range tr.Calls {
		for _, g := range tr.CallTags(c) {
			if g == tag {
				out[c]++
			}
		}
	}
	return out
}

func TestRules(t *testing.T) {
	tests := []struct {
		name   string
		hooks  hookList
		sc     scenario.Scenario
		tag    string
		copies []int // copies of tag seen by each LLM call
		check  func(t *testing.T, tr *Trace)
	}{
		{
			name:   "tools disabled: one direct call, after_user_input only",
			hooks:  hookList{hk("u", skills.AfterUserInput, false), hk("p", skills.BeforePlanning, false)},
			sc:     scenario.Scenario{EnableTools: false, Tools: tools, Requests: []scenario.Request{{User: "hi", Reply: "hello"}}},
			tag:    "hook:u",
			copies: []int{1},
			check: func(t *testing.T, tr *Trace) {
				if tr.Calls[0].Phase != PhaseDirect || tr.Requests[0].Reply != "hello" {
					t.Errorf("call = %+v reply %q", tr.Calls[0], tr.Requests[0].Reply)
				}
				if n := countTag(tr, "hook:p")[0]; n != 0 {
					t.Errorf("before_planning fired in a direct call")
				}
			},
		},
		{
			name:   "no tools declared: direct call",
			hooks:  hookList{hk("u", skills.AfterUserInput, false)},
			sc:     scenario.Scenario{EnableTools: true, Requests: []scenario.Request{{User: "hi", Reply: "r"}}},
			tag:    "hook:u",
			copies: []int{1},
		},
		{
			name:   "planning says no tool: planning answer is the reply",
			hooks:  hookList{hk("p", skills.BeforePlanning, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{{User: "hi", Planning: &scenario.Planning{Content: "no tools"}}}},
			tag:    "hook:p",
			copies: []int{1},
			check: func(t *testing.T, tr *Trace) {
				if tr.Requests[0].Reply != "no tools" {
					t.Errorf("reply = %q", tr.Requests[0].Reply)
				}
			},
		},
		{
			name:   "after_user_input lives through every call of the request",
			hooks:  hookList{hk("u", skills.AfterUserInput, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b"))}},
			tag:    "hook:u",
			copies: []int{1, 1, 1, 1},
		},
		{
			name:   "before_planning: planning only",
			hooks:  hookList{hk("p", skills.BeforePlanning, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}},
			tag:    "hook:p",
			copies: []int{1, 0, 0},
		},
		{
			name:   "persistent before_planning is never removed",
			hooks:  hookList{hk("p", skills.BeforePlanning, true)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}},
			tag:    "hook:p",
			copies: []int{1, 1, 1},
		},
		{
			name:   "before_each_agent: exactly one copy per agent round",
			hooks:  hookList{hk("e", skills.BeforeEachAgent, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b"))}},
			tag:    "hook:e",
			copies: []int{0, 1, 1, 1},
		},
		{
			name:   "persistent before_each_agent piles up, one more each round",
			hooks:  hookList{hk("e", skills.BeforeEachAgent, true)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b")), {User: "again", Planning: &scenario.Planning{}}}},
			tag:    "hook:e",
			copies: []int{0, 1, 2, 3, 0},
			check: func(t *testing.T, tr *Trace) {
				if got := tr.Requests[0].Yielded; !slices.Equal(got, []string{"e", "e", "e"}) {
					t.Errorf("yielded = %v", got)
				}
				if n := countTag(tr, "h.hook:e")[4]; n != 3 {
					t.Errorf("history copies in request 2 = %d, want 3", n)
				}
			},
		},
		{
			name:   "before_first_agent: every round of the loop",
			hooks:  hookList{hk("f", skills.BeforeFirstAgent, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b"))}},
			tag:    "hook:f",
			copies: []int{0, 1, 1, 1},
		},
		{
			name:   "after_tool_call: next round only, replaced each round",
			hooks:  hookList{hk("t", skills.AfterToolCall, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b"))}},
			tag:    "hook:t",
			copies: []int{0, 0, 1, 1},
		},
		{
			name:   "after_tool_call once per tool call in one answer",
			hooks:  hookList{hk("t", skills.AfterToolCall, false)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a", "b", "a"))}},
			tag:    "hook:t",
			copies: []int{0, 0, 3},
			check: func(t *testing.T, tr *Trace) {
				want := []string{"user", "prompt:planning"}
				_ = want
				got := tr.CallTags(2)
				i := slices.Index(got, "assistant")
				if !slices.Equal(got[i:i+7], []string{"assistant", "tool:a", "tool:b", "tool:a", "hook:t", "hook:t", "hook:t"}) {
					t.Errorf("order after the assistant message: %v", got[i:])
				}
			},
		},
		{
			name:   "tool_filter matches only the listed tools",
			hooks:  hookList{hk("t", skills.AfterToolCall, false, "a")},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a", "b"), calls("b"))}},
			tag:    "hook:t",
			copies: []int{0, 0, 1, 0},
		},
		{
			name:   "persistent after_user_input is carried in history, duplicated",
			hooks:  hookList{hk("m", skills.AfterUserInput, true)},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{{User: "1", Planning: &scenario.Planning{}}, {User: "2", Planning: &scenario.Planning{}}}},
			tag:    "h.hook:m",
			copies: []int{0, 1},
			check: func(t *testing.T, tr *Trace) {
				if got := countTag(tr, "hook:m"); !slices.Equal(got, []int{1, 1}) {
					t.Errorf("fresh copies = %v", got)
				}
			},
		},
		{
			name:  "skill switched off: no inject, history copies stay",
			hooks: hookList{hk("m", skills.AfterUserInput, true)},
			sc: scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{
				{User: "1", Planning: &scenario.Planning{}}, {User: "2", EnabledSkills: []string{}, Planning: &scenario.Planning{}},
			}},
			tag:    "hook:m",
			copies: []int{1, 0},
			check: func(t *testing.T, tr *Trace) {
				if got := countTag(tr, "h.hook:m"); !slices.Equal(got, []int{0, 1}) {
					t.Errorf("history copies = %v", got)
				}
				if len(tr.Requests[1].Yielded) != 0 {
					t.Errorf("request 2 yielded %v", tr.Requests[1].Yielded)
				}
			},
		},
		{
			name:   "scenario enabled_skills empty: no hooks at all",
			hooks:  hookList{hk("u", skills.AfterUserInput, false)},
			sc:     scenario.Scenario{EnableTools: true, EnabledSkills: []string{}, Tools: tools, Requests: []scenario.Request{{User: "1", Planning: &scenario.Planning{}}}},
			tag:    "hook:u",
			copies: []int{0},
		},
		{
			name:  "prompt overrides and step prompts",
			hooks: hookList{},
			sc: scenario.Scenario{EnableTools: true, Tools: tools, Prompts: scenario.Prompts{FirstStep: "FIRST"},
				Requests: []scenario.Request{loop(calls("a"))}},
			tag:    "prompt:first_step",
			copies: []int{0, 1, 0},
			check: func(t *testing.T, tr *Trace) {
				msgs := tr.CallMessages(1)
				if last := msgs[len(msgs)-1]; last.Content != "FIRST" {
					t.Errorf("first_step prompt = %q", last.Content)
				}
				if got := countTag(tr, "prompt:agent_loop"); !slices.Equal(got, []int{0, 0, 1}) {
					t.Errorf("agent_loop prompt copies = %v", got)
				}
			},
		},
		{
			name:   "script runs out: the mock-style default ends the loop",
			hooks:  hookList{},
			sc:     scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{{User: "u", Planning: &scenario.Planning{NeedTool: true}, Rounds: []scenario.Round{calls("a")}}}},
			tag:    "tool:a",
			copies: []int{0, 0, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := tt.sc
			sc.SystemPrompt = "sys"
			tr, err := Run(context.Background(), &sc, tt.hooks, Config{Model: script{&sc}})
			if err != nil {
				t.Fatal(err)
			}
			if got := countTag(tr, tt.tag); !slices.Equal(got, tt.copies) {
				t.Errorf("copies of %s per call = %v, want %v", tt.tag, got, tt.copies)
			}
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}
}

// TestLoopEndCleansUp: after the loop, before_first_agent and
// after_tool_call are gone; after_user_input stays until the request ends.
func TestLoopEndCleansUp(t *testing.T) {
	hooks := hookList{hk("u", skills.AfterUserInput, false), hk("f", skills.BeforeFirstAgent, false), hk("t", skills.AfterToolCall, false), hk("e", skills.BeforeEachAgent, false)}
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}}
	tr, err := Run(context.Background(), &sc, hooks, Config{Model: script{&sc}})
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, m := range tr.MessagesAt(tr.NumSteps() - 1) {
		tags = append(tags, m.Tag())
	}
	// before_each_agent is only removed at the start of a round, so the last
	// round's copy is still in the list when the request ends.
	want := []string{"user", "hook:u", "assistant", "tool:a", "hook:e"}
	if !slices.Equal(tags, want) {
		t.Errorf("final list = %v, want %v", tags, want)
	}
	var kinds []string
	for _, s := range tr.Steps()[len(tr.Steps())-4:] {
		kinds = append(kinds, string(s.Kind)+":"+s.Timing)
	}
	if !slices.Equal(kinds, []string{"remove_prompt:", "remove:before_first_agent", "remove:after_tool_call", "reply:"}) {
		t.Errorf("last steps = %v", kinds)
	}
}

type failing struct {
	script
	at  int
	err error
}

func (f *failing) Complete(ctx context.Context, c Call) (Reply, error) {
	if f.at--; f.at < 0 {
		return Reply{}, f.err
	}
	return f.script.Complete(ctx, c)
}

type forever struct{}

func (forever) Complete(context.Context, Call) (Reply, error) {
	return Reply{NeedTool: true, ToolCalls: []ToolCall{{Name: "a", Result: "again"}}}, nil
}

func TestRunEndings(t *testing.T) {
	sc := scenario.Scenario{Name: "x", EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"), calls("b"))}}
	boom := errors.New("boom")
	tests := []struct {
		name   string
		ctx    func() context.Context
		model  Model
		max    int
		status Status
		errIs  error
		calls  int
	}{
		{"model error keeps the steps so far", context.Background, &failing{script: script{&sc}, at: 2, err: boom}, 0, StatusError, boom, 3},
		{"cancelled", func() context.Context { c, cancel := context.WithCancel(context.Background()); cancel(); return c }, script{&sc}, 0, StatusCancelled, context.Canceled, 1},
		{"runaway loop stops at max rounds", context.Background, forever{}, 5, StatusMaxRounds, ErrMaxRounds, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Run(tt.ctx(), &sc, hookList{}, Config{Model: tt.model, MaxRounds: tt.max})
			if !errors.Is(err, tt.errIs) {
				t.Fatalf("err = %v, want %v", err, tt.errIs)
			}
			if tr.Status != tt.status || len(tr.Calls) != tt.calls {
				t.Errorf("status %s with %d calls, want %s with %d", tr.Status, len(tr.Calls), tt.status, tt.calls)
			}
			if tr.Error == "" || len(tr.Requests) != 1 {
				t.Errorf("error %q, requests %d", tr.Error, len(tr.Requests))
			}
		})
	}
}

type toolRunner struct{}

func (toolRunner) RunTool(_ context.Context, _ Call, tc ToolCall) (string, error) {
	if tc.Name == "b" {
		return "", errors.New("disk full")
	}
	return strings.ToUpper(tc.Name), nil
}

func TestToolRunnerResultsAndErrors(t *testing.T) {
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a", "b"))}}
	tr, err := Run(context.Background(), &sc, hookList{}, Config{Model: script{&sc}, Tools: toolRunner{}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.CallMessages(2)
	var got []string
	for _, m := range msgs {
		if m.Origin == OriginTool {
			got = append(got, m.Content)
		}
	}
	if !slices.Equal(got, []string{"A", "error: disk full"}) {
		t.Errorf("tool results = %v", got)
	}
	if tc := tr.Calls[1].ToolCalls; len(tc) != 2 || tc[1].Error != "disk full" || tc[0].ID == "" {
		t.Errorf("recorded tool calls = %+v", tc)
	}
}

// TestStepsDescribeTheFlow pins the step sequence of one agent round.
func TestStepsDescribeTheFlow(t *testing.T) {
	hooks := hookList{hk("e", skills.BeforeEachAgent, false), hk("t", skills.AfterToolCall, true)}
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}}
	tr, err := Run(context.Background(), &sc, hooks, Config{Model: script{&sc}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range tr.Steps() {
		if s.Round != nil && *s.Round == 0 {
			got = append(got, string(s.Kind)+":"+s.Timing+s.Tool+string(s.Prompt))
		}
	}
	want := []string{
		"remove:before_each_agent", "inject:before_each_agent", "inject:before_first_agent", "inject_prompt:first_step",
		"llm_call:", "append:", "tool_call:a", "remove:after_tool_call", "inject:after_tool_calla", "yield:after_tool_call", "remove_prompt:first_step",
	}
	if !slices.Equal(got, want) {
		t.Errorf("round 0 steps:\n got %v\nwant %v", got, want)
	}
	for _, s := range tr.Steps() {
		if s.Kind == StepYield && (s.Yield == nil || len(s.Hooks) != 1 || s.Hooks[0] != "s/t") {
			t.Errorf("yield step = %+v", s)
		}
	}
}

type streaming struct{ script }

func (s streaming) Complete(ctx context.Context, c Call) (Reply, error) {
	c.Stream("part ")
	return s.script.Complete(ctx, c)
}

func TestCallHooks(t *testing.T) {
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}}
	var before, afterCalls []int
	var streamed []string
	var sawMessages int
	tr, err := Run(context.Background(), &sc, hookList{}, Config{
		Model: streaming{script{&sc}},
		BeforeCall: func(_ context.Context, tr *Trace, c int) error {
			before = append(before, c)
			sawMessages = len(tr.CallMessages(c))
			return nil
		},
		AfterCall: func(_ *Trace, c int) { afterCalls = append(afterCalls, c) },
		OnStream:  func(c int, s string) { streamed = append(streamed, s) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(before, []int{0, 1, 2}) || !slices.Equal(afterCalls, before) || len(streamed) != 3 || sawMessages == 0 {
		t.Errorf("before %v after %v streamed %v", before, afterCalls, streamed)
	}
	stop := errors.New("cancelled by the user")
	tr, err = Run(context.Background(), &sc, hookList{}, Config{Model: script{&sc},
		BeforeCall: func(_ context.Context, _ *Trace, c int) error {
			if c == 1 {
				return stop
			}
			return nil
		}})
	if !errors.Is(err, stop) || len(tr.Calls) != 2 || tr.Calls[1].Error == "" || tr.Status != StatusError {
		t.Errorf("cancel before call 1: err %v, %d calls, status %s", err, len(tr.Calls), tr.Status)
	}
}

// TestRequestListedWhileRunning: a run paused before a call already lists
// the request in progress, with its steps so far.
func TestRequestListedWhileRunning(t *testing.T) {
	sc := scenario.Scenario{EnableTools: true, Tools: tools, Requests: []scenario.Request{loop(calls("a"))}}
	checked := false
	_, err := Run(context.Background(), &sc, hookList{}, Config{Model: script{&sc},
		BeforeCall: func(_ context.Context, tr *Trace, c int) error {
			if c == 1 {
				r := tr.Requests
				checked = len(r) == 1 && r[0].LastStep == tr.Calls[1].Step && slices.Equal(r[0].Calls, []int{0, 1})
			}
			return nil
		}})
	if err != nil || !checked {
		t.Errorf("request not listed while running (err %v)", err)
	}
}
