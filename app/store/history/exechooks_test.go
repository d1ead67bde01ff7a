package history

import (
	"context"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

// injector is an executable hook (system "process") that adds a message
// before every LLM call.
// It also plays a guard (system "claude-code") that blocks every tool
// call: the model reads the guard's reason in the tool's place.
type injector struct{}

func (injector) Handle(_ context.Context, ev *engine.Event) error {
	switch ev.Point {
	case engine.PointBeforeLLM:
		ev.Apply(engine.HookCall{System: "process", Event: "hook.before_llm", Hook: "audit"},
			engine.Effect{Inject: []engine.NewMessage{{Role: "system", Content: "Audit: this session is recorded."}}})
	case engine.PointBeforeTool:
		ev.Apply(engine.HookCall{System: "claude-code", Event: "PreToolUse", Hook: "guard.sh"},
			engine.Effect{Action: engine.ActionDeny, Reason: "Tools are off during the freeze."})
	}
	return nil
}

// TestExecutableHookMetrics: the messages an executable hook added are
// counted as its own row (what the History's charts read), after the prompt
// hooks, and a stored run loads with its prompt hooks unchanged.
func TestExecutableHookMetrics(t *testing.T) {
	sc := syntheticScenario(1)
	tr, err := engine.Run(context.Background(), sc, syntheticHooks(), engine.Config{Model: loopModel{rounds: 2}, Handlers: []engine.Handler{injector{}}})
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
	var audit, guard *HookMetrics
	for i := range run.Hooks {
		switch run.Hooks[i].Hook {
		case "process/audit":
			audit = &run.Hooks[i]
		case "claude-code/guard.sh":
			guard = &run.Hooks[i]
		}
	}
	if guard == nil || guard.Injected != 0 || guard.CallsSeen == 0 || guard.TokensTotal == 0 {
		t.Errorf("the guard's tool results are not its row: %+v", guard)
	}
	if audit == nil || audit.Timing != ExecTiming+"process" || audit.Injected != len(tr.Calls) || audit.CallsSeen != len(tr.Calls) || audit.TokensTotal == 0 {
		t.Fatalf("the executable hook's metrics %+v (%d calls)", audit, len(tr.Calls))
	}
	if got, want := len(run.Trace.Hooks), len(tr.Hooks); got != want {
		t.Errorf("the loaded trace has %d prompt hooks, the run %d", got, want)
	}
}
