package scenario

import (
	"reflect"
	"slices"
	"testing"

	"hookstudio/app/format/diag"
)

// TestPlaceholderDiagnostics: an unknown {{name}} in anything a run
// expands is an error at the placeholder itself (every one at once); a
// known one, a Go template's {{.Field}}, a shell's ${VAR} and a
// placeholder in what a run does not expand (the user's prompt) are not.
func TestPlaceholderDiagnostics(t *testing.T) {
	in := `name: s
tools:
  - {name: view, result: "at {{home}}"}
  - name: bash
    results: [{arguments: {command: "ls {{cwd}}"}, result: "{{cwdd}}/a"}]
requests:
  - user: "read {{anything}}"
    rounds:
      - tool_calls:
          - {name: view, arguments: {path: "{{cwd}}/a", more: [x, {deep: "{{folder}}"}]}, error: "Path {{cwd}}/a does not exist."}
          - {name: bash, arguments: {command: "echo ${HOME} $PWD {{.Field}} {{ x }} {{open}}name}}"}, result: "x {{dir}}"}
      - content: |
          Done in {{cw}}.
`
	_, ds := Parse("s.yaml", []byte(in))
	// at the placeholder, where the text is on one line; at a block's start
	want := []string{"3:30 error unknown-placeholder", "5:61 error unknown-placeholder", "10:75 error unknown-placeholder",
		"11:114 error unknown-placeholder", "12:18 error unknown-placeholder"}
	if got := keys(ds); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestExpand: the run's folder is written into every scripted text of
// the model's answers and the tools' results, sub-agents' rounds
// included, and the parsed scenario is left as it was; a scenario with
// no placeholder is the same scenario.
func TestExpand(t *testing.T) {
	in := `name: s
tools:
  - {name: view, result: "{{cwd}}", results: [{arguments: {path: "{{cwd}}/b"}, result: "b in {{cwd}}"}]}
  - {name: Agent}
requests:
  - user: "read {{cwd}}"
    reply: "in {{cwd}}"
    rounds:
      - tool_calls:
          - {name: view, arguments: {path: "{{cwd}}/a", list: ["{{cwd}}", 1, {p: "{{cwd}}"}]}, error: "Path {{cwd}}/a does not exist."}
          - name: Agent
            arguments: {prompt: look}
            subagent: {rounds: [{tool_calls: [{name: view, arguments: {path: "{{cwd}}/c"}, result: "{{open}}x}}"}]}, {content: "{{cwd}}"}]}
      - content: Done in {{cwd}}.
`
	sc, ds := Parse("s.yaml", []byte(in))
	if diag.HasErrors(ds) {
		t.Fatalf("parse: %v", ds)
	}
	before, _ := Parse("s.yaml", []byte(in))
	x := sc.Expand(Values{Cwd: "/p"})
	if !reflect.DeepEqual(sc, before) {
		t.Errorf("Expand changed the parsed scenario")
	}
	r := x.Requests[0]
	calls := r.Rounds[0].ToolCalls
	sub := calls[1].Subagent.Rounds
	for _, c := range []struct{ got, want any }{
		{r.User, "read {{cwd}}"}, // the user's own words
		{r.Reply, "in /p"},
		{calls[0].Arguments, map[string]any{"path": "/p/a", "list": []any{"/p", float64(1), map[string]any{"p": "/p"}}}},
		{calls[0].Error, "Path /p/a does not exist."},
		{sub[0].ToolCalls[0].Arguments["path"], "/p/c"},
		{sub[0].ToolCalls[0].Result, "{{x}}"},
		{sub[1].Content, "/p"},
		{r.Rounds[1].Content, "Done in /p."},
		{*x.Tools[0].Result, "/p"},
		{x.Tools[0].Results[0], ToolResult{Arguments: map[string]any{"path": "/p/b"}, Result: "b in /p"}},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("got %#v, want %#v", c.got, c.want)
		}
	}
	plain, _ := Parse("p.yaml", []byte("name: p\nrequests: [{user: a, reply: \"${HOME} {{.X}}\"}]\n"))
	if plain.Expand(Values{Cwd: "/p"}) != plain {
		t.Errorf("a scenario without placeholders was copied")
	}
}
