package hooksets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
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

func TestLoad(t *testing.T) {
	root := tree(t, map[string]string{
		"guard/hooks/hooks.yaml": "pre_tool_execution:\n  - command: \"echo '{}'\"\n  - type: llm\n    prompt: check\nstop:\n  - command: \"nope-not-a-program\"\n",
	})
	s, err := Load(root, Options{})
	if !errors.Is(err, ErrNotTrusted) || s == nil {
		t.Fatalf("untrusted: %v", err)
	}
	if len(s.Handlers()) != 0 || len(s.Commands()) != 2 || len(s.Hooks()) != 3 || !diag.HasErrors(s.Diagnostics()) || s.Fingerprint() == "" {
		t.Errorf("untrusted set: %d handlers, %d commands, %d hooks, %v", len(s.Handlers()), len(s.Commands()), len(s.Hooks()), s.Diagnostics())
	}
	s, err = Load(root, Options{Trusted: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if len(s.Handlers()) != 1 || len(s.Metrics()) != 0 {
		t.Errorf("trusted: %d handlers", len(s.Handlers()))
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

func TestLoadWithoutHooks(t *testing.T) {
	root := tree(t, map[string]string{"plain/hooks/hooks.json": `{"hooks": []}`})
	s, err := Load(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Handlers()) != 0 || len(s.Commands()) != 0 || len(s.Diagnostics()) != 0 {
		t.Errorf("set %+v", s)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
}

func TestFingerprintChanges(t *testing.T) {
	root := tree(t, map[string]string{".jcli/hooks.yaml": "stop:\n  - command: \"true\"\n"})
	a, _ := Load(root, Options{})
	if err := os.WriteFile(filepath.Join(root, ".jcli/hooks.yaml"), []byte("stop:\n  - command: \"false\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b, _ := Load(root, Options{})
	if a.Fingerprint() == b.Fingerprint() {
		t.Error("fingerprint did not change")
	}
}

func TestUnusedSkillNeedsNoTrust(t *testing.T) {
	root := tree(t, map[string]string{"guard/hooks/hooks.yaml": "stop:\n  - command: \"true\"\n"})
	sc, _ := scenario.Parse("s.yaml", []byte("enabled_skills: [other]\nenable_tools: false\nrequests:\n  - user: hi\n    reply: hello\n"))
	s, err := Load(root, Options{Scenario: sc})
	if err != nil || len(s.Handlers()) != 0 || len(s.Commands()) != 0 {
		t.Errorf("err %v, %d handlers, %d commands", err, len(s.Handlers()), len(s.Commands()))
	}
	// trusting the folder allows its commands whichever scenario runs: the prompt lists them all
	if got := s.FolderCommands(); len(got) != 1 || got[0].Command != "true" {
		t.Errorf("folder commands %+v", got)
	}
	sc, _ = scenario.Parse("s.yaml", []byte("enabled_skills: [other]\nenable_tools: false\nrequests:\n  - user: hi\n    reply: hello\n    enabled_skills: [guard]\n"))
	if _, err := Load(root, Options{Scenario: sc}); !errors.Is(err, ErrNotTrusted) {
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
	s, err := Load(root, Options{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Commands()); n != 0 {
		t.Errorf("the scenario reaches %d commands", n)
	}
	var bash, process int
	for _, c := range s.FolderCommands() {
		if strings.HasPrefix(string(c.Event), "process:") {
			process++
		} else {
			bash++
		}
	}
	if bash < 10 || process != 1 {
		t.Errorf("folder commands: %d bash, %d process: %+v", bash, process, s.FolderCommands())
	}
}
