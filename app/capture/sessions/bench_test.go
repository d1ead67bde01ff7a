package sessions

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/studio"
	"hookstudio/app/services/tokenjobs"
	"hookstudio/app/store/history"
)

// synthResult is the size of a tool's output in the synthetic session:
// with it each call adds ~27 KB to the transcript, as a session that reads
// files does.
const synthResult = 24 << 10

// writeSynthetic writes a Claude Code 2.1.332 transcript of about size
// bytes: one prompt, then call after call a Bash tool call and its output,
// every tenth call a PostToolUse hook's context, each request recorded as
// the CLI records it (api-request with base, keep and tail; blobs for
// what no record holds). It returns the number of calls.
func writeSynthetic(t testing.TB, path string, size int64) int {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var written int64
	emit := func(v any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := w.Write(append(data, '\n'))
		written += int64(n)
	}
	hash := func(role string, content any) string {
		raw, _ := json.Marshal(content)
		h, err := messageHash(role, raw)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	t0 := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	at := func(i int) string { return t0.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano) }
	base := map[string]any{"sessionId": "synthetic-50mb", "version": "2.1.332", "cwd": "/home/user/project", "entrypoint": "sdk-cli", "isSidechain": false}
	rec := func(fields map[string]any) map[string]any {
		out := map[string]any{}
		for k, v := range base {
			out[k] = v
		}
		for k, v := range fields {
			out[k] = v
		}
		return out
	}
	var tools []map[string]any
	for i := range 24 {
		tools = append(tools, map[string]any{"name": fmt.Sprintf("Tool%02d", i), "description": strings.Repeat("What the tool does and when to use it. ", 40),
			"input_schema": map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}}})
	}
	emit(rec(map[string]any{"type": "api-request-shape", "shapeHash": "shape-1", "timestamp": at(0),
		"shape": map[string]any{"system": []any{map[string]any{"type": "text", "text": "You are a Claude agent, built on Anthropic's Claude Agent SDK."},
			map[string]any{"type": "text", "text": strings.Repeat("Follow the project's rules. ", 300)}}, "tools": tools}}))
	prompt := "tidy the repository and keep the build green"
	emit(rec(map[string]any{"type": "user", "uuid": "u-0", "parentUuid": nil, "timestamp": at(0), "message": map[string]any{"role": "user", "content": prompt}}))
	params := map[string]any{"model": "claude-opus-5-5", "betas": []string{"claude-code-20250219"}, "max_tokens": 128000}
	reqID, keep, tail := "req-0", 0, []string{hash("user", prompt)}
	parent := "u-0"
	calls := 0
	for i := 0; ; i++ {
		r := map[string]any{"type": "api-request", "id": reqID, "timestamp": at(i), "querySource": "sdk", "shapeHash": "shape-1", "params": params, "keep": keep, "tail": tail}
		if i > 0 {
			r["base"] = fmt.Sprintf("req-%d", i-1)
		}
		emit(rec(r))
		calls++
		keep += len(tail)
		if written >= size {
			emit(rec(map[string]any{"type": "assistant", "uuid": fmt.Sprintf("a-%d", i), "parentUuid": parent, "timestamp": at(i), "requestRef": reqID,
				"message": map[string]any{"id": fmt.Sprintf("msg_%d", i), "role": "assistant", "model": "claude-opus-5-5", "content": []any{map[string]any{"type": "text", "text": "The tree is clean."}}}}))
			break
		}
		use := []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Bash", "input": map[string]any{"command": fmt.Sprintf("cat src/file%d.go", i)}}}
		emit(rec(map[string]any{"type": "assistant", "uuid": fmt.Sprintf("a-%d", i), "parentUuid": parent, "timestamp": at(i), "requestRef": reqID,
			"message": map[string]any{"id": fmt.Sprintf("msg_%d", i), "role": "assistant", "model": "claude-opus-5-5", "content": use}}))
		output := fmt.Sprintf("// file%d.go\n", i) + strings.Repeat(fmt.Sprintf("func f%d() { return %d } // line of generated code\n", i, i), synthResult/52)
		result := []any{map[string]any{"tool_use_id": fmt.Sprintf("toolu_%d", i), "type": "tool_result", "content": output, "is_error": false}}
		emit(rec(map[string]any{"type": "user", "uuid": fmt.Sprintf("r-%d", i), "parentUuid": fmt.Sprintf("a-%d", i), "timestamp": at(i),
			"message": map[string]any{"role": "user", "content": result}}))
		parent = fmt.Sprintf("r-%d", i)
		tail = []string{hash("assistant", use), hash("user", result)}
		if i%10 == 9 {
			cmd := "./hooks/check-output.sh"
			ctx := fmt.Sprintf("file%d.go has no tests yet", i)
			emit(rec(map[string]any{"type": "attachment", "uuid": fmt.Sprintf("h-%d", i), "parentUuid": parent, "timestamp": at(i),
				"attachment": map[string]any{"type": "hook_success", "hookName": "PostToolUse:Bash", "hookEvent": "PostToolUse", "toolUseID": fmt.Sprintf("toolu_%d", i),
					"content": "", "stdout": `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"` + ctx + `"}}`, "stderr": "", "exitCode": 0, "command": cmd, "durationMs": 12}}))
			emit(rec(map[string]any{"type": "attachment", "uuid": fmt.Sprintf("c-%d", i), "parentUuid": fmt.Sprintf("h-%d", i), "timestamp": at(i),
				"attachment": map[string]any{"type": "hook_additional_context", "hookName": "PostToolUse:Bash", "hookEvent": "PostToolUse", "toolUseID": fmt.Sprintf("toolu_%d", i), "content": []string{ctx}}}))
			parent = fmt.Sprintf("c-%d", i)
			sys := []any{map[string]any{"type": "text", "text": "PostToolUse:Bash hook additional context: " + ctx}}
			h := hash("system", sys)
			emit(rec(map[string]any{"type": "api-request-blob", "hash": h, "message": map[string]any{"role": "system", "content": sys}}))
			tail = append(tail, h)
		}
		reqID = fmt.Sprintf("req-%d", i+1)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return calls
}

// heapPeak samples the live heap while fn runs (runtime/metrics) and
// returns the largest sample.
func heapPeak(fn func()) uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var peak uint64
	var mu sync.Mutex
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			mu.Lock()
			peak = max(peak, sample[0].Value.Uint64())
			mu.Unlock()
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak
}

func synthFile(b *testing.B, size int64) (string, int) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "synthetic.jsonl")
	calls := writeSynthetic(b, path, size)
	return path, calls
}

// BenchmarkImport50MB: a 50 MB transcript read (streamed, a MiB at a
// time) into a trace. Reports MB/s, the live heap's peak during the import
// and what stays live after it (the trace and the importer), per MB of file.
func BenchmarkImport50MB(b *testing.B) {
	path, calls := synthFile(b, 50<<20)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ResetTimer()
	var peak, kept uint64
	for range b.N {
		runtime.GC()
		var im *Importer
		var tr *engine.Trace
		work := func() {
			var err error
			if im, err = ImportFile(context.Background(), path, Options{}); err != nil {
				b.Fatal(err)
			}
			if tr, err = im.Trace(); err != nil {
				b.Fatal(err)
			}
		}
		if os.Getenv("SESSIONS_BENCH_PEAK") != "" {
			peak = heapPeak(work)
		} else {
			work()
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		kept = ms.HeapAlloc
		if len(tr.Calls) != calls {
			b.Fatalf("%d calls of %d", len(tr.Calls), calls)
		}
		runtime.KeepAlive(im)
	}
	mb := float64(st.Size()) / (1 << 20)
	b.ReportMetric(float64(peak)/(1<<20)/mb, "peak-heap-MB/file-MB")
	b.ReportMetric(float64(kept)/(1<<20)/mb, "kept-MB/file-MB")
	b.ReportMetric(float64(calls), "calls")
}

// BenchmarkKeepAndOpen50MB: the imported session kept in the history and
// its texts counted (a counter of its own, each distinct text once, on
// every core), then opened as the app opens a run — in pages: the
// skeleton, and what the first screen shows (a page of steps, the list at
// the first step and a screen of its rows, a page of calls, the matrix's
// first cells, the chart), as JSON — and moved to a far call (its list
// and a screen of rows); against a simulated run of as many calls with the
// same tool outputs; each opened three times, medians. keep-usable is
// until the run can be opened (its counts pending), keep the whole of it.
// The machine is shared, so CPU time is reported beside wall time, and the
// heap an open run keeps.
func BenchmarkKeepAndOpen50MB(b *testing.B) {
	path, calls := synthFile(b, 50<<20)
	im, err := ImportFile(context.Background(), path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	st, err := history.Open(context.Background(), filepath.Join(b.TempDir(), "history.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	st.SetRetention(history.Retention{})
	b.ResetTimer()
	for range b.N {
		counter, err := tokens.NewCounter()
		if err != nil {
			b.Fatal(err)
		}
		var id history.RunID
		usableWall, _ := measure(func() {
			if id, err = Keep(context.Background(), st, im, counter); err != nil {
				b.Fatal(err)
			}
		})
		countWall, countCPU := measure(func() {
			if err := tokenjobs.Count(context.Background(), st, counter, id, 0, nil); err != nil {
				b.Fatal(err)
			}
		})
		simID, err := st.SaveRun(context.Background(), history.RunInput{Trace: simulatedLike(b, calls), ScenarioFile: "bench/scenarios/simulated.yaml", Tokens: counter})
		if err != nil {
			b.Fatal(err)
		}
		var sw, sc, mw, jw []time.Duration
		var kept uint64
		for range 3 {
			var p *studio.Pages
			w, c := measure(func() { p = openPages(b, st, id, counter) })
			sw, sc = append(sw, w), append(sc, c)
			w, _ = measure(func() { jumpTo(b, p, p.Head().Calls*3/4) })
			jw = append(jw, w)
			kept = retained(func() any { return openPages(b, st, id, counter) })
			w, _ = measure(func() { openPages(b, st, simID, counter) })
			mw = append(mw, w)
		}
		b.ReportMetric(usableWall.Seconds(), "keep-usable-s")
		b.ReportMetric((usableWall + countWall).Seconds(), "keep-s")
		b.ReportMetric(countCPU.Seconds(), "count-cpu-s")
		b.ReportMetric(ms(median(sw)), "open-session-ms")
		b.ReportMetric(ms(median(sc)), "open-session-cpu-ms")
		b.ReportMetric(ms(median(jw)), "jump-ms")
		b.ReportMetric(ms(median(mw)), "open-simulated-ms")
		b.ReportMetric(float64(kept)/(1<<20), "open-heap-MB")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// measure is fn's wall time and the process's CPU time meanwhile.
func measure(fn func()) (wall, cpu time.Duration) {
	cpuNow := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	t0, c0 := time.Now(), cpuNow()
	fn()
	return time.Since(t0), cpuNow() - c0
}

// retained is the live heap what fn makes keeps (fn's result held).
func retained(fn func() any) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := fn()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// openPages opens a stored run as the app's History does and reads what
// its first screen shows, as the binding sends it.
func openPages(b *testing.B, st *history.Store, id history.RunID, counter *tokens.Counter) *studio.Pages {
	b.Helper()
	ctx := context.Background()
	sk, err := st.LoadSkeleton(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	p, err := studio.OpenPages(sk, st, counter, studio.RunOrigin{Simulated: sk.Source.Simulated(), Agent: "claude-code@2.1.332"})
	if err != nil {
		b.Fatal(err)
	}
	calls, err := p.Calls(ctx, 0, 50)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := p.Rows(ctx, 0, 0, 20)
	if err != nil {
		b.Fatal(err)
	}
	screen := []any{p.Head(), p.Steps(0, 100), p.List(0), rows, calls, p.Cells(0, 16, 0, 50), p.Bars(120)}
	if _, err := json.Marshal(screen); err != nil { // what the binding sends the frontend
		b.Fatal(err)
	}
	return p
}

// jumpTo moves an open run to call c: its step, the list there and a
// screen of its rows, the steps and calls around it, as the binding sends them.
func jumpTo(b *testing.B, p *studio.Pages, c int) {
	b.Helper()
	ctx := context.Background()
	calls, err := p.Calls(ctx, c/50*50, 50)
	if err != nil {
		b.Fatal(err)
	}
	step := calls[c%50].Step
	rows, err := p.Rows(ctx, step, 0, 20)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := json.Marshal([]any{calls, p.Steps(step/100*100, 100), p.List(step), rows, p.Cells(0, 16, c/50*50, 50)}); err != nil {
		b.Fatal(err)
	}
}

type benchHooks struct{}

func (benchHooks) Hooks([]string) []skills.Hook {
	return []skills.Hook{{Skill: "bench", Name: "check", File: "check.md", Timing: skills.AfterToolCall, Role: "system",
		Content: "file has no tests yet", ToolFilter: []string{"Bash"}}}
}

// simulatedLike is a simulated run with calls calls whose tool results
// are the synthetic session's (a hook after each tool call).
func simulatedLike(b testing.TB, calls int) *engine.Trace {
	b.Helper()
	sc := &scenario.Scenario{Name: "simulated", EnabledSkills: []string{"bench"}, SystemPrompt: strings.Repeat("Follow the project's rules. ", 300), EnableTools: true,
		Tools: []scenario.Tool{{Name: "Bash", Description: "run a command"}}}
	req := scenario.Request{User: "tidy the repository and keep the build green"}
	for i := range calls - 2 {
		out := fmt.Sprintf("// file%d.go\n", i) + strings.Repeat(fmt.Sprintf("func f%d() { return %d } // line of generated code\n", i, i), synthResult/52)
		req.Rounds = append(req.Rounds, scenario.Round{ToolCalls: []scenario.ToolCall{{Name: "Bash", Arguments: map[string]any{"command": fmt.Sprintf("cat src/file%d.go", i)}, Result: out}}})
	}
	req.Rounds = append(req.Rounds, scenario.Round{Content: "The tree is clean."})
	sc.Requests = []scenario.Request{req}
	tr, err := engine.Run(context.Background(), sc, benchHooks{}, engine.Config{Model: llm.NewMock(sc), MaxRounds: calls + 10})
	if err != nil {
		b.Fatal(err)
	}
	return tr
}

// TestWriteSessionBench writes what the app's bench of a 50 MB session
// opens (frontend/e2e/sessions.bench.mjs): DIR/history.db holding the
// synthetic session imported (run 1) and a simulated run of as many calls
// with the same tool outputs (run 2), with real token counts. It runs
// only with HOOKSTUDIO_BENCH_SESSIONS=DIR.
func TestWriteSessionBench(t *testing.T) {
	dir := os.Getenv("HOOKSTUDIO_BENCH_SESSIONS")
	if dir == "" {
		t.Skip("set HOOKSTUDIO_BENCH_SESSIONS=DIR to write the app bench's history")
	}
	path := filepath.Join(dir, "synthetic.jsonl")
	calls := writeSynthetic(t, path, 50<<20)
	im, err := ImportFile(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	st, err := history.Open(context.Background(), filepath.Join(dir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.SetRetention(history.Retention{})
	id, err := Keep(context.Background(), st, im, counter)
	if err != nil {
		t.Fatal(err)
	}
	if err := tokenjobs.Count(context.Background(), st, counter, id, 0, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SaveRun(context.Background(), history.RunInput{Trace: simulatedLike(t, calls), ScenarioFile: "bench/scenarios/simulated.yaml",
		Tokens: counter}); err != nil {
		t.Fatal(err)
	}
}
