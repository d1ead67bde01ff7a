package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/platform/workspace"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

var hookctl string // the binary under test, built once

// agentsData is the data folder the pinned agent CLIs are calibrated into
// (calibrateOnce): their request models hold the CLIs' words, which no
// other test's trace may show.
var agentsData string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "hookctl")
	if err != nil {
		panic(err)
	}
	hookctl = filepath.Join(dir, "hookctl")
	// simulate records runs in the history: never in the user's real data
	// folder. Tests that read the history pass --db as well.
	os.Setenv("HOOKSTUDIO_DATA_DIR", filepath.Join(dir, "data"))
	agentsData = filepath.Join(dir, "agents-data")
	// the real agent CLIs run as a user's shell starts them, with SHELL set,
	// also in a CI job without one: calibration gives its probes the same
	// login shell, and a CLI words a missing one its own way ("unknown")
	if os.Getenv("SHELL") == "" {
		os.Setenv("SHELL", workspace.LoginShell())
	}
	if out, err := exec.Command("go", "build", "-tags", "sqlite_fts5", "-o", hookctl, ".").CombinedOutput(); err != nil {
		panic("build hookctl: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// runCLI runs the built binary and returns stdout, stderr and exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLIEnv(t, nil, args...)
}

// runCLIEnv is runCLI with env added to the environment.
func runCLIEnv(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(hookctl, args...)
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "COLUMNS=120"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

type jsonDiag struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

func TestExitCodes(t *testing.T) {
	examples := filepath.Join("..", "..", "skills")
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no command", nil, exitUsage},
		{"unknown command", []string{"frobnicate"}, exitUsage},
		{"unknown flag", []string{"validate", "--nope"}, exitUsage},
		{"two folders", []string{"validate", "a", "b"}, exitUsage},
		{"simulate without scenario", []string{"simulate"}, exitUsage},
		{"bad --color", []string{"simulate", "--color=pink", "x.yaml"}, exitUsage},
		{"help", []string{"help"}, exitOK},
		{"examples validate (warnings only)", []string{"validate", examples}, exitOK},
		{"flags after the folder", []string{"validate", examples, "--json"}, exitOK},
		{"broken folder", []string{"validate", "testdata/broken"}, exitProblems},
		{"missing folder", []string{"validate", "testdata/does-not-exist"}, exitProblems},
		{"simulate ok", []string{"simulate", "--skills", "testdata/broken", "testdata/broken/good/scenarios/ok.yaml"}, exitOK},
		{"simulate invalid scenario", []string{"simulate", "--skills", "testdata/broken", "testdata/broken/good/scenarios/unknown-tool.yaml"}, exitProblems},
		{"simulate missing scenario", []string{"simulate", "--skills", "testdata/broken", "nope.yaml"}, exitProblems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
		})
	}
}

// TestValidateReportsEverySkill: one broken skill never hides another.
func TestValidateReportsEverySkill(t *testing.T) {
	out, _, code := runCLI(t, "validate", "testdata/broken", "--json")
	if code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	var got struct{ Diagnostics []jsonDiag }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	files := map[string]bool{}
	codes := map[string]bool{}
	for _, d := range got.Diagnostics {
		if d.Line < 1 || d.Column < 1 || d.Message == "" || (d.Severity != "error" && d.Severity != "warning") {
			t.Errorf("incomplete diagnostic %+v", d)
		}
		files[d.File] = true
		codes[d.Code] = true
	}
	for _, f := range []string{"bad/hooks/hooks.json", "worse/hooks/hooks.json", "good/scenarios/unknown-tool.yaml"} {
		if !files[f] {
			t.Errorf("no diagnostic for %s; got %v", f, files)
		}
	}
	for _, c := range []string{"unknown-timing", "unknown-role", "escaping-path", "unknown-field", "json-syntax", "unknown-tool"} {
		if !codes[c] {
			t.Errorf("no %s diagnostic; got %v", c, codes)
		}
	}
	text, _, _ := runCLI(t, "validate", "testdata/broken")
	if !strings.Contains(text, "bad/hooks/hooks.json:2:") || !strings.Contains(text, ": error: ") {
		t.Errorf("human output lacks file:line:col: severity:\n%s", text)
	}
}

// TestSimulateInvalidGivesNoTrace: diagnostics and exit 1, never a partial trace.
func TestSimulateInvalidGivesNoTrace(t *testing.T) {
	out, _, code := runCLI(t, "simulate", "--json", "--skills", "testdata/broken", "testdata/broken/good/scenarios/unknown-tool.yaml")
	if code != exitProblems {
		t.Fatalf("exit %d", code)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["requests"]; ok {
		t.Error("a trace was printed for an invalid scenario")
	}
	if _, ok := got["diagnostics"]; !ok {
		t.Error("no diagnostics printed")
	}
}

// TestSimulateConformanceJSON checks the JSON trace of the shared
// conformance case, message by message.
func TestSimulateConformanceJSON(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "conformance", "seed-diagrams")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip("shared/ is not beside this checkout")
	}
	out, stderr, code := runCLI(t, "simulate", "--json", "--skills", filepath.Join(dir, "skills"), filepath.Join(dir, "scenario.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Requests []struct {
			LLMCalls []struct {
				Phase    string `json:"phase"`
				Messages []struct {
					Origin, Hook, Prompt, Tool string
					HistoryOf                  string `json:"history_of"`
				} `json:"messages"`
			} `json:"llm_calls"`
			Yielded []string `json:"yielded"`
		} `json:"requests"`
		Steps []json.RawMessage `json:"steps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var want struct {
		LLMCalls []struct{ Messages []string } `json:"llm_calls"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, r := range doc.Requests {
		for _, c := range r.LLMCalls {
			var tags []string
			for _, m := range c.Messages {
				tags = append(tags, tagOf(m.Origin, m.HistoryOf, m.Hook, m.Prompt, m.Tool))
			}
			got = append(got, tags)
		}
	}
	if len(got) != len(want.LLMCalls) {
		t.Fatalf("%d calls, want %d", len(got), len(want.LLMCalls))
	}
	for i := range got {
		if !slices.Equal(got[i], want.LLMCalls[i].Messages) {
			t.Errorf("call %d: got %v want %v", i, got[i], want.LLMCalls[i].Messages)
		}
	}
	if len(doc.Steps) == 0 {
		t.Error("no steps in the trace")
	}
}

func tagOf(origin, historyOf, hook, prompt, tool string) string {
	base := func(o string) string {
		switch o {
		case "system_prompt":
			return "system"
		case "user_input":
			return "user"
		case "hook":
			return "hook:" + hook
		case "prompt":
			return "prompt:" + prompt
		case "tool":
			return "tool:" + tool
		}
		return o
	}
	if origin == "history" {
		return "h." + base(historyOf)
	}
	return base(origin)
}

// runsCommands says whether a skill of root holds a configuration of an
// executable hook system (a hooks.yaml, a plugin's hooks.json, a Gemini CLI
// extension's, …: a registered system with Load), as the registry claims
// files.
func runsCommands(t *testing.T, root, skill string) bool {
	t.Helper()
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	found := false
	err := filepath.WalkDir(filepath.Join(root, skill), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if sys, f, ok := reg.Find(root, filepath.ToSlash(rel)); ok && f.Role == registry.Config && sys.Load != nil {
			found = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestSimulateText pins the terminal rendering of the example scenarios.
func TestSimulateText(t *testing.T) {
	scenarios, _ := filepath.Glob(filepath.Join("..", "..", "skills", "*", "scenarios", "*.yaml"))
	if len(scenarios) < 4 {
		t.Fatalf("found %d example scenarios", len(scenarios))
	}
	for _, sc := range scenarios {
		name := strings.TrimSuffix(filepath.Base(sc), ".yaml")
		if runsCommands(t, filepath.Join("..", "..", "skills"), filepath.Base(filepath.Dir(filepath.Dir(sc)))) {
			continue // executable hooks need --trust: TestSimulateCommandHooks, TestSimulateProcessHooks, TestTestExamplesPass
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(sc)), ".codex")); err == nil {
			continue // Codex's hooks need --trust: TestTestExamplesPass, TestRealAgentCodexConformance
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(sc)), ".qwen")); err == nil {
			continue // Qwen Code's hooks need --trust: TestTestExamplesPass, TestRealAgentQwenCodeConformance
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(sc)), "gemini-extension.json")); err == nil {
			continue // a Gemini CLI extension's hooks need --trust: TestTestExamplesPass, TestRealAgentGeminiCLIConformance
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(sc)), "plugin.json")); err == nil {
			continue // a Copilot CLI plugin's hooks need --trust: TestTestExamplesPass, TestRealAgentCopilotCLIConformance
		}
		t.Run(name, func(t *testing.T) {
			out, stderr, code := runCLI(t, "simulate", "--skills", filepath.Join("..", "..", "skills"), sc)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out = durations.ReplaceAllString(out, "T") // built-in request hooks' times
			golden := filepath.Join("testdata", "golden", name+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./cmd/hookctl -update)", err)
			}
			if out != string(want) {
				t.Errorf("output differs from %s (go test ./cmd/hookctl -update after checking)", golden)
			}
		})
	}
}
