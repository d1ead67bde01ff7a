package history

import (
	"context"
	"fmt"
	"testing"
	"time"

	"hookstudio/app/agent/tokens"
)

// bigRun is one request of 1,112 agent rounds with the synthetic hooks:
// about 10,000 steps.
func bigRun(b *testing.B) simulated {
	sim := syntheticRun(b, 1, 1112, nil)
	if n := sim.tr.NumSteps(); n < 10000 {
		b.Fatalf("only %d steps", n)
	}
	return sim
}

// BenchmarkSaveRun10000Steps stores a ~10,000-step run, metrics and real
// token counts included, into a database that already holds it once
// (the usual case: most texts are known blobs).
func BenchmarkSaveRun10000Steps(b *testing.B) {
	ctx := context.Background()
	counter, err := tokens.NewCounter()
	if err != nil {
		b.Fatal(err)
	}
	sim := bigRun(b)
	s := openTemp(b, WithRetention(Retention{}))
	in := input(sim, SourceCLI, t0)
	in.Tokens = counter
	if _, err := s.SaveRun(ctx, in); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.SaveRun(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	size, _ := s.Size(ctx)
	runs, _ := s.ListRuns(ctx, Filter{})
	b.ReportMetric(float64(size)/float64(len(runs)), "db-B/run")
	b.ReportMetric(float64(sim.tr.NumSteps()), "steps")
	b.ReportMetric(float64(sim.tr.NumMessages()), "messages")
	b.ReportMetric(float64(len(sim.tr.Calls)), "calls")
}

// BenchmarkLoadRun10000Steps opens the run again: trace, metrics and all.
func BenchmarkLoadRun10000Steps(b *testing.B) {
	ctx := context.Background()
	sim := bigRun(b)
	s := openTemp(b)
	id, err := s.SaveRun(ctx, input(sim, SourceCLI, t0))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.LoadRun(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListRuns10000 lists from 10,000 runs over 20 scenarios and 5
// skills, with the filters the history view uses.
func BenchmarkListRuns10000(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b, WithRetention(Retention{}))
	small := syntheticRun(b, 1, 2, nil)
	// Through SaveRun, varying file (hence skill) and source.
	for i := range 10000 {
		sim := small
		sim.file = fmt.Sprintf("skill%d/scenarios/s%02d.yaml", i%5, i%20)
		in := input(sim, []Source{SourceCLI, SourceApp, SourceLive}[i%3], t0.Add(time.Duration(i)*time.Minute))
		if _, err := s.SaveRun(ctx, in); err != nil {
			b.Fatal(err)
		}
	}
	// Scenario names come from the trace; spread them over 20 names.
	if _, err := s.db.Exec(`UPDATE runs SET scenario = 's' || (id % 20)`); err != nil {
		b.Fatal(err)
	}
	filters := []struct {
		name string
		f    Filter
	}{
		{"newest 100", Filter{Limit: 100}},
		{"all 10000", Filter{}},
		{"scenario", Filter{Scenario: "s7", Limit: 100}},
		{"skill", Filter{Skill: "skill3", Limit: 100}},
		{"skill+since", Filter{Skill: "skill3", Since: t0.Add(5000 * time.Minute), Limit: 100}},
		{"scenario+source+range", Filter{Scenario: "s7", Source: SourceLive, Since: t0.Add(1000 * time.Minute), Until: t0.Add(9000 * time.Minute)}},
		{"page 50", Filter{Limit: 100, Offset: 5000}},
	}
	for _, f := range filters {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.ListRuns(ctx, f.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
