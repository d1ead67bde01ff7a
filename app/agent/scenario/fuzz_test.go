package scenario

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"testing"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
)

func FuzzParse(f *testing.F) {
	seed, err := os.ReadFile("testdata/seed-diagrams.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	for _, s := range []string{
		"",
		"\ufeffname: t\nrequests: [{user: hi}]\n",
		`{"name": "j", "tools": [{"name": "a"}], "requests": [{"user": "x\/y \ud83d\ude00", "rounds": [{"tool_calls": [{"name": "a", "arguments": {"k": [1, 2.5, null, true]}}]}, {"content": "done"}]}]}`,
		"{\"k\"\n: 1}",
		"x-c: &c {name: a, result: ok}\ntools: [{name: a}]\nrequests:\n  - user: u\n    rounds: [{tool_calls: [*c, {<<: *c, id: b}]}, {content: x}]\n",
		"a: &a [*a]\nrequests: [{user: hi}]\n",
		"name: x\nrequests:\n  - user: a\n - user: b\n",
		"requests:\n  - user: *nope\n",
		"requests: [{user: hi}]\n---\nname: u\n",
		"tools: [{name: a, parameters: {x: .nan, y: !!int abc, z: 0x1F}}]\nrequests: [{user: 1, planning: {need_tool: true}, reply: r}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "skill/scenarios/fuzz.yaml"
		s, ds := Parse(file, data)
		if s == nil {
			t.Fatal("nil scenario")
		}
		lines := yamlpos.LineCount(data)
		for _, d := range ds {
			if d.File != file || d.Message == "" || !slices.Contains(Codes(), d.Code) || (d.Severity != diag.Error && d.Severity != diag.Warning) {
				t.Fatalf("malformed diagnostic %+v", d)
			}
			if (d.Line == 0) != (d.Column == 0) || d.Line < 0 || d.Column < 0 || d.Line > lines {
				t.Fatalf("bad position %+v (file has %d lines)", d, lines)
			}
			// Only these may lack a position: the whole file is the problem,
			// or yaml.v3 gave no usable one.
			if d.Line == 0 && d.Code != CodeEmptyFile && d.Code != CodeYAMLSyntax {
				t.Fatalf("unpositioned %+v", d)
			}
		}
		sorted := slices.Clone(ds)
		diag.Sort(sorted)
		if !slices.Equal(sorted, ds) {
			t.Fatal("diagnostics not sorted")
		}
		s2, ds2 := Parse(file, data)
		if !reflect.DeepEqual(s, s2) || !slices.Equal(ds, ds2) {
			t.Fatal("Parse is not deterministic")
		}
		if _, err := json.Marshal(s); err != nil {
			t.Fatalf("decoded scenario does not marshal: %v", err)
		}
		if json.Valid(data) && bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) < 5000 {
			for _, d := range ds {
				if d.Code == CodeYAMLSyntax {
					t.Fatalf("valid JSON rejected: %+v", d)
				}
			}
		}
		if diag.HasErrors(ds) {
			return
		}
		checkValid(t, s)
		// What a valid file decodes to, written back as JSON, decodes the
		// same: the JSON path and the value conversion agree.
		back, err := json.Marshal(fileForm(s))
		if err != nil {
			t.Fatal(err)
		}
		s3, ds3 := Parse(file, back)
		if diag.HasErrors(ds3) {
			t.Fatalf("round trip %s: %v", back, ds3)
		}
		clearLines(s)
		clearLines(s3)
		if !reflect.DeepEqual(s, s3) {
			t.Fatalf("round trip differs:\n %#v\n %#v\nvia %s", s, s3, back)
		}
	})
}

// checkValid asserts what a scenario without errors guarantees its users.
func checkValid(t *testing.T, s *Scenario) {
	t.Helper()
	if s.Name == "" || len(s.Requests) == 0 {
		t.Fatalf("valid scenario without name or requests: %+v", s)
	}
	tools := map[string]bool{}
	for _, tl := range s.Tools {
		if tl.Name == "" || tools[tl.Name] {
			t.Fatalf("empty or duplicate tool name %q", tl.Name)
		}
		tools[tl.Name] = true
	}
	for _, r := range s.Requests {
		if r.Line < 1 {
			t.Fatalf("request without line: %+v", r)
		}
		for _, sk := range r.EnabledSkills {
			if sk == "" {
				t.Fatal("empty skill name")
			}
		}
		for _, rd := range r.Rounds {
			for _, c := range rd.ToolCalls {
				if !tools[c.Name] {
					t.Fatalf("call of undeclared tool %q", c.Name)
				}
			}
		}
	}
}

func clearLines(s *Scenario) {
	s.skillRefs, s.callRefs, s.toolRefs = nil, nil, nil
	// Expectations carry their positions and fileForm leaves them out;
	// expect_test.go checks them.
	s.Expect = nil
	for i := range s.Requests {
		s.Requests[i].Line = 0
		s.Requests[i].Expect = nil
		if s.Requests[i].Planning != nil {
			s.Requests[i].Planning.Expect = nil
		}
		for k := range s.Requests[i].Rounds {
			s.Requests[i].Rounds[k].Expect = nil
		}
	}
}

// fileForm is the scenario as a file would spell it: no derived fields,
// absent optional lists left out.
func fileForm(s *Scenario) map[string]any {
	m := map[string]any{
		"name": s.Name, "system_prompt": s.SystemPrompt, "enable_tools": s.EnableTools,
		"prompts": map[string]any{"planning": s.Prompts.Planning, "first_step": s.Prompts.FirstStep, "agent_loop": s.Prompts.AgentLoop},
	}
	if s.EnabledSkills != nil {
		m["enabled_skills"] = s.EnabledSkills
	}
	if s.Tools != nil {
		var tools []any
		for _, t := range s.Tools {
			tm := map[string]any{"name": t.Name, "description": t.Description}
			if t.Parameters != nil {
				tm["parameters"] = t.Parameters
			}
			tools = append(tools, tm)
		}
		m["tools"] = tools
	}
	var reqs []any
	for _, r := range s.Requests {
		rm := map[string]any{"user": r.User}
		if r.EnabledSkills != nil {
			rm["enabled_skills"] = r.EnabledSkills
		}
		if r.Reply != "" {
			rm["reply"] = r.Reply
		}
		if r.Planning != nil {
			rm["planning"] = map[string]any{"need_tool": r.Planning.NeedTool, "content": r.Planning.Content}
		}
		if r.Rounds != nil {
			var rounds []any
			for _, rd := range r.Rounds {
				rdm := map[string]any{}
				if rd.Content != "" || len(rd.ToolCalls) == 0 {
					rdm["content"] = rd.Content
				}
				if rd.ToolCalls != nil {
					var calls []any
					for _, c := range rd.ToolCalls {
						cm := map[string]any{"name": c.Name, "result": c.Result}
						if c.ID != "" {
							cm["id"] = c.ID
						}
						if c.Arguments != nil {
							cm["arguments"] = c.Arguments
						}
						calls = append(calls, cm)
					}
					rdm["tool_calls"] = calls
				}
				rounds = append(rounds, rdm)
			}
			rm["rounds"] = rounds
		}
		reqs = append(reqs, rm)
	}
	m["requests"] = reqs
	return m
}
