package claudehook

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/process"
)

// BenchmarkSpawnTrue is `sh -c true` through os/exec: the floor of any
// command hook, which the overhead below is measured against.
func BenchmarkSpawnTrue(b *testing.B) {
	for b.Loop() {
		if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandlerOverhead is what Hook Studio adds per Claude Code hook
// invocation, the process replaced by a fake that answers at once: the
// transcript file, the stdin JSON, matching, the parallel run, reading the
// output as the real CLI does, the hook_call step and its effect. Target:
// ≤ 5 % of BenchmarkSpawnTrue (docs/benchmarks.md).
func BenchmarkHandlerOverhead(b *testing.B) {
	const hooks = 20
	var handlers []string
	for i := range hooks { // distinct: identical handlers run once
		handlers = append(handlers, `{"type": "command", "command": "cat >/dev/null # `+strconv.Itoa(i)+`"}`)
	}
	root := b.TempDir()
	write(b, root, ".claude/settings.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [`+strings.Join(handlers, ",")+`]}]}}`, 0o644)
	cfg, err := Load(root, LoadOptions{})
	if err != nil || diag.HasErrors(cfg.Diagnostics) {
		b.Fatal(err, cfg.Diagnostics)
	}
	sc, ds := scenario.Parse("b.yaml", []byte("name: b\n"+bashTool+`requests:
  - user: Rename parseConfig to loadConfig everywhere and update the tests that call it.
    rounds:
      - tool_calls: [{name: Bash, arguments: {command: "grep -rn parseConfig ."}, result: "src/config.go:12: func parseConfig"}]
      - content: Done.
`))
	if sc == nil || diag.HasErrors(ds) {
		b.Fatal(ds)
	}
	for _, tt := range []struct{ name, answer string }{
		{"no-change", ``},
		{"context", `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": "Current branch: main"}}`},
	} {
		b.Run(tt.name, func(b *testing.B) {
			out := []byte(tt.answer)
			var invocations int
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer() // a run's folder is made and removed once per run, not per invocation
				h, err := New(Options{Config: cfg, Scenario: sc})
				if err != nil {
					b.Fatal(err)
				}
				h.exec = func(context.Context, process.Spec) process.Result {
					return process.Result{Stdout: out}
				}
				b.StartTimer()
				tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: []engine.Handler{h}})
				if err != nil {
					b.Fatal(err)
				}
				invocations += len(tr.HookCalls)
				b.StopTimer()
				_ = h.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(max(invocations, 1)), "ns/invocation")
		})
	}
}
