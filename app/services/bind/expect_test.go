package bind

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExpectationsBinding: the view carries the scenario's expectation
// results, and "add expectation" writes one that then shows as passing.
func TestExpectationsBinding(t *testing.T) {
	s, _, _ := newStudio(t)
	root := skillsFolder(t)
	file := filepath.Join(root, "s", "scenarios", "demo.yaml")
	if err := os.WriteFile(file, []byte("name: demo\nrequests:\n  - user: hi\n    reply: hello\nexpect:\n  - {call: 1, not_sees: h}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenFolder(root); err != nil {
		t.Fatal(err)
	}
	v, _ := s.Trace()
	if len(v.Expectations) != 1 || v.Expectations[0].Pass || v.Expectations[0].Kind != "not_sees" {
		t.Fatalf("expectations %+v, want one failing not_sees", v.Expectations)
	}
	hook := -1
	for _, m := range v.Messages {
		if m.Hook == "h" {
			hook = m.ID
		}
	}
	res, err := s.AddExpectation(0, hook)
	if err != nil || res.Status != "saved" {
		t.Fatalf("add: %+v %v", res, err)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "sees: {copies: 1, hook: h, skill: s}") {
		t.Errorf("file:\n%s", data)
	}
	v, _ = s.Trace()
	if len(v.Expectations) != 2 || !v.Expectations[1].Pass {
		t.Errorf("after adding: %+v", v.Expectations)
	}
	if _, err := s.AddExpectation(5, 0); err == nil {
		t.Error("adding about a call that does not exist succeeded")
	}
}
