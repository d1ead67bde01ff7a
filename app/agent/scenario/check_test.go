package scenario

import (
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

func TestCheckSkills(t *testing.T) {
	in := `name: s
enabled_skills: [file-tools, fle-tools]
requests:
  - user: a
  - user: b
    enabled_skills: [persona, nothing-like-it]
  - user: c
    enabled_skills: []
`
	s, ds := Parse("file-tools/scenarios/s.yaml", []byte(in))
	if len(ds) != 0 {
		t.Fatalf("parse: %v", ds)
	}
	got := CheckSkills(s, SkillNames{Folders: []string{"file-tools", "persona"}})
	want := []string{"2:30 error unknown-skill", "6:31 error unknown-skill"}
	if !slices.Equal(keys(got), want) {
		t.Errorf("got %q, want %q", keys(got), want)
	}
	for _, d := range got {
		if d.File != "file-tools/scenarios/s.yaml" {
			t.Errorf("file %q", d.File)
		}
	}
	if got := CheckSkills(s, SkillNames{Folders: []string{"file-tools", "fle-tools", "persona"}, Claude: []string{"nothing-like-it"}}); len(got) != 0 {
		t.Errorf("all skills exist, got %v", got)
	}
}

func TestCheckSkillsWithoutPositions(t *testing.T) {
	// A scenario built in code (or edited after parsing) has no recorded
	// positions: the request line, or the whole file, stands in.
	s := &Scenario{File: "f.yaml", EnabledSkills: []string{"x"}, Requests: []Request{
		{User: "a", EnabledSkills: []string{"y"}, Line: 4},
		{User: "b", EnabledSkills: []string{"z"}},
	}}
	got := CheckSkills(s, SkillNames{})
	want := []string{"0:0 error unknown-skill", "0:0 error unknown-skill", "4:1 error unknown-skill"}
	if !slices.Equal(keys(got), want) || !diag.HasErrors(got) {
		t.Errorf("got %q, want %q", keys(got), want)
	}
}

// Issue 25: a Claude Code skill's name is a skill to enable, at the
// scenario and the request level; a name the root has something of, which
// is not a skill, is reported with the reason, never "no skills".
func TestCheckSkillsClaudeCode(t *testing.T) {
	in := `name: s
enabled_skills: [guard]
requests:
  - user: a
    enabled_skills: [guard, src]
`
	s, ds := Parse(".hookstudio/scenarios/s.yaml", []byte(in))
	if len(ds) != 0 {
		t.Fatalf("parse: %v", ds)
	}
	const reason = "REASON"
	names := SkillNames{Claude: []string{"guard"}, Why: func(name string) string {
		if name == "src" {
			return reason
		}
		return ""
	}}
	got := CheckSkills(s, names)
	if want := []string{"5:29 error unknown-skill"}; !slices.Equal(keys(got), want) {
		t.Fatalf("got %q, want %q", keys(got), want)
	}
	if !strings.HasSuffix(got[0].Message, reason) {
		t.Errorf("message %q does not give the reason", got[0].Message)
	}
	// Without the Claude Code skill the message names what there is.
	got = CheckSkills(s, SkillNames{Folders: []string{"gaurd"}})
	if len(got) != 3 || !strings.Contains(got[0].Message, `"gaurd"`) {
		t.Errorf("got %v", got)
	}
}

// TestCheckAgentTools: under an agent, a call of a tool it lacks is an
// error at the call's name, a declared tool it lacks a warning, each
// naming the agent's tools and the nearest one.
func TestCheckAgentTools(t *testing.T) {
	src := "name: t\ntools:\n  - {name: Bash}\n  - {name: read_file}\nrequests:\n  - user: hi\n    rounds:\n      - tool_calls: [{name: Reed, arguments: {file_path: x}}]\n      - content: done\n"
	s, ds := Parse("t.yaml", []byte(src))
	if s == nil || diag.HasErrors(ds) {
		t.Fatalf("parse: %v", ds)
	}
	got := CheckAgentTools(s, "demo 1.0", []string{"Bash", "Read"})
	if len(got) != 2 {
		t.Fatalf("%d diagnostics: %v", len(got), got)
	}
	if d := got[0]; d.Code != CodeAgentTool || d.Severity != diag.Warning || d.Line != 4 || !strings.Contains(d.Message, "Bash, Read") {
		t.Errorf("declared read_file: %+v", d)
	}
	if d := got[1]; d.Code != CodeAgentTool || d.Severity != diag.Error || d.Line != 8 || d.Column != 29 || !strings.Contains(d.Message, `"Read"?`) {
		t.Errorf("a call of Reed: %+v", d)
	}
	if CheckAgentTools(s, "demo", nil) != nil {
		t.Error("an agent whose tools are not known: nothing to say")
	}
}
