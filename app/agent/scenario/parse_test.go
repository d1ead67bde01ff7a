package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

const testFile = "file-tools/scenarios/read-and-fix.yaml"

// key renders what the tests pin about a diagnostic: never its message.
func key(d diag.Diagnostic) string {
	return fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Code)
}

func keys(ds []diag.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, key(d))
	}
	return out
}

// ok is a valid prefix most cases build on: one declared tool.
const ok = "name: t\ntools: [{name: read_file}]\n"

func TestParseRules(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
	veryDeep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
		"b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
		"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n" +
		"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n" +
		"f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	tests := []struct {
		name string
		in   string
		want []string
	}{
		// File level.
		{"valid", ok + "requests: [{user: hi}]\n", nil},
		{"valid json", `{"name": "t", "requests": [{"user": "hi"}]}`, nil},
		{"json with bom and tabs", "\ufeff{\n\t\"name\": \"t\",\n\t\"requests\": [{\"user\": \"hi\"}]\n}", nil},
		{"yaml with bom", "\ufeffname: t\nrequests: [{user: hi}]\n", nil},
		{"empty file", "", []string{"0:0 error empty-file"}},
		{"whitespace only", " \n\t\n", []string{"0:0 error empty-file"}},
		{"bom only", "\ufeff", []string{"0:0 error empty-file"}},
		{"comments only", "# nothing\n# here\n", []string{"0:0 error empty-file"}},
		{"empty document", "---\n", []string{"0:0 error empty-file"}},
		{"null document", "null\n", []string{"1:1 error wrong-type"}},
		{"top level list", "- user: hi\n", []string{"1:1 error wrong-type"}},
		{"top level string", "hello\n", []string{"1:1 error wrong-type"}},
		{"multiple documents", "name: t\nrequests: [{user: hi}]\n---\nname: u\n", []string{"3:1 error multiple-documents"}},
		{"syntax error on line 1", "a: b: c\n", []string{"1:1 error yaml-syntax"}},
		{"syntax error parser line", "name: x\nrequests:\n  - user: a\n - user: b\n", []string{"4:1 error yaml-syntax"}},
		{"syntax error scanner line", "name: x\nrequests:\n\t- user: a\n", []string{"3:1 error yaml-syntax"}},
		{"syntax error flow", "requests: [{user: a}]\n  bad: 1\n", []string{"2:1 error yaml-syntax"}},
		{"syntax error with CR line ends", "name: x\rrequests:\r  - user: a\r - user: b\r", []string{"4:1 error yaml-syntax"}},
		{"unterminated quote", "name: 'x\n", []string{"2:1 error yaml-syntax"}},
		{"syntax error after first document", "name: t\nrequests: [{user: hi}]\n---\n[\n", []string{"5:1 error yaml-syntax"}},
		{"control character", "name: x\nrequests:\n  - user: \"a\x01\"\n", []string{"3:13 error yaml-syntax"}},
		{"invalid utf-8", "name: x\nrequests:\n  - user: \xe4a\n", []string{"3:11 error yaml-syntax"}},
		{"unknown anchor", "requests:\n  - user: *nope\n", []string{"2:11 error yaml-syntax"}},
		{"nesting beyond yaml's limit", "requests: " + veryDeep, []string{"1:1 error yaml-syntax"}},

		// Types, fields, keys.
		{"missing name", "requests: [{user: hi}]\n", []string{"1:1 warning missing-field"}},
		{"empty name", "name: ''\nrequests: [{user: hi}]\n", []string{"1:7 error empty-value"}},
		{"name not a string", "name: 12\nrequests: [{user: hi}]\n", []string{"1:7 error wrong-type"}},
		{"name null", "name:\nrequests: [{user: hi}]\n", []string{"1:6 error wrong-type"}},
		{"timestamp is a string", "name: 2024-01-01\nrequests: [{user: hi}]\n", nil},
		{"unknown field", "name: t\nsytem_prompt: x\nrequests: [{user: hi}]\n", []string{"2:1 warning unknown-field"}},
		{"unknown field column counts code points", "name: t\nrequests: [{user: hi, 'ü': 1, änswer: x}]\n", []string{"2:23 warning unknown-field", "2:31 warning unknown-field"}},
		{"extension fields are ignored", "x-base: &b {user: hi}\nname: t\nrequests: [*b]\n", nil},
		{"duplicate key", "name: t\nname: u\nrequests: [{user: hi}]\n", []string{"2:1 error duplicate-key"}},
		{"duplicate key in arguments", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_file, arguments: {a: 1, a: 2}}]}, {content: x}]}]\n", []string{"3:82 error duplicate-key"}},
		{"non-scalar key", "name: t\n[a]: 1\nrequests: [{user: hi}]\n", []string{"2:1 error wrong-type"}},
		{"system_prompt not a string", "name: t\nsystem_prompt: [a]\nrequests: [{user: hi}]\n", []string{"2:16 error wrong-type"}},
		{"enable_tools not a bool", "name: t\nenable_tools: yes\nrequests: [{user: hi}]\n", []string{"2:15 error wrong-type"}},
		{"prompts not a mapping", "name: t\nprompts: x\nrequests: [{user: hi}]\n", []string{"2:10 error wrong-type"}},
		{"prompts unknown and wrong type", "name: t\nprompts: {planing: a, first_step: 1}\nrequests: [{user: hi}]\n", []string{"2:11 warning unknown-field", "2:35 error wrong-type"}},
		{"enabled_skills not a list", "name: t\nenabled_skills: a\nrequests: [{user: hi}]\n", []string{"2:17 error wrong-type"}},
		{"enabled_skills entries", "name: t\nenabled_skills: [a, 1, '', a]\nrequests: [{user: hi}]\n", []string{"2:21 error wrong-type", "2:24 error empty-value", "2:28 warning duplicate-skill"}},

		// Tools.
		{"tools not a list", "name: t\ntools: {name: a}\nrequests: [{user: hi}]\n", []string{"2:8 error wrong-type"}},
		{"tool not a mapping", "name: t\ntools: [read_file]\nrequests: [{user: hi}]\n", []string{"2:9 error wrong-type"}},
		{"tool without name", "name: t\ntools: [{description: x}]\nrequests: [{user: hi}]\n", []string{"2:9 error missing-field"}},
		{"tool with empty name", "name: t\ntools: [{name: ''}]\nrequests: [{user: hi}]\n", []string{"2:16 error empty-value"}},
		{"duplicate tool", "name: t\ntools:\n  - name: a\n  - name: a\nrequests: [{user: hi}]\n", []string{"4:11 error duplicate-tool"}},
		{"tool name providers reject", "name: t\ntools: [{name: read file}]\nrequests: [{user: hi}]\n", []string{"2:16 warning tool-name"}},
		{"parameters not a mapping", "name: t\ntools: [{name: a, parameters: [x]}]\nrequests: [{user: hi}]\n", []string{"2:31 error wrong-type"}},
		{"parameters nan", "name: t\ntools: [{name: a, parameters: {x: .nan}}]\nrequests: [{user: hi}]\n", []string{"2:35 error invalid-value"}},
		{"parameters bad explicit tag", "name: t\ntools: [{name: a, parameters: {x: !!int abc}}]\nrequests: [{user: hi}]\n", []string{"2:35 error invalid-value"}},
		{"parameters too deep", "name: t\ntools: [{name: a, parameters: {x: " + deep + "}}]\nrequests: [{user: hi}]\n", []string{fmt.Sprintf("2:%d error too-deep", 35+MaxDepth)}},

		// Requests.
		{"requests missing", "name: t\n", []string{"1:1 error missing-field"}},
		{"requests empty", "name: t\nrequests: []\n", []string{"2:11 error empty-value"}},
		{"requests not a list", "name: t\nrequests: {user: hi}\n", []string{"2:11 error wrong-type"}},
		{"request not a mapping", "name: t\nrequests: [hi]\n", []string{"2:12 error wrong-type"}},
		{"request without user", "name: t\nrequests:\n  - reply: x\n", []string{"3:5 error missing-field"}},
		{"user not a string", "name: t\nrequests: [{user: 404}]\n", []string{"2:19 error wrong-type"}},
		{"request unknown field", "name: t\nrequests: [{user: hi, replay: x}]\n", []string{"2:23 warning unknown-field"}},
		{"reply with tools active", ok + "requests:\n  - user: hi\n    reply: x\n", []string{"5:5 warning unused-reply"}},
		{"reply without tools", "name: t\nrequests:\n  - user: hi\n    reply: x\n", nil},
		{"planning without tools", "name: t\nrequests:\n  - user: hi\n    planning: {content: x}\n", []string{"4:5 warning unused-planning"}},
		{"planning with tools disabled", ok + "enable_tools: false\nrequests:\n  - user: hi\n    planning: {content: x}\n", []string{"6:5 warning unused-planning"}},
		{"planning not a mapping", ok + "requests: [{user: hi, planning: yes}]\n", []string{"3:33 error wrong-type"}},
		{"need_tool not a bool", ok + "requests: [{user: hi, planning: {need_tool: 1}}]\n", []string{"3:45 error wrong-type"}},
		{"need_tool true without rounds", ok + "requests: [{user: hi, planning: {need_tool: true}}]\n", []string{"3:45 warning no-rounds"}},

		// Rounds.
		{"rounds play", ok + "requests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: read_file}]\n      - content: done\n", nil},
		{"rounds with content and calls", ok + "requests:\n  - user: hi\n    rounds:\n      - {content: looking, tool_calls: [{name: read_file}]}\n      - content: done\n", nil},
		{"rounds not a list", ok + "requests: [{user: hi, rounds: x}]\n", []string{"3:31 error wrong-type"}},
		{"round not a mapping", ok + "requests: [{user: hi, rounds: [done]}]\n", []string{"3:32 error wrong-type"}},
		{"empty round", ok + "requests: [{user: hi, rounds: [{}]}]\n", []string{"3:32 error empty-round"}},
		{"round with empty tool_calls", ok + "requests: [{user: hi, rounds: [{tool_calls: []}]}]\n", []string{"3:32 error empty-round"}},
		{"round with empty content ends the loop", ok + "requests: [{user: hi, rounds: [{content: ''}]}]\n", nil},
		{"round unknown field", ok + "requests: [{user: hi, rounds: [{tool_call: [], content: x}]}]\n", []string{"3:33 warning unknown-field"}},
		{"tool_calls not a list", ok + "requests: [{user: hi, rounds: [{tool_calls: {name: read_file}}]}]\n", []string{"3:45 error wrong-type"}},
		{"no final answer", ok + "requests:\n  - user: hi\n    rounds:\n      - content: x\n      - tool_calls: [{name: read_file}]\n", []string{"7:9 warning no-final-answer"}},
		{"rounds after need_tool false", ok + "requests:\n  - user: hi\n    planning: {need_tool: false}\n    rounds: [{content: x}]\n", []string{"6:5 warning unreachable-rounds"}},
		{"rounds with tools disabled", ok + "enable_tools: false\nrequests:\n  - user: hi\n    rounds: [{content: x}]\n", []string{"6:5 warning unreachable-rounds"}},
		{"rounds without tools", "name: t\nrequests:\n  - user: hi\n    rounds: [{content: x}]\n", []string{"4:5 warning unreachable-rounds"}},

		// Tool calls.
		{"call without name", ok + "requests: [{user: hi, rounds: [{tool_calls: [{result: x}]}, {content: x}]}]\n", []string{"3:46 error missing-field"}},
		{"call with empty name", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: ''}]}, {content: x}]}]\n", []string{"3:53 error empty-value"}},
		{"call of undeclared tool", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_fil}]}, {content: x}]}]\n", []string{"3:53 error unknown-tool"}},
		{"call of a tool only a hook offers", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: lookup_docs}]}, {content: x}]}]\n", []string{"3:53 warning unknown-tool"}},
		{"call with no tools declared", "name: t\nrequests:\n  - user: hi\n    rounds: [{tool_calls: [{name: x}]}, {content: x}]\n", []string{"4:5 warning unreachable-rounds", "4:35 warning unknown-tool"}},
		{"tool declared after the call", "name: t\nrequests: [{user: hi, rounds: [{tool_calls: [{name: a}]}, {content: x}]}]\ntools: [{name: a}]\n", nil},
		{"duplicate call id", ok + "requests:\n  - user: hi\n    rounds:\n      - tool_calls: [{id: c1, name: read_file}, {id: c1, name: read_file}]\n      - content: x\n", []string{"6:54 error duplicate-call-id"}},
		{"call ids per request", ok + "requests:\n  - {user: a, rounds: [{tool_calls: [{id: c1, name: read_file}]}, {content: x}]}\n  - {user: b, rounds: [{tool_calls: [{id: c1, name: read_file}]}, {content: x}]}\n", nil},
		{"arguments not a mapping", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_file, arguments: '{}'}]}, {content: x}]}]\n", []string{"3:75 error wrong-type"}},
		{"result not a string", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_file, result: {a: 1}}]}, {content: x}]}]\n", []string{"3:72 error wrong-type"}},

		// Anchors and aliases.
		{"aliases reuse", ok + "x-call: &c {name: read_file, result: ok}\nrequests:\n  - user: a\n    rounds: [{tool_calls: [*c, *c]}, {content: x}]\n", nil},
		{"merge keys", ok + "x-call: &c {name: read_file, result: ok}\nrequests:\n  - user: a\n    rounds: [{tool_calls: [{<<: *c, id: one}]}, {content: x}]\n", nil},
		{"merge key wins nothing over written keys", ok + "x-r: &r {user: a, reply: b}\nrequests:\n  - {<<: *r, user: c}\n", []string{"3:19 warning unused-reply"}},
		{"merge of a scalar", ok + "x-s: &s x\nrequests:\n  - {<<: *s, user: c}\n", []string{"5:10 error wrong-type"}},
		{"problem inside an anchor is reported once", ok + "x-c: &c {name: read_fle}\nrequests:\n  - {user: a, rounds: [{tool_calls: [*c, *c]}, {content: x}]}\n", []string{"3:16 error unknown-tool"}},
		{"alias bomb", ok + bomb + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_file, arguments: {x: *f}}]}, {content: x}]}]\n",
			[]string{"3:1 warning unknown-field", "4:1 warning unknown-field", "5:1 warning unknown-field", "6:1 warning unknown-field", "7:1 warning unknown-field", "8:1 warning unknown-field", "3:35 error alias-limit"}},
		{"alias cycle", ok + "requests: [{user: hi, rounds: [{tool_calls: [{name: read_file, arguments: &a {x: [*a]}}]}, {content: x}]}]\n", []string{"3:83 error alias-cycle"}},
		{"merge cycle", ok + "x-a: &a {<<: *a}\nrequests: [{user: hi}]\n", nil},
		{"merge cycle in use", ok + "requests: [&a {user: hi, <<: *a}]\n", []string{"3:30 error alias-cycle"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := Parse(testFile, []byte(tt.in))
			want := tt.want
			if want == nil {
				want = []string{}
			}
			slices.Sort(want)
			got := keys(ds)
			sortedGot := slices.Clone(got)
			slices.Sort(sortedGot)
			if !slices.Equal(sortedGot, want) {
				t.Errorf("diagnostics:\n got %q\nwant %q", got, want)
				for _, d := range ds {
					t.Logf("  %s: %s", key(d), d.Message)
				}
			}
			for _, d := range ds {
				if d.File != testFile || d.Message == "" {
					t.Errorf("diagnostic %s has file %q, message %q", key(d), d.File, d.Message)
				}
			}
		})
	}
}

func TestParseSeedScenario(t *testing.T) {
	data, err := os.ReadFile("testdata/seed-diagrams.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The shared copy is the source of truth when it is checked out beside
	// the repository; the testdata copy must not drift from it.
	if shared, err := os.ReadFile("../../../../shared/conformance/seed-diagrams/scenario.yaml"); err == nil && string(shared) != string(data) {
		t.Fatal("testdata/seed-diagrams.yaml differs from ../shared/conformance/seed-diagrams/scenario.yaml; copy it again")
	}
	s, ds := Parse("seed/scenarios/seed-diagrams.yaml", data)
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	params := map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}
	want := &Scenario{
		Name: "seed-diagrams", File: "seed/scenarios/seed-diagrams.yaml",
		SystemPrompt: "You are a coding assistant.", EnableTools: true,
		Tools: []Tool{
			{Name: "read_file", Description: "Read a file", Parameters: params},
			{Name: "list_dir", Description: "List a folder", Parameters: params},
		},
		Requests: []Request{
			{User: "What does main.go do?", Planning: &Planning{NeedTool: true, Content: "I will read main.go."}, Line: 7, Rounds: []Round{
				{ToolCalls: []ToolCall{{Name: "read_file", Arguments: map[string]any{"path": "main.go"}, Result: "package main ... (truncated)"}}},
				{ToolCalls: []ToolCall{{Name: "list_dir", Arguments: map[string]any{"path": "."}, Result: "main.go go.mod"}}},
				{Content: "It starts the server."},
			}},
			{User: "Thanks", Planning: &Planning{NeedTool: false, Content: "You are welcome."}, Line: 13},
			{User: "Nothing else.", EnabledSkills: []string{}, Planning: &Planning{NeedTool: false, Content: "Bye."}, Line: 15},
		},
	}
	s.skillRefs, s.callRefs, s.toolRefs = nil, nil, nil
	if !reflect.DeepEqual(s, want) {
		t.Errorf("decoded:\n%#v\nwant:\n%#v", s, want)
	}
	if s.EnabledSkills != nil {
		t.Error("absent enabled_skills must decode as nil (every skill)")
	}
	if s.Requests[2].EnabledSkills == nil {
		t.Error("enabled_skills: [] must decode as an empty non-nil slice (no skill)")
	}
}

func TestParseValues(t *testing.T) {
	in := `name: v
system_prompt: |
  line one
  line two
enable_tools: false
enabled_skills: [a, b]
prompts: {planning: P, first_step: F, agent_loop: A}
tools:
  - name: t
    parameters: {n: 1, h: 0x10, f: 1.5, e: 1e3, b: true, z: null, s: "1", l: [1, x], d: 2024-01-01, big: 18446744073709551615}
requests:
  - user: one
    reply: r
  - user: two
    enabled_skills: [a]
    planning: {content: c}
    rounds: [{content: x}]
`
	s, ds := Parse("k/scenarios/v.yml", []byte(in))
	if got := keys(ds); !slices.Equal(got, []string{"16:5 warning unused-planning", "17:5 warning unreachable-rounds"}) {
		t.Errorf("diagnostics: %q", got)
	}
	if s.SystemPrompt != "line one\nline two\n" || s.EnableTools || !slices.Equal(s.EnabledSkills, []string{"a", "b"}) {
		t.Errorf("scenario fields: %+v", s)
	}
	if s.Prompts != (Prompts{Planning: "P", FirstStep: "F", AgentLoop: "A"}) {
		t.Errorf("prompts: %+v", s.Prompts)
	}
	wantParams := map[string]any{"n": 1.0, "h": 16.0, "f": 1.5, "e": 1000.0, "b": true, "z": nil, "s": "1",
		"l": []any{1.0, "x"}, "d": "2024-01-01", "big": 18446744073709551615.0}
	if !reflect.DeepEqual(s.Tools[0].Parameters, wantParams) {
		t.Errorf("parameters:\n got %#v\nwant %#v", s.Tools[0].Parameters, wantParams)
	}
	if r := s.Requests[0]; r.Reply != "r" || r.Planning != nil || r.EnabledSkills != nil || r.Line != 12 {
		t.Errorf("request 0: %+v", r)
	}
	// An omitted need_tool follows the rounds, like an omitted planning.
	if r := s.Requests[1]; r.Planning == nil || !r.Planning.NeedTool || r.Planning.Content != "c" || r.Line != 14 {
		t.Errorf("request 1: %+v", r)
	}
}

func TestParseJSONMatchesYAML(t *testing.T) {
	yml := `name: j
tools: [{name: read_file, parameters: {type: object}}]
requests:
  - user: "a/b 😀 \uFFFD \x7F"
    rounds: [{tool_calls: [{name: read_file, arguments: {path: x}}]}, {content: done}]
`
	jsn := "\ufeff{\n\t\"name\": \"j\",\n\t\"tools\": [{\"name\": \"read_file\", \"parameters\": {\"type\": \"object\"}}],\n" +
		"\t\"requests\": [{\"user\": \"a\\/b \\ud83d\\ude00 \\ud800 \x7f\",\n" +
		"\t\t\"rounds\": [{\"tool_calls\": [{\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}}]}, {\"content\": \"done\"}]}]\n}\n"
	ys, yds := Parse("s/scenarios/j.yaml", []byte(yml))
	js, jds := Parse("s/scenarios/j.yaml", []byte(jsn))
	if len(yds)+len(jds) != 0 {
		t.Fatalf("diagnostics: yaml %v, json %v", yds, jds)
	}
	ys.Requests[0].Line, js.Requests[0].Line = 0, 0
	ys.skillRefs, js.skillRefs = nil, nil
	ys.callRefs, js.callRefs, ys.toolRefs, js.toolRefs = nil, nil, nil, nil
	if !reflect.DeepEqual(ys, js) {
		t.Errorf("json decodes differently:\n yaml %#v\n json %#v", ys, js)
	}
}

func TestParseJSONQuirks(t *testing.T) {
	long := strings.Repeat("k", 1500)
	for name, in := range map[string]string{
		"colon on the next line":       "{\"name\"\n  : \"j\",\n\"requests\": [{\"user\": \"hi\"}]}",
		"key longer than yaml's limit": `{"name": "j", "requests": [{"user": "hi"}], "tools": [{"name": "a", "parameters": {"` + long + `": 1}}]}`,
		"top-level tab":                "\t{\"requests\": [{\"user\": \"hi\"}], \"name\": \"j\"}",
		"line separators in strings":   "{\"name\": \"j\", \"requests\": [{\"user\": \"a\u2028b\u0085c\x7fd\"}]}",
		"escaped surrogates":           `{"name": "j", "requests": [{"user": "\ud83d\ude00\udc00\/"}]}`,
	} {
		s, ds := Parse("s/scenarios/j.json", []byte(in))
		if len(ds) != 0 {
			t.Errorf("%s: %v", name, ds)
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if got := s.Requests[0].User; got != want.(map[string]any)["requests"].([]any)[0].(map[string]any)["user"] {
			t.Errorf("%s: user %q", name, got)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	for file, want := range map[string]string{
		"a/scenarios/read-and-fix.yaml": "read-and-fix",
		"a/scenarios/x.y.json":          "x.y",
		"":                              "scenario",
	} {
		s, _ := Parse(file, []byte("requests: [{user: hi}]"))
		if s.Name != want || !s.EnableTools || s.File != file {
			t.Errorf("Parse(%q): name %q, enable_tools %v, file %q", file, s.Name, s.EnableTools, s.File)
		}
	}
}

func TestSuggestion(t *testing.T) {
	fields := []string{"name", "system_prompt", "tools", "requests", "tool_calls"}
	for in, want := range map[string]string{
		"nmae": "name", "sytem_prompt": "system_prompt", "tool": "tools", "Requests": "requests",
		"tool_call": "tool_calls", "xyz": "", "id": "", "name": "",
	} {
		got := suggestion(in, fields)
		if (want == "") != (got == "") || want != "" && !strings.Contains(got, fmt.Sprintf("%q", want)) {
			t.Errorf("suggestion(%q) = %q, want %q", in, got, want)
		}
	}
}
