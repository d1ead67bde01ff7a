package history

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

// examplesRoot is the repository's example skills.
var examplesRoot = filepath.Join("..", "..", "..", "skills")

func openTemp(t testing.TB, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "history.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// simulated is a scenario run with what SaveRun needs.
type simulated struct {
	name string
	file string
	data []byte
	tr   *engine.Trace
}

// simulate runs the scenario at rel (relative to root) with the mock model.
func simulate(t testing.TB, root, rel string) simulated {
	t.Helper()
	ctx := context.Background()
	set, err := skills.Load(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	sc, ds, err := scenario.LoadFile(root, rel)
	if err != nil {
		t.Fatal(err)
	}
	if sc == nil {
		t.Fatalf("%s: %v", rel, ds)
	}
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := engine.Run(ctx, sc, set, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return simulated{name: sc.Name, file: rel, data: data, tr: tr}
}

// exampleScenarios lists the example scenarios relative to the root.
func exampleScenarios(t testing.TB, root string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(root, "*", "scenarios", "*.yaml"))
	if err != nil || len(paths) < 4 {
		t.Fatalf("found %d example scenarios: %v", len(paths), err)
	}
	var out []string
	for _, p := range paths {
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
	}
	return out
}

func input(s simulated, src Source, at time.Time) RunInput {
	return RunInput{Trace: s.tr, ScenarioFile: s.file, ScenarioData: s.data, Backend: "mock", Source: src,
		Started: at, Ended: at.Add(3 * time.Millisecond)}
}

// copyDir copies a folder tree (the example skills, to edit a hook).
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
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
}

// hookList serves fixed hooks to the engine.
type hookList []skills.Hook

func (l hookList) Hooks(enabled []string) []skills.Hook {
	var out []skills.Hook
	for _, h := range l {
		if enabled == nil || slices.Contains(enabled, h.Skill) {
			out = append(out, h)
		}
	}
	return out
}

// loopModel answers every agent round with one tool call until rounds
// are done, as cheap as a model can be (app/agent/engine/bench_test.go).
type loopModel struct{ rounds int }

func (m loopModel) Complete(_ context.Context, c engine.Call) (engine.Reply, error) {
	switch {
	case c.Phase == engine.PhasePlanning:
		return engine.Reply{NeedTool: true, Content: "plan"}, nil
	case c.Round < m.rounds-1:
		return engine.Reply{ToolCalls: []engine.ToolCall{{Name: "read", Result: fmt.Sprintf("line %d", c.Round%50),
			Arguments: map[string]any{"n": float64(c.Round)}}}}, nil
	}
	return engine.Reply{Content: "done"}, nil
}

// failModel fails at the given agent round.
type failModel struct{ at int }

var errModelDown = errors.New("model is down")

func (m failModel) Complete(_ context.Context, c engine.Call) (engine.Reply, error) {
	if c.Phase == engine.PhaseAgent && c.Round >= m.at {
		return engine.Reply{}, errModelDown
	}
	return loopModel{rounds: 100}.Complete(context.Background(), c)
}

func syntheticHooks() hookList {
	return hookList{
		{Skill: "bench", Name: "persona", File: "persona.md", Timing: skills.AfterUserInput, Role: skills.System, Persistent: true, Content: "You are terse."},
		{Skill: "bench", Name: "plan", File: "plan.md", Timing: skills.BeforePlanning, Role: skills.System, Content: "Plan carefully."},
		{Skill: "bench", Name: "each", File: "each.md", Timing: skills.BeforeEachAgent, Role: skills.User, Content: "Keep going, one tool at a time."},
		{Skill: "bench", Name: "first", File: "first.md", Timing: skills.BeforeFirstAgent, Role: skills.System, Content: "Start by reading."},
		{Skill: "bench", Name: "after-read", File: "after.md", Timing: skills.AfterToolCall, Role: skills.System, ToolFilter: []string{"read"}, Content: "Check for truncation."},
		{Skill: "bench", Name: "after-write", File: "w.md", Timing: skills.AfterToolCall, Role: skills.System, ToolFilter: []string{"write"}, Content: "Verify the write."},
		{Skill: "other", Name: "empty-filter", File: "e.md", Timing: skills.AfterToolCall, Role: skills.System, ToolFilter: []string{}, Content: "never"},
	}
}

func syntheticScenario(requests int) *scenario.Scenario {
	sc := &scenario.Scenario{Name: "synthetic", File: "bench/scenarios/synthetic.yaml", SystemPrompt: "sys", EnableTools: true,
		Tools: []scenario.Tool{{Name: "read"}, {Name: "write"}}}
	for i := range requests {
		sc.Requests = append(sc.Requests, scenario.Request{User: fmt.Sprintf("go %d", i)})
	}
	return sc
}

// syntheticRun runs rounds agent rounds per request with the synthetic hooks.
func syntheticRun(t testing.TB, requests, rounds int, model engine.Model) simulated {
	t.Helper()
	sim, err := buildSynthetic(requests, rounds, model)
	if err != nil {
		t.Fatal(err)
	}
	return sim
}

func buildSynthetic(requests, rounds int, model engine.Model) (simulated, error) {
	if model == nil {
		model = loopModel{rounds: rounds}
	}
	sc := syntheticScenario(requests)
	tr, err := engine.Run(context.Background(), sc, syntheticHooks(), engine.Config{Model: model})
	if err != nil && !errors.Is(err, errModelDown) {
		return simulated{}, err
	}
	return simulated{name: sc.Name, file: sc.File, data: []byte(fmt.Sprintf("synthetic %d×%d", requests, rounds)), tr: tr}, nil
}
