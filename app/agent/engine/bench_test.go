package engine

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

// benchHooks returns n hooks spread evenly over the five timings, a few of
// them persistent at after_user_input (the only timing where that is sane).
func benchHooks(n int) hookList {
	out := make(hookList, n)
	for i := range out {
		tm := skills.Timings[i%len(skills.Timings)]
		out[i] = skills.Hook{Skill: "bench", Name: fmt.Sprintf("h%03d", i), Timing: tm, Role: skills.System,
			Persistent: tm == skills.AfterUserInput && i%10 == 0, Content: fmt.Sprintf("hook %d text", i)}
	}
	return out
}

// loopModel answers every agent round with one tool call until rounds are
// done; it is as cheap as a model can be, so the engine's cost shows.
type loopModel struct{ rounds int }

var oneCall = []ToolCall{{Name: "a", Result: "ok"}}

func (m loopModel) Complete(_ context.Context, c Call) (Reply, error) {
	switch {
	case c.Phase == PhasePlanning:
		return Reply{NeedTool: true}, nil
	case c.Round < m.rounds-1:
		return Reply{ToolCalls: oneCall}, nil
	}
	return Reply{Content: "done"}, nil
}

func benchScenario() *scenario.Scenario {
	return &scenario.Scenario{SystemPrompt: "sys", EnableTools: true, Tools: tools, Requests: []scenario.Request{{User: "go"}}}
}

// BenchmarkRun10000Rounds is the engine on 10,000 agent rounds with 100
// hooks across all timings; compare with BenchmarkBaselineAppend10000Rounds.
func BenchmarkRun10000Rounds(b *testing.B) {
	hooks, sc := benchHooks(100), benchScenario()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Run(context.Background(), sc, hooks, Config{Model: loopModel{10000}}); err != nil {
			b.Fatal(err)
		}
	}
}

type plainMsg struct{ role, content string }

// BenchmarkBaselineAppend10000Rounds appends the same messages the engine
// appends in the same run to a slice, and nothing else.
func BenchmarkBaselineAppend10000Rounds(b *testing.B) {
	hooks := benchHooks(100)
	byTiming := map[skills.Timing][]plainMsg{}
	for _, h := range hooks {
		byTiming[h.Timing] = append(byTiming[h.Timing], plainMsg{string(h.Role), h.Content})
	}
	b.ReportAllocs()
	for b.Loop() {
		var list []plainMsg
		list = append(list, plainMsg{"system", "sys"}, plainMsg{"user", "go"})
		list = append(list, byTiming[skills.AfterUserInput]...)
		list = append(list, byTiming[skills.BeforePlanning]...)
		list = append(list, plainMsg{"system", "planning"})
		for r := range 10000 {
			list = append(list, byTiming[skills.BeforeEachAgent]...)
			if r == 0 {
				list = append(list, byTiming[skills.BeforeFirstAgent]...)
			}
			list = append(list, plainMsg{"system", "step"})
			if r < 9999 {
				list = append(list, plainMsg{"assistant", ""}, plainMsg{"tool", "ok"})
				list = append(list, byTiming[skills.AfterToolCall]...)
			}
		}
		runtime.KeepAlive(list)
	}
}

// BenchmarkMemoryPerRound reports the bytes a run keeps per agent round at
// growing lengths: flat figures mean memory grows with rounds, not with
// rounds × list length.
func BenchmarkMemoryPerRound(b *testing.B) {
	for _, rounds := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("rounds=%d", rounds), func(b *testing.B) {
			hooks, sc := benchHooks(100), benchScenario()
			var ms0, ms1 runtime.MemStats
			var tr *Trace
			for b.Loop() {
				runtime.GC()
				runtime.ReadMemStats(&ms0)
				tr, _ = Run(context.Background(), sc, hooks, Config{Model: loopModel{rounds}})
				runtime.GC()
				runtime.ReadMemStats(&ms1)
			}
			runtime.KeepAlive(tr)
			b.ReportMetric(float64(ms1.HeapAlloc-ms0.HeapAlloc)/float64(rounds), "retained-B/round")
		})
	}
}

// BenchmarkSnapshot rebuilds the list the last call of a 10,000-round run
// receives, the worst case for the on-demand snapshot.
func BenchmarkSnapshot(b *testing.B) {
	tr, err := Run(context.Background(), benchScenario(), benchHooks(100), Config{Model: loopModel{10000}})
	if err != nil {
		b.Fatal(err)
	}
	last := len(tr.Calls) - 1
	b.ReportAllocs()
	for b.Loop() {
		_ = tr.MessageIDsAt(tr.Calls[last].Step)
	}
}
