// Package hooktest is what the tests of the agents' hook systems share:
// a project folder written from a map of files, a scenario read from its
// text, a simulated run of it with one hook system's handler, and the
// messages of the run's last model call as the tests compare them.
package hooktest

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
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/skills"
)

// Project writes files (by slash-separated path) to a new folder and
// returns it; a .sh file is executable, every other one not.
func Project(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Scenario reads a scenario's text; one with errors fails the test.
func Scenario(t testing.TB, text string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse("s.yaml", []byte(text))
	if sc == nil || diag.HasErrors(ds) {
		t.Fatalf("scenario: %+v", ds)
	}
	return sc
}

// noPrompts are a run's prompt hooks: none.
type noPrompts struct{}

func (noPrompts) Hooks([]string) []skills.Hook { return nil }

// Run plays sc with the mock model and h, the one hook handler; a run
// that ends in an error other than a stop fails the test.
func Run(t testing.TB, sc *scenario.Scenario, h engine.Handler) *engine.Trace {
	t.Helper()
	tr, err := engine.Run(context.Background(), sc, noPrompts{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}})
	if err != nil && !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("run: %v", err)
	}
	return tr
}

// Messages are the last model call's messages as "role: content", a
// hook's of system as "hook role: content".
func Messages(tr *engine.Trace, system string) []string {
	var out []string
	for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
		tag := m.Role
		if m.Origin == engine.OriginHook && m.System == system {
			tag = "hook " + m.Role
		}
		out = append(out, tag+": "+m.Content)
	}
	return out
}

// InOrder fails the test unless every one of want stands in the last
// call's messages (joined by "\n¶"), in order.
func InOrder(t testing.TB, messages []string, want ...string) {
	t.Helper()
	got := strings.Join(messages, "\n¶")
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("missing %q (after offset %d) in\n%s", w, at, got)
		}
		at += i + len(w)
	}
}

// Said is the last model call's messages as "role: content", the
// scenario's own (the system prompt, the model's answers) left out.
func Said(tr *engine.Trace) []string {
	var out []string
	for _, m := range tr.CallMessages(len(tr.Calls) - 1) {
		if m.Role != "assistant" && m.Origin != "prompt" {
			out = append(out, m.Role+": "+m.Content)
		}
	}
	return out
}

// handler is a hook system's handler of one run.
type handler interface {
	engine.Handler
	Close() error
}

// RunWith starts a hook system's handler with newH (its New) for
// opts.Scenario, plays the scenario with it and closes it.
func RunWith[C any, H handler](t testing.TB, opts hookrun.Options[C], newH func(hookrun.Options[C]) (H, error)) *engine.Trace {
	t.Helper()
	h, err := newH(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	return Run(t, opts.Scenario, h)
}
