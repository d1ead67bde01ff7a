package hooksets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// PicoClaw process hooks come after command hooks, need trust like them,
// and show in commands, hooks, diagnostics and the fingerprint.
func TestLoadProcessHooks(t *testing.T) {
	root := tree(t, map[string]string{
		"plug/hooks/picoclaw.json": `{"hooks": {"enabled": true, "processes": {"p": {"enabled": true, "command": ["sh", "-c", "cat"], "intercept": ["before_tool"], "bogus": 1}}}}`,
		"guard/hooks/hooks.yaml":   "stop:\n  - command: \"true\"\n",
	})
	s, err := Load(root, Options{})
	if !errors.Is(err, ErrNotTrusted) {
		t.Fatalf("untrusted: %v", err)
	}
	var found bool
	for _, c := range s.Commands() {
		found = found || (c.Hook == "p" && strings.Contains(c.Command, "cat") && c.Skill == "plug")
	}
	if !found || len(s.Handlers()) != 0 {
		t.Errorf("commands %+v, %d handlers", s.Commands(), len(s.Handlers()))
	}
	var warned bool
	for _, d := range s.Diagnostics() {
		warned = warned || (d.File == "plug/hooks/picoclaw.json" && d.Code == "unknown-field")
	}
	if !warned {
		t.Errorf("diagnostics %+v", s.Diagnostics())
	}
	var info bool
	for _, h := range s.Hooks() {
		info = info || (h.System == "process" && h.Event == "hook.before_tool" && h.Hook == "p")
	}
	if !info {
		t.Errorf("hooks %+v", s.Hooks())
	}
	s, err = Load(root, Options{Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := s.Handlers()
	if len(hs) != 2 {
		t.Fatalf("%d handlers, want command then process", len(hs))
	}
	if _, ok := hs[1].(interface{ HookMetrics() []engine.HookMetric }); !ok {
		t.Errorf("second handler %T is not the process handler", hs[1])
	}
	fp := s.Fingerprint()
	if err := os.WriteFile(filepath.Join(root, "plug/hooks/picoclaw.json"), []byte(`{"hooks": {"enabled": true, "processes": {}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	s2, _ := Load(root, Options{Trusted: true})
	defer s2.Close()
	if s2.Fingerprint() == fp {
		t.Error("editing picoclaw.json did not change the fingerprint")
	}
}
