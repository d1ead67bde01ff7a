package llm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

func TestParseDecision(t *testing.T) {
	tests := []struct {
		text string
		need bool
		ok   bool
		plan string
	}{
		{`{"need_tool": true, "plan": "read main.go"}`, true, true, "read main.go"},
		{`{"need_tool": false, "answer": "Hi!"}`, false, true, "Hi!"},
		{"Sure.\n```json\n{\"need_tool\": true, \"plan\": \"grep\"}\n```", true, true, "grep"},
		{`I think {'need_tool': True, 'plan': 'x'} is right`, true, true, "x"},
		{`{"needTool": "yes"}`, true, true, ""},
		{`{"need_tools": 0}`, false, true, ""},
		{`{"other": 1} and then {"need_tool": true}`, true, true, ""},
		{`need_tool: no — I can answer directly.`, false, true, ""},
		{`NEED TOOL = yes`, true, true, ""},
		{`Yes. I will read the file.`, true, true, ""},
		{`**No**, nothing to run.`, false, true, ""},
		{`I will read the file first.`, false, false, ""},
		{``, false, false, ""},
		{`{"need_tool": "maybe"}`, false, false, ""},
		{`{"need_tool": tru`, false, false, ""},
	}
	for _, tt := range tests {
		d, ok := ParseDecision(tt.text)
		if ok != tt.ok || (ok && (d.NeedTool != tt.need || d.Plan != tt.plan)) {
			t.Errorf("ParseDecision(%q) = %+v, %v; want need %v plan %q ok %v", tt.text, d, ok, tt.need, tt.plan, tt.ok)
		}
	}
}

func TestPlanningRound(t *testing.T) {
	t.Run("decision kept with the raw answer", func(t *testing.T) {
		s := newServer(t, openAIText(`{"need_tool": false, "answer": "Hello."}`))
		m := newTestOpenAI(t, s, nil)
		rep, err := m.Complete(context.Background(), callFor(engine.PhasePlanning, userOnly("hi"), nil))
		if err != nil || rep.NeedTool || rep.Content != `{"need_tool": false, "answer": "Hello."}` {
			t.Fatalf("reply %+v, err %v", rep, err)
		}
	})
	t.Run("undecidable answer is a typed, visible error", func(t *testing.T) {
		sc, hs := testScenario()
		s := newServer(t, openAIText("Let me think about it."))
		m := newTestOpenAI(t, s, nil)
		tr, err := engine.Run(context.Background(), sc, hs, engine.Config{Model: m})
		var ue *UndecidableError
		if !errors.Is(err, ErrUndecidable) || !errors.As(err, &ue) || ue.Raw != "Let me think about it." {
			t.Fatalf("err = %v", err)
		}
		if tr.Status != engine.StatusError || !strings.Contains(tr.Calls[0].Error, "Let me think about it.") {
			t.Errorf("trace status %s, call error %q", tr.Status, tr.Calls[0].Error)
		}
	})
}

func TestParseArguments(t *testing.T) {
	tests := []struct{ raw, want string }{
		{``, `{}`},
		{`{"a":1}`, `{"a":1}`},
		{"```json\n{\"a\":1}\n```", `{"a":1}`},
		{`"{\"a\":1}"`, `{"a":1}`},
		{`[1,2]`, `{"_raw":"[1,2]"}`},
		{`{a:1}`, `{"_raw":"{a:1}"}`},
	}
	for _, tt := range tests {
		if got := CanonicalJSON(ParseArguments(tt.raw)); got != tt.want {
			t.Errorf("ParseArguments(%q) = %s, want %s", tt.raw, got, tt.want)
		}
	}
	if got := argumentsJSON(ParseArguments(`{a:1}`)); got != `{a:1}` {
		t.Errorf("raw arguments go back as %q", got)
	}
}

func TestToolRunner(t *testing.T) {
	sc := &scenario.Scenario{Requests: []scenario.Request{{Rounds: []scenario.Round{{ToolCalls: []scenario.ToolCall{
		{Name: "read_file", Arguments: map[string]any{"path": "a", "n": float64(1)}, Result: "A"},
		{Name: "read_file", Arguments: map[string]any{"path": "b"}, Result: "B"},
	}}}}}}
	var asked []string
	r := &ToolRunner{Results: ScriptedToolResults(sc), AskUser: func(ctx context.Context, tc engine.ToolCall) (string, error) {
		asked = append(asked, tc.Name)
		return "typed by the user", nil
	}}
	ctx := context.Background()
	check := func(tc engine.ToolCall, want string) {
		t.Helper()
		got, err := r.RunTool(ctx, engine.Call{}, tc)
		if err != nil || got != want {
			t.Errorf("RunTool(%s %v) = %q, %v; want %q", tc.Name, tc.Arguments, got, err, want)
		}
	}
	check(engine.ToolCall{Name: "read_file", Arguments: map[string]any{"n": 1.0, "path": "a"}}, "A")
	check(engine.ToolCall{Name: "read_file", Arguments: map[string]any{"path": "b"}}, "B")
	check(engine.ToolCall{Name: "read_file", Arguments: map[string]any{"path": "zzz"}}, "A") // by name
	check(engine.ToolCall{Name: "grep"}, "typed by the user")
	if len(asked) != 1 {
		t.Errorf("asked %v", asked)
	}
	r.AskUser = nil
	if _, err := r.RunTool(ctx, engine.Call{}, engine.ToolCall{Name: "grep"}); !errors.Is(err, ErrNoToolResult) {
		t.Errorf("err = %v, want ErrNoToolResult", err)
	}
	specs := NewToolResults([]ToolResultSpec{{Name: "x", Result: ptr("fixed"), Results: []ArgResult{{Arguments: map[string]any{"k": "v"}, Result: "table"}}}})
	if got, _ := specs.Lookup(engine.ToolCall{Name: "x", Arguments: map[string]any{"k": "v"}}); got != "table" {
		t.Errorf("table lookup = %q", got)
	}
	if got, _ := specs.Lookup(engine.ToolCall{Name: "x"}); got != "fixed" {
		t.Errorf("fixed lookup = %q", got)
	}
}
