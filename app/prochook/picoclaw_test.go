//go:build unix

package prochook

import (
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/engine"
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
