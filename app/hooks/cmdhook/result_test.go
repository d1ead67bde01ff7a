package cmdhook

import (
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// sample values of every HookResult field.
var sampleFields = map[string]string{
	"user_input":         `"new input"`,
	"assistant_output":   `"new answer"`,
	"messages":           `[{"role":"user","content":"only"}]`,
	"system_prompt":      `"new system"`,
	"tool_arguments":     `"{\"path\":\"b\"}"`,
	"tool_result":        `"new result"`,
	"tool_error":         `"new error"`,
	"inject_messages":    `[{"role":"user","content":"more"}]`,
	"retry_feedback":     `"again"`,
	"additional_context": `"context"`,
}

// fieldSet says whether the effect carries the field.
func fieldSet(eff engine.Effect, field string) bool {
	switch field {
	case "user_input":
		return eff.UserInput != nil
	case "assistant_output":
		return eff.Answer != nil
	case "messages":
		return eff.Messages != nil
	case "system_prompt":
		return eff.SystemPrompt != nil
	case "tool_arguments":
		return eff.ToolArguments != nil
	case "tool_result":
		return eff.ToolResult != nil
	case "tool_error":
		return eff.ToolError != nil
	case "inject_messages":
		return eff.Inject != nil
	case "retry_feedback":
		return eff.RetryFeedback != ""
	case "additional_context":
		return eff.AppendSystem != ""
	}
	return false
}

// TestResultFieldPerEvent: every field on every event is applied exactly
// where seed 001's table says, and is a warning (not applied) elsewhere.
func TestResultFieldPerEvent(t *testing.T) {
	applies := map[Event][]string{
		PreSendMessage:           {"user_input", "retry_feedback"},
		PreLLMRequest:            {"messages", "system_prompt", "inject_messages", "additional_context", "retry_feedback"},
		PostLLMResponse:          {"assistant_output", "retry_feedback"},
		PreToolExecution:         {"tool_arguments"},
		PostToolExecution:        {"tool_result"},
		PostToolExecutionFailure: {"tool_error", "additional_context"},
		Stop:                     {"retry_feedback", "additional_context"},
		PostMicroCompact:         {"messages"},
		PreAutoCompact:           {"additional_context"},
		PostAutoCompact:          {"messages"},
	}
	for _, ev := range Events {
		for field, val := range sampleFields {
			eff, warns, err := decodeResult(ev, []byte(`{"`+field+`": `+val+`}`))
			if err != nil {
				t.Fatalf("%s %s: %v", ev, field, err)
			}
			want := slices.Contains(applies[ev], field)
			if got := fieldSet(eff, field); got != want {
				t.Errorf("%s: %s applied = %v, want %v", ev, field, got, want)
			}
			if want != (len(warns) == 0) {
				t.Errorf("%s: %s warnings %q (applies: %v)", ev, field, warns, want)
			}
		}
		// action
		for _, act := range []struct {
			json string
			want engine.Action
			bit  int
		}{{`{"action":"stop"}`, engine.ActionStop, resActionStop}, {`{"action":"skip"}`, engine.ActionSkip, resActionSkip}, {`{"abort":true}`, engine.ActionStop, resActionStop}} {
			eff, warns, _ := decodeResult(ev, []byte(act.json))
			ok := specs[ev].applies&act.bit != 0
			if (eff.Action == act.want) != ok || ok == (len(warns) > 0) {
				t.Errorf("%s %s: action %q warnings %q, applies %v", ev, act.json, eff.Action, warns, ok)
			}
		}
		// system_message applies everywhere.
		eff, warns, _ := decodeResult(ev, []byte(`{"system_message":"hi"}`))
		if eff.Notice != "hi" || len(warns) > 0 {
			t.Errorf("%s: system_message %q warnings %q", ev, eff.Notice, warns)
		}
	}
}

func TestDecodeResultShapes(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		wantErr bool
		warns   int
		check   func(engine.Effect) bool
	}{
		{"empty", "", false, 0, func(e engine.Effect) bool { return e.ToolArguments == nil }},
		{"blank", " \n", false, 0, nil},
		{"empty object", "{}", false, 0, nil},
		{"invalid", "{not json", true, 0, nil},
		{"plain text", "hello", true, 0, nil},
		{"array", "[1]", true, 0, nil},
		{"arguments as object", `{"tool_arguments": {"path": "c"}}`, false, 0, func(e engine.Effect) bool { return e.ToolArguments["path"] == "c" }},
		{"arguments as string", `{"tool_arguments": "{\"path\": \"d\"}"}`, false, 0, func(e engine.Effect) bool { return e.ToolArguments["path"] == "d" }},
		{"arguments not an object", `{"tool_arguments": "[1]"}`, false, 1, func(e engine.Effect) bool { return e.ToolArguments == nil }},
		{"unknown field", `{"actoin": "skip"}`, false, 1, func(e engine.Effect) bool { return e.Action == "" }},
		{"unknown action", `{"action": "explode"}`, false, 1, func(e engine.Effect) bool { return e.Action == "" }},
		{"wrong type", `{"tool_arguments": 3}`, false, 1, nil},
		{"null is absent", `{"action": null}`, false, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eff, warns, err := decodeResult(PreToolExecution, []byte(tt.out))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if len(warns) != tt.warns {
				t.Errorf("warnings %q, want %d", warns, tt.warns)
			}
			if tt.check != nil && !tt.check(eff) {
				t.Errorf("effect %+v", eff)
			}
		})
	}
	// A notification ignores everything but system_message, with a warning.
	eff, warns, _ := decodeResult(SessionStart, []byte(`{"inject_messages": [{"role":"user","content":"x"}], "system_message": "hi"}`))
	if eff.Inject != nil || eff.Notice != "hi" || len(warns) != 1 {
		t.Errorf("session_start: %+v %q", eff, warns)
	}
	// A message with an unknown role is not applied.
	eff, warns, _ = decodeResult(PreLLMRequest, []byte(`{"inject_messages": [{"role":"robot","content":"x"}]}`))
	if eff.Inject != nil || len(warns) != 1 {
		t.Errorf("bad role: %+v %q", eff, warns)
	}
}

// TestResultFieldsApplied runs every applying field end to end and checks
// the trace shows its effect.
func TestResultFieldsApplied(t *testing.T) {
	lastCall := func(tr *engine.Trace) []engine.Message { return tr.CallMessages(len(tr.Calls) - 1) }
	firstCall := func(tr *engine.Trace) []engine.Message { return tr.CallMessages(0) }
	tests := []struct {
		name  string
		hooks string
		sc    string
		check func(t *testing.T, tr *engine.Trace)
	}{
		{"pre_send_message user_input", echoHook("pre_send_message", `{"user_input":"Read the notes, please"}`), full, func(t *testing.T, tr *engine.Trace) {
			if m := firstCall(tr)[1]; m.Content != "Read the notes, please" || m.EditedBy != "pre_send_message[0]" {
				t.Errorf("user message %+v", m)
			}
		}},
		{"pre_send_message action stop", echoHook("pre_send_message", `{"action":"stop"}`), full, func(t *testing.T, tr *engine.Trace) {
			if tr.Requests[0].Status != "stopped" || len(tr.Calls) != 0 {
				t.Errorf("status %q, %d calls", tr.Requests[0].Status, len(tr.Calls))
			}
		}},
		{"pre_send_message retry_feedback", echoHook("pre_send_message", `{"retry_feedback":"be precise"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if !hasMessage(firstCall(tr), "user", "be precise") {
				t.Errorf("no feedback message: %v", tags(firstCall(tr)))
			}
		}},
		{"pre_llm_request messages", echoHook("pre_llm_request", `{"messages":[{"role":"system","content":"S"},{"role":"user","content":"U"}]}`), direct, func(t *testing.T, tr *engine.Trace) {
			got := firstCall(tr)
			if len(got) != 2 || got[0].Content != "S" || got[1].Content != "U" {
				t.Errorf("messages %v", tags(got))
			}
		}},
		{"pre_llm_request system_prompt", echoHook("pre_llm_request", `{"system_prompt":"Be verbose."}`), direct, func(t *testing.T, tr *engine.Trace) {
			if got := firstCall(tr)[0]; got.Content != "Be verbose." || got.Role != "system" {
				t.Errorf("system %+v", got)
			}
		}},
		{"pre_llm_request inject_messages", echoHook("pre_llm_request", `{"inject_messages":[{"role":"user","content":"Time: noon"}]}`), direct, func(t *testing.T, tr *engine.Trace) {
			got := firstCall(tr)
			if last := got[len(got)-1]; last.Content != "Time: noon" || last.Origin != engine.OriginHook || last.System != "command" {
				t.Errorf("last %+v", last)
			}
		}},
		{"pre_llm_request additional_context", echoHook("pre_llm_request", `{"additional_context":"branch: main"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if got := firstCall(tr)[0].Content; got != "Be brief.\n\nbranch: main" {
				t.Errorf("system %q", got)
			}
		}},
		{"pre_llm_request action stop", echoHook("pre_llm_request", `{"action":"stop"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if tr.Requests[0].Status != "stopped" {
				t.Errorf("status %q", tr.Requests[0].Status)
			}
		}},
		{"pre_llm_request legacy abort", echoHook("pre_llm_request", `{"abort":true}`), direct, func(t *testing.T, tr *engine.Trace) {
			if tr.Requests[0].Status != "stopped" {
				t.Errorf("status %q", tr.Requests[0].Status)
			}
		}},
		{"pre_llm_request retry_feedback", echoHook("pre_llm_request", `{"retry_feedback":"think again"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if !hasMessage(firstCall(tr), "user", "think again") {
				t.Errorf("messages %v", tags(firstCall(tr)))
			}
		}},
		{"post_llm_response assistant_output", echoHook("post_llm_response", `{"assistant_output":"HI"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if tr.Requests[0].Reply != "HI" || tr.Calls[0].OriginalContent == nil {
				t.Errorf("reply %q", tr.Requests[0].Reply)
			}
		}},
		{"post_llm_response action stop", echoHook("post_llm_response", `{"action":"stop"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if tr.Requests[0].Status != "stopped" {
				t.Errorf("status %q", tr.Requests[0].Status)
			}
		}},
		{"post_llm_response retry_feedback", "post_llm_response:\n  - command: \"grep -q again && echo {} || echo '{\\\"retry_feedback\\\": \\\"again\\\"}'\"\n", direct, func(t *testing.T, tr *engine.Trace) {
			if len(tr.Calls) != 2 || !hasMessage(lastCall(tr), "user", "again") {
				t.Errorf("%d calls, last %v", len(tr.Calls), tags(lastCall(tr)))
			}
		}},
		{"pre_tool_execution tool_arguments", "pre_tool_execution:\n  - command: \"echo '{\\\"tool_arguments\\\": \\\"{\\\\\\\"path\\\\\\\": \\\\\\\"safe.txt\\\\\\\"}\\\"}'\"\n    filter: {tool_name: read_file}\n", full, func(t *testing.T, tr *engine.Trace) {
			tc := tr.Calls[1].ToolCalls[0]
			if tc.Arguments["path"] != "safe.txt" || tc.OriginalArguments["path"] != "notes.txt" {
				t.Errorf("tool call %+v", tc)
			}
		}},
		{"pre_tool_execution action skip", echoHook("pre_tool_execution", `{"action":"skip"}`), full, func(t *testing.T, tr *engine.Trace) {
			for _, tc := range tr.Calls[1].ToolCalls {
				if tc.Status != engine.ToolSkipped {
					t.Errorf("tool call %+v", tc)
				}
			}
		}},
		{"post_tool_execution tool_result", echoHook("post_tool_execution", `{"tool_result":"[redacted]"}`), full, func(t *testing.T, tr *engine.Trace) {
			if !hasMessage(tr.CallMessages(2), "tool", "[redacted]") {
				t.Errorf("messages %v", tags(tr.CallMessages(2)))
			}
		}},
		{"post_tool_execution_failure tool_error", echoHook("post_tool_execution_failure", `{"tool_error":"missing; create it first"}`), full, func(t *testing.T, tr *engine.Trace) {
			if !hasMessage(tr.CallMessages(2), "tool", "missing; create it first") {
				t.Errorf("messages %v", tags(tr.CallMessages(2)))
			}
		}},
		{"post_tool_execution_failure additional_context", echoHook("post_tool_execution_failure", `{"additional_context":"Check paths first."}`), full, func(t *testing.T, tr *engine.Trace) {
			if got := tr.CallMessages(2)[0].Content; !strings.HasSuffix(got, "Check paths first.") {
				t.Errorf("system %q", got)
			}
		}},
		{"stop retry_feedback", "stop:\n  - command: \"grep -q Summary: && echo {} || echo '{\\\"retry_feedback\\\": \\\"Please summarize\\\"}'\"\n", direct, func(t *testing.T, tr *engine.Trace) {
			// The mock answers the same each time: MaxRetries bounds the loop.
			if len(tr.Calls) != engine.MaxRetries+1 {
				t.Errorf("%d calls", len(tr.Calls))
			}
		}},
		{"stop additional_context", echoHook("stop", `{"additional_context":"remember"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if c := callsOf(tr, "stop"); len(c) != 1 || c[0].Outcome != engine.OutcomeModified {
				t.Errorf("stop calls %+v", c)
			}
		}},
		{"stop action stop", echoHook("stop", `{"action":"stop"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if c := callsOf(tr, "stop"); len(c) != 1 || c[0].Outcome != engine.OutcomeStopped {
				t.Errorf("stop calls %+v", c)
			}
		}},
		{"pre_micro_compact action stop", echoHook("pre_micro_compact", `{"action":"stop"}`), full, func(t *testing.T, tr *engine.Trace) {
			if n := countSteps(tr, engine.StepCompact); n != 1 { // only the auto one
				t.Errorf("%d compactions", n)
			}
		}},
		{"pre_auto_compact additional_context", echoHook("pre_auto_compact", `{"additional_context":"Keep the file names."}`), full, func(t *testing.T, tr *engine.Trace) {
			if !hasMessage(lastCall(tr), "user", "The user wants the notes.\n\nKeep the file names.") {
				t.Errorf("messages %v", tags(lastCall(tr)))
			}
		}},
		{"pre_auto_compact action stop", echoHook("pre_auto_compact", `{"action":"stop"}`), full, func(t *testing.T, tr *engine.Trace) {
			if n := countSteps(tr, engine.StepCompact); n != 1 {
				t.Errorf("%d compactions", n)
			}
		}},
		{"post_micro_compact messages", echoHook("post_micro_compact", `{"messages":[{"role":"user","content":"condensed"}]}`), full, func(t *testing.T, tr *engine.Trace) {
			if got := tr.CallMessages(2); !hasMessage(got, "user", "condensed") {
				t.Errorf("messages %v", tags(got))
			}
		}},
		{"post_auto_compact messages", echoHook("post_auto_compact", `{"messages":[{"role":"system","content":"S2"},{"role":"user","content":"summary2"}]}`), full, func(t *testing.T, tr *engine.Trace) {
			if got := lastCall(tr); !hasMessage(got, "user", "summary2") || !hasMessage(got, "system", "S2") {
				t.Errorf("messages %v", tags(got))
			}
		}},
		{"session_start system_message", echoHook("session_start", `{"system_message":"Guard rails on"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if c := callsOf(tr, "session_start"); len(c) != 1 || c[0].Notice != "Guard rails on" {
				t.Errorf("calls %+v", c)
			}
		}},
		{"session_end ignored with a warning", echoHook("session_end", `{"inject_messages":[{"role":"user","content":"x"}]}`), direct, func(t *testing.T, tr *engine.Trace) {
			if c := callsOf(tr, "session_end"); len(c) != 1 || len(c[0].Warnings) != 1 || c[0].Outcome != engine.OutcomeOK {
				t.Errorf("calls %+v", c)
			}
		}},
		{"post_send_message ignored with a warning", echoHook("post_send_message", `{"user_input":"x"}`), direct, func(t *testing.T, tr *engine.Trace) {
			if c := callsOf(tr, "post_send_message"); len(c) != 1 || len(c[0].Warnings) != 1 || tr.Requests[0].User != "hello" {
				t.Errorf("calls %+v", c)
			}
		}},
		{"field on the wrong event", echoHook("post_tool_execution", `{"tool_arguments":{"path":"x"}}`), full, func(t *testing.T, tr *engine.Trace) {
			c := callsOf(tr, "post_tool_execution")
			if len(c) == 0 || len(c[0].Warnings) != 1 || c[0].Outcome != engine.OutcomeOK {
				t.Errorf("calls %+v", c)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := run(t, tt.hooks, parseScenario(t, tt.sc))
			for _, hc := range tr.HookCalls {
				if hc.Outcome == engine.OutcomeError || hc.Outcome == engine.OutcomeTimeout {
					t.Fatalf("hook failed: %+v", hc)
				}
			}
			tt.check(t, tr)
		})
	}
}

func hasMessage(ms []engine.Message, role, content string) bool {
	for _, m := range ms {
		if m.Role == role && m.Content == content {
			return true
		}
	}
	return false
}

func tags(ms []engine.Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Role + ":" + m.Content
	}
	return out
}

func countSteps(tr *engine.Trace, kind engine.StepKind) int {
	n := 0
	for i := range tr.NumSteps() {
		if tr.Step(i).Kind == kind {
			n++
		}
	}
	return n
}
