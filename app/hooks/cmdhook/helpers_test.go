package cmdhook

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

type noPromptHooks struct{}

func (noPromptHooks) Hooks([]string) []skills.Hook { return nil }

// writeTree creates files (path relative to a new root → content).
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func parseScenario(t testing.TB, text string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse("sc.yaml", []byte(text))
	if diag.HasErrors(ds) {
		t.Fatalf("scenario: %v", ds)
	}
	return sc
}

// simulate runs sc over root's command hooks with the mock model.
func simulate(t testing.TB, root string, sc *scenario.Scenario, mutate func(*Options)) (*engine.Trace, *Handler, error) {
	t.Helper()
	opts := Options{Root: root, Scenario: sc, Trusted: true}
	if mutate != nil {
		mutate(&opts)
	}
	h, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if ds := h.Config().Diagnostics; diag.HasErrors(ds) {
		t.Fatalf("hooks.yaml: %v", ds)
	}
	tr, err := engine.Run(context.Background(), sc, noPromptHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}, ModelName: sc.Model})
	return tr, h, err
}

// run is simulate over a project-level hooks.yaml.
func run(t testing.TB, hooksYAML string, sc *scenario.Scenario) *engine.Trace {
	t.Helper()
	root := writeTree(t, map[string]string{ProjectFile: hooksYAML})
	tr, _, err := simulate(t, root, sc, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return tr
}

// callsOf returns the recorded invocations of a native event.
func callsOf(tr *engine.Trace, event string) []engine.HookCall {
	var out []engine.HookCall
	for _, hc := range tr.HookCalls {
		if hc.Event == event {
			out = append(out, hc)
		}
	}
	return out
}

// full is a scenario passing through every event: a tool that succeeds,
// one that fails, a micro and an auto compaction, and a final answer.
const full = `
name: full
model: gpt-4o-mini
system_prompt: You are a careful assistant.
tools:
  - name: read_file
  - name: run_command
requests:
  - user: Read the notes
    rounds:
      - tool_calls:
          - name: read_file
            arguments: {path: notes.txt}
            result: "the notes: token=SECRET123"
          - name: run_command
            arguments: {cmd: "ls missing"}
            error: "no such file or directory"
      - compact: micro
        tool_calls:
          - name: read_file
            arguments: {path: other.txt}
            result: other
      - compact: {kind: auto, summary: "The user wants the notes."}
        content: "The notes say: token."
`

// direct is a scenario without tools: one direct call.
const direct = `
name: direct
system_prompt: Be brief.
enable_tools: false
requests:
  - user: hello
    reply: hi there
`

// echoHook is a hooks.yaml with one hook at event printing out.
func echoHook(event, out string) string {
	return event + ":\n  - command: |\n      cat >/dev/null; printf '%s' '" + strings.ReplaceAll(out, "'", `'\''`) + "'\n"
}

func mockFor(sc *scenario.Scenario) engine.Model { return llm.NewMock(sc) }

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
