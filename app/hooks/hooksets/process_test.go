package hooksets

import (
	"strings"
	"testing"

	"hookstudio/app/hooks/prochook"
)

// PicoClaw process hooks come after command hooks, need trust like them,
// and show in commands, hooks and diagnostics.
func TestLoadProcessHooks(t *testing.T) {
	root := tree(t, map[string]string{
		"plug/hooks/picoclaw.json": `{"hooks": {"enabled": true, "processes": {"p": {"enabled": true, "command": ["sh", "-c", "cat"], "intercept": ["before_tool"], "bogus": 1}}}}`,
		"guard/hooks/hooks.yaml":   "stop:\n  - command: \"true\"\n",
	})
	s := load(t, root, Options{})
	sc := mock(t, "enable_tools: false\nrequests: [{user: hi, reply: ok}]\n")
	var found bool
	for _, c := range s.Commands(sc) {
		found = found || (c.Hook == "p" && strings.Contains(c.Command, "cat") && c.Skill == "plug")
	}
	if !found {
		t.Errorf("commands %+v", s.Commands(sc))
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
	cfg, _, err := attach(t, s, sc, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Handlers) != 2 {
		t.Fatalf("%d handlers, want command then process", len(cfg.Handlers))
	}
	if _, ok := cfg.Handlers[1].(*prochook.Handler); !ok {
		t.Errorf("second handler %T is not the process handler", cfg.Handlers[1])
	}
}
