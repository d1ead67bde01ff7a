package edit

import (
	"errors"
	"os"
	"strings"
	"testing"
)

const sampleYAML = `# top comment
x-owner: team-a

pre_tool_execution:
  # the guard
  - name: guard
    command: sh "$JCLI_HOOK_DIR/guard.sh" # inline
    x-note: keep me
    filter:
      tool_name: run_command
  - name: second
    type: llm
    prompt: |
      Review {{tool_name}}.
      Answer {}.

stop:
  - command: echo done
`

func TestEditCommandHooks(t *testing.T) {
	cases := []struct {
		name    string
		op      CommandHookOp
		want    []string // substrings of the result
		notWant []string
		order   []string // substrings that must appear in this order
	}{
		{name: "set a field keeps its style and comment", op: CommandHookOp{Kind: "set", Event: "pre_tool_execution", Index: 0, Key: "command", Value: `sh "$JCLI_HOOK_DIR/other.sh"`},
			want: []string{`command: sh "$JCLI_HOOK_DIR/other.sh" # inline`, "x-note: keep me", "# top comment", "# the guard", "x-owner: team-a"}},
		{name: "timeout is a number", op: CommandHookOp{Kind: "set", Event: "stop", Index: 0, Key: "timeout", Value: "2.5"},
			want: []string{"    timeout: 2.5\n"}, notWant: []string{`"2.5"`}},
		{name: "delete a field", op: CommandHookOp{Kind: "set", Event: "pre_tool_execution", Index: 1, Key: "type", Delete: true},
			notWant: []string{"type: llm"}, want: []string{"prompt: |"}},
		{name: "multi-line prompt is a literal block", op: CommandHookOp{Kind: "set", Event: "pre_tool_execution", Index: 1, Key: "prompt", Value: "line 1\nline 2\n"},
			want: []string{"prompt: |\n      line 1\n      line 2\n"}},
		{name: "filter field set", op: CommandHookOp{Kind: "set", Event: "stop", Index: 0, Key: "filter.model_prefix", Value: "gpt-"},
			want: []string{"filter:\n      model_prefix: gpt-"}},
		{name: "last filter field removes the filter", op: CommandHookOp{Kind: "set", Event: "pre_tool_execution", Index: 0, Key: "filter.tool_name", Delete: true},
			notWant: []string{"filter:"}, want: []string{"x-note: keep me"}},
		{name: "add to an existing event", op: CommandHookOp{Kind: "add", Event: "stop", Fields: map[string]string{"command": "true", "name": "n"}},
			order: []string{"command: echo done", "- name: n\n    command: \"true\""}},
		{name: "add a new event in lifecycle order", op: CommandHookOp{Kind: "add", Event: "session_start", Fields: map[string]string{"command": "echo hi"}},
			order: []string{"x-owner", "session_start:\n  - command: echo hi", "pre_tool_execution:", "stop:"}},
		{name: "add a late event at the end", op: CommandHookOp{Kind: "add", Event: "session_end", Fields: map[string]string{"command": "echo bye"}},
			order: []string{"stop:", "session_end:"}},
		{name: "delete a hook", op: CommandHookOp{Kind: "delete", Event: "pre_tool_execution", Index: 0},
			notWant: []string{"name: guard", "x-note"}, want: []string{"name: second"}},
		{name: "move a hook", op: CommandHookOp{Kind: "move", Event: "pre_tool_execution", Index: 1, To: 0},
			order: []string{"name: second", "name: guard"}, want: []string{"x-note: keep me"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := EditCommandHooks([]byte(sampleYAML), c.op)
			if err != nil {
				t.Fatal(err)
			}
			s := string(out)
			for _, w := range c.want {
				if !strings.Contains(s, w) {
					t.Errorf("missing %q in\n%s", w, s)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(s, w) {
					t.Errorf("still has %q in\n%s", w, s)
				}
			}
			at := 0
			for _, w := range c.order {
				i := strings.Index(s[at:], w)
				if i < 0 {
					t.Fatalf("%q not found after offset %d in\n%s", w, at, s)
				}
				at += i + len(w)
			}
			if _, err := CommandHooks(out); err != nil {
				t.Errorf("result does not parse: %v", err)
			}
		})
	}
}

func TestEditCommandHooksErrors(t *testing.T) {
	cases := []struct {
		name, text string
		op         CommandHookOp
		notEdit    bool
	}{
		{name: "not yaml", text: "stop: [\n", op: CommandHookOp{Kind: "delete", Event: "stop"}, notEdit: true},
		{name: "top is a list", text: "- a\n", op: CommandHookOp{Kind: "delete", Event: "stop"}, notEdit: true},
		{name: "event is a string", text: "stop: hello\n", op: CommandHookOp{Kind: "delete", Event: "stop"}, notEdit: true},
		{name: "hook is a string", text: "stop:\n  - hello\n", op: CommandHookOp{Kind: "delete", Event: "stop"}, notEdit: true},
		{name: "unknown event", text: sampleYAML, op: CommandHookOp{Kind: "add", Event: "nope"}},
		{name: "no such hook", text: sampleYAML, op: CommandHookOp{Kind: "delete", Event: "stop", Index: 3}},
		{name: "unknown field", text: sampleYAML, op: CommandHookOp{Kind: "set", Event: "stop", Key: "colour", Value: "x"}},
		{name: "unknown filter field", text: sampleYAML, op: CommandHookOp{Kind: "set", Event: "stop", Key: "filter.nope", Value: "x"}},
		{name: "move out of range", text: sampleYAML, op: CommandHookOp{Kind: "move", Event: "stop", To: 4}},
		{name: "unknown operation", text: sampleYAML, op: CommandHookOp{Kind: "rename", Event: "stop"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := EditCommandHooks([]byte(c.text), c.op)
			if err == nil {
				t.Fatal("no error")
			}
			if got := errors.Is(err, ErrYAMLNotEditable); got != c.notEdit {
				t.Errorf("ErrYAMLNotEditable %v, want %v (%v)", got, c.notEdit, err)
			}
		})
	}
}

func TestCommandHooksLists(t *testing.T) {
	evs, err := CommandHooks([]byte(sampleYAML))
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 || evs[0].Event != "pre_tool_execution" || evs[1].Event != "stop" || evs[0].Line != 4 {
		t.Fatalf("events %+v", evs)
	}
	g := evs[0].Hooks[0]
	if g.Fields["name"] != "guard" || g.Filter["tool_name"] != "run_command" || len(g.Unknown) != 1 || g.Unknown[0] != "x-note" || g.Line != 6 {
		t.Errorf("guard %+v", g)
	}
	if evs, err := CommandHooks(nil); err != nil || len(evs) != 0 {
		t.Errorf("empty file: %v %v", evs, err)
	}
	out, err := EditCommandHooks(nil, CommandHookOp{Kind: "add", Event: "stop", Fields: map[string]string{"command": "echo"}})
	if err != nil || string(out) != "stop:\n  - command: echo\n" {
		t.Errorf("add to empty: %q %v", out, err)
	}
}

// An edit leaves every line it does not touch as it was, in the example
// skill's hooks.yaml (comments, blank lines, quoting, literal blocks).
func TestEditCommandHooksKeepsExample(t *testing.T) {
	data, err := os.ReadFile("../../../skills/guard-rails/hooks/hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out, err := EditCommandHooks(data, CommandHookOp{Kind: "set", Event: "stop", Index: 0, Key: "timeout", Value: "7"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(string(data), `ask-for-summary.sh"`+"\n", `ask-for-summary.sh"`+"\n    timeout: 7\n", 1)
	if string(out) != want {
		t.Errorf("the example changed beyond the edit:\n%s", out)
	}
}
