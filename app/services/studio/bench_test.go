package studio

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchRoot makes a skill with 100 hooks over all timings and a scenario
// of 50 LLM calls (planning + 49 agent rounds).
func benchRoot(b *testing.B) string {
	root := b.TempDir()
	timings := []string{"after_user_input", "before_planning", "before_each_agent", "before_first_agent", "after_tool_call"}
	var entries []string
	for i := range 100 {
		name := fmt.Sprintf("h%03d", i)
		entries = append(entries, fmt.Sprintf(`{"name": %q, "file": "%s.md", "timing": %q, "role": "system", "persistent": false}`, name, name, timings[i%5]))
		write(b, filepath.Join(root, "big/hooks", name+".md"), fmt.Sprintf("Hook %d: keep answers short and cite the file you read.", i))
	}
	write(b, filepath.Join(root, "big/hooks/hooks.json"), `{"hooks": [`+strings.Join(entries, ",\n")+`]}`)
	var sc strings.Builder
	sc.WriteString("name: fifty\ntools: [{name: read_file, description: Read}]\nrequests:\n  - user: go\n    planning: {need_tool: true}\n    rounds:\n")
	for range 48 {
		sc.WriteString("      - tool_calls: [{name: read_file, arguments: {path: a}, result: \"text\"}]\n")
	}
	sc.WriteString("      - content: done\n")
	write(b, filepath.Join(root, "big/scenarios/fifty.yaml"), sc.String())
	return root
}

// BenchmarkSaveToTrace measures a .md save to the new trace being emitted,
// through real fsnotify events, for 100 hooks and 50 LLM calls.
func BenchmarkSaveToTrace(b *testing.B) {
	rec := &recorder{}
	s, err := New(Config{DataDir: b.TempDir(), Tokens: counter(b), Emit: rec.emit})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		b.Fatal(err)
	}
	root := benchRoot(b)
	if _, err := s.Open(ctx, root); err != nil {
		b.Fatal(err)
	}
	if n := len(s.Trace().Calls); n != 50 {
		b.Fatalf("%d LLM calls, want 50", n)
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		rev := s.Trace().Revision
		from := rec.len()
		start := time.Now()
		write(b, filepath.Join(root, "big/hooks/h004.md"), fmt.Sprintf("Edited %d times.", i))
		rec.waitFor(b, from, func(e event) bool { return e.name == EventTrace && e.payload.(TraceView).Revision > rev })
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkResimulate is the work after the watcher fires: reload the
// folder, simulate, build the view and diff it.
func BenchmarkResimulate(b *testing.B) {
	s, err := New(Config{DataDir: b.TempDir(), Tokens: counter(b), Emit: func(string, any) {}})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Open(ctx, benchRoot(b)); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		s.Reload(ctx)
	}
}
