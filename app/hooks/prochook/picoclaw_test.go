//go:build unix

package prochook

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hostmode"
)

// picoclawTestHook runs testdata/picoclawhook, which answers exactly as
// PicoClaw's own test helper does, in mode (rewrite, deny, respond).
func picoclawTestHook(t *testing.T, mode string, intercept ...string) Hook {
	t.Helper()
	return Hook{Name: "ipc", File: "skill/hooks/picoclaw.json", Line: 1, Enabled: true, OK: true,
		Command: []string{picoclawHook}, Dir: t.TempDir(), Env: map[string]string{"PICOCLAW_HOOK_MODE": mode},
		Intercept: intercept, Defaults: Defaults{Observer: 500 * time.Millisecond, Interceptor: 5 * time.Second, Approval: 5 * time.Second}}
}

// PicoClaw's TestAgentLoop_MountProcessHook_ToolRewrite: before_tool sets
// arguments.text, after_tool answers the whole params with
// result.result.for_llm prefixed "ipc:". The model reads the prefixed text
// (it read an empty result before the code's shape was understood).
func TestPicoClawToolRewrite(t *testing.T) {
	tr, err := simulate(t, toolScenario(t, "bash"), picoclawTestHook(t, "rewrite", "before_tool", "after_tool"))
	if err != nil {
		t.Fatal(err)
	}
	tc := tool(tr, "bash")
	if tc == nil || tc.Arguments["text"] != "ipc" {
		t.Fatalf("bash call %+v: want arguments.text = ipc", tc)
	}
	if !slices.Contains(finalMessages(tr), "tool:ipc:ok:bash") {
		t.Errorf("final messages %q: want the tool message ipc:ok:bash", finalMessages(tr))
	}
	for _, c := range calls(tr, "hook.after_tool") {
		if c.Outcome != engine.OutcomeModified || len(c.Warnings) > 0 {
			t.Errorf("after_tool call: outcome %s, warnings %q; want modified without warnings", c.Outcome, c.Warnings)
		}
	}
}

// PicoClaw's TestAgentLoop_MountProcessHook_LLMAndObserver: before_llm
// answers the whole request with model process-model, after_llm answers the
// whole params with response.response.content suffixed "|ipc".
func TestPicoClawLLMRewrite(t *testing.T) {
	tr, err := simulate(t, toolScenario(t, "bash"), picoclawTestHook(t, "rewrite", "before_llm", "after_llm"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Requests[0].Reply; got != "done|ipc" {
		t.Errorf("reply %q, want done|ipc", got)
	}
	for _, c := range tr.Calls {
		if c.Model != "process-model" {
			t.Errorf("call %d model %q, want process-model", c.Index, c.Model)
		}
	}
	// The tool calls went through the rewrite unchanged: bash still ran.
	if tc := tool(tr, "bash"); tc == nil || tc.Result != "ok:bash" {
		t.Errorf("bash call %+v: want it kept through the after_llm rewrite", tc)
	}
}

// PicoClaw's respondHook (hooks_test.go) over the wire: action respond with
// the call carrying hook_result. The tool does not run; the model reads the
// hook's text.
func TestPicoClawRespondHookResult(t *testing.T) {
	tr, err := simulate(t, toolScenario(t, "bash"), picoclawTestHook(t, "respond", "before_tool", "after_tool"))
	if err != nil {
		t.Fatal(err)
	}
	tc := tool(tr, "bash")
	if tc == nil || tc.Status != engine.ToolResponded || tc.Result != "hook-responded: bash" {
		t.Fatalf("bash call %+v: want responded with hook-responded: bash", tc)
	}
	if n := len(calls(tr, "hook.after_tool")); n != 0 {
		t.Errorf("%d after_tool calls: a responded tool has none", n)
	}
}

// Each shape is read one way: the seed's shapes keep working, and an
// answer with both shapes' keys is read as PicoClaw reads it, with a warning.
func TestAnswerShapes(t *testing.T) {
	ev := &engine.Event{Answer: "old", Tool: &engine.ToolCall{Name: "bash", Result: "out"}}
	cases := []struct {
		name, raw    string
		result       string // after_tool: the text the model reads ("" unchanged)
		rename, warn string
	}{
		{"seed", `{"result":{"for_llm":"new"}}`, "new", "", ""},
		{"code", `{"result":{"tool":"bash","result":{"for_llm":"new"},"duration":0}}`, "new", "", ""},
		{"code rename", `{"result":{"tool":"sh","result":{"for_llm":"out"}}}`, "", "sh", ""},
		{"code without result", `{"result":{"tool":"bash"}}`, "", "", ""},
		{"both", `{"result":{"for_llm":"x","result":{"for_llm":"new"}}}`, "new", "", "both"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var eff engine.Effect
			warns := modifyResult(ev, []byte(c.raw), &eff)
			got := ""
			if eff.ToolResult != nil {
				got = *eff.ToolResult
			}
			if got != c.result {
				t.Errorf("result %q, want %q", got, c.result)
			}
			if renamed := slices.ContainsFunc(eff.Extra, func(s string) bool { return strings.Contains(s, "renamed to "+c.rename) }); renamed != (c.rename != "") {
				t.Errorf("extra %q, rename %q", eff.Extra, c.rename)
			}
			if (len(warns) > 0) != (c.warn != "") {
				t.Errorf("warnings %q", warns)
			}
		})
	}
	llm := []struct {
		name, raw, answer string
		warn              bool
	}{
		{"seed", `{"response":{"content":"new"}}`, "new", false},
		{"code", `{"response":{"model":"m","response":{"content":"new","finish_reason":"stop"}}}`, "new", false},
		{"code keeps", `{"response":{"model":"m"}}`, "", false},
		{"both", `{"response":{"content":"x","response":{"content":"new"}}}`, "new", true},
	}
	for _, c := range llm {
		t.Run("after_llm "+c.name, func(t *testing.T) {
			var eff engine.Effect
			warns := modifyResponse(ev, []byte(c.raw), &eff)
			got := ""
			if eff.Answer != nil {
				got = *eff.Answer
			}
			if got != c.answer || (len(warns) > 0) != c.warn {
				t.Errorf("answer %q warnings %q; want %q, warning %v", got, warns, c.answer, c.warn)
			}
		})
	}
}

// One test per row of host-differences.md where seed 003 and PicoClaw's
// code disagree: each behaviour does its own thing, and the call that
// differs carries a note saying what the other would do.
func TestHostBehaviourRows(t *testing.T) {
	plugin := map[string]any{"type": "function", "function": map[string]any{"name": "lookup_docs", "description": "docs"}}
	type row struct {
		name  string
		hook  func(t *testing.T) Hook
		check func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error)
	}
	beforeLLM := func(req map[string]any) func(t *testing.T) Hook {
		return func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_llm": {Result: map[string]any{"action": "modify", "request": req}, Nth: 2}}}, []string{"before_llm"})
			return h
		}
	}
	noted := func(t *testing.T, tr *engine.Trace, event, want string) {
		t.Helper()
		for _, c := range calls(tr, event) {
			if strings.Contains(c.Other, want) {
				return
			}
		}
		t.Errorf("no %s call notes %q", event, want)
	}
	rows := []row{
		{"tool definitions at before_llm", beforeLLM(map[string]any{"tools": []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash", "description": "the bash tool"}}, plugin}}),
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
				added := slices.Contains(tr.Calls[1].AddedTools, "lookup_docs")
				if err != nil || added != (mode == hostmode.Document) {
					t.Errorf("err %v, added tools %q", err, tr.Calls[1].AddedTools)
				}
				if mode == hostmode.Code {
					noted(t, tr, "hook.before_llm", "the model would see lookup_docs")
				} else {
					noted(t, tr, "hook.before_llm", "PicoClaw's code reverts this tool definition: the model would not see lookup_docs")
				}
			}},
		{"system message at before_llm", beforeLLM(map[string]any{"messages": []any{map[string]any{"role": "system", "content": "replaced"}, map[string]any{"role": "user", "content": "do it"}}}),
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
				replaced := tr.CallMessages(1)[0].Content == "replaced"
				if err != nil || replaced != (mode == hostmode.Document) {
					t.Errorf("err %v, call 1 system message %q", err, tr.CallMessages(1)[0].Content)
				}
				noted(t, tr, "hook.before_llm", "system message")
			}},
		{"respond without a result", func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": {Result: map[string]any{"action": "respond"}}}}, []string{"before_tool"})
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			tc := tool(tr, "bash")
			if mode == hostmode.Code && (tc.Status == engine.ToolResponded || tc.Result != "ok:bash") {
				t.Errorf("code: the tool runs normally, got %+v", tc)
			}
			if mode == hostmode.Document && (tc.Status != engine.ToolResponded || tc.Result != "") {
				t.Errorf("document: an empty answer, got %+v", tc)
			}
			noted(t, tr, "hook.before_tool", map[hostmode.Mode]string{hostmode.Code: "seed 003", hostmode.Document: "PicoClaw's code"}[mode])
		}},
		{"denial text", func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": {Result: map[string]any{"action": "deny_tool", "reason": "no"}}}}, []string{"before_tool"})
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			want := map[hostmode.Mode]string{hostmode.Code: "Tool execution denied by hook: no", hostmode.Document: "no"}[mode]
			if tc := tool(tr, "bash"); tc.Result != want {
				t.Errorf("denial %q, want %q", tc.Result, want)
			}
			noted(t, tr, "hook.before_tool", "")
		}},
		{"turn status after abort_turn", func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"before_tool": {Result: map[string]any{"action": "abort_turn"}}}}, []string{"before_tool"}, "agent.turn.end")
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			want := map[hostmode.Mode]string{hostmode.Code: `"Status":"error"`, hostmode.Document: `"Status":"aborted"`}[mode]
			ends := calls(tr, "hook.runtime_event")
			if len(ends) != 1 || !strings.Contains(string(ends[0].Input), want) || ends[0].Other == "" {
				t.Errorf("turn.end %+v, want %s and a note", ends, want)
			}
		}},
		{"start failure", func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{}, []string{"before_tool"})
			h.Command = []string{filepath.Join(t.TempDir(), "missing")}
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			if failed := errors.Is(err, ErrStartFailed); failed != (mode == hostmode.Code) {
				t.Errorf("err %v", err)
			}
			noted(t, tr, "process.start", "")
		}},
		{"intercept pairs", func(t *testing.T) Hook {
			h, _ := testHook(t, "h", plan{}, []string{"before_tool"})
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			if sent := len(calls(tr, "hook.after_tool")) > 0; sent != (mode == hostmode.Code) {
				t.Errorf("after_tool sent: %v", sent)
			}
			if mode == hostmode.Code {
				noted(t, tr, "hook.after_tool", "would not be sent")
			} else {
				noted(t, tr, "hook.before_tool", "would also send this hook hook.after_tool")
			}
		}},
		{"environment", func(t *testing.T) Hook {
			t.Setenv("ROW_TEST_VAR", "inherited")
			h, _ := testHook(t, "h", plan{}, []string{"before_tool"})
			return h
		}, func(t *testing.T, mode hostmode.Mode, tr *engine.Trace, err error) {
			// gohook writes its environment's ROW_TEST_VAR to stderr at start.
			var stderr strings.Builder
			for _, c := range calls(tr, "") {
				stderr.WriteString(c.Stderr)
			}
			if got := strings.Contains(stderr.String(), "ROW_TEST_VAR=inherited"); got != (mode == hostmode.Code) {
				t.Errorf("inherited: %v (stderr %q)", got, stderr.String())
			}
			noted(t, tr, "process.start", "environment")
		}},
	}
	for _, r := range rows {
		for _, mode := range []hostmode.Mode{hostmode.Code, hostmode.Document} {
			t.Run(r.name+"/"+string(mode), func(t *testing.T) {
				tr, err := simulateIn(t, mode, toolScenario(t, "bash"), r.hook(t))
				r.check(t, mode, tr, err)
			})
		}
	}
}

// PicoClaw's weather-plugin guide: an agent with no tools of its own whose
// hook offers get_weather at before_llm and answers it at before_tool. As
// seed 003 describes, the agent loop runs; PicoClaw's code reverts the
// offer, so the agent makes one direct call and the call says so.
func TestPluginToolOnlyAgent(t *testing.T) {
	sc, ds := scenario.Parse("weather.yaml", []byte(`name: weather
system_prompt: sys
requests:
  - user: What is the weather in Paris?
    reply: I have no tools to look that up.
    planning: {need_tool: true, content: ask the plugin}
    rounds:
      - tool_calls: [{name: get_weather, arguments: {city: Paris}}]
      - content: It is sunny in Paris.
`))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatal(d)
		}
	}
	weather := map[string]any{"type": "function", "function": map[string]any{"name": "get_weather", "description": "Get the weather of a city",
		"parameters": map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}}}
	h, _ := testHook(t, "weather", plan{Methods: map[string]behavior{
		"before_llm":  {Result: map[string]any{"action": "modify", "request": map[string]any{"tools": []any{weather}}}},
		"before_tool": {Result: map[string]any{"action": "respond", "result": map[string]any{"for_llm": "sunny, 21°C"}}},
	}}, []string{"before_llm", "before_tool"})

	tr, err := simulateDoc(t, sc, h)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Requests[0].Reply; got != "It is sunny in Paris." {
		t.Errorf("document: reply %q, want the agent loop's answer", got)
	}
	if tc := tool(tr, "get_weather"); tc == nil || tc.Status != engine.ToolResponded || tc.Result != "sunny, 21°C" {
		t.Errorf("document: get_weather %+v", tc)
	}

	tr, err = simulate(t, sc, h)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Requests[0].Reply; got != "I have no tools to look that up." || len(tr.Calls) != 1 {
		t.Errorf("code: reply %q after %d calls, want one direct call", got, len(tr.Calls))
	}
	if c := calls(tr, "hook.before_llm"); len(c) != 1 || !strings.Contains(c[0].Other, "the model would see get_weather") {
		t.Errorf("code: before_llm %+v, want a note that seed 003 offers get_weather", c)
	}
}

// The row "a missing hooks.enabled means true": PicoClaw's code starts the
// process (and its start says what seed 003 would do); seed 003's
// behaviour starts none.
func TestEnabledDefault(t *testing.T) {
	hooks, ds := Parse(t.TempDir(), "s/hooks/picoclaw.json", "s", []byte(`{"hooks": {"processes": {"h": {"enabled": true, "command": ["sh"], "intercept": ["before_tool"]}}}}`))
	if len(hooks) != 1 || !hooks[0].DefaultEnabled || len(ds) != 1 || ds[0].Code != CodeEnabledDefault {
		t.Fatalf("hooks %+v, diagnostics %+v", hooks, ds)
	}
	if n := len(Runnable(hooks, hostmode.Code)); n != 1 {
		t.Errorf("code: %d runnable, want 1", n)
	}
	if n := len(Runnable(hooks, hostmode.Document)); n != 0 {
		t.Errorf("document: %d runnable, want 0", n)
	}
	h, _ := testHook(t, "h", plan{}, []string{"before_tool"})
	h.DefaultEnabled = true
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	if s := calls(tr, "process.start"); len(s) != 1 || !strings.Contains(s[0].Other, "hooks.enabled") {
		t.Errorf("process.start %+v", s)
	}
	tr, err = simulateDoc(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(calls(tr, "")); n != 0 {
		t.Errorf("document: %d process hook calls, want none", n)
	}
}

// Issue 25: a hook answering after_llm as PicoClaw's code reads it — the
// whole params back, the answer's tool calls unchanged — must not touch
// the tool calls. The scenario scripts no call ids (the simulator names
// them), as most scenarios do; the after_tool hook then sees the scripted
// result and the model reads it prefixed.
func TestPicoClawEchoKeepsToolCalls(t *testing.T) {
	sc := toolScenario(t, "bash")
	sc.Requests[0].Rounds[0].ToolCalls[0].ID = ""
	tr, err := simulate(t, sc, picoclawTestHook(t, "rewrite", "after_llm", "after_tool"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(finalMessages(tr), "tool:ipc:ok:bash") {
		t.Errorf("final messages %q: want the tool message ipc:ok:bash", finalMessages(tr))
	}
	for _, c := range calls(tr, "hook.after_llm") {
		if len(c.Changes) != 1 { // the answer's text got "|ipc"
			t.Errorf("after_llm changes %q: want only the answer's text", c.Changes)
		}
	}
	for _, c := range calls(tr, "hook.after_tool") {
		var in struct {
			Params toolParams `json:"params"`
		}
		if err := json.Unmarshal(c.Input, &in); err != nil || in.Params.Result == nil || in.Params.Result.ForLLM != "ok:bash" {
			t.Errorf("after_tool params %s: want result.for_llm ok:bash (%v)", c.Input, err)
		}
	}
}

// A hook that changes a call of the answer (here: other arguments, no id)
// keeps the scripted result of the call in that position.
func TestAfterLLMRewrittenCallKeepsScriptedResult(t *testing.T) {
	res := map[string]any{"action": "modify", "response": map[string]any{"content": "", "tool_calls": []any{
		map[string]any{"type": "function", "function": map[string]any{"name": "bash", "arguments": `{"command":"ls -l"}`}}}}}
	h, _ := testHook(t, "h", plan{Methods: map[string]behavior{"after_llm": {Result: res, Nth: 2}}}, []string{"after_llm"})
	tr, err := simulate(t, toolScenario(t, "bash"), h)
	if err != nil {
		t.Fatal(err)
	}
	tc := tool(tr, "bash")
	if tc == nil || tc.Arguments["command"] != "ls -l" || tc.Result != "ok:bash" {
		t.Fatalf("tool call %+v: want the hook's arguments and the scripted result", tc)
	}
	if !slices.Contains(finalMessages(tr), "tool:ok:bash") {
		t.Errorf("final messages %q: want the scripted result", finalMessages(tr))
	}
}
