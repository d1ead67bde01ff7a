package runs

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/answers"
	"hookstudio/app/hooks/registry"
)

func parse(t *testing.T, text string) *scenario.Scenario {
	t.Helper()
	sc, ds := scenario.Parse("s/scenarios/x.yaml", []byte(text))
	if diag.HasErrors(ds) {
		t.Fatal(ds)
	}
	return sc
}

// fakeHooks attaches one handler that counts the points it sees.
type fakeHooks struct {
	run    registry.Run
	points int
	closed int
	err    error
}

func (f *fakeHooks) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if f.err != nil {
		return nil, f.err
	}
	f.run = run
	cfg.Handlers = append(cfg.Handlers, f)
	return f, nil
}
func (f *fakeHooks) Handle(context.Context, *engine.Event) error { f.points++; return nil }
func (f *fakeHooks) Metrics() []engine.HookMetric {
	return []engine.HookMetric{{System: "fake", Hook: "h", Runs: f.points}}
}
func (f *fakeHooks) Close() error { f.closed++; return nil }

type echoModel struct{}

func (echoModel) Complete(context.Context, engine.Call) (engine.Reply, error) {
	return engine.Reply{Content: "done"}, nil
}

func TestAssemble(t *testing.T) {
	sc := parse(t, "name: x\nmodel: m1\nenable_tools: false\nrequests: [{user: hi, reply: ok}]\n")
	hooks := &fakeHooks{}
	var wrapped int
	r, err := Assemble(Spec{Scenario: sc, Hooks: hooks, Trusted: true,
		Wrap: func(h engine.Handler) engine.Handler { wrapped++; return h }})
	if err != nil {
		t.Fatal(err)
	}
	if hooks.run.Backend != "mock" || hooks.run.Completer != nil || !hooks.run.Trusted || hooks.run.Scenario != sc {
		t.Errorf("the hooks' run %+v", hooks.run)
	}
	tr, err := r.Execute(context.Background())
	if err != nil || tr.Status != engine.StatusOK {
		t.Fatalf("%v %s", err, tr.Status)
	}
	if hooks.points == 0 || hooks.closed != 1 || wrapped != 1 || len(r.Metrics()) != 1 || !r.Hooked() {
		t.Errorf("points %d, closed %d, wrapped %d, metrics %v", hooks.points, hooks.closed, wrapped, r.Metrics())
	}
	if len(r.Events()) == 0 {
		t.Error("a headless run kept no events")
	}

	// A real model: the hooks' llm prompts ask it, under its backend.
	hooks = &fakeHooks{}
	if _, err := Assemble(Spec{Scenario: sc, Hooks: hooks, Model: echoModel{}, Backend: "openai:work"}); err != nil {
		t.Fatal(err)
	}
	if m, ok := hooks.run.Completer.(*answers.Model); !ok || m.Model == nil || hooks.run.Backend != "openai:work" {
		t.Errorf("real run: %+v", hooks.run)
	}

	hooks = &fakeHooks{err: errors.New("not trusted")}
	if _, err := Assemble(Spec{Scenario: sc, Hooks: hooks}); !errors.Is(err, hooks.err) {
		t.Errorf("attach error: %v", err)
	}
}

// TestAssemblePlaceholders: the run's folder (absolute) is what the
// scenario's {{cwd}} says in the model's scripted answers and the tools'
// scripted results; the spec's scenario is left as parsed.
func TestAssemblePlaceholders(t *testing.T) {
	dir := t.TempDir()
	sc := parse(t, `name: x
tools: [{name: view, description: View a file.}]
requests:
  - user: read the notes
    rounds:
      - tool_calls: [{name: view, arguments: {path: "{{cwd}}/notes.txt"}, error: "Path {{cwd}}/notes.txt does not exist."}]
      - content: "Nothing in {{cwd}}."
`)
	r, err := Assemble(Spec{Scenario: sc, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := r.Execute(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := json.Marshal(tr.Document())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"path":"` + dir + `/notes.txt"`, "Path " + dir + "/notes.txt does not exist.", "Nothing in " + dir + "."} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the trace lacks %q", want)
		}
	}
	if strings.Contains(string(doc), "{{cwd}}") {
		t.Errorf("the trace holds {{cwd}}")
	}
	if got := sc.Requests[0].Rounds[1].Content; got != "Nothing in {{cwd}}." {
		t.Errorf("the parsed scenario became %q", got)
	}
}
