package studio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/expect"
)

// passes lists each result as "kind call pass" (call -1: not one call).
func passes(rs []expect.Result) []string {
	var out []string
	for _, r := range rs {
		c := -1
		if r.Call != nil {
			c = *r.Call
		}
		out = append(out, strings.Join([]string{r.Kind, string(rune('0' + c + 1)), map[bool]string{true: "pass", false: "FAIL"}[r.Pass]}, " "))
	}
	return out
}

func TestViewExpectationsLive(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	write(t, filepath.Join(root, "files/scenarios/demo.yaml"), scenarioYAML+`expect:
  - {phase: planning, not_sees: hint}
  - {round: 1, sees: {hook: hint, copies: 1}}
  - status: ok
`)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	v := s.Trace()
	if got, want := strings.Join(passes(v.Expectations), ", "), "not_sees 1 pass, sees 3 pass, status 0 pass"; got != want {
		t.Fatalf("expectations %s, want %s", got, want)
	}
	// A save that breaks a fact shows red at once.
	write(t, filepath.Join(root, "files/hooks/hooks.json"), `{"hooks": [
  {"name": "hint", "file": "hint.md", "timing": "after_tool_call", "role": "system", "persistent": false, "tool_filter": ["write_file"]},
  {"name": "ctx", "file": "ctx.md", "timing": "after_user_input", "role": "system", "persistent": false}
]}`)
	s.Reload(ctx)
	v = s.Trace()
	if got, want := strings.Join(passes(v.Expectations), ", "), "not_sees 1 pass, sees 3 FAIL, status 0 pass"; got != want {
		t.Fatalf("after the change: %s, want %s", got, want)
	}
	if r := v.Expectations[1]; r.Line != 11 || r.File != "files/scenarios/demo.yaml" {
		t.Errorf("result position %s:%d", r.File, r.Line)
	}
}

func TestAddExpectation(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	v := s.Trace()
	// Call #3 (round 1) sees the hint after the read_file result.
	hint, user := -1, -1
	for _, id := range v.callIDs[2] {
		switch m := v.Messages[id]; {
		case m.Hook == "hint":
			hint = id
		case m.Origin == "user_input":
			user = id
		}
	}
	if hint < 0 || user < 0 {
		t.Fatal("the demo call lacks the hint or the user message")
	}
	res, err := s.AddExpectation(ctx, 2, hint)
	if err != nil || res.Status != "saved" {
		t.Fatalf("add: %+v, %v", res, err)
	}
	if _, err := s.AddExpectation(ctx, 0, user); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(root, "files/scenarios/demo.yaml"))
	text := string(data)
	for _, want := range []string{"- {sees: {copies: 1, hook: hint, skill: files}}", "sees_message: {contains: read it, origin: user_input, role: user}"} {
		if !strings.Contains(text, want) {
			t.Errorf("file lacks %q:\n%s", want, text)
		}
	}
	v = s.Trace()
	if got, want := strings.Join(passes(v.Expectations), ", "), "sees_message 1 pass, sees 3 pass"; got != want {
		t.Errorf("after adding: %s, want %s", got, want)
	}
	for _, bad := range [][2]int{{9, 0}, {0, 999}, {0, hint}} {
		if _, err := s.AddExpectation(ctx, bad[0], bad[1]); !errors.Is(err, ErrNoSuchMessage) {
			t.Errorf("AddExpectation(%d, %d) = %v, want ErrNoSuchMessage", bad[0], bad[1], err)
		}
	}
}
