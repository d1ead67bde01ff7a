package history

import (
	"context"
	"testing"
	"time"

	"hookstudio/app/engine"
	"hookstudio/app/llm"
)

// injector is an executable hook (system "process") that adds a message
// before every LLM call.
type injector struct{}

func (injector) Handle(_ context.Context, ev *engine.Event) error {
	if ev.Point == engine.PointBeforeLLM {
		ev.Apply(engine.HookCall{System: "process", Event: "hook.before_llm", Hook: "audit"},
			engine.Effect{Inject: []engine.NewMessage{{Role: "system", Content: "Audit: this session is recorded."}}})
	}
	return nil
}

// TestExecutableHookMetrics: the messages an executable hook added are
// counted as its own row (what the History's charts read), after the prompt
// hooks, and a stored run loads with its prompt hooks unchanged.
func TestExecutableHookMetrics(t *testing.T) {
	sc := syntheticScenario(1)
	tr, err := engine.Run(context.Background(), sc, syntheticHooks(), engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{injector{}}})
	if err != nil {
		t.Fatal(err)
	}
	s := openTemp(t)
	id, err := s.SaveRun(context.Background(), RunInput{Trace: tr, ScenarioFile: sc.File, Source: SourceCLI, Started: time.Now(), Ended: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.LoadRun(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var audit *HookMetrics
	for i := range run.Hooks {
		if run.Hooks[i].Hook == "process/audit" {
			audit = &run.Hooks[i]
		}
	}
	if audit == nil || audit.Timing != ExecTiming+"process" || audit.Injected != len(tr.Calls) || audit.CallsSeen != len(tr.Calls) || audit.TokensTotal == 0 {
		t.Fatalf("the executable hook's metrics %+v (%d calls)", audit, len(tr.Calls))
	}
	if got, want := len(run.Trace.Hooks), len(tr.Hooks); got != want {
		t.Errorf("the loaded trace has %d prompt hooks, the run %d", got, want)
	}
}
