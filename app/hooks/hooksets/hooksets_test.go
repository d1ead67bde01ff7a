package hooksets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func load(t *testing.T, root string, opts Options) *Set {
	t.Helper()
	s, err := Load(context.Background(), Registry(RegistryOptions{}), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mock(t *testing.T, text string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse("s/scenarios/x.yaml", []byte(text))
	if diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	return sc
}

// attach attaches s's hooks to a mock run of sc.
func attach(t *testing.T, s *Set, sc *scenario.Scenario, trusted bool) (engine.Config, registry.Attached, error) {
	t.Helper()
	cfg := engine.Config{Model: llm.NewMock(sc)}
	r, err := s.Attach(&cfg, registry.Run{Scenario: sc, Trusted: trusted, Backend: "mock"})
	if r != nil {
		t.Cleanup(func() { _ = r.Close() })
	}
	return cfg, r, err
}

func TestRegistry(t *testing.T) {
	r := Registry(RegistryOptions{})
	var names []string
	for _, s := range r.Systems() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "prompt command process claude-code codex qwen-code factory-droid gemini-cli copilot-cli request" {
		t.Errorf("systems in order: %s", got)
	}
	for file, kind := range map[string]string{
		".jcli/hooks.yaml": "hooks-yaml", "guard/hooks/hooks.yaml": "hooks-yaml", ".jcli/hooks/fmt/HOOK.yml": "hook-yaml",
		".picoclaw/hooks.json": "picoclaw", "plug/hooks/picoclaw.json": "picoclaw", ".hookstudio/request-hooks.yaml": "request-hooks",
		"s/hooks/request-hooks.yaml": "request-hooks", "s/hooks/hooks.json": "hooks-json", ".claude/settings.json": "claude-settings",
		".claude/skills/release/SKILL.md": "claude-skill", "s/hooks/intro.md": "prompt", "s/scenarios/a.yaml": "scenario",
		"s/hooks/guard.sh": "text", ".jcli/hooks/.hidden/HOOK.yaml": "text", ".codex/hooks.json": "codex-hooks", ".codex/config.toml": "codex-config",
		"g/.codex/hooks.json": "codex-hooks", ".qwen/settings.json": "qwen-settings", "g/.qwen/settings.json": "qwen-settings", ".gemini/settings.json": "gemini-settings",
		".github/hooks/guard.json": "copilot-hooks", ".github/hooks/guard.sh": "text", ".factory/hooks.json": "droid-hooks",
	} {
		if got := r.Kind("", file); got != kind {
			t.Errorf("Kind(%s) = %s, want %s", file, got, kind)
		}
	}
	for _, kind := range []string{"hooks-json", "hooks-yaml", "picoclaw", "request-hooks", "codex-hooks", "qwen-settings", "gemini-settings", "gemini-extension-hooks", "copilot-hooks", "droid-hooks"} {
		if _, ok := r.Schema(kind); !ok {
			t.Errorf("no schema for %s", kind)
		}
	}
	if got := strings.Join(r.Dirs(), " "); got != ".jcli .picoclaw .claude .claude-plugin .hookstudio .codex .qwen .factory .gemini .github" {
		t.Errorf("dirs %s", got)
	}
}

func TestLoad(t *testing.T) {
	root := tree(t, map[string]string{
		"guard/hooks/hooks.yaml": "pre_tool_execution:\n  - command: \"echo '{}'\"\n  - type: llm\n    prompt: check\nstop:\n  - command: \"nope-not-a-program\"\n",
	})
	s := load(t, root, Options{})
	sc := mock(t, "enable_tools: false\nrequests: [{user: hi, reply: ok}]\n")
	if len(s.Commands(sc)) != 2 || len(s.Hooks()) != 3 || !diag.HasErrors(s.Diagnostics()) || !s.Active(sc) {
		t.Errorf("set: %d commands, %d hooks, %v", len(s.Commands(sc)), len(s.Hooks()), s.Diagnostics())
	}
	if cfg, _, err := attach(t, s, sc, false); !errors.Is(err, ErrNotTrusted) || len(cfg.Handlers) != 0 {
		t.Errorf("untrusted: %v, %d handlers", err, len(cfg.Handlers))
	}
	cfg, r, err := attach(t, s, sc, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Handlers) != 1 || len(r.Metrics()) != 0 {
		t.Errorf("trusted: %d handlers", len(cfg.Handlers))
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
}

func TestLoadWithoutHooks(t *testing.T) {
	root := tree(t, map[string]string{"plain/hooks/hooks.json": `{"hooks": []}`})
	s := load(t, root, Options{})
	sc := mock(t, "enable_tools: false\nrequests: [{user: hi, reply: ok}]\n")
	cfg, _, err := attach(t, s, sc, false)
	if err != nil || len(cfg.Handlers) != 0 || len(s.Commands(sc)) != 0 || len(s.Diagnostics()) != 0 || s.Active(sc) {
		t.Errorf("set: %v %d handlers %v", err, len(cfg.Handlers), s.Diagnostics())
	}
}

func TestUnusedSkillNeedsNoTrust(t *testing.T) {
	root := tree(t, map[string]string{"guard/hooks/hooks.yaml": "stop:\n  - command: \"true\"\n"})
	s := load(t, root, Options{})
	sc := mock(t, "enabled_skills: [other]\nenable_tools: false\nrequests:\n  - user: hi\n    reply: hello\n")
	if cfg, _, err := attach(t, s, sc, false); err != nil || len(cfg.Handlers) != 0 || len(s.Commands(sc)) != 0 {
		t.Errorf("err %v, %d handlers, %d commands", err, len(cfg.Handlers), len(s.Commands(sc)))
	}
	// trusting the folder allows its commands whichever scenario runs: the prompt lists them all
	if got := s.FolderCommands(sc); len(got) != 1 || got[0].Command != "true" {
		t.Errorf("folder commands %+v", got)
	}
	sc = mock(t, "enabled_skills: [other]\nenable_tools: false\nrequests:\n  - user: hi\n    reply: hello\n    enabled_skills: [guard]\n")
	if _, _, err := attach(t, s, sc, false); !errors.Is(err, ErrNotTrusted) {
		t.Errorf("a request enabling the skill: err %v", err)
	}
}

// TestExampleFolderCommands: the example folder's trust prompt lists every
// command its hooks may run (15 command hooks' bash lines, the process
// hook), though the selected scenario reaches none of them.
func TestExampleFolderCommands(t *testing.T) {
	root := filepath.Join("..", "..", "..", "skills")
	sc, _, err := scenario.LoadFile(root, "file-tools/scenarios/fix-line-limit.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := load(t, root, Options{})
	if n := len(s.Commands(sc)); n != 0 {
		t.Errorf("the scenario reaches %d commands", n)
	}
	var bash, process int
	for _, c := range s.FolderCommands(sc) {
		if strings.HasPrefix(c.Event, "process:") {
			process++
		} else {
			bash++
		}
	}
	if bash < 10 || process != 1 {
		t.Errorf("folder commands: %d bash, %d process: %+v", bash, process, s.FolderCommands(sc))
	}
}

// TestUserFiles: a system's user-level file is read from Options.User by
// the system's name.
func TestUserFiles(t *testing.T) {
	root := tree(t, map[string]string{"s/hooks/hooks.json": `{"hooks": []}`})
	user := filepath.Join(t.TempDir(), "hooks.yaml")
	if err := os.WriteFile(user, []byte("stop:\n  - command: \"echo user\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := load(t, root, Options{User: map[string]string{"command": user}})
	if got := s.FolderCommands(nil); len(got) != 1 || got[0].Command != "echo user" {
		t.Errorf("user commands %+v", got)
	}
}

// A user-level file that a setting or flag names but that cannot be read
// is an error at that path, never loaded as none without a word.
func TestUserFileProblems(t *testing.T) {
	root := tree(t, map[string]string{"s/hooks/hooks.json": `{"hooks": []}`})
	dir := t.TempDir()
	file := filepath.Join(dir, "hooks.yaml")
	if err := os.WriteFile(file, []byte("stop: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, system, path string
		problem            bool
	}{
		{"missing file", "command", filepath.Join(dir, "gone.yaml"), true},
		{"a folder for a file", "codex", dir, true},
		{"a file for a folder", "copilot-cli", file, true},
		{"a file", "command", file, false},
		{"a folder", "copilot-cli", dir, false},
		{"none", "command", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := load(t, root, Options{User: map[string]string{tt.system: tt.path}})
			var got []diag.Diagnostic
			for _, d := range s.Diagnostics() {
				if d.Code == CodeUserFile {
					got = append(got, d)
				}
			}
			if !tt.problem {
				if len(got) > 0 {
					t.Errorf("unexpected %+v", got)
				}
				return
			}
			if len(got) != 1 || got[0].File != tt.path || got[0].Severity != diag.Error {
				t.Errorf("got %+v, want one error at %s", got, tt.path)
			}
		})
	}
}
