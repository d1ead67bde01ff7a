//go:build unix

package prochook

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
)

// Every method reaches a hook that intercepts it, with the seed's params,
// and the lifecycle is on the timeline: start, hello, requests, exit.
func TestEveryMethodAndLifecycle(t *testing.T) {
	h, log := testHook(t, "all", plan{}, Intercepts)
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	got := methods(received(t, log))
	want := []string{"hook.hello",
		"hook.before_llm", "hook.after_llm", // planning
		"hook.before_llm", "hook.after_llm", // round 0
		"hook.before_tool", "hook.approve_tool", "hook.after_tool",
		"hook.before_llm", "hook.after_llm"} // final round
	if !slices.Equal(got, want) {
		t.Fatalf("received %q\nwant %q", got, want)
	}
	ev := events(tr)
	if ev[0] != "all process.start" || ev[1] != "all hook.hello" || ev[len(ev)-1] != "all process.exit" {
		t.Errorf("timeline %q: want process.start, hook.hello first and process.exit last", ev)
	}
	exit := calls(tr, "process.exit")[0]
	if exit.Outcome != engine.OutcomeOK || exit.ExitCode == nil || *exit.ExitCode != 0 {
		t.Errorf("exit = %+v, want a clean exit after stdin closed", exit)
	}
	msgs := received(t, log)
	hello := msgs[0]["params"].(map[string]any)
	if hello["name"] != "all" || hello["version"] != float64(1) {
		t.Errorf("hello params %v", hello)
	}
	if modes := hello["modes"].([]any); len(modes) != 3 || modes[0] != "llm" || modes[1] != "tool" || modes[2] != "approve" {
		t.Errorf("modes %v, want llm, tool, approve", modes)
	}
	bl := msgs[1]["params"].(map[string]any)
	meta := bl["meta"].(map[string]any)
	// As PicoClaw's code sends it: meta.Source is the function, TracePath
	// the place; the channel travels in context, not beside it.
	if meta["TurnID"] != "main-turn-1" || meta["AgentID"] == "" || meta["SessionKey"] == "" || meta["Source"] != "runTurn" ||
		meta["TracePath"] != "turn.llm.request" || meta["Iteration"] != float64(1) {
		t.Errorf("meta %v", meta)
	}
	in, _ := bl["context"].(map[string]any)["inbound"].(map[string]any)
	if bl["model"] != "mock" || bl["channel"] != nil || bl["chat_id"] != nil || in["channel"] != "cli" || in["chat_id"] == "" {
		t.Errorf("before_llm params %v", bl)
	}
	if opts, _ := bl["options"].(map[string]any); opts["max_tokens"] != float64(32768) || opts["temperature"] != 0.7 {
		t.Errorf("before_llm options %v", bl["options"])
	}
	if ms := bl["messages"].([]any); len(ms) < 2 || ms[0].(map[string]any)["role"] != "system" {
		t.Errorf("messages %v", ms)
	}
	bt := msgs[5]["params"].(map[string]any)
	if bt["tool"] != "bash" || bt["arguments"].(map[string]any)["command"] != "x0" {
		t.Errorf("before_tool params %v", bt)
	}
	at := msgs[7]["params"].(map[string]any)
	res := at["result"].(map[string]any)
	if res["for_llm"] != "ok:bash" || res["is_error"] != false || at["duration"] == nil {
		t.Errorf("after_tool params %v", at)
	}
	al := msgs[4]["params"].(map[string]any)
	tcs := al["response"].(map[string]any)["tool_calls"].([]any)
	fn := tcs[0].(map[string]any)["function"].(map[string]any)
	if fn["name"] != "bash" || fn["arguments"] != `{"command":"x0"}` {
		t.Errorf("after_llm tool call %v: arguments must be a JSON string", fn)
	}
	// Input is the exact line sent; Output the exact answer.
	for _, c := range calls(tr, "hook.before_tool") {
		var req struct {
			JSONRPC string `json:"jsonrpc"`
			ID      int    `json:"id"`
			Method  string `json:"method"`
		}
		if err := json.Unmarshal(c.Input, &req); err != nil || req.JSONRPC != "2.0" || req.Method != "hook.before_tool" || req.ID == 0 {
			t.Errorf("input %s", c.Input)
		}
		var ans struct{ ID int }
		if json.Unmarshal(c.Output, &ans); ans.ID != req.ID {
			t.Errorf("output %s does not answer id %d", c.Output, req.ID)
		}
	}
}

// Only intercepted methods are sent; observe picks runtime kinds and a
// notification is never awaited (an observer that never reads is fine).
func TestInterceptAndObserveFiltering(t *testing.T) {
	tools, tlog := testHook(t, "tools", plan{}, []string{"before_tool"})
	obs, olog := testHook(t, "obs", plan{}, nil, "agent.tool.exec_start", "agent.tool.exec_end", "agent.turn.start", "agent.turn.end")
	tr, err := simulateDoc(t, toolScenario(t, "bash"), tools, obs)
	if err != nil {
		t.Fatal(err)
	}
	if got := methods(received(t, tlog)); !slices.Equal(got, []string{"hook.hello", "hook.before_tool"}) {
		t.Errorf("tools hook received %q", got)
	}
	want := []string{"hook.hello", "hook.runtime_event:agent.turn.start", "hook.runtime_event:agent.tool.exec_start",
		"hook.runtime_event:agent.tool.exec_end", "hook.runtime_event:agent.turn.end"}
	if got := methods(received(t, olog)); !slices.Equal(got, want) {
		t.Errorf("observer received %q\nwant %q", got, want)
	}
	for _, c := range calls(tr, "hook.runtime_event") {
		if !c.Notify || len(c.Output) != 0 || c.Outcome != engine.OutcomeOK {
			t.Errorf("notification %+v: want notify, no output, ok", c)
		}
		var m map[string]any
		json.Unmarshal(c.Input, &m)
		if _, has := m["id"]; has {
			t.Errorf("notification has an id: %s", c.Input)
		}
	}
	obsHello := received(t, olog)[0]["params"].(map[string]any)["modes"].([]any)
	if len(obsHello) != 1 || obsHello[0] != "observe" {
		t.Errorf("observer modes %v", obsHello)
	}
}

func TestNotificationsNeverAwaited(t *testing.T) {
	// The observer takes 100 ms over each notification; the run does not
	// wait for it, so it ends long before the observer could have read
	// them all (shutdown then kills it after the grace).
	obs, _ := testHook(t, "slow", plan{Methods: map[string]behavior{"runtime_event": {SleepMS: 100}}}, nil, "*")
	start := time.Now()
	tr, err := simulate(t, toolScenario(t, "a", "b", "c"), obs)
	if err != nil {
		t.Fatal(err)
	}
	d := time.Since(start)
	n := len(calls(tr, "hook.runtime_event"))
	if n < 10 {
		t.Fatalf("%d notifications, want every kind of the run", n)
	}
	if work := time.Duration(n) * 100 * time.Millisecond; d >= work {
		t.Errorf("run took %s, the observer's own work %s: notifications were awaited", d, work)
	}
}

// Lower priority first, then name; two hooks chained: the second sees the
// first one's change.
func TestPriorityOrderAndChaining(t *testing.T) {
	first, _ := testHook(t, "zeta", plan{Methods: map[string]behavior{"before_tool": {Result: map[string]any{
		"action": "modify", "call": map[string]any{"tool": "bash", "arguments": map[string]any{"command": "safe"}}}}}}, []string{"before_tool"})
	first.Priority = -5
	second, slog := testHook(t, "alpha", plan{}, []string{"before_tool"})
	second.Priority = 10
	third, _ := testHook(t, "beta", plan{}, []string{"before_tool"})
	third.Priority = 10
	tr, err := simulate(t, toolScenario(t, "bash"), third, second, first)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range calls(tr, "hook.before_tool") {
		order = append(order, c.Hook)
	}
	if !slices.Equal(order, []string{"zeta", "alpha", "beta"}) {
		t.Errorf("order %q, want zeta (-5), alpha (10), beta (10)", order)
	}
	msgs := received(t, slog)
	args := msgs[1]["params"].(map[string]any)["arguments"].(map[string]any)
	if args["command"] != "safe" {
		t.Errorf("the second hook saw %v, want the first hook's rewrite", args)
	}
	if c := calls(tr, "hook.before_tool")[0]; c.Outcome != engine.OutcomeModified {
		t.Errorf("rewrite outcome %s", c.Outcome)
	}
	if tc := tool(tr, "bash"); tc.Arguments["command"] != "safe" || tc.OriginalArguments["command"] != "x0" {
		t.Errorf("tool call %+v", tc)
	}
}

func TestActions(t *testing.T) {
	cases := []struct {
		name   string
		method string
		result any
		check  func(t *testing.T, tr *engine.Trace, err error)
	}{
		{"deny_tool", "before_tool", map[string]any{"action": "deny_tool", "reason": "not allowed"}, func(t *testing.T, tr *engine.Trace, err error) {
			tc := tool(tr, "bash")
			if err != nil || tc.Status != engine.ToolDenied || tc.Result != "Tool execution denied by hook: not allowed" {
				t.Errorf("err %v, call %+v", err, tc)
			}
		}},
		{"respond", "before_tool", map[string]any{"action": "respond", "result": map[string]any{"for_llm": "from the hook"}}, func(t *testing.T, tr *engine.Trace, err error) {
			tc := tool(tr, "bash")
			if err != nil || tc.Status != engine.ToolResponded || tc.Result != "from the hook" {
				t.Errorf("err %v, call %+v", err, tc)
			}
		}},
		{"abort_turn", "before_tool", map[string]any{"action": "abort_turn", "reason": "stop"}, func(t *testing.T, tr *engine.Trace, err error) {
			if err != nil || tr.Requests[0].Status != "stopped" {
				t.Errorf("err %v, request %+v", err, tr.Requests[0])
			}
			var end map[string]any
			for _, c := range calls(tr, "hook.runtime_event") {
				var m struct{ Params map[string]any }
				json.Unmarshal(c.Input, &m)
				if m.Params["kind"] == "agent.turn.end" {
					end = m.Params["payload"].(map[string]any)
				}
			}
			if end == nil || end["Status"] != "error" { // PicoClaw's code: abort_turn ends the turn as an error
				t.Errorf("turn end payload %v", end)
			}
		}},
		{"abort_turn after the tool", "after_tool", map[string]any{"action": "abort_turn", "reason": "enough"}, func(t *testing.T, tr *engine.Trace, err error) {
			// PicoClaw lets every interceptor abort the turn, after_tool too.
			if err != nil || tr.Requests[0].Status != "stopped" || len(tr.Calls) != 2 {
				t.Errorf("err %v, request %+v, %d calls", err, tr.Requests[0], len(tr.Calls))
			}
		}},
		{"hard_abort", "before_llm", map[string]any{"action": "hard_abort", "reason": "halt"}, func(t *testing.T, tr *engine.Trace, err error) {
			if !errors.Is(err, engine.ErrAborted) || len(tr.Calls) != 0 {
				t.Errorf("err %v, %d calls", err, len(tr.Calls))
			}
		}},
		{"after_tool modify", "after_tool", map[string]any{"action": "modify", "result": map[string]any{"for_llm": "redacted"}}, func(t *testing.T, tr *engine.Trace, err error) {
			if err != nil || tool(tr, "bash").Result != "redacted" {
				t.Errorf("err %v, call %+v", err, tool(tr, "bash"))
			}
			if !slices.Contains(finalMessages(tr), "tool:redacted") {
				t.Errorf("final messages %q", finalMessages(tr))
			}
		}},
		{"after_llm modify", "after_llm", map[string]any{"action": "modify", "response": map[string]any{"content": "rewritten"}}, func(t *testing.T, tr *engine.Trace, err error) {
			if err != nil || tr.Calls[len(tr.Calls)-1].Content != "rewritten" || tr.Calls[len(tr.Calls)-1].OriginalContent == nil {
				t.Errorf("err %v, last call %+v", err, tr.Calls[len(tr.Calls)-1])
			}
		}},
		{"approve denied", "approve_tool", map[string]any{"approved": false, "reason": "dangerous"}, func(t *testing.T, tr *engine.Trace, err error) {
			tc := tool(tr, "bash")
			if err != nil || tc.Status != engine.ToolDenied || tc.Result != "Tool execution denied by approval hook: dangerous" {
				t.Errorf("err %v, call %+v", err, tc)
			}
			if c := calls(tr, "hook.approve_tool")[0]; c.Outcome != engine.OutcomeDenied {
				t.Errorf("outcome %s", c.Outcome)
			}
		}},
		{"approve approved", "approve_tool", map[string]any{"approved": true}, func(t *testing.T, tr *engine.Trace, err error) {
			if tc := tool(tr, "bash"); err != nil || tc.Status != engine.ToolApproved || tc.Result != "ok:bash" {
				t.Errorf("err %v, call %+v", err, tc)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{c.method: {Result: c.result}}}, []string{c.method}, "agent.turn.end")
			tr, err := simulate(t, toolScenario(t, "bash"), h)
			c.check(t, tr, err)
		})
	}
}

// before_llm modify: model, messages, tools (offered to the model) and
// options (reported); the change is for that call only.
func TestBeforeLLMModify(t *testing.T) {
	plugin := map[string]any{"type": "function", "function": map[string]any{"name": "my_plugin_tool", "description": "plugin",
		"parameters": map[string]any{"type": "object"}}}
	res := map[string]any{"action": "modify", "request": map[string]any{
		"model":    "other-model",
		"messages": []any{map[string]any{"role": "system", "content": "replaced"}, map[string]any{"role": "user", "content": "do it"}},
		"tools":    []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash"}}, plugin},
		"options":  map[string]any{"temperature": 0.2},
	}}
	// The second before_llm is round 0's call (the first is planning's).
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_llm": {Result: res, Nth: 2}}}, []string{"before_llm"})
	next, nlog := testHook(t, "next", plan{}, []string{"before_llm"})
	next.Priority = 1
	tr, err := simulateDoc(t, toolScenario(t, "bash"), h, next)
	if err != nil {
		t.Fatal(err)
	}
	c1 := tr.Calls[1]
	if c1.Model != "other-model" || !slices.Equal(c1.AddedTools, []string{"my_plugin_tool"}) {
		t.Errorf("call 1 model %q tools %q", c1.Model, c1.AddedTools)
	}
	msgs := tr.CallMessages(1)
	if len(msgs) != 2 || msgs[0].Content != "replaced" {
		t.Errorf("call 1 messages %+v", msgs)
	}
	if tr.CallMessages(2)[0].Content != "sys" || tr.Calls[2].Model == "other-model" || len(tr.Calls[2].AddedTools) != 0 {
		t.Errorf("call 2 kept call 1's changes: %+v", tr.Calls[2])
	}
	hc := calls(tr, "hook.before_llm")[2] // h's second request (next's first comes between)
	if !slices.ContainsFunc(hc.Changes, func(s string) bool { return strings.Contains(s, "temperature") }) {
		t.Errorf("options change not reported: %q", hc.Changes)
	}
	// The next hook of the chain saw all of it.
	p := received(t, nlog)[2]["params"].(map[string]any)
	if p["model"] != "other-model" || p["options"].(map[string]any)["temperature"] != 0.2 || len(p["tools"].([]any)) != 2 {
		t.Errorf("next hook saw %v", p)
	}
}

// after_llm may rewrite the answer's tool calls.
func TestAfterLLMToolCallsRound(t *testing.T) {
	res := map[string]any{"action": "modify", "response": map[string]any{"content": "", "tool_calls": []any{
		map[string]any{"id": "c0", "type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls -l"}`}}}}}
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"after_llm": {Result: res, Nth: 2}}}, []string{"after_llm"})
	sc := toolScenario(t, "bash")
	tr, err := simulate(t, sc, h)
	if err != nil {
		t.Fatal(err)
	}
	tc := tool(tr, "bash")
	if tc == nil || tc.Arguments["command"] != "ls -l" {
		t.Fatalf("tool call %+v, want the hook's arguments", tc)
	}
	if tc.Result != "ok:bash" {
		t.Errorf("result %q: the scripted result of the kept id should stay", tc.Result)
	}
}

func TestFaults(t *testing.T) {
	cases := []struct {
		name    string
		b       behavior
		outcome engine.Outcome
		check   func(t *testing.T, c engine.HookCall)
		wait    time.Duration // the hook's answer time limit (300 ms unless set)
	}{
		{name: "timeout", b: behavior{SleepMS: 800}, outcome: engine.OutcomeTimeout},
		{name: "rpc error", b: behavior{Error: map[string]any{"code": -32000, "message": "boom"}}, outcome: engine.OutcomeError, check: func(t *testing.T, c engine.HookCall) {
			if !strings.Contains(c.RPCError, "-32000") || !strings.Contains(c.RPCError, "boom") {
				t.Errorf("rpc error %q", c.RPCError)
			}
		}},
		{name: "not json", b: behavior{Raw: "this is not json"}, outcome: engine.OutcomeError, check: func(t *testing.T, c engine.HookCall) {
			if c.OutputText != "this is not json" {
				t.Errorf("output text %q", c.OutputText)
			}
		}},
		// a line over the limit names the limit, and the trace keeps only its start
		{name: "line too long", b: behavior{BigMiB: 30}, outcome: engine.OutcomeError, check: func(t *testing.T, c engine.HookCall) {
			if !strings.Contains(c.Error, "30.0 MiB") || !strings.Contains(c.Error, "16 MiB") || strings.Contains(c.Error, "not JSON") {
				t.Errorf("error %q: it must name the size and the limit", c.Error)
			}
			if len(c.OutputText) > 8<<10 || !strings.Contains(c.OutputText, "not kept") {
				t.Errorf("the trace keeps %d bytes of the line", len(c.OutputText))
			}
		}, wait: time.Minute}, // 30 MiB through a pipe takes a while on a busy machine
		{name: "unknown id", b: behavior{Raw: `{"jsonrpc":"2.0","id":999,"result":{"action":"deny_tool"}}`}, outcome: engine.OutcomeTimeout, check: func(t *testing.T, c engine.HookCall) {
			if !slices.ContainsFunc(c.Warnings, func(s string) bool { return strings.Contains(s, "999") }) {
				t.Errorf("warnings %q: the stray answer must be shown", c.Warnings)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": c.b}}, []string{"before_tool"})
			h.Defaults.Interceptor = cmp.Or(c.wait, 300*time.Millisecond)
			tr, err := simulate(t, toolScenario(t, "bash"), h)
			if err != nil {
				t.Fatal(err)
			}
			bt := calls(tr, "hook.before_tool")
			if len(bt) != 1 || bt[0].Outcome != c.outcome || bt[0].Error == "" {
				t.Fatalf("before_tool calls %+v, want one %s with an error", bt, c.outcome)
			}
			if c.check != nil {
				c.check(t, bt[0])
			}
			// The run went on: the tool ran as if the hook said continue.
			if tc := tool(tr, "bash"); tc.Result != "ok:bash" || tc.Status != "" {
				t.Errorf("tool call %+v", tc)
			}
		})
	}
}

// An approval hook that does not answer in time denies, in PicoClaw's
// words ("tool approval hook %q timed out", behind its denial prefix).
func TestApprovalTimeoutDenies(t *testing.T) {
	h, _ := testHook(t, "gate", plan{Methods: map[string]behavior{"approve_tool": {SleepMS: 600}}}, []string{"approve_tool"})
	h.Defaults.Approval = 200 * time.Millisecond
	h.Defaults.Interceptor = 5 * time.Second // not the one that applies
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	c := calls(tr, "hook.approve_tool")[0]
	if c.Outcome != engine.OutcomeTimeout || c.DurationMS > 3000 {
		t.Errorf("approve call %+v", c)
	}
	if tc := tool(tr, "bash"); tc.Status != engine.ToolDenied || tc.Result != `Tool execution denied by approval hook: tool approval hook "gate" timed out` {
		t.Errorf("tool %+v: a late approval denies", tc)
	}
}

// A notification to a process that stopped reading its stdin gives up at
// the observer timeout instead of blocking the run.
func TestObserverTimeoutWhenHookStopsReading(t *testing.T) {
	p, err := spawn("stuck", []string{"sleep", "5"}, t.TempDir(), CleanEnv())
	if err != nil {
		t.Fatal(err)
	}
	defer p.stop(100 * time.Millisecond)
	big := strings.Repeat("x", 200<<10) // more than a pipe holds
	x := p.notify("hook.runtime_event", map[string]string{"big": big}, 150*time.Millisecond)
	if x.kind != failWrite || x.dur > time.Second {
		t.Errorf("notify to a process that does not read: kind %v after %s", x.kind, x.dur)
	}
}

func TestStderrKept(t *testing.T) {
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": {Stderr: "debug: looking at bash"}}}, []string{"before_tool"})
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, c := range calls(tr, "") {
		all.WriteString(c.Stderr)
	}
	if !strings.Contains(all.String(), "debug: looking at bash") {
		t.Errorf("stderr lost: %q", all.String())
	}
}

// A hook that crashes is shown, restarted once, and disabled after its
// second crash; the run goes on.
func TestCrashRestartOnceThenDisabled(t *testing.T) {
	h, log := testHook(t, "crashy", plan{Methods: map[string]behavior{"before_tool": {Exit: intp(3), Stderr: "panic: oh no"}}}, []string{"before_tool"})
	tr, err := simulateDoc(t, toolScenario(t, "a", "b", "c"), h)
	if err != nil {
		t.Fatal(err)
	}
	ev := events(tr)
	want := []string{"crashy process.start", "crashy hook.hello", "crashy hook.before_tool", "crashy process.exit",
		"crashy process.start", "crashy hook.hello", "crashy hook.before_tool", "crashy process.exit",
		"crashy hook.before_tool"}
	if !slices.Equal(ev, want) {
		t.Fatalf("timeline %q\nwant %q", ev, want)
	}
	bt := calls(tr, "hook.before_tool")
	if bt[0].Outcome != engine.OutcomeError || bt[2].Outcome != engine.OutcomeSkipped {
		t.Errorf("outcomes %s, %s", bt[0].Outcome, bt[2].Outcome)
	}
	exit := calls(tr, "process.exit")[0]
	if exit.ExitCode == nil || *exit.ExitCode != 3 || !strings.Contains(exit.Stderr+bt[0].Stderr, "panic: oh no") {
		t.Errorf("exit %+v", exit)
	}
	for _, name := range []string{"a", "b", "c"} {
		if tc := tool(tr, name); tc.Result != "ok:"+name {
			t.Errorf("tool %s: %+v", name, tc)
		}
	}
	if n := strings.Count(strings.Join(methods(received(t, log)), " "), "hook.hello"); n != 2 {
		t.Errorf("%d hellos, want 2 (one restart)", n)
	}
}

// A crash that happens once: the restarted process serves the rest.
func TestCrashOnceRestarted(t *testing.T) {
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": {Exit: intp(1), Once: true}}}, []string{"before_tool"})
	tr, err := simulate(t, toolScenario(t, "a", "b"), h)
	if err != nil {
		t.Fatal(err)
	}
	bt := calls(tr, "hook.before_tool")
	if len(bt) != 2 || bt[0].Outcome != engine.OutcomeError || bt[1].Outcome != engine.OutcomeOK {
		t.Fatalf("before_tool %+v", bt)
	}
	if len(calls(tr, "process.start")) != 2 {
		t.Errorf("starts: %q", events(tr))
	}
}

func TestHelloNotAnsweredStopsTheHook(t *testing.T) {
	h, log := testHook(t, "mute", plan{Methods: map[string]behavior{"hello": {NoAnswer: true}}}, []string{"before_tool"})
	h.Defaults.Interceptor = 200 * time.Millisecond
	tr, err := simulateDoc(t, toolScenario(t, "a", "b"), h)
	if err != nil {
		t.Fatal(err)
	}
	hello := calls(tr, "hook.hello")
	if len(hello) != 1 || hello[0].Outcome != engine.OutcomeTimeout {
		t.Fatalf("hello %+v", hello)
	}
	if ex := calls(tr, "process.exit"); len(ex) != 1 || ex[0].Outcome != engine.OutcomeStopped {
		t.Errorf("exit %+v", ex)
	}
	for _, c := range calls(tr, "hook.before_tool") {
		if c.Outcome != engine.OutcomeSkipped {
			t.Errorf("before_tool sent to a hook that failed hello: %+v", c)
		}
	}
	if got := methods(received(t, log)); !slices.Equal(got, []string{"hook.hello"}) {
		t.Errorf("received %q", got)
	}
}

// A process that ignores its closed stdin (and SIGTERM) is killed after
// the grace, with its whole process group.
func TestShutdownKillsAHookThatNeverExits(t *testing.T) {
	h, _ := testHook(t, "stubborn", plan{IgnoreEOF: true, Spawn: true}, []string{"before_tool"})
	childFile := h.Dir + "/child.pid"
	h.Env["HOOK_CHILD"] = childFile
	start := time.Now()
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	exit := calls(tr, "process.exit")
	if len(exit) != 1 || exit[0].Outcome != engine.OutcomeError || !strings.Contains(exit[0].Error, "killed") {
		t.Fatalf("exit %+v", exit)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("shutdown took %s", d)
	}
	data, err := os.ReadFile(childFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(data))
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		// A zombie until its parent (init) reaps it is fine: check its state.
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err != nil || strings.Contains(string(st), ") Z") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the hook's child %d survived the kill", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Requests are matched by id: answers that arrive late (after a timeout)
// never answer a later request.
func TestLateAnswerNeverMixedUp(t *testing.T) {
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{
		"before_tool": {SleepMS: 600, Result: map[string]any{"action": "deny_tool", "reason": "late"}, Once: true},
	}}, []string{"before_tool"})
	h.Defaults.Interceptor = 400 * time.Millisecond
	tr, err := simulateDoc(t, toolScenario(t, "a", "b"), h)
	if err != nil {
		t.Fatal(err)
	}
	bt := calls(tr, "hook.before_tool")
	if bt[0].Outcome != engine.OutcomeTimeout || bt[1].Outcome != engine.OutcomeOK {
		t.Fatalf("outcomes %s %s", bt[0].Outcome, bt[1].Outcome)
	}
	if tool(tr, "b").Status == engine.ToolDenied {
		t.Errorf("the late deny of a's request was taken as b's answer")
	}
	if !slices.ContainsFunc(bt[1].Warnings, func(s string) bool { return strings.Contains(s, "matches no waiting request") }) {
		t.Errorf("late answer not shown: %q", bt[1].Warnings)
	}
}

// A skill's hook is active only while the scenario enables the skill.
func TestSkillEnablement(t *testing.T) {
	h, log := testHook(t, "h", plan{}, []string{"before_tool"})
	h.Skill = "plugin"
	sc := toolScenario(t, "bash")
	sc.EnabledSkills = []string{"other"}
	if _, err := simulate(t, sc, h); err != nil {
		t.Fatal(err)
	}
	if got := received(t, log); len(got) != 0 {
		t.Errorf("a disabled skill's hook was started: %q", methods(got))
	}
	sc.EnabledSkills = []string{"plugin"}
	if _, err := simulate(t, sc, h); err != nil {
		t.Fatal(err)
	}
	if got := methods(received(t, log)); !slices.Contains(got, "hook.before_tool") {
		t.Errorf("an enabled skill's hook got %q", got)
	}
}

// Every run starts its processes anew, so an edited script is used at once.
func TestEachRunStartsAfresh(t *testing.T) {
	h, log := testHook(t, "h", plan{}, []string{"before_tool"})
	hd := New([]Hook{h}, Options{Grace: 200 * time.Millisecond, Mode: hostmode.Document})
	defer hd.Close()
	sc := toolScenario(t, "bash")
	for range 2 {
		if _, err := engine.Run(t.Context(), sc, noHooks{}, engineConfig(sc, hd)); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(strings.Join(methods(received(t, log)), " "), "hook.hello"); n != 2 {
		t.Errorf("%d hellos over two runs, want 2", n)
	}
	if m := hd.Metrics()[0]; m.Starts != 1 || m.Requests != 1 || m.StartupMS <= 0 {
		t.Errorf("metrics of the last run %+v", m)
	}
}

// Cancelling the run while a hook is thinking ends the run at once; Close
// from another goroutine stops the process; nothing is left behind.
func TestCancelDuringACall(t *testing.T) {
	h, _ := testHook(t, "slow", plan{Methods: map[string]behavior{"before_tool": {SleepMS: 5000}}}, []string{"before_tool"})
	before := runtime.NumGoroutine()
	hd := New([]Hook{h}, Options{Grace: 200 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.Sleep(300 * time.Millisecond)
		_ = hd.Metrics() // read while the run writes them
		cancel()
		hd.Close() // from another goroutine, while the call waits
	}()
	sc := toolScenario(t, "bash")
	start := time.Now()
	_, err := engine.Run(ctx, sc, noHooks{}, engineConfig(sc, hd))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("err %v after %s", err, time.Since(start))
	}
	<-done
	hd.Close()
	noLeak(t, before)
}

// A hook that closes its stdin but keeps running: requests fail at once
// instead of hanging, and shutdown still ends it.
func TestHookClosesItsStdin(t *testing.T) {
	h := Hook{Name: "deaf", File: "x/hooks/picoclaw.json", Enabled: true, OK: true, Dir: t.TempDir(),
		Command:   []string{"sh", "-c", `read line; echo '{"jsonrpc":"2.0","id":1,"result":{"ok":true}}'; exec 0<&-; sleep 30`},
		Intercept: []string{"before_tool"}, Defaults: Defaults{Observer: time.Second, Interceptor: time.Second, Approval: time.Second}}
	start := time.Now()
	tr, err := simulate(t, toolScenario(t, "a", "b"), h)
	if err != nil {
		t.Fatal(err)
	}
	// The first request may still fit in the pipe before the hook closes
	// it (then it times out); the last is refused at once.
	bt := calls(tr, "hook.before_tool")
	if last := bt[len(bt)-1]; last.Outcome != engine.OutcomeError || last.DurationMS > 900 {
		t.Errorf("last before_tool %s after %.0f ms: %s", last.Outcome, last.DurationMS, last.Error)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}
