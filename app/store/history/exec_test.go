package history

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// execHandler is a hook system that uses every kind of effect the trace
// records for executable hooks: call-only injections and system-prompt
// rewrites (hidden spans, restore steps), in-place tool-result rewrites
// (replacements), a model switch, a denied tool, failures with stderr and
// exit codes, and request_end contexts with usage.
type execHandler struct{ n int }

func (h *execHandler) Handle(_ context.Context, ev *engine.Event) error {
	h.n++
	exit := 2
	switch ev.Point {
	case engine.PointBeforeLLM:
		sys := "rewritten system"
		model := "gpt-test"
		ev.Apply(engine.HookCall{System: "command", Event: "pre_llm_request", Hook: "ctx", Input: json.RawMessage(`{ "a" : 1 }`),
			Output: json.RawMessage("{\n  \"ok\": true\n}"), DurationMS: 1.5},
			engine.Effect{Inject: []engine.NewMessage{{Role: "user", Content: "call-only note"}}, SystemPrompt: &sys, Model: &model,
				AddTools: []scenario.Tool{{Name: "extra"}}})
		ev.Record(engine.HookCall{System: "request", Event: "request_start", Hook: "policy", Outcome: engine.OutcomeError,
			Stderr: "boom", ExitCode: &exit, Error: "exit status 2", DurationMS: 0.25})
	case engine.PointAfterLLM:
		in := fmt.Sprintf(`{"request_id":"req-%d","model":%q,"success":%t,"attempts":[{"status_code":429},{"status_code":200}],"usage_metadata":{"prompt_tokens":10,"completion_tokens":3,"thinking_tokens":1,"cached_tokens":2}}`,
			ev.Call, ev.Model, ev.Err == nil)
		ev.Record(engine.HookCall{System: "request", Event: "request_end", Hook: "usage", Input: json.RawMessage(in), DurationMS: 0.1})
		ev.Record(engine.HookCall{System: "request", Event: "request_end", Hook: "audit", Input: json.RawMessage(in), Outcome: engine.OutcomeTimeout, DurationMS: 100})
		if ev.Answer == "plan" {
			a := "plan (edited)"
			ev.Apply(engine.HookCall{System: "process", Event: "hook.after_llm", Hook: "edit"}, engine.Effect{Answer: &a})
		}
	case engine.PointBeforeTool:
		if ev.Tool.Name == "read" {
			ev.Apply(engine.HookCall{System: "process", Event: "hook.before_tool", Hook: "args"},
				engine.Effect{ToolArguments: map[string]any{"n": float64(99)}})
		}
	case engine.PointApproveTool:
		if ev.Tool.Arguments["n"] == float64(99) && h.n%2 == 0 {
			no := false
			ev.Apply(engine.HookCall{System: "process", Event: "hook.approve_tool", Hook: "gate"}, engine.Effect{Approved: &no, Reason: "not now"})
		}
	case engine.PointAfterTool:
		res := "rewritten: " + ev.Tool.Result
		ev.Apply(engine.HookCall{System: "command", Event: "post_tool_execution", Hook: "redact"}, engine.Effect{ToolResult: &res})
	}
	return nil
}

func execRun(t *testing.T) simulated {
	t.Helper()
	sc := syntheticScenario(2)
	tr, err := engine.Run(context.Background(), sc, syntheticHooks(), engine.Config{Model: loopModel{rounds: 4}, Handlers: []engine.Handler{&execHandler{}}})
	if err != nil {
		t.Fatal(err)
	}
	return simulated{name: sc.Name, file: sc.File, data: []byte("exec"), tr: tr}
}

func TestExecHooksRoundTrip(t *testing.T) {
	ctx := context.Background()
	sim := execRun(t)
	rec := sim.tr.Record()
	// The run really has every kind of executable-hook data.
	if len(rec.HookCalls) == 0 || rec.Hidden == nil || rec.Restored == nil || rec.ReplacedBy == nil {
		t.Fatalf("the test run lacks executable-hook data: %d calls, hidden %v, restored %v, replaced %v",
			len(rec.HookCalls), rec.Hidden, rec.Restored, rec.ReplacedBy)
	}
	edits, denied, original := 0, 0, 0
	for _, m := range rec.Messages {
		if m.Edit != 0 {
			edits++
		}
	}
	for _, tc := range rec.ToolCalls {
		if tc.Status == engine.ToolDenied {
			denied++
		}
		if tc.OriginalArguments != nil {
			original++
		}
	}
	if edits == 0 || denied == 0 || original == 0 || rec.Calls[0].Model != "gpt-test" || rec.Calls[0].OriginalContent == nil {
		t.Fatalf("the test run lacks edits (%d), denials (%d), original arguments (%d) or call fields (%+v)", edits, denied, original, rec.Calls[0])
	}

	s := openTemp(t)
	id, err := s.SaveRun(ctx, input(sim, SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := run.Trace.Record()
	if !reflect.DeepEqual(rec, got) {
		a, _ := json.Marshal(rec)
		b, _ := json.Marshal(got)
		t.Fatalf("loaded record differs:\nwant %s\n got %s", a, b)
	}
	if string(got.HookCalls[0].Output) != "{\n  \"ok\": true\n}" || string(got.HookCalls[0].Input) != `{ "a" : 1 }` {
		t.Errorf("hook call input/output not kept byte for byte: %q %q", got.HookCalls[0].Input, got.HookCalls[0].Output)
	}
	if !reflect.DeepEqual(sim.tr.Document(), run.Trace.Document()) {
		t.Errorf("loaded document differs")
	}

	// Seed 001 metrics per (system, hook), recomputed the obvious way.
	want := map[[2]string]ExecHookMetrics{}
	for _, hc := range rec.HookCalls {
		k := [2]string{hc.System, hc.Hook}
		m := want[k]
		m.System, m.Hook = hc.System, hc.Hook
		m.TotalDurationMS += hc.DurationMS
		switch hc.Outcome {
		case engine.OutcomeError, engine.OutcomeTimeout:
			m.Executions++
			m.Failures++
		default:
			m.Executions++
			m.Successes++
		}
		want[k] = m
	}
	if len(run.ExecHooks) != len(want) {
		t.Fatalf("exec hook metrics %+v, want %d hooks", run.ExecHooks, len(want))
	}
	for _, m := range run.ExecHooks {
		if w := want[[2]string{m.System, m.Hook}]; m != w {
			t.Errorf("metrics %+v, want %+v", m, w)
		}
	}
	policy := want[[2]string{"request", "policy"}]
	if policy.Failures != len(rec.Calls) || policy.Successes != 0 {
		t.Errorf("policy hook: %+v, want %d failures", policy, len(rec.Calls))
	}

	// Usage: one request per call (two end hooks share each context).
	if len(run.Usage) != 1 {
		t.Fatalf("usage %+v", run.Usage)
	}
	u, n := run.Usage[0], len(rec.Calls)
	if u.Model != "gpt-test" || u.Requests != n || u.Successes != n || u.Attempts != 2*n || u.PromptTokens != 10*n ||
		u.CompletionTokens != 3*n || u.ThinkingTokens != n || u.CachedTokens != 2*n {
		t.Errorf("usage %+v for %d calls", u, n)
	}
	pts, err := s.UsageHistory(ctx, "synthetic", 10)
	if err != nil || len(pts) != 1 || pts[0].Run != id || !reflect.DeepEqual(pts[0].Models, run.Usage) {
		t.Errorf("usage history %+v, %v", pts, err)
	}

	// Deleting the run takes its rows with it.
	if err := s.DeleteRun(ctx, id); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"run_exec", "run_exec_hooks", "run_request_usage"} {
		var c int
		if err := s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&c); err != nil || c != 0 {
			t.Errorf("%s: %d rows after delete (%v)", table, c, err)
		}
	}
}

func TestPromptOnlyRunStoresNoExecRow(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	id, err := s.SaveRun(ctx, input(syntheticRun(t, 1, 3, nil), SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	var c int
	if err := s.db.QueryRow(`SELECT count(*) FROM run_exec WHERE run_id = ?`, int64(id)).Scan(&c); err != nil || c != 0 {
		t.Errorf("prompt-only run has %d run_exec rows (%v)", c, err)
	}
	run, err := s.LoadRun(ctx, id)
	if err != nil || run.ExecHooks != nil || run.Usage != nil {
		t.Errorf("prompt-only run: %+v %+v %v", run.ExecHooks, run.Usage, err)
	}
}
