package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

// fakeHook is a hook system whose single hook answers each point with a
// scripted effect.
type fakeHook struct {
	name    string
	effects map[Point]func(ev *Event) Effect
	seen    *[]string // "name@point", in firing order
}

func (f fakeHook) Handle(_ context.Context, ev *Event) error {
	if f.seen != nil {
		*f.seen = append(*f.seen, f.name+"@"+string(ev.Point))
	}
	fn, ok := f.effects[ev.Point]
	if !ok || ev.Stopped() {
		return nil
	}
	ev.Apply(HookCall{System: "command", Event: string(ev.Point), Hook: f.name, Outcome: OutcomeOK}, fn(ev))
	return nil
}

// scriptWithErrors is the test model, with scripted tool failures.
type scriptWithErrors struct{ sc *scenario.Scenario }

func (s scriptWithErrors) Complete(ctx context.Context, c Call) (Reply, error) {
	req := s.sc.Requests[c.Request]
	if c.Phase == PhaseAgent && c.Round < len(req.Rounds) {
		r := Reply{Content: req.Rounds[c.Round].Content}
		for _, tc := range req.Rounds[c.Round].ToolCalls {
			r.ToolCalls = append(r.ToolCalls, ToolCall{Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result, Error: tc.Error})
		}
		return r, nil
	}
	return script{s.sc}.Complete(ctx, c)
}

func str(s string) *string { return &s }

func hookedRun(t *testing.T, sc *scenario.Scenario, hooks hookList, hs ...Handler) *Trace {
	t.Helper()
	tr, err := Run(context.Background(), sc, hooks, Config{Model: scriptWithErrors{sc}, Handlers: hs})
	if err != nil && !errors.Is(err, ErrAborted) {
		t.Fatalf("run: %v", err)
	}
	return tr
}

func toolScenario(reqs ...scenario.Request) *scenario.Scenario {
	return &scenario.Scenario{SystemPrompt: "sys", EnableTools: true, Tools: tools, Requests: reqs}
}

// contents is the call's list as role:content strings.
func contents(tr *Trace, c int) []string {
	var out []string
	for _, m := range tr.CallMessages(c) {
		out = append(out, m.Role+":"+m.Content)
	}
	return out
}

func TestNoHandlersNoHookSteps(t *testing.T) {
	sc := toolScenario(loop(calls("a")))
	plain := hookedRun(t, sc, hookList{hk("x", skills.BeforeEachAgent, false)})
	idle := hookedRun(t, sc, hookList{hk("x", skills.BeforeEachAgent, false)}, fakeHook{name: "idle"})
	if !reflect.DeepEqual(plain.Steps(), idle.Steps()) {
		t.Errorf("a handler that does nothing changed the steps")
	}
	for c := range plain.Calls {
		if !slices.Equal(contents(plain, c), contents(idle, c)) {
			t.Errorf("call %d differs", c)
		}
	}
}

func TestBeforeLLMChangesApplyToThatCallOnly(t *testing.T) {
	sc := toolScenario(loop(calls("a")))
	h := fakeHook{name: "rewrite", effects: map[Point]func(*Event) Effect{
		PointBeforeLLM: func(ev *Event) Effect {
			if ev.Call != 1 {
				return Effect{}
			}
			return Effect{SystemPrompt: str("new sys"), AppendSystem: "branch: main", Inject: []NewMessage{{Role: "user", Content: "injected"}}}
		},
	}}
	tr := hookedRun(t, sc, hookList{hk("x", skills.BeforeEachAgent, false)}, h)
	plain := hookedRun(t, sc, hookList{hk("x", skills.BeforeEachAgent, false)})
	got := contents(tr, 1)
	if got[0] != "system:new sys\n\nbranch: main" || got[len(got)-1] != "user:injected" {
		t.Errorf("call 1 = %q", got)
	}
	if len(got) != len(contents(plain, 1))+1 {
		t.Errorf("call 1 has %d messages, want the plain %d + 1", len(got), len(contents(plain, 1)))
	}
	for _, c := range []int{0, 2} {
		if !slices.Equal(contents(tr, c), contents(plain, c)) {
			t.Errorf("call %d saw call 1's changes:\n%q\nwant\n%q", c, contents(tr, c), contents(plain, c))
		}
	}
	// The restore step brings back exactly the list before the hook ran.
	var hookStep, restore = -1, -1
	for i, s := range tr.Steps() {
		if s.Kind == StepHookCall && hookStep < 0 && s.HookCall.Point == PointBeforeLLM && len(s.Added) > 0 {
			hookStep = i
		}
		if s.Kind == StepRestore {
			restore = i
		}
	}
	if hookStep < 0 || restore < 0 {
		t.Fatalf("no hook step (%d) or restore step (%d)", hookStep, restore)
	}
	if !slices.Equal(tr.MessageIDsAt(hookStep-1), tr.MessageIDsAt(restore)) {
		t.Errorf("after restore %v, before the hook %v", tr.MessageIDsAt(restore), tr.MessageIDsAt(hookStep-1))
	}
	if m := tr.Message(tr.MessageIDsAt(tr.Calls[1].Step)[0]); m.EditedBy != "rewrite" || m.System != "command" {
		t.Errorf("rewritten system prompt = %+v, want edited by rewrite", m)
	}
}

func TestMessagesReplacementKeepsIdentity(t *testing.T) {
	sc := toolScenario(loop())
	h := fakeHook{name: "swap", effects: map[Point]func(*Event) Effect{
		PointBeforeLLM: func(ev *Event) Effect {
			var want []NewMessage
			for _, m := range ev.Messages() {
				if m.Origin == OriginUserInput {
					want = append(want, NewMessage{Role: "user", Content: "before user"})
				}
				want = append(want, NewMessage{Role: m.Role, Content: m.Content})
			}
			return Effect{Messages: want[1:]} // drop the system prompt, insert one
		},
	}}
	tr := hookedRun(t, sc, nil, h)
	got := contents(tr, 0)
	if got[0] != "user:before user" || got[1] != "user:u" {
		t.Errorf("call 0 = %q", got)
	}
	var s Step
	for _, st := range tr.Steps() {
		if st.Kind == StepHookCall {
			s = st
			break
		}
	}
	if len(s.Added) != 1 || len(s.Removed) != 1 {
		t.Errorf("the replacement added %v and removed %v; want one each (identity kept for the rest)", s.Added, s.Removed)
	}
}

func TestToolEffects(t *testing.T) {
	args := map[string]any{"cmd": "rm -rf /"}
	round := scenario.Round{ToolCalls: []scenario.ToolCall{
		{Name: "a", Arguments: args, Result: "deleted"},
		{Name: "b", Result: "b result"},
		{Name: "a", Arguments: map[string]any{"cmd": "ls"}, Error: "permission denied"},
	}}
	sc := toolScenario(loop(round))
	h := fakeHook{name: "guard", effects: map[Point]func(*Event) Effect{
		PointBeforeTool: func(ev *Event) Effect {
			switch {
			case ev.Tool.Arguments["cmd"] == "rm -rf /":
				return Effect{Action: ActionSkip, Reason: "dangerous command"}
			case ev.Tool.Name == "b":
				return Effect{ToolArguments: map[string]any{"x": 1.0}}
			}
			return Effect{}
		},
		PointAfterTool: func(ev *Event) Effect {
			if ev.Tool.Error != "" {
				return Effect{ToolError: str("permission denied: try sudo"), ToolResult: str("ignored")}
			}
			return Effect{ToolResult: str(strings.ToUpper(ev.Tool.Result))}
		},
	}}
	tr := hookedRun(t, sc, nil, h)
	tcs := tr.Calls[1].ToolCalls
	if tcs[0].Status != ToolSkipped || tcs[0].Result != "dangerous command" || tcs[0].By != "guard" {
		t.Errorf("skipped call = %+v", tcs[0])
	}
	if tcs[1].Arguments["x"] != 1.0 || tcs[1].OriginalArguments == nil || tcs[1].Result != "B RESULT" {
		t.Errorf("rewritten call = %+v", tcs[1])
	}
	got := contents(tr, 2)
	want := []string{"tool:dangerous command", "tool:B RESULT", "tool:permission denied: try sudo"}
	var tools []string
	for _, c := range got {
		if strings.HasPrefix(c, "tool:") {
			tools = append(tools, c)
		}
	}
	if !slices.Equal(tools, want) {
		t.Errorf("tool messages = %q, want %q (in call order, rewritten in place)", tools, want)
	}
	var warned bool
	for _, hc := range tr.HookCalls {
		warned = warned || len(hc.Warnings) > 0
		if hc.Point == PointAfterTool && hc.Outcome != OutcomeModified {
			t.Errorf("after_tool outcome = %s, want modified", hc.Outcome)
		}
	}
	if !warned {
		t.Errorf("tool_result after a failed tool gave no warning")
	}
	for _, hc := range tr.HookCalls {
		if hc.Point == PointAfterTool && hc.Hook == "guard" && strings.Contains(string(hc.Input), "rm") {
			t.Errorf("after_tool fired for a skipped tool")
		}
	}
}

type countingTools struct{ n *int }

func (c countingTools) RunTool(_ context.Context, _ Call, tc ToolCall) (string, error) {
	*c.n++
	return tc.Name + " ran", nil
}

func TestRespondAndApprovalDenial(t *testing.T) {
	sc := toolScenario(loop(calls("a", "b")))
	h := fakeHook{name: "plugin", effects: map[Point]func(*Event) Effect{
		PointBeforeTool: func(ev *Event) Effect {
			if ev.Tool.Name == "a" {
				return Effect{Respond: str("answered by the plugin")}
			}
			return Effect{}
		},
		PointApproveTool: func(ev *Event) Effect {
			return Effect{Approved: new(bool), Reason: "not approved: " + ev.Tool.Name}
		},
	}}
	n := 0
	tr, err := Run(context.Background(), sc, nil, Config{Model: scriptWithErrors{sc}, Tools: countingTools{&n}, Handlers: []Handler{h}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("the tool ran %d times; a responded and a denied call must not run", n)
	}
	tcs := tr.Calls[1].ToolCalls
	if tcs[0].Status != ToolResponded || tcs[0].Result != "answered by the plugin" {
		t.Errorf("responded call = %+v", tcs[0])
	}
	if tcs[1].Status != ToolDenied || tcs[1].Result != "not approved: b" {
		t.Errorf("denied call = %+v", tcs[1])
	}
}

func TestStopAbortAndRetry(t *testing.T) {
	two := toolScenario(loop(calls("a")), loop())
	t.Run("stop ends the request, the run goes on", func(t *testing.T) {
		h := fakeHook{name: "stopper", effects: map[Point]func(*Event) Effect{
			PointBeforeLLM: func(ev *Event) Effect {
				if ev.Request == 0 && ev.Phase == PhaseAgent {
					return Effect{Action: ActionStop, Reason: "enough"}
				}
				return Effect{}
			},
		}}
		tr := hookedRun(t, two, nil, h)
		if tr.Status != StatusOK || tr.Requests[0].Status != "stopped" || tr.Requests[0].StoppedBy != "command hook stopper" {
			t.Fatalf("status %s, request 0 = %+v", tr.Status, tr.Requests[0])
		}
		if len(tr.Requests) != 2 || tr.Requests[1].Reply == "" {
			t.Errorf("request 1 did not run: %+v", tr.Requests)
		}
		if c := contents(tr, tr.Requests[1].Calls[0]); !slices.Contains(c, "user:u") {
			t.Errorf("the stopped request's user message is not in the next request's history: %q", c)
		}
	})
	t.Run("hard abort ends the run", func(t *testing.T) {
		h := fakeHook{name: "killer", effects: map[Point]func(*Event) Effect{
			PointBeforeTool: func(*Event) Effect { return Effect{Action: ActionHardAbort} },
		}}
		tr, err := Run(context.Background(), two, nil, Config{Model: scriptWithErrors{two}, Handlers: []Handler{h}})
		if !errors.Is(err, ErrAborted) || tr.Status != StatusStopped || len(tr.Requests) != 1 {
			t.Errorf("err %v, status %s, %d requests", err, tr.Status, len(tr.Requests))
		}
	})
	t.Run("retry_feedback at stop sends the round again", func(t *testing.T) {
		sc := toolScenario(loop(scenario.Round{Content: "short answer"}, scenario.Round{Content: "Summary: done"}))
		h := fakeHook{name: "summary", effects: map[Point]func(*Event) Effect{
			PointStop: func(ev *Event) Effect {
				if !strings.HasPrefix(ev.Answer, "Summary:") {
					return Effect{RetryFeedback: "Please end with a summary."}
				}
				return Effect{}
			},
		}}
		tr := hookedRun(t, sc, nil, h)
		if tr.Requests[0].Reply != "Summary: done" {
			t.Errorf("reply = %q", tr.Requests[0].Reply)
		}
		last := contents(tr, len(tr.Calls)-1)
		if !slices.Contains(last, "user:Please end with a summary.") {
			t.Errorf("the retried call does not see the feedback: %q", last)
		}
	})
	t.Run("retry_feedback is bounded", func(t *testing.T) {
		sc := toolScenario(loop())
		h := fakeHook{name: "never-happy", effects: map[Point]func(*Event) Effect{
			PointStop: func(*Event) Effect { return Effect{RetryFeedback: "again"} },
		}}
		tr := hookedRun(t, sc, nil, h)
		if got := len(tr.Calls); got != 2+MaxRetries {
			t.Errorf("%d calls, want planning + 1 + %d retries", got, MaxRetries)
		}
	})
	t.Run("answer replaced after the model", func(t *testing.T) {
		sc := toolScenario(loop())
		h := fakeHook{name: "polish", effects: map[Point]func(*Event) Effect{
			PointAfterLLM: func(ev *Event) Effect { return Effect{Answer: str(ev.Answer + "!")} },
		}}
		tr := hookedRun(t, sc, nil, h)
		last := tr.Calls[len(tr.Calls)-1]
		if tr.Requests[0].Reply != "final!" || last.OriginalContent == nil || *last.OriginalContent != "final" {
			t.Errorf("reply %q, call %+v", tr.Requests[0].Reply, last)
		}
	})
}

func TestHandlerOrderIsNested(t *testing.T) {
	var seen []string
	sc := &scenario.Scenario{Requests: []scenario.Request{{User: "hi", Reply: "r"}}}
	outer := fakeHook{name: "outer", seen: &seen}
	inner := fakeHook{name: "inner", seen: &seen}
	hookedRun(t, sc, nil, outer, inner)
	var got []string
	for _, s := range seen {
		if strings.HasSuffix(s, "@before_llm") || strings.HasSuffix(s, "@after_llm") {
			got = append(got, s)
		}
	}
	want := []string{"outer@before_llm", "inner@before_llm", "inner@after_llm", "outer@after_llm"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
	if seen[0] != "outer@session_start" || seen[len(seen)-1] != "outer@session_end" {
		t.Errorf("session points: first %s, last %s", seen[0], seen[len(seen)-1])
	}
}

func TestUnsupportedFieldIsAWarning(t *testing.T) {
	sc := toolScenario(loop())
	h := fakeHook{name: "confused", effects: map[Point]func(*Event) Effect{
		PointAfterSend: func(*Event) Effect { return Effect{SystemPrompt: str("x"), ToolResult: str("y")} },
	}}
	tr := hookedRun(t, sc, nil, h)
	hc := tr.HookCalls[0]
	if len(hc.Warnings) != 2 || hc.Outcome != OutcomeOK {
		t.Errorf("hook call = %+v, want two warnings and no change", hc)
	}
}

func TestCompaction(t *testing.T) {
	rounds := []scenario.Round{calls("a"), calls("b"), {ToolCalls: calls("a").ToolCalls, Compact: &scenario.Compact{Kind: "micro"}}, {Compact: &scenario.Compact{Kind: "auto", Summary: "we read a and b"}, Content: "done"}}
	sc := toolScenario(scenario.Request{User: "u", Planning: &scenario.Planning{NeedTool: true}, Rounds: rounds})
	var points []string
	h := fakeHook{name: "ctx", seen: &points, effects: map[Point]func(*Event) Effect{
		PointBeforeCompact: func(ev *Event) Effect {
			if ev.Compact == CompactAuto {
				return Effect{AppendSystem: "keep the file names"}
			}
			return Effect{}
		},
	}}
	tr := hookedRun(t, sc, nil, h)
	micro := contents(tr, 3) // the call of round 2
	var cleared int
	for _, c := range micro {
		if c == "tool:"+MicroCompacted {
			cleared++
		}
	}
	if cleared != 1 {
		t.Errorf("micro-compaction cleared %d results, want 1 (all but the last round's): %q", cleared, micro)
	}
	auto := contents(tr, 4)
	if auto[0] != "system:sys" || auto[1] != "user:we read a and b\n\nkeep the file names" {
		t.Errorf("after auto-compaction = %q", auto)
	}
	if !slices.Contains(points, "ctx@after_compact") {
		t.Errorf("after_compact did not fire: %v", points)
	}
}

func TestHookedTraceRecordRoundTrip(t *testing.T) {
	sc := toolScenario(loop(calls("a", "b")), loop(calls("a")))
	h := fakeHook{name: "all", effects: map[Point]func(*Event) Effect{
		PointBeforeLLM: func(*Event) Effect {
			return Effect{AppendSystem: "ctx", Inject: []NewMessage{{Role: "user", Content: "hi"}}}
		},
		PointAfterTool:  func(ev *Event) Effect { return Effect{ToolResult: str("[" + ev.Tool.Result + "]")} },
		PointBeforeTool: func(ev *Event) Effect { return Effect{ToolArguments: map[string]any{"n": 1.0}} },
	}}
	tr := hookedRun(t, sc, hookList{hk("x", skills.BeforeEachAgent, false), hk("y", skills.AfterToolCall, false)}, h)
	back, err := FromRecord(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	for i := range tr.NumSteps() {
		if !reflect.DeepEqual(tr.MessagesAt(i), back.MessagesAt(i)) {
			t.Fatalf("step %d differs after the round trip", i)
		}
		if !reflect.DeepEqual(tr.Step(i), back.Step(i)) {
			t.Fatalf("step %d record differs: %+v vs %+v", i, tr.Step(i), back.Step(i))
		}
	}
}

// Stepping back is rebuilding an earlier step's list: every step's list
// must equal what a replay up to that step shows, however hooks changed it.
func TestEveryStepListIsConsistent(t *testing.T) {
	sc := toolScenario(loop(calls("a", "b"), calls("b")))
	h := fakeHook{name: "busy", effects: map[Point]func(*Event) Effect{
		PointBeforeLLM: func(ev *Event) Effect {
			return Effect{SystemPrompt: str(fmt.Sprint("call ", ev.Call)), AppendSystem: "more", Inject: []NewMessage{{Role: "user", Content: "x"}}}
		},
		PointAfterTool: func(ev *Event) Effect { return Effect{ToolResult: str(ev.Tool.Result + "+")} },
	}}
	// A second hook edits what the first one added for the call.
	h2 := fakeHook{name: "again", effects: map[Point]func(*Event) Effect{
		PointBeforeLLM: func(ev *Event) Effect {
			var want []NewMessage
			for _, m := range ev.Messages() {
				if m.Content != "x" {
					want = append(want, NewMessage{Role: m.Role, Content: m.Content})
				}
			}
			return Effect{Messages: want, AppendSystem: "and more"}
		},
	}}
	tr := hookedRun(t, sc, hookList{hk("x", skills.AfterToolCall, false)}, h, h2)
	plain := hookedRun(t, sc, hookList{hk("x", skills.AfterToolCall, false)})
	if got := contents(tr, 1); got[0] != "system:call 1\n\nmore\n\nand more" || len(got) != len(contents(plain, 1)) {
		t.Errorf("call 1 = %q", got)
	}
	for i, s := range tr.Steps() {
		prev := map[int]bool{}
		if i > 0 && tr.Step(i-1).Request == s.Request {
			for _, id := range tr.MessageIDsAt(i - 1) {
				prev[id] = true
			}
		}
		for _, id := range s.Removed {
			delete(prev, id)
		}
		for _, id := range s.Added {
			prev[id] = true
		}
		now := tr.MessageIDsAt(i)
		if len(now) != len(prev) {
			t.Fatalf("step %d (%s): list %v, but previous list + added − removed has %d", i, s.Kind, now, len(prev))
		}
		for _, id := range now {
			if !prev[id] {
				t.Fatalf("step %d (%s): message %d is in the list but was neither there nor added", i, s.Kind, id)
			}
		}
	}
}

// An after_llm hook that hands the answer's tool calls back unchanged (as
// PicoClaw's echo of the whole params does: the ids it was sent, or none,
// and {} for no arguments) changes nothing. One that rewrites a call keeps
// the scripted result of the call it replaced, by position, and says so.
func TestAfterLLMToolCallRewrites(t *testing.T) {
	round := scenario.Round{ToolCalls: []scenario.ToolCall{
		{Name: "a", Arguments: map[string]any{"cmd": "ls"}, Result: "listing"},
		{Name: "b", Result: "b result"},
	}}
	wire := func(ev *Event, ids bool) []ToolCall { // the calls as a hook sends them back
		out := []ToolCall{}
		for _, tc := range ev.ToolCalls {
			c := ToolCall{Name: tc.Name, Arguments: map[string]any{}}
			maps.Copy(c.Arguments, tc.Arguments)
			if ids {
				c.ID = tc.ID
			}
			out = append(out, c)
		}
		return out
	}
	cases := []struct {
		name    string
		rewrite func(ev *Event) []ToolCall
		results []string // the tool messages the model reads
		changes int      // of the round's after_llm call
	}{
		{"echo with ids", func(ev *Event) []ToolCall { return wire(ev, true) }, []string{"listing", "b result"}, 0},
		{"echo without ids", func(ev *Event) []ToolCall { return wire(ev, false) }, []string{"listing", "b result"}, 0},
		{"rewrite", func(ev *Event) []ToolCall {
			w := wire(ev, true)
			if len(w) == 0 {
				return w
			}
			w[0].Arguments = map[string]any{"cmd": "pwd"}
			w[1].ID = "renamed"
			return append(w, ToolCall{Name: "b"})
		}, []string{"listing", "b result", ""}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sentIDs []string
			h := fakeHook{name: "rewriter", effects: map[Point]func(*Event) Effect{
				PointAfterLLM: func(ev *Event) Effect {
					for _, tc := range ev.ToolCalls {
						sentIDs = append(sentIDs, tc.ID)
					}
					calls := c.rewrite(ev)
					return Effect{ToolCalls: &calls}
				},
			}}
			tr := hookedRun(t, toolScenario(loop(round)), nil, h)
			var results []string
			for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
				if m.Role == "tool" {
					results = append(results, m.Content)
				}
			}
			if !slices.Equal(results, c.results) {
				t.Errorf("tool messages %q, want %q", results, c.results)
			}
			ran := tr.Calls[1].ToolCalls
			if c.changes > 0 && (ran[0].OriginalArguments["cmd"] != "ls" || ran[1].OriginalArguments != nil) {
				t.Errorf("rewritten calls %+v: the call whose arguments changed keeps the model's", ran)
			}
			for i, id := range sentIDs {
				if id == "" || (c.changes == 0 && ran[i].ID != id) {
					t.Errorf("after_llm was sent tool call id %q; the call ran as %q", id, ran[i].ID)
				}
			}
			// after_llm fires for the planning call, the round's and the final answer.
			for i, hc := range tr.HookCalls {
				want, outcome := 0, OutcomeOK
				if i == 1 && c.changes > 0 {
					want, outcome = c.changes, OutcomeModified
				}
				if len(hc.Changes) != want || hc.Outcome != outcome {
					t.Errorf("after_llm %d: %s, changes %q; want %s with %d changes", i, hc.Outcome, hc.Changes, outcome, want)
				}
			}
		})
	}
}

// TestContextPlacesOfOtherAgents: context before the prompt and between a
// tool call and its result (Codex), appended to every request's system
// prompt and to a tool's result (Qwen Code).
func TestContextPlacesOfOtherAgents(t *testing.T) {
	round := scenario.Round{ToolCalls: []scenario.ToolCall{{Name: "a", Result: "a out"}, {Name: "b", Result: "b out"}}}
	sc := toolScenario(loop(round), loop())
	sc.Requests[0].User = "do it"
	h := fakeHook{name: "ctx", effects: map[Point]func(*Event) Effect{
		PointSessionStart: func(*Event) Effect {
			return Effect{ContextBefore: []NewMessage{{Role: "system", Content: "before prompt"}}, AppendSystem: "session block"}
		},
		PointBeforeTool: func(ev *Event) Effect {
			return Effect{ContextBefore: []NewMessage{{Role: "system", Content: "pre " + ev.Tool.Name}}}
		},
		PointAfterTool: func(ev *Event) Effect {
			return Effect{ContextBefore: []NewMessage{{Role: "system", Content: "post " + ev.Tool.Name}}, AppendResult: "suffix " + ev.Tool.Name}
		},
		PointAfterTools: func(*Event) Effect { return Effect{AppendResult: "batch"} },
	}}
	tr := hookedRun(t, sc, nil, h)
	got := contents(tr, 2)
	want := []string{"system:sys\n\nsession block", "system:before prompt", "user:do it", "assistant:",
		"system:pre a", "system:post a", "tool:a out\n\nsuffix a", "system:pre b", "system:post b", "tool:b out\n\nsuffix b\n\nbatch"}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Errorf("list\n%q\nwant it to start\n%q", got, want)
	}
	last := contents(tr, len(tr.Calls)-1)
	if last[0] != "system:sys\n\nsession block" || slices.Contains(last, "system:before prompt") {
		t.Errorf("the next request: the system prompt keeps the session's block, the context before the first prompt stays there: %q", last)
	}
}

// A hook may answer in the model's place at before_llm (the model is not
// asked; after_llm says who answered), restrict the call's offer of tools
// for that call only, and place messages before the user's message of the
// request — the generic points Gemini CLI's BeforeModel and
// BeforeToolSelection and Copilot CLI's session-start context use.
func TestAnswerInPlaceOnlyToolsAndPreface(t *testing.T) {
	sc := toolScenario(loop(calls("a")))
	var answeredBy []string
	var offered [][]string
	asked := 0
	h := fakeHook{name: "h", effects: map[Point]func(*Event) Effect{
		PointSessionStart: func(*Event) Effect {
			return Effect{Preface: []NewMessage{{Role: "user", Content: "before the prompt"}}}
		},
		PointBeforeLLM: func(ev *Event) Effect {
			switch ev.Call {
			case 1:
				return Effect{OnlyTools: &[]string{}}
			case 2:
				return Effect{Answer: str("the hook's answer")}
			}
			return Effect{}
		},
		PointAfterLLM: func(ev *Event) Effect {
			answeredBy = append(answeredBy, ev.AnsweredBy)
			var names []string
			for _, tl := range ev.Tools {
				names = append(names, tl.Name)
			}
			offered = append(offered, names)
			return Effect{}
		},
	}}
	model := modelFunc(func(ctx context.Context, c Call) (Reply, error) {
		asked++
		return scriptWithErrors{sc}.Complete(ctx, c)
	})
	tr, err := Run(context.Background(), sc, hookList{}, Config{Model: model, Handlers: []Handler{h}})
	if err != nil {
		t.Fatal(err)
	}
	if got := contents(tr, 0); len(got) < 3 || got[1] != "user:before the prompt" || !strings.HasPrefix(got[2], "user:") {
		t.Errorf("call 0 = %q: the preface stands right before the user's message", got)
	}
	if len(tr.Calls) != 3 || tr.Calls[2].AnsweredBy != "command hook h" || tr.Calls[2].Content != "the hook's answer" {
		t.Fatalf("calls %+v", tr.Calls)
	}
	if asked != 2 {
		t.Errorf("the model was asked %d times, want 2 (the third call was answered by the hook)", asked)
	}
	if !slices.Equal(tr.Calls[1].WithheldTools, []string{"a", "b"}) || len(offered[1]) != 0 || len(offered[2]) != 2 {
		t.Errorf("withheld %q, offered %q", tr.Calls[1].WithheldTools, offered)
	}
	if !slices.Equal(answeredBy, []string{"", "", "command hook h"}) {
		t.Errorf("after_llm answered_by %q", answeredBy)
	}
	if tr.Requests[0].Reply != "the hook's answer" {
		t.Errorf("reply %q", tr.Requests[0].Reply)
	}
}

type modelFunc func(ctx context.Context, c Call) (Reply, error)

func (f modelFunc) Complete(ctx context.Context, c Call) (Reply, error) { return f(ctx, c) }
