package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

// BenchmarkExampleScenarios reports time and allocations per simulated LLM
// call for every example scenario under skills/.
func BenchmarkExampleScenarios(b *testing.B) {
	root := filepath.Join("..", "..", "..", "skills")
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(root, "*", "scenarios", "*.yaml"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sc, ds := scenario.Parse(f, data)
		if diag.HasErrors(ds) {
			b.Fatalf("%s: %+v", f, ds)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		b.Run(name, func(b *testing.B) {
			var calls int
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			b.ReportAllocs()
			for b.Loop() {
				tr, err := engine.Run(context.Background(), sc, set, engine.Config{Model: llm.NewMock(sc)})
				if err != nil {
					b.Fatal(err)
				}
				calls = len(tr.Calls)
			}
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*calls), "ns/llm-call")
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N*calls), "allocs/llm-call")
			b.ReportMetric(float64(calls), "llm-calls")
		})
	}
}
