package bind

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"hookstudio/app/services/edit"
	"hookstudio/app/services/studio"
)

// The config editor's methods: schemas by kind, lint, the hooks.yaml form,
// the skill's files, and the user-level hooks setting.
func TestConfigBinding(t *testing.T) {
	s, _, _ := newStudio(t)
	if _, err := s.OpenFolder(skillsFolder(t)); err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[string]string{"hooks-json": "after_tool_call", "hooks-yaml": "pre_tool_execution", "picoclaw": "intercept", "request-hooks": "start"} {
		if sch, err := s.ConfigSchema(kind); err != nil || !strings.Contains(sch, want) {
			t.Errorf("ConfigSchema(%s): %v", kind, err)
		}
	}
	if _, err := s.ConfigSchema("nope"); err == nil {
		t.Error("a schema for an unknown kind")
	}
	if ds, err := s.LintFile("s/hooks/hooks.yaml", "nope:\n  - command: echo\n"); err != nil || len(ds) != 1 || ds[0].Code != "unknown-event" {
		t.Errorf("lint: %v %+v", err, ds)
	}
	r, err := s.EditCommandHooks("s/hooks/hooks.yaml", "", edit.CommandHookOp{Kind: "add", Event: "stop", Fields: map[string]string{"command": "echo"}})
	if err != nil || r.Text != "stop:\n  - command: echo\n" {
		t.Fatalf("edit: %v %+v", err, r)
	}
	if r, err := s.InspectCommandHooks("s/hooks/hooks.yaml", r.Text); err != nil || !r.Editable || len(r.Events) != 1 {
		t.Errorf("inspect: %v %+v", err, r)
	}
	if fs, err := s.HookFiles("s"); err != nil || len(fs) == 0 {
		t.Errorf("files: %v %+v", err, fs)
	}

	if _, err := s.SetUserHooksFile("/x/hooks.yaml"); err == nil {
		t.Error("set without a setting")
	}
	u, err := studio.LoadUserHooks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	UseUserHooks(s, u)
	file := filepath.Join(t.TempDir(), "hooks.yaml")
	if _, err := s.SetUserHooksFile(file); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.UserHooksFile(); got != file {
		t.Errorf("UserHooksFile = %q", got)
	}
	if _, err := s.SetUserHooksFile("relative.yaml"); err == nil {
		t.Error("a relative path was accepted")
	}

	// Claude Code's user-level settings.json: kept beside the hooks.yaml,
	// each set leaves the other as it was.
	cc := filepath.Join(t.TempDir(), "settings.json")
	if _, err := s.SetClaudeUserSettings(cc); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ClaudeUserSettings(); got != cc {
		t.Errorf("ClaudeUserSettings = %q", got)
	}
	if got, _ := s.UserHooksFile(); got != file {
		t.Errorf("setting Claude Code's file changed the hooks.yaml: %q", got)
	}
	if _, err := s.SetClaudeUserSettings("settings.json"); err == nil {
		t.Error("a relative Claude Code settings path was accepted")
	}

	// The Claude Code settings form: parse and write back.
	cr, err := s.EditClaudeHooks(".claude/settings.json", "{\"model\": \"x\"}", `{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}`)
	if err != nil || !cr.Editable || !strings.Contains(cr.Text, `"model": "x"`) || cr.Lines["Stop/0/0"] == 0 {
		t.Errorf("claude edit: %v %+v", err, cr)
	}
	if cr, err := s.InspectClaudeHooks(".claude/settings.json", cr.Text); err != nil || string(cr.Hooks) != `{"Stop":[{"hooks":[{"type":"command","command":"echo"}]}]}` {
		t.Errorf("claude inspect: %v %+v", err, cr)
	}
}

var update = flag.Bool("update", false, "rewrite the frontend's fixtures of the file kinds and hook systems")

// fileKindsFixture is what the frontend's tests read of FileKinds: the
// registry's file kinds, never a copy kept by hand.
const fileKindsFixture = "../../../frontend/src/fixtures/file-kinds.json"

// TestFileKinds: FileKinds gives every hook system's files with their
// patterns, and the frontend's fixture is exactly that (go test
// ./app/services/bind -run TestFileKinds -update rewrites it).
func TestFileKinds(t *testing.T) {
	s, _, _ := newStudio(t)
	kinds, err := s.FileKinds()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, k := range kinds {
		seen[k.Kind] = true
		for _, p := range k.Patterns {
			if _, err := regexp.Compile(p); err != nil {
				t.Errorf("%s: pattern %q: %v", k.Kind, p, err)
			}
		}
	}
	for _, k := range []string{"hooks-json", "hooks-yaml", "hook-yaml", "picoclaw", "request-hooks", "claude-settings", "claude-skill"} {
		if !seen[k] {
			t.Errorf("no file kind %s", k)
		}
	}
	fixture(t, fileKindsFixture, kinds)
}

// hookSystemsFixture is what the frontend's tests read of HookSystems.
const hookSystemsFixture = "../../../frontend/src/fixtures/hook-systems.json"

// TestHookSystems: every system has a badge, the agent CLIs' name their
// agent, and the frontend's fixture is exactly HookSystems (-update
// rewrites it).
func TestHookSystems(t *testing.T) {
	s, _, _ := newStudio(t)
	systems, err := s.HookSystems()
	if err != nil {
		t.Fatal(err)
	}
	agents := map[string]string{}
	for _, sys := range systems {
		if sys.Label == "" {
			t.Errorf("%s has no label", sys.Name)
		}
		agents[sys.Name] = sys.Agent
	}
	for _, a := range []string{"claude-code", "gemini-cli", "copilot-cli"} {
		if agents[a] != a {
			t.Errorf("system %s: agent %q", a, agents[a])
		}
	}
	fixture(t, hookSystemsFixture, systems)
}

// fixture compares v as indented JSON with the frontend's fixture file,
// which -update rewrites.
func fixture(t *testing.T, file string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, '\n')
	if *update {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, data) {
		t.Errorf("%s differs (run with -update): %v", file, err)
	}
}
