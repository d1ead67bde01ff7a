//go:build unix

package prochook

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
)

// beforeToolParams is a typical hook.before_tool request's params.
var beforeToolParams = toolParams{Meta: meta{AgentID: agentID, TurnID: "main-turn-1", SessionKey: "s", Iteration: 1, TracePath: "turn.tool.before", Source: "runTurn"},
	Context: &turnContext{Inbound: inbound{Channel: channel, ChatID: "chat-s", SenderID: senderID}},
	Tool:    "read_file", Arguments: map[string]any{"path": "internal/config/loader.go", "limit": 200}}

// cpuTime is this process's user+system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportLatency adds the median and p99 of ds and the rate to b.
func reportLatency(b *testing.B, ds []time.Duration) {
	slices.Sort(ds)
	p := func(q float64) float64 { return float64(ds[int(float64(len(ds)-1)*q)].Nanoseconds()) }
	b.ReportMetric(p(0.5), "p50-ns")
	b.ReportMetric(p(0.99), "p99-ns")
	var total time.Duration
	for _, d := range ds {
		total += d
	}
	b.ReportMetric(float64(len(ds))/total.Seconds(), "roundtrips/s")
}

// One hook.before_tool to an already-started Go hook that answers
// continue: encode, write, the hook's read/decode/answer, read, match by id.
func BenchmarkRoundTrip(b *testing.B) {
	p, err := spawn("bench", []string{goHook}, b.TempDir(), CleanEnv())
	if err != nil {
		b.Fatal(err)
	}
	defer p.stop(time.Second)
	ctx := context.Background()
	if x := p.call(ctx, "hook.hello", map[string]any{"name": "bench", "version": 1, "modes": []string{"tool"}}, 5*time.Second); x.kind != okay {
		b.Fatal(x.err)
	}
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu := cpuTime()
	defer func() { b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(len(ds)), "cpu-ns/op") }()
	for b.Loop() {
		start := time.Now()
		x := p.call(ctx, "hook.before_tool", beforeToolParams, 5*time.Second)
		ds = append(ds, time.Since(start))
		if x.kind != okay {
			b.Fatal(x.err)
		}
	}
	reportLatency(b, ds)
}

// The floor: the same request line through a plain pipe to cat and back.
func BenchmarkPipeEcho(b *testing.B) {
	line, err := request(1, "hook.before_tool", beforeToolParams)
	if err != nil {
		b.Fatal(err)
	}
	line = append(line, '\n')
	cmd := exec.Command("cat")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	out := bufio.NewReaderSize(outPipe, 64<<10)
	ds := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, err := in.Write(line); err != nil {
			b.Fatal(err)
		}
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
		ds = append(ds, time.Since(start))
	}
	b.StopTimer()
	in.Close()
	cmd.Wait()
	reportLatency(b, ds)
}

// The simulator's cost per process-hook call: a run whose one round calls
// 100 tools, without hooks and with each call through hook.before_tool
// (continue). A run starts and stops the hook process once (startup is
// measured apart); per call, the difference minus BenchmarkRoundTrip is
// the simulator's own cost.
func BenchmarkSimulatedHookCall(b *testing.B) {
	const n = 100
	var sb strings.Builder
	sb.WriteString("name: bench\ntools: [{name: read_file}]\nrequests:\n  - user: go\n    planning: {need_tool: true}\n    rounds:\n      - tool_calls:\n")
	for i := range n {
		fmt.Fprintf(&sb, "          - {name: read_file, arguments: {path: f%d}, result: x}\n", i)
	}
	sb.WriteString("      - content: done\n")
	sc, ds := scenario.Parse("bench.yaml", []byte(sb.String()))
	for _, d := range ds {
		if d.Severity == "error" {
			b.Fatal(d)
		}
	}
	hk := Hook{Name: "bench", File: "b/hooks/picoclaw.json", Enabled: true, OK: true, Command: []string{goHook}, Dir: b.TempDir(),
		Intercept: []string{"before_tool"}, Defaults: Defaults{Observer: time.Second, Interceptor: 5 * time.Second, Approval: 5 * time.Second}}
	run := func(hs ...engine.Handler) {
		if _, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc), Handlers: hs}); err != nil {
			b.Fatal(err)
		}
	}
	// cpu-ns/tool-call is this process's CPU only: the engine, the
	// handler, JSON and the reader goroutine, not the hook's own work.
	b.Run("no-hooks", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			run()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/tool-call")
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/n, "cpu-ns/tool-call")
	})
	b.Run("process-hook", func(b *testing.B) {
		h := New([]Hook{hk}, Options{Grace: time.Second})
		defer h.Close()
		cpu := cpuTime()
		for b.Loop() {
			run(h)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/tool-call")
		b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N)/n, "cpu-ns/tool-call")
	})
}

// Starting a hook: spawn, hello, stop (stdin closed, the hook exits).
func BenchmarkStartup(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	for b.Loop() {
		p, err := spawn("bench", []string{goHook}, dir, CleanEnv())
		if err != nil {
			b.Fatal(err)
		}
		if x := p.call(ctx, "hook.hello", map[string]any{"name": "bench", "version": 1}, 5*time.Second); x.kind != okay {
			b.Fatal(x.err)
		}
		p.stop(time.Second)
	}
}

// Starting the example's Python hook: spawn, hello, stop.
func BenchmarkStartupPython(b *testing.B) {
	if _, err := exec.LookPath("python3"); err != nil {
		b.Skip("python3 is not installed")
	}
	ctx := context.Background()
	dir, _ := os.Getwd()
	for b.Loop() {
		p, err := spawn("bench", []string{"python3", "../../../skills/plugin-tools/hooks/hook.py"}, dir, CleanEnv())
		if err != nil {
			b.Fatal(err)
		}
		if x := p.call(ctx, "hook.hello", map[string]any{"name": "bench", "version": 1}, 5*time.Second); x.kind != okay {
			b.Fatal(x.err)
		}
		p.stop(time.Second)
	}
}
