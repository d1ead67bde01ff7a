package cmdhook

import (
	"context"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
)

// One test per row of host-differences.md where seed 001 and jcli's code
// disagree (the format and RegisterHook: hookdir_test.go; the environment:
// TestEnvironment): each behaviour does its own thing, and the call that
// differs says what the other would do.
func TestHostBehaviourRows(t *testing.T) {
	rows := []struct {
		name, hooks, scenario string
		check                 func(t *testing.T, mode hostmode.Mode, tr *engine.Trace)
	}{
		{"on_error stop: a failure stops the operation", "pre_send_message:\n  - {name: bad, command: \"exit 3\", on_error: abort}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				stopped := tr.Requests[0].Status == "stopped"
				if stopped != (mode == hostmode.Code) {
					t.Errorf("request %+v", tr.Requests[0])
				}
				noted(t, tr, "pre_send_message", "bad")
			}},
		{"a stopping answer keeps only action, retry_feedback, system_message", "stop:\n  - {name: halt, command: \"cat >/dev/null; echo '{\\\"action\\\": \\\"stop\\\", \\\"additional_context\\\": \\\"extra\\\"}'\"}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "stop")[0]
				applied := strings.Contains(strings.Join(c.Changes, " "), "extra") || strings.Contains(strings.Join(c.Changes, " "), "system prompt")
				if applied != (mode == hostmode.Document) {
					t.Errorf("changes %q", c.Changes)
				}
				noted(t, tr, "stop", "halt")
			}},
		{"a tool filter on an event without a tool", "pre_send_message:\n  - {name: tooly, command: \"cat >/dev/null\", filter: {tool_name: read_file}}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "pre_send_message")
				ran := len(c) == 1 && c[0].Outcome == engine.OutcomeOK
				if ran != (mode == hostmode.Document) || len(c) != 1 || c[0].Other == "" {
					t.Errorf("calls %+v", c)
				}
			}},
		{"model_prefix on an event without a model", "pre_send_message:\n  - {name: modelly, command: \"cat >/dev/null\", filter: {model_prefix: mock}}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "pre_send_message")
				ran := len(c) == 1 && c[0].Outcome == engine.OutcomeOK
				if ran != (mode == hostmode.Document) || len(c) != 1 || c[0].Other == "" {
					t.Errorf("calls %+v", c)
				}
			}},
		{"stop's user_input", "stop:\n  - {name: reader, command: \"cat >/dev/null\"}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "stop")[0]
				want := map[hostmode.Mode]string{hostmode.Code: `"user_input":"hi there"`, hostmode.Document: `"user_input":"hello"`}[mode]
				if !strings.Contains(string(c.Input), want) {
					t.Errorf("stdin %s, want %s", c.Input, want)
				}
				noted(t, tr, "stop", "reader")
			}},
		{"post_llm_response once", "post_llm_response:\n  - {name: after, command: \"cat >/dev/null\"}\n", full,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				ran := 0
				for _, c := range callsOf(tr, "post_llm_response") {
					if c.Outcome == engine.OutcomeOK {
						ran++
					}
				}
				want := map[hostmode.Mode]int{hostmode.Code: 1, hostmode.Document: len(tr.Calls)}[mode]
				if ran != want {
					t.Errorf("post_llm_response ran %d times over %d calls, want %d", ran, len(tr.Calls), want)
				}
				noted(t, tr, "post_llm_response", "after")
			}},
		{"retry_feedback before stop", "stop:\n  - {name: both, command: \"cat >/dev/null; echo '{\\\"action\\\": \\\"stop\\\", \\\"retry_feedback\\\": \\\"again\\\"}'\"}\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				retried := len(tr.Calls) > 1
				if retried != (mode == hostmode.Code) {
					t.Errorf("%d calls: retried %v", len(tr.Calls), retried)
				}
				noted(t, tr, "stop", "both")
			}},
		{"timeout 0", "events: [pre_send_message]\ncommand: \"cat >/dev/null\"\ntimeout: 0\n", direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "pre_send_message")
				timedOut := len(c) == 1 && c[0].Outcome == engine.OutcomeTimeout
				if timedOut != (mode == hostmode.Code) || len(c) != 1 || c[0].Other == "" {
					t.Errorf("calls %+v", c)
				}
			}},
		{"action stop at pre_tool_execution", "pre_tool_execution:\n  - {name: stopper, command: \"cat >/dev/null; echo '{\\\"action\\\": \\\"stop\\\"}'\"}\n", full,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				stopped := tr.Requests[0].Status == "stopped"
				if stopped != (mode == hostmode.Document) {
					t.Errorf("request %+v", tr.Requests[0])
				}
				noted(t, tr, "pre_tool_execution", "stopper")
			}},
		{"a failure under on_error: stop drops the chain's earlier changes", `pre_tool_execution:
  - {name: rewrite, command: "cat >/dev/null; echo '{\"tool_arguments\": {\"path\": \"other.txt\"}}'", filter: {tool_name: read_file}}
  - {name: broken, command: "cat >/dev/null; exit 3", on_error: abort, filter: {tool_name: read_file}}
`, full,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				rf := firstTool(t, tr, "read_file")
				want := map[hostmode.Mode]string{hostmode.Code: "notes.txt", hostmode.Document: "other.txt"}[mode]
				if rf.Arguments["path"] != want {
					t.Errorf("read_file ran with %v, want path %s", rf.Arguments, want)
				}
				c := callsOf(tr, "pre_tool_execution")[0]
				dropped := c.Hook == "rewrite" && len(c.Changes) == 0 && strings.Contains(strings.Join(c.Warnings, " "), "not applied: broken")
				if dropped != (mode == hostmode.Code) {
					t.Errorf("rewrite %+v", c)
				}
				wantNote := map[hostmode.Mode]string{hostmode.Code: "its tool_arguments would apply", hostmode.Document: "jcli's code would not apply this hook's changes: broken"}[mode]
				if !strings.Contains(c.Other, wantNote) {
					t.Errorf("rewrite's note %q, want %q", c.Other, wantNote)
				}
			}},
		{"a stop answer drops them too; the next hook reads the earlier answers", `pre_send_message:
  - {name: edit, command: "cat >/dev/null; echo '{\"user_input\": \"edited\"}'"}
  - {name: halt, command: "grep -q '\"user_input\":\"edited\"' && echo '{\"action\": \"stop\"}'"}
`, direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				// halt stops only if it read edit's answer: both behaviours hand it on.
				if tr.Requests[0].Status != "stopped" {
					t.Errorf("request %+v: halt did not read edit's user_input", tr.Requests[0])
				}
				c := callsOf(tr, "pre_send_message")[0]
				applied := strings.Contains(strings.Join(c.Changes, " "), "user input replaced")
				if applied != (mode == hostmode.Document) {
					t.Errorf("edit %+v", c)
				}
				noted(t, tr, "pre_send_message", "edit")
			}},
		{"the next hook does not read an earlier additional_context", `pre_llm_request:
  - {name: ctx, command: "cat >/dev/null; echo '{\"additional_context\": \"CTX-A\"}'"}
  - {name: reader, command: "cat >/dev/null"}
`, direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				c := callsOf(tr, "pre_llm_request")[1]
				read := strings.Contains(string(c.Input), "CTX-A")
				if c.Hook != "reader" || read != (mode == hostmode.Document) {
					t.Errorf("reader's stdin %s", c.Input)
				}
				// Both apply it to the call.
				if msgs := tr.CallMessages(0); len(msgs) == 0 || !strings.Contains(msgs[0].Content, "CTX-A") {
					t.Errorf("the call's messages %+v", msgs)
				}
				noted(t, tr, "pre_llm_request", "reader")
			}},
		{"a stop the event ignores still ends jcli's chain", `post_send_message:
  - {name: halt, command: "cat >/dev/null; echo '{\"action\": \"stop\"}'"}
  - {name: after, command: "cat >/dev/null"}
`, direct,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				ran := len(callsOf(tr, "post_send_message")) == 2
				if ran != (mode == hostmode.Document) {
					t.Errorf("calls %+v", callsOf(tr, "post_send_message"))
				}
				if mode == hostmode.Document {
					noted(t, tr, "post_send_message", "halt")
				}
			}},
		{"a skip at pre_tool_execution fails the tool", `pre_tool_execution:
  - {name: skipper, command: "cat >/dev/null; echo '{\"action\": \"skip\"}'", filter: {tool_name: read_file}}
post_tool_execution_failure:
  - {name: on-fail, command: "grep -q 'skipped by hook skipper' && echo '{\"tool_error\": \"FAILED-NOTE\", \"additional_context\": \"ctx\"}'"}
post_tool_execution:
  - {name: on-result, command: "grep -q FAILED-NOTE && echo '{\"tool_result\": \"seen: FAILED-NOTE\"}'"}
`, full,
			func(t *testing.T, mode hostmode.Mode, tr *engine.Trace) {
				rf := firstTool(t, tr, "read_file")
				want := map[hostmode.Mode]string{hostmode.Code: "seen: FAILED-NOTE", hostmode.Document: "Tool call read_file was skipped by hook skipper."}[mode]
				if rf.Status != engine.ToolSkipped || rf.Result != want {
					t.Errorf("read_file %+v, want the result %q", rf, want)
				}
				var failures, results int
				for _, c := range tr.HookCalls {
					switch {
					case c.Event == "post_tool_execution_failure" && strings.Contains(string(c.Input), "skipped by hook skipper"):
						failures++
					case c.Event == "post_tool_execution" && c.Hook == "on-result":
						results++
					}
				}
				// Two read_file calls in full: each is skipped.
				n := map[hostmode.Mode]int{hostmode.Code: 2, hostmode.Document: 0}[mode]
				if failures != n || results != n {
					t.Errorf("for the skipped tools: %d post_tool_execution_failure, %d post_tool_execution calls, want %d each", failures, results, n)
				}
				noted(t, tr, "pre_tool_execution", "skipper")
				if mode == hostmode.Code {
					noted(t, tr, "post_tool_execution_failure", "on-fail")
				}
			}},
	}
	for _, r := range rows {
		for _, mode := range []hostmode.Mode{hostmode.Code, hostmode.Document} {
			t.Run(r.name+"/"+string(mode), func(t *testing.T) {
				file := ProjectFile
				if !strings.Contains(r.hooks, ":\n  - ") {
					file = ".jcli/hooks/" + r.name[:4] + "/HOOK.yaml" // jcli's current format
				}
				root := writeTree(t, map[string]string{file: r.hooks})
				tr, _, err := simulate(t, root, parseScenario(t, r.scenario), func(o *Options) { o.Mode = mode })
				if err != nil {
					t.Fatal(err)
				}
				r.check(t, mode, tr)
			})
		}
	}
}

// noted fails unless a call of hook at event says what the other
// behaviour does, besides the environment (which every first call notes).
func noted(t *testing.T, tr *engine.Trace, event, hook string) {
	t.Helper()
	for _, c := range callsOf(tr, event) {
		if c.Hook != hook {
			continue
		}
		for _, n := range strings.Split(c.Other, "; ") {
			if n != "" && !strings.Contains(n, "environment") {
				return
			}
		}
	}
	t.Errorf("no %s call of %s notes the other behaviour: %+v", event, hook, callsOf(tr, event))
}

// firstTool is the first call of the named tool in the trace.
func firstTool(t *testing.T, tr *engine.Trace, name string) engine.ToolCall {
	t.Helper()
	for _, c := range tr.Calls {
		for _, tc := range c.ToolCalls {
			if tc.Name == name {
				return tc
			}
		}
	}
	t.Fatalf("no %s call", name)
	return engine.ToolCall{}
}

// The hooks jcli's code runs for a skipped tool keep the skip's order:
// one it never runs (a model_prefix filter where the context has no
// model) shows after the skip, not before it.
func TestSkippedToolOrder(t *testing.T) {
	root := writeTree(t, map[string]string{ProjectFile: `pre_tool_execution:
  - {name: skipper, command: "cat >/dev/null; echo '{\"action\": \"skip\"}'", filter: {tool_name: read_file}}
post_tool_execution_failure:
  - {name: modelly, command: "cat >/dev/null", filter: {model_prefix: gpt}}
`})
	tr, _, err := simulate(t, root, parseScenario(t, full), nil)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range tr.HookCalls {
		order = append(order, c.Hook+":"+string(c.Outcome))
	}
	if len(order) < 2 || order[0] != "skipper:skipped" || order[1] != "modelly:skipped" {
		t.Errorf("hook calls %q, want the skip first, then the failure hook that is not run", order)
	}
}

// Issue 25: hooks that print their context back — the answer, the tool's
// arguments and result as they got them — change nothing, in either host
// behaviour (the document's post_llm_response also sees answers with tool
// calls): the model reads what a run without them reads.
func TestEchoingHooksChangeNothing(t *testing.T) {
	hooks := "post_llm_response:\n  - {name: echo-answer, command: cat}\n" +
		"pre_tool_execution:\n  - {name: echo-call, command: cat}\n" +
		"post_tool_execution:\n  - {name: echo-result, command: cat}\n"
	sc := parseScenario(t, full)
	plain, err := engine.Run(context.Background(), sc, noPromptHooks{}, engine.Config{Model: mockFor(sc)})
	if err != nil {
		t.Fatal(err)
	}
	want := lastCallText(plain)
	for _, mode := range []hostmode.Mode{hostmode.Code, hostmode.Document} {
		t.Run(string(mode), func(t *testing.T) {
			root := writeTree(t, map[string]string{ProjectFile: hooks})
			tr, _, err := simulate(t, root, sc, func(o *Options) { o.Mode = mode })
			if err != nil {
				t.Fatal(err)
			}
			if got := lastCallText(tr); !slices.Equal(got, want) {
				t.Errorf("the last call reads %q, want %q", got, want)
			}
			ran := 0
			for _, c := range tr.HookCalls {
				if c.Outcome != engine.OutcomeSkipped {
					ran++
				}
				if len(c.Changes) > 0 || (c.Outcome != engine.OutcomeOK && c.Outcome != engine.OutcomeSkipped) {
					t.Errorf("%s %s: %s, changes %q", c.Event, c.Hook, c.Outcome, c.Changes)
				}
			}
			if ran < 4 {
				t.Errorf("%d hook calls ran; the test needs the echoes to run", ran)
			}
		})
	}
}

func lastCallText(tr *engine.Trace) []string {
	var out []string
	for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
		out = append(out, m.Role+":"+m.Content)
	}
	return out
}
