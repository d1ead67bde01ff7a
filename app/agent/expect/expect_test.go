package expect

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

// base: two requests; the first plans, reads and writes, then answers; the
// second answers from planning. Its calls:
//
//	#1 request 1 planning
//	#2 request 1 agent round 0   (calls read_file and write_file)
//	#3 request 1 agent round 1   system, user, hook:memory, assistant, tool:read_file,
//	                             tool:write_file, hook:hint, hook:step, prompt:agent_loop
//	#4 request 2 planning        sees memory twice (history + fresh)
const base = `name: t
system_prompt: sys
tools: [{name: read_file}, {name: write_file}]
requests:
  - user: first question
    planning: {need_tool: true, content: plan}
    rounds:
      - tool_calls: [{name: read_file, result: data}, {name: write_file, result: written}]
      - content: done
  - user: second
    planning: {need_tool: false, content: fine}
`

var testHooks = hookList{
	{Skill: "s", Name: "memory", Timing: skills.AfterUserInput, Role: skills.System, Persistent: true, Content: "remember the user"},
	{Skill: "s", Name: "plan", Timing: skills.BeforePlanning, Role: skills.System, Content: "plan first"},
	{Skill: "s", Name: "step", Timing: skills.BeforeEachAgent, Role: skills.User, Content: "check the step"},
	{Skill: "s", Name: "hint", Timing: skills.AfterToolCall, Role: skills.System, ToolFilter: []string{"read_file"}, Content: "output may be cut"},
}

type hookList []skills.Hook

func (h hookList) Hooks(enabled []string) []skills.Hook { return h }

// words is a deterministic token counter: one token per word plus framing.
type words struct{}

func (words) CountMessage(role, content string) int { return 3 + 1 + len(strings.Fields(content)) }

// guard is an executable hook system: it denies write_file, and a slow
// hook times out after every LLM call. abort ends the run at stop.
type guard struct{ abort, retry bool }

func (g guard) Handle(_ context.Context, ev *engine.Event) error {
	switch ev.Point {
	case engine.PointBeforeTool:
		if ev.Tool.Name == "write_file" {
			ev.Apply(engine.HookCall{System: "command", Event: "PreToolUse", Hook: "guard", Outcome: engine.OutcomeOK},
				engine.Effect{Action: engine.ActionDeny, Reason: "no writes"})
		}
	case engine.PointAfterLLM:
		ev.Record(engine.HookCall{System: "process", Event: "hook.after_llm", Hook: "slow", Outcome: engine.OutcomeTimeout})
	case engine.PointSessionEnd:
		ev.Record(engine.HookCall{System: "process", Event: "process.exit", Hook: "slow", Outcome: engine.OutcomeOK})
	case engine.PointStop:
		if g.retry && ev.Answer == "done" {
			ev.Apply(engine.HookCall{System: "command", Event: "Stop", Hook: "asker", Outcome: engine.OutcomeOK},
				engine.Effect{RetryFeedback: "add a summary"})
		}
		if g.abort {
			ev.Apply(engine.HookCall{System: "command", Event: "Stop", Hook: "killer", Outcome: engine.OutcomeOK},
				engine.Effect{Action: engine.ActionHardAbort, Reason: "enough"})
		}
	}
	return nil
}

// failing makes every read_file call fail.
type failing struct{}

func (failing) RunTool(_ context.Context, _ engine.Call, tc engine.ToolCall) (string, error) {
	if tc.Name == "read_file" {
		return "", errors.New("permission denied")
	}
	return tc.Result, nil
}

func run(t *testing.T, variant, expect string) []Result {
	t.Helper()
	sc, ds := scenario.Parse("s/scenarios/t.yaml", []byte(base+"expect:\n"+expect))
	if len(ds) > 0 {
		t.Fatalf("scenario diagnostics: %v", ds)
	}
	cfg := engine.Config{Model: llm.NewMock(sc)}
	switch variant {
	case "guarded":
		cfg.Handlers = []engine.Handler{guard{}}
	case "aborted":
		cfg.Handlers = []engine.Handler{guard{abort: true}}
	case "retried":
		cfg.Handlers = []engine.Handler{guard{retry: true}}
	case "failing":
		cfg.Tools = failing{}
	}
	tr, err := engine.Run(context.Background(), sc, testHooks, cfg)
	if err != nil && !errors.Is(err, engine.ErrAborted) {
		t.Fatalf("run: %v", err)
	}
	return Evaluate(sc, tr, words{})
}

// outcome is what a test pins about a result: its meaning, not its words.
type outcome struct {
	Kind string
	Call int // 0-based, -1 when the result is not about one call
	Pass bool
	Got  []string
}

func outcomes(rs []Result) []outcome {
	out := []outcome{}
	for _, r := range rs {
		c := -1
		if r.Call != nil {
			c = *r.Call
		}
		got := r.Got
		if got == nil {
			got = []string{}
		}
		out = append(out, outcome{r.Kind, c, r.Pass, got})
	}
	return out
}

func TestEvaluate(t *testing.T) {
	tests := []struct {
		name    string
		variant string
		expect  string
		want    []outcome
	}{
		{"sees copies pass", "", "  - {call: 4, sees: {hook: memory, copies: 2}}\n",
			[]outcome{{"sees", 3, true, []string{"memory ×2"}}}},
		{"sees copies fail", "", "  - {call: 4, sees: {hook: memory, copies: 1}}\n",
			[]outcome{{"sees", 3, false, []string{"memory ×2"}}}},
		{"sees by skill/name", "", "  - {call: 1, sees: s/plan}\n",
			[]outcome{{"sees", 0, true, []string{"s/plan ×1"}}}},
		{"sees wrong skill fails", "", "  - {call: 1, sees: other/plan}\n",
			[]outcome{{"sees", 0, false, []string{"other/plan ×0"}}}},
		{"sees every call of the run", "", "  - sees: memory\n",
			[]outcome{{"sees", 0, true, []string{"memory ×1"}}, {"sees", 1, true, []string{"memory ×1"}}, {"sees", 2, true, []string{"memory ×1"}}, {"sees", 3, true, []string{"memory ×2"}}}},
		{"not_sees pass", "", "  - {phase: planning, not_sees: step}\n",
			[]outcome{{"not_sees", 0, true, []string{"step ×0"}}, {"not_sees", 3, true, []string{"step ×0"}}}},
		{"not_sees fail", "", "  - {call: 3, not_sees: hint}\n",
			[]outcome{{"not_sees", 2, false, []string{"hint ×1"}}}},
		{"sees_message pass", "", "  - {call: 1, sees_message: {matches: '^first', role: user}}\n",
			[]outcome{{"sees_message", 0, true, []string{"#2 user"}}}},
		{"sees_message fail", "", "  - {call: 1, sees_message: {contains: question, role: system}}\n",
			[]outcome{{"sees_message", 0, false, []string{}}}},
		{"sees_message count 0 pass", "", "  - {call: 1, sees_message: {contains: nowhere, count: 0}}\n",
			[]outcome{{"sees_message", 0, true, []string{}}}},
		{"order pass", "", "  - {call: 3, order: {hook: step, before: prompt:agent_loop, after: [tool, hook:hint]}}\n",
			[]outcome{{"order", 2, true, []string{"#8 hook:step"}}}},
		{"order fail", "", "  - {call: 3, order: {hook: hint, after: hook:step}}\n",
			[]outcome{{"order", 2, false, []string{"#7 hook:hint", "#8 hook:step"}}}},
		{"order without the tag fails", "", "  - {call: 1, order: {hook: plan, before: tool}}\n",
			[]outcome{{"order", 0, false, []string{"#4 hook:plan"}}}},
		{"max_prompt_tokens pass", "", "  - {call: 1, max_prompt_tokens: 100}\n",
			[]outcome{{"max_prompt_tokens", 0, true, []string{"tokens = 59"}}}},
		{"max_prompt_tokens fail", "", "  - {call: 1, max_prompt_tokens: 58}\n",
			[]outcome{{"max_prompt_tokens", 0, false, []string{"tokens = 59"}}}},
		{"yields pass", "", "  - {request: 1, yields: [memory]}\n",
			[]outcome{{"yields", -1, true, []string{"memory"}}}},
		{"yields fail", "", "  - {request: 2, yields: [memory, plan]}\n",
			[]outcome{{"yields", -1, false, []string{"memory"}}}},
		{"yields by skill/name", "", "  - {request: 2, yields: [s/memory]}\n",
			[]outcome{{"yields", -1, true, []string{"s/memory"}}}},
		{"reply of a request pass", "", "  - {request: 1, reply: done}\n",
			[]outcome{{"reply", -1, true, []string{"done"}}}},
		{"reply of a request fail", "", "  - {request: 2, reply: {equals: nope}}\n",
			[]outcome{{"reply", -1, false, []string{"fine"}}}},
		{"answer of a call", "", "  - {call: 1, reply: {matches: '^pl'}}\n",
			[]outcome{{"reply", 0, true, []string{"plan"}}}},
		{"tool ran pass", "", "  - {request: 1, tool: {name: read_file, status: ran}}\n",
			[]outcome{{"tool", -1, true, []string{"read_file: ran", "write_file: ran"}}}},
		{"tool denied fails without the guard", "", "  - {tool: {name: write_file, status: denied}}\n",
			[]outcome{{"tool", -1, false, []string{"read_file: ran", "write_file: ran"}}}},
		{"tool denied passes with the guard", "guarded", "  - {call: 2, tool: {name: write_file, status: denied}}\n",
			[]outcome{{"tool", 1, true, []string{"read_file: ran", "write_file: denied by guard"}}}},
		{"tool error", "failing", "  - {request: 1, tool: {name: read_file, status: error, count: 1}}\n",
			[]outcome{{"tool", -1, true, []string{"read_file: error", "write_file: ran"}}}},
		{"tool none here", "", "  - {request: 2, tool: {status: ran}}\n",
			[]outcome{{"tool", -1, false, []string{"no tool call"}}}},
		{"hook outcome pass", "guarded", "  - {call: 1, hook_outcome: {hook: slow, outcome: timeout}}\n",
			[]outcome{{"hook_outcome", 0, true, []string{"slow at hook.after_llm: timeout"}}}},
		{"hook outcome fail", "guarded", "  - {request: 1, hook_outcome: {hook: guard, outcome: ok}}\n",
			[]outcome{{"hook_outcome", -1, false, []string{"guard at PreToolUse: denied"}}}},
		{"hook outcome of a hook that never ran", "", "  - {hook_outcome: {hook: guard, outcome: denied}}\n",
			[]outcome{{"hook_outcome", -1, false, []string{"hook guard never ran here"}}}},
		{"event pass", "guarded", "  - {event: {name: PreToolUse, hook: guard, count: 1}}\n",
			[]outcome{{"event", -1, true, []string{"PreToolUse (before_tool) → guard"}}}},
		{"event by point", "guarded", "  - {request: 2, event: after_llm}\n",
			[]outcome{{"event", -1, true, []string{"hook.after_llm (after_llm) → slow"}}}},
		{"event fail", "", "  - {event: PreToolUse}\n",
			[]outcome{{"event", -1, false, []string{"never fired"}}}},
		{"an invocation spanning steps counts once", "retried", "  - {request: 1, hook_outcome: {hook: asker, outcome: modified, count: 1}}\n",
			[]outcome{{"hook_outcome", -1, true, []string{"asker at Stop: modified"}}}},
		{"a reply followed by hook calls", "guarded", "  - {request: 2, reply: fine}\n",
			[]outcome{{"reply", -1, true, []string{"fine"}}}},
		{"status of a request", "", "  - {request: 2, status: ok}\n",
			[]outcome{{"status", -1, true, []string{"ok"}}}},
		{"status of the request a hook aborted", "aborted", "  - {request: 1, status: ok}\n  - status: stopped\n",
			[]outcome{{"status", -1, false, []string{"stopped"}}, {"status", -1, true, []string{"stopped"}}}},
		{"status pass", "", "  - {status: ok}\n",
			[]outcome{{"status", -1, true, []string{"ok"}}}},
		{"status fail", "", "  - {status: stopped}\n",
			[]outcome{{"status", -1, false, []string{"ok"}}}},
		{"status stopped", "aborted", "  - {status: stopped}\n",
			[]outcome{{"status", -1, true, []string{"stopped"}}}},
		{"reply of a request the run never finished", "aborted", "  - {request: 2, yields: []}\n",
			[]outcome{{"yields", -1, false, []string{}}, {"status", -1, false, []string{"stopped"}}}},
		{"a run that did not end well fails unless its status is stated", "aborted", "  - {request: 1, yields: [memory]}\n",
			[]outcome{{"yields", -1, true, []string{"memory"}}, {"status", -1, false, []string{"stopped"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := run(t, tt.variant, tt.expect)
			if got := outcomes(rs); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("results\n%+v\nwant\n%+v", got, tt.want)
				for _, r := range rs {
					t.Logf("%s: expected %s; actual %s", r.Title, r.Expected, r.Actual)
				}
			}
			for _, r := range rs {
				if r.Line == 0 || r.Column == 0 || r.File == "" || r.Path == "" || r.Title == "" || r.Expected == "" || r.Actual == "" {
					t.Errorf("result without position or text: %+v", r)
				}
				if !r.Pass && r.Call != nil && len(r.Messages) == 0 {
					t.Errorf("failed call result without the call's messages: %+v", r)
				}
			}
		})
	}
}

// TestNothingAddressedNeverPasses: an expectation about a call, request or
// round that does not exist is a failure, whatever it asserts.
func TestNothingAddressedNeverPasses(t *testing.T) {
	for _, expect := range []string{
		"  - {call: 9, not_sees: memory}\n",
		"  - {request: 1, round: 5, not_sees: memory}\n",
		"  - {phase: direct, max_prompt_tokens: 100000}\n",
		"  - {request: 2, phase: agent, sees_message: {contains: x, count: 0}}\n",
		"  - {request: 2, round: 0, tool: {status: ran, count: 0}}\n",
		"  - {call: 7, reply: {matches: '.*'}}\n",
		"  - {call: 8, event: {name: x, count: 0}}\n",
	} {
		rs := run(t, "", expect)
		if len(rs) != 1 || rs[0].Pass || rs[0].Call != nil {
			t.Errorf("%s: %+v, want one failure about no call", strings.TrimSpace(expect), outcomes(rs))
		}
	}
	// Expectations written under a call that never happens fail too.
	sc, ds := scenario.Parse("t.yaml", []byte(strings.Replace(base, "planning: {need_tool: false, content: fine}",
		"planning: {need_tool: false, content: fine}\n    rounds: [{content: never, expect: [{not_sees: memory}]}]", 1)))
	if slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }) {
		t.Fatalf("diagnostics %v", ds)
	}
	tr, _ := engine.Run(context.Background(), sc, testHooks, engine.Config{Model: llm.NewMock(sc)})
	rs := Evaluate(sc, tr, words{})
	if len(rs) != 1 || rs[0].Pass {
		t.Errorf("expectation under a round that never plays: %+v", outcomes(rs))
	}
}

func TestCounts(t *testing.T) {
	rs := run(t, "", "  - {status: ok}\n  - {status: error}\n  - sees: memory\n")
	if p, f := Counts(rs); p != 5 || f != 1 {
		t.Errorf("counts %d passed, %d failed; want 5, 1", p, f)
	}
}
