package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// copyExample copies an example skill into a new skills folder outside
// the repository (so its git-branch hook sees no repository).
func copyExample(t *testing.T, skill string) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("..", "..", "skills", skill)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(root, skill, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

var durations = regexp.MustCompile(`\b\d+\.\dms\b`)

// TestSimulateCommandHooks: without --trust nothing runs and the commands
// are listed (exit 3); with it the invocations show between the calls.
func TestSimulateCommandHooks(t *testing.T) {
	root := copyExample(t, "guard-rails")
	sc := filepath.Join(root, "guard-rails", "scenarios", "guarded-session.yaml")
	// A git that finds no repository: the git-branch hook answers the same
	// wherever the test runs.
	bin := t.TempDir()
	writeFileT(t, filepath.Join(bin, "git"), "#!/bin/sh\nexit 128\n")
	if err := os.Chmod(filepath.Join(bin, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, stderr, code := runCLI(t, "simulate", "--no-history", "--skills", root, sc)
	if code != exitNotTrusted || out != "" {
		t.Fatalf("untrusted: exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"--trust", "block-rm-rf.sh", "guard-rails/hooks/hooks.yaml:32", "register_hook"} {
		if !strings.Contains(stderr, want) && !(want == "register_hook" && strings.Contains(stderr, "pre_llm_request  echo")) {
			t.Errorf("untrusted stderr lacks %q:\n%s", want, stderr)
		}
	}
	out, stderr, code = runCLI(t, "simulate", "--no-history", "--trust", "--skills", root, sc)
	if code != exitOK {
		t.Fatalf("trusted: exit %d: %s", code, stderr)
	}
	got := durations.ReplaceAllString(strings.ReplaceAll(out, root, "$ROOT"), "T")
	golden := filepath.Join("testdata", "golden", "guarded-session.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/hookctl -update)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/hookctl -update after checking)", golden)
	}
	// The JSON trace carries every invocation with its stdin and stdout.
	out, _, code = runCLI(t, "simulate", "--no-history", "--trust", "--json", "--skills", root, sc)
	if code != exitOK {
		t.Fatalf("json: exit %d", code)
	}
	var doc struct {
		Steps []struct {
			Kind     string `json:"kind"`
			HookCall *struct {
				Event   string          `json:"event"`
				Hook    string          `json:"hook"`
				Outcome string          `json:"outcome"`
				Input   json.RawMessage `json:"input"`
				Output  json.RawMessage `json:"output"`
			} `json:"hook_call"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range doc.Steps {
		if hc := s.HookCall; hc != nil && hc.Hook == "block-rm-rf" && hc.Outcome == "skipped" {
			var in, out map[string]any
			json.Unmarshal(hc.Input, &in)
			json.Unmarshal(hc.Output, &out)
			found = in["tool_name"] == "run_command" && out["action"] == "skip"
		}
	}
	if !found {
		t.Error("no skipped block-rm-rf invocation with its stdin and stdout in the JSON trace")
	}
}

// TestSimulateHooksOfUnusedSkills: a skill the scenario does not enable
// needs no trust.
func TestSimulateHooksOfUnusedSkills(t *testing.T) {
	root := copyExample(t, "guard-rails")
	writeFileT(t, filepath.Join(root, "plain", "scenarios", "s.yaml"), "enabled_skills: []\nenable_tools: false\nrequests:\n  - user: hi\n    reply: hello\n")
	_, stderr, code := runCLI(t, "simulate", "--no-history", "--skills", root, filepath.Join(root, "plain", "scenarios", "s.yaml"))
	if code != exitOK {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestValidateHooksYAML(t *testing.T) {
	root := t.TempDir()
	writeFileT(t, filepath.Join(root, "guard", "hooks", "hooks.yaml"), "pre_tool_exec:\n  - command: \"true\"\nstop:\n  - type: llm\n  - {command: \"no-such-program-hookctl\"}\n")
	writeFileT(t, filepath.Join(root, ".jcli", "hooks.yaml"), "pre_llm_request:\n  - command: \"true\"\n    filter: {tool_name: Bash}\n")
	out, _, code := runCLI(t, "validate", root)
	if code != exitProblems {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"guard/hooks/hooks.yaml:1:1: error: ",
		"[unknown-event]",
		"guard/hooks/hooks.yaml:4:5: error: ",
		"[missing-prompt]",
		"[command-not-found]",
		".jcli/hooks.yaml:3:14: warning: ",
		"[filter-no-tool]",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("validate output lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = runCLI(t, "validate", "--json", root)
	var doc struct {
		Diagnostics []jsonDiag `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, d := range doc.Diagnostics {
		codes[d.Code] = true
	}
	for _, c := range []string{"unknown-event", "missing-prompt", "command-not-found", "filter-no-tool"} {
		if !codes[c] {
			t.Errorf("--json lacks %s", c)
		}
	}
}

func writeFileT(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestValidateReadsCommandsAsTheShell: a command is read as sh -c will, so
// a valid one is never refused ("(sleep" is no program), a missing program
// inside a pipeline is found, and a command sh cannot read is said so.
func TestValidateReadsCommandsAsTheShell(t *testing.T) {
	cases := []struct {
		command string
		code    string // "" valid
	}{
		{`(sleep 300 &) ; echo '{}'`, ""},
		{`FOO=1 cat | grep -q x && "$JCLI_HOOK_DIR/check.sh" --strict 2>/dev/null || true`, ""},
		{`f() { true; }; f; $UNKNOWN_TOOL x`, ""}, // a function, and a program known only at run time
		{`cat | no-such-program-hookctl --flag`, "command-not-found"},
		{`echo 'unterminated`, "shell-syntax"},
	}
	for _, c := range cases {
		t.Run(c.command, func(t *testing.T) {
			root := t.TempDir()
			yaml, _ := json.Marshal(c.command) // a JSON string is a YAML string
			writeFileT(t, filepath.Join(root, "guard", "hooks", "hooks.yaml"), "stop:\n  - command: "+string(yaml)+"\n")
			writeFileT(t, filepath.Join(root, "guard", "hooks", "check.sh"), "#!/bin/sh\nexit 0\n")
			if err := os.Chmod(filepath.Join(root, "guard", "hooks", "check.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			out, _, code := runCLI(t, "validate", "--json", root)
			var doc struct {
				Diagnostics []jsonDiag `json:"diagnostics"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			var codes []string
			for _, d := range doc.Diagnostics {
				codes = append(codes, d.Code)
			}
			switch {
			case c.code == "" && (code != exitOK || len(codes) > 0):
				t.Errorf("exit %d, diagnostics %v, want none", code, codes)
			case c.code != "" && (code != exitProblems || !slices.Contains(codes, c.code)):
				t.Errorf("exit %d, diagnostics %v, want %s", code, codes, c.code)
			}
		})
	}
}
