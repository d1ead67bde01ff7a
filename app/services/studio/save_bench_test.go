package studio

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"hookstudio/app/store/history"
	examples "hookstudio/skills"
)

// countingHistory is the real history that counts the rows it stores.
type countingHistory struct {
	*history.Store
	rows atomic.Int64
}

func (c *countingHistory) SaveRun(ctx context.Context, in history.RunInput) (history.RunID, error) {
	c.rows.Add(1)
	return c.Store.SaveRun(ctx, in)
}

// BenchmarkSaveExamples measures what a user waits for on Ctrl+S in the
// example folder: SaveFile (the app's own atomic write) to the finished
// trace of the new revision, with the real watcher, the real hook loader
// and a real SQLite history. "prompt" edits a prompt of a scenario whose
// folder is not trusted (prompt hooks only); "exec" edits a script of the
// command hooks of guard-rails in the trusted folder (the hooks run). It
// also reports the history rows one save adds, once the app is quiet.
func BenchmarkSaveExamples(b *testing.B) {
	cases := []struct {
		name, scenario, file string
		trust                bool
		text                 func(i int) string
	}{
		{"prompt", "planner/scenarios/multi-step-change.yaml", "planner/hooks/plan-format.md", false,
			func(i int) string { return fmt.Sprintf("Answer with a numbered plan (edit %d).\n", i) }},
		{"exec", "guard-rails/scenarios/guarded-session.yaml", "guard-rails/hooks/count.sh", true,
			nil},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			data := b.TempDir()
			if err := copyExamples(examples.FS, filepath.Join(data, "skills")); err != nil {
				b.Fatal(err)
			}
			root := filepath.Join(data, "skills")
			store, err := history.Open(context.Background(), filepath.Join(data, "history.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			hist := &countingHistory{Store: store}
			rec := &recorder{}
			s, err := New(withAppHooks(Config{DataDir: data, Tokens: counter(b), Emit: rec.emit, History: hist}, nil, nil))
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); s.Close() }()
			if err := s.Start(ctx); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Open(ctx, root); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Select(ctx, c.scenario); err != nil {
				b.Fatal(err)
			}
			if c.trust {
				if _, err := s.TrustFolder(ctx); err != nil {
					b.Fatal(err)
				}
			}
			settle(rec)
			orig, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.file)))
			if err != nil {
				b.Fatal(err)
			}
			text := c.text
			if text == nil {
				text = func(i int) string { return string(orig) + fmt.Sprintf("# edit %d\n", i) }
			}
			var lat []time.Duration
			var rows int64
			i := 0
			for b.Loop() {
				i++
				snap, err := s.OpenFile(c.file)
				if err != nil {
					b.Fatal(err)
				}
				rev, from, before := s.Trace().Revision, rec.len(), hist.rows.Load()
				start := time.Now()
				res, err := s.SaveFile(ctx, c.file, text(i), snap.Hash)
				if err != nil || res.Status != "saved" {
					b.Fatalf("save: %v %+v", err, res)
				}
				v := rec.waitFor(b, from, func(e event) bool {
					v, ok := e.payload.(TraceView)
					return ok && e.name == EventTrace && v.Revision > rev && !v.Pending
				}).payload.(TraceView)
				lat = append(lat, time.Since(start))
				if v.Status != "ok" || (c.trust && !v.Exec.Ran) {
					b.Fatalf("status %s %s, exec %+v", v.Status, v.Error, v.Exec)
				}
				b.StopTimer()
				settle(rec) // the watcher's own reload of the write, if any, ends before the next save
				rows += hist.rows.Load() - before
				b.StartTimer()
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95-ms")
			b.ReportMetric(float64(rows)/float64(len(lat)), "rows/save")
		})
	}
}

// settle waits until no event was emitted for 400 ms: the app is quiet
// (the watcher's debounce is 20 ms, a background run of guard-rails takes
// well under that gap between its events).
func settle(rec *recorder) {
	n := rec.len()
	for {
		time.Sleep(400 * time.Millisecond)
		m := rec.len()
		if m == n {
			return
		}
		n = m
	}
}
