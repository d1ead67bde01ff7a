package scenario

import (
	"slices"
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
	got := CheckSkills(s, []string{"file-tools", "persona"})
	want := []string{"2:30 error unknown-skill", "6:31 error unknown-skill"}
	if !slices.Equal(keys(got), want) {
		t.Errorf("got %q, want %q", keys(got), want)
	}
	for _, d := range got {
		if d.File != "file-tools/scenarios/s.yaml" {
			t.Errorf("file %q", d.File)
		}
	}
	if got := CheckSkills(s, []string{"file-tools", "fle-tools", "persona", "nothing-like-it"}); len(got) != 0 {
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
	got := CheckSkills(s, nil)
	want := []string{"0:0 error unknown-skill", "0:0 error unknown-skill", "4:1 error unknown-skill"}
	if !slices.Equal(keys(got), want) || !diag.HasErrors(got) {
		t.Errorf("got %q, want %q", keys(got), want)
	}
}
