package metrics

import (
	"testing"

	"hookstudio/app/agent/engine"
)

func TestBook(t *testing.T) {
	b := NewBook("command")
	guard := Hook{Event: "pre_tool_execution", Name: "guard", Source: "a/hooks/hooks.yaml:3"}
	log := Hook{Event: "post_tool_execution", Name: "log", Source: "a/hooks/hooks.yaml:9"}
	b.Ran(guard, &engine.HookCall{Outcome: engine.OutcomeSkipped, DurationMS: 2})
	b.Ran(guard, &engine.HookCall{Outcome: engine.OutcomeTimeout, DurationMS: 3})
	b.Skipped(log, guard)
	got := b.List()
	want := []engine.HookMetric{
		{System: "command", Event: "pre_tool_execution", Hook: "guard", Source: guard.Source, Runs: 2, Successes: 1, Failures: 1, Skips: 1, TotalMS: 5},
		{System: "command", Event: "post_tool_execution", Hook: "log", Source: log.Source, Skips: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("metric %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
