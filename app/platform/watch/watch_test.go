package watch

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// waitLimit bounds every wait: generous, since -race on a busy two-core
// machine can be slow, and only ever hit when something is wrong.
const waitLimit = 5 * time.Second

// eventually polls cond until it holds or waitLimit passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", waitLimit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder collects Changes from OnChange, which runs on Run's goroutine.
type recorder struct {
	mu      sync.Mutex
	changes []Change
	errs    []error
}

func (r *recorder) onChange(c Change) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.changes = append(r.changes, c)
}

func (r *recorder) onError(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, err)
}

func (r *recorder) snapshot() []Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.changes)
}

// seenSince reports whether path appears in a Change recorded at index from
// or later.
func (r *recorder) seenSince(from int, path string) bool {
	cs := r.snapshot()
	for _, c := range cs[min(from, len(cs)):] {
		if slices.Contains(c.Paths, path) {
			return true
		}
	}
	return false
}

func (r *recorder) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.changes)
}

// indexOf returns the index of the first Change at or after from that
// satisfies pred, or -1.
func (r *recorder) indexOf(from int, pred func(Change) bool) int {
	cs := r.snapshot()
	for i := min(from, len(cs)); i < len(cs); i++ {
		if pred(cs[i]) {
			return i
		}
	}
	return -1
}

// settle writes a sentinel file and waits for its Change. Events are
// delivered in order and a path's quiet period ends no later than that of a
// path touched after it, so once the sentinel is seen everything done before
// has been reported, or deliberately dropped.
func (r *recorder) settle(t testing.TB, root string) {
	t.Helper()
	name := "sentinel-" + strconv.FormatInt(time.Now().UnixNano(), 36) + ".md"
	from := r.len()
	writeFile(t, filepath.Join(root, name), "x")
	eventually(t, "sentinel "+name, func() bool { return r.seenSince(from, name) })
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// start runs a Watcher on root until the test ends, and waits until it is
// ready. The cleanup cancels Run and fails the test if it does not return.
func start(t testing.TB, root string, opts Options) (*Watcher, *recorder) {
	t.Helper()
	rec := &recorder{}
	opts.OnChange = rec.onChange
	opts.OnError = rec.onError
	w, err := New(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(waitLimit):
			t.Errorf("Run did not return after cancel")
		}
	})
	select {
	case <-w.Ready():
	case err := <-done:
		t.Fatalf("Run returned early: %v", err)
	case <-time.After(waitLimit):
		t.Fatal("watcher not ready")
	}
	return w, rec
}

// fastOpts keeps tests quick; the behaviour does not depend on the values.
var fastOpts = Options{Debounce: 20 * time.Millisecond, PollInterval: 20 * time.Millisecond, Dirs: configDirs}

// configDirs are the hook-system registry's hidden config folders.
var configDirs = []string{".jcli", ".picoclaw", ".claude", ".claude-plugin", ".hookstudio"}

func TestChanges(t *testing.T) {
	type step struct {
		do      func(t *testing.T, root string)
		want    []string // each must show up in some Change
		notWant []string // none may show up, checked once the tree settles
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, root string)
		steps []step
	}{
		{
			name: "create file",
			setup: func(t *testing.T, root string) {
				must(t, os.MkdirAll(filepath.Join(root, "s", "hooks"), 0o755))
			},
			steps: []step{{
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "hi") },
				want: []string{"s/hooks/a.md"},
			}},
		},
		{
			name:  "modify file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v2") },
				want: []string{"s/hooks/a.md"},
			}},
		},
		{
			name:  "write temp then rename over",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					tmp := filepath.Join(root, "s/hooks/a.md.tmp123")
					writeFile(t, tmp, "v2")
					must(t, os.Rename(tmp, filepath.Join(root, "s/hooks/a.md")))
				},
				want: []string{"s/hooks/a.md"},
				// Created and gone within the quiet period: nobody
				// needs to hear of it.
				notWant: []string{"s/hooks/a.md.tmp123"},
			}},
		},
		{
			name:  "vim backup rename dance",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					dir := filepath.Join(root, "s/hooks")
					writeFile(t, filepath.Join(dir, "4913"), "")
					must(t, os.Remove(filepath.Join(dir, "4913")))
					must(t, os.Rename(filepath.Join(dir, "a.md"), filepath.Join(dir, "a.md~")))
					writeFile(t, filepath.Join(dir, "a.md"), "v2")
					must(t, os.Chmod(filepath.Join(dir, "a.md"), 0o600))
					must(t, os.Remove(filepath.Join(dir, "a.md~")))
				},
				want:    []string{"s/hooks/a.md"},
				notWant: []string{"s/hooks/4913", "s/hooks/a.md~"},
			}},
		},
		{
			name:  "delete file",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do:   func(t *testing.T, root string) { must(t, os.Remove(filepath.Join(root, "s/hooks/a.md"))) },
				want: []string{"s/hooks/a.md"},
			}},
		},
		{
			name:  "remove then recreate",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					must(t, os.Remove(filepath.Join(root, "s/hooks/a.md")))
					writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v2")
				},
				want: []string{"s/hooks/a.md"},
			}, {
				// The new file is watched like the old one.
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v3") },
				want: []string{"s/hooks/a.md"},
			}},
		},
		{
			name: "new skill with hooks created later",
			steps: []step{{
				do: func(t *testing.T, root string) {
					must(t, os.Mkdir(filepath.Join(root, "new"), 0o755))
					must(t, os.Mkdir(filepath.Join(root, "new/hooks"), 0o755))
					writeFile(t, filepath.Join(root, "new/hooks/hooks.json"), "[]")
				},
				want: []string{"new", "new/hooks", "new/hooks/hooks.json"},
			}, {
				// The new directory is watched, not just scanned once.
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new/hooks/a.md"), "x") },
				want: []string{"new/hooks/a.md"},
			}},
		},
		{
			name: "new scenarios folder in an existing skill",
			setup: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, "s/hooks/hooks.json"), "[]")
			},
			steps: []step{{
				do: func(t *testing.T, root string) {
					writeFile(t, filepath.Join(root, "s/scenarios/one.yaml"), "name: one")
				},
				want: []string{"s/scenarios", "s/scenarios/one.yaml"},
			}, {
				do: func(t *testing.T, root string) {
					writeFile(t, filepath.Join(root, "s/scenarios/one.yaml"), "name: two")
				},
				want: []string{"s/scenarios/one.yaml"},
			}},
		},
		{
			name: "mkdir -p deep path then write",
			steps: []step{{
				do: func(t *testing.T, root string) {
					must(t, os.MkdirAll(filepath.Join(root, "a/b/c/d"), 0o755))
					writeFile(t, filepath.Join(root, "a/b/c/d/f.md"), "x")
				},
				want: []string{"a", "a/b/c/d", "a/b/c/d/f.md"},
			}, {
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "a/b/c/d/g.md"), "x") },
				want: []string{"a/b/c/d/g.md"},
			}},
		},
		{
			name:  "directory renamed within the tree",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "old/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					must(t, os.Rename(filepath.Join(root, "old"), filepath.Join(root, "new")))
				},
				want: []string{"old", "new", "new/hooks/a.md"},
			}, {
				// Watches follow the new name and none is left
				// reporting under the old one.
				do:      func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "new/hooks/a.md"), "v2") },
				want:    []string{"new/hooks/a.md"},
				notWant: []string{"old/hooks/a.md"},
			}},
		},
		{
			name:  "directory moved out of the tree",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					out := filepath.Join(t.TempDir(), "moved")
					must(t, os.Rename(filepath.Join(root, "s"), out))
					// Writes in the moved tree must not be reported
					// under the old names.
					writeFile(t, filepath.Join(out, "hooks/a.md"), "v2")
				},
				want:    []string{"s"},
				notWant: []string{"s/hooks/a.md"},
			}},
		},
		{
			name:  "skill folder removed",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do:   func(t *testing.T, root string) { must(t, os.RemoveAll(filepath.Join(root, "s"))) },
				want: []string{"s", "s/hooks/a.md"},
			}},
		},
		{
			name:  "chmod alone reports nothing",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do:      func(t *testing.T, root string) { must(t, os.Chmod(filepath.Join(root, "s/hooks/a.md"), 0o600)) },
				notWant: []string{"s/hooks/a.md"},
			}},
		},
		{
			name: "project-level hook configs are watched",
			setup: func(t *testing.T, root string) {
				writeFile(t, filepath.Join(root, ".jcli/hooks.yaml"), "stop: []\n")
			},
			steps: []step{{
				do: func(t *testing.T, root string) {
					writeFile(t, filepath.Join(root, ".jcli/hooks.yaml"), "stop: [{command: true}]\n")
				},
				want: []string{".jcli/hooks.yaml"},
			}, {
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, ".picoclaw/hooks.json"), "{}") },
				want: []string{".picoclaw/hooks.json"},
			}},
		},
		{
			name:  "hidden and scratch files are ignored",
			setup: func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1") },
			steps: []step{{
				do: func(t *testing.T, root string) {
					writeFile(t, filepath.Join(root, ".git/objects/ab/cdef"), "x")
					writeFile(t, filepath.Join(root, "s/hooks/.a.md.swp"), "x")
					writeFile(t, filepath.Join(root, "s/hooks/a.md.swp"), "x")
					writeFile(t, filepath.Join(root, "s/hooks/a.md~"), "x")
					writeFile(t, filepath.Join(root, "s/hooks/#a.md#"), "x")
					writeFile(t, filepath.Join(root, "s/hooks/4913"), "x")
					writeFile(t, filepath.Join(root, "s/.cache/x.md"), "x")
				},
				notWant: []string{".git", ".git/objects/ab/cdef", "s/hooks/.a.md.swp", "s/hooks/a.md.swp",
					"s/hooks/a.md~", "s/hooks/#a.md#", "s/hooks/4913", "s/.cache", "s/.cache/x.md"},
			}, {
				// and they broke nothing
				do:   func(t *testing.T, root string) { writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v2") },
				want: []string{"s/hooks/a.md"},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.setup != nil {
				tt.setup(t, root)
			}
			_, rec := start(t, root, fastOpts)
			for i, st := range tt.steps {
				from := rec.len()
				st.do(t, root)
				for _, p := range st.want {
					eventually(t, "step "+strconv.Itoa(i)+": change of "+p, func() bool { return rec.seenSince(from, p) })
				}
				rec.settle(t, root)
				for _, p := range st.notWant {
					if rec.seenSince(from, p) {
						t.Errorf("step %d: %s reported, want not: %+v", i, p, rec.snapshot()[from:])
					}
				}
			}
			for i, c := range rec.snapshot() {
				if c.RootMissing || c.RootRestored {
					t.Errorf("change %d: unexpected root state change %+v", i, c)
				}
				if !sort.StringsAreSorted(c.Paths) || len(slices.Compact(slices.Clone(c.Paths))) != len(c.Paths) {
					t.Errorf("change %d: paths not sorted and unique: %q", i, c.Paths)
				}
				for _, p := range c.Paths {
					if filepath.IsAbs(p) || filepath.ToSlash(p) != p {
						t.Errorf("change %d: path %q not relative with forward slashes", i, p)
					}
				}
			}
		})
	}
}

func TestBurstCoalesced(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "s/hooks/a.md")
	writeFile(t, path, "v0")
	// The debounce is the only thing that makes 50 writes one Change, and a
	// writer descheduled for longer than it between two writes legitimately
	// makes two bursts. go test ./... runs packages side by side on two
	// cores (and -race slows everything), so give stalls room: with two
	// busy loops beside the test, 50ms split now and then and 250ms held
	// over 20 runs.
	_, rec := start(t, root, Options{Debounce: 250 * time.Millisecond})
	for i := range 50 {
		writeFile(t, path, "v"+strconv.Itoa(i))
	}
	eventually(t, "change of a.md", func() bool { return rec.seenSince(0, "s/hooks/a.md") })
	rec.settle(t, root)
	n := 0
	for _, c := range rec.snapshot() {
		if slices.Contains(c.Paths, "s/hooks/a.md") {
			n++
		}
	}
	// One is the aim; two leaves room for a scheduler stall longer than
	// the debounce in the middle of the burst on a loaded machine.
	if n < 1 || n > 2 {
		t.Errorf("50 writes gave %d changes, want 1 (at most 2)", n)
	}
}

func TestPathsChangedTogetherCoalesce(t *testing.T) {
	root := t.TempDir()
	// A long debounce (so a 100ms coalescing window) keeps a scheduler
	// stall between the writes from splitting them.
	_, rec := start(t, root, Options{Debounce: 200 * time.Millisecond})
	writeFile(t, filepath.Join(root, "s/hooks/hooks.json"), "[]")
	writeFile(t, filepath.Join(root, "s/hooks/a.md"), "a")
	writeFile(t, filepath.Join(root, "s/hooks/b.md"), "b")
	eventually(t, "all three reported", func() bool {
		return rec.seenSince(0, "s/hooks/hooks.json") && rec.seenSince(0, "s/hooks/a.md") && rec.seenSince(0, "s/hooks/b.md")
	})
	// Allow one split (a stall longer than the window), not one Change per
	// file.
	if n := rec.len(); n > 2 {
		t.Errorf("three files saved together gave %d changes: %+v", n, rec.snapshot())
	}
}

func TestRootMissingAndRestored(t *testing.T) {
	tests := []struct {
		name   string
		remove func(t *testing.T, root string)
	}{
		{"removed", func(t *testing.T, root string) { must(t, os.RemoveAll(root)) }},
		{"renamed away", func(t *testing.T, root string) {
			must(t, os.Rename(root, root+".away"))
			t.Cleanup(func() { _ = os.RemoveAll(root + ".away") })
		}},
		{"parent renamed away", func(t *testing.T, root string) {
			// Only the poll can see this: the root's own watch fires
			// nothing when its parent moves.
			parent := filepath.Dir(root)
			must(t, os.Rename(parent, parent+".away"))
			t.Cleanup(func() { _ = os.RemoveAll(parent + ".away") })
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "parent", "skills")
			writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1")
			_, rec := start(t, root, fastOpts)

			tt.remove(t, root)
			eventually(t, "RootMissing", func() bool {
				return rec.indexOf(0, func(c Change) bool { return c.RootMissing }) >= 0
			})
			missingAt := rec.indexOf(0, func(c Change) bool { return c.RootMissing })

			writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v2")
			eventually(t, "RootRestored", func() bool {
				return rec.indexOf(missingAt, func(c Change) bool { return c.RootRestored }) >= 0
			})
			restoredAt := rec.indexOf(missingAt, func(c Change) bool { return c.RootRestored })

			from := rec.len()
			writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v3")
			eventually(t, "change after restore", func() bool { return rec.seenSince(from, "s/hooks/a.md") })
			writeFile(t, filepath.Join(root, "new/hooks/b.md"), "x")
			eventually(t, "new skill after restore", func() bool { return rec.seenSince(from, "new/hooks/b.md") })

			for i, c := range rec.snapshot()[missingAt : restoredAt+1] {
				if (c.RootMissing || c.RootRestored) && len(c.Paths) > 0 {
					t.Errorf("change %d: root state change with paths: %+v", missingAt+i, c)
				}
			}
		})
	}
}

func TestRootGoneBeforeRun(t *testing.T) {
	root := t.TempDir()
	rec := &recorder{}
	w, err := New(root, Options{OnChange: rec.onChange, PollInterval: 20 * time.Millisecond})
	must(t, err)
	must(t, os.Remove(root))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	defer func() {
		cancel()
		must(t, <-done)
	}()
	eventually(t, "RootMissing", func() bool { return rec.indexOf(0, func(c Change) bool { return c.RootMissing }) >= 0 })
	must(t, os.Mkdir(root, 0o755))
	eventually(t, "RootRestored", func() bool { return rec.indexOf(0, func(c Change) bool { return c.RootRestored }) >= 0 })
}

func TestNewErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	writeFile(t, file, "x")
	noop := func(Change) {}
	tests := []struct {
		name     string
		root     string
		opts     Options
		notExist bool
	}{
		{"missing root", filepath.Join(dir, "nope"), Options{OnChange: noop}, true},
		{"root is a file", file, Options{OnChange: noop}, false},
		{"no OnChange", dir, Options{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := New(tt.root, tt.opts)
			if err == nil {
				t.Fatalf("New = %v, want error", w)
			}
			if got := errors.Is(err, fs.ErrNotExist); got != tt.notExist {
				t.Errorf("errors.Is(%v, fs.ErrNotExist) = %v, want %v", err, got, tt.notExist)
			}
		})
	}
}

func TestRunTwice(t *testing.T) {
	w, _ := start(t, t.TempDir(), fastOpts)
	if err := w.Run(context.Background()); err == nil {
		t.Fatal("second Run returned nil, want error")
	}
}

func TestRunReturnsOnCancelWithoutLeaks(t *testing.T) {
	before := runtime.NumGoroutine()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v1")
	rec := &recorder{}
	w, err := New(root, Options{OnChange: rec.onChange, Debounce: 10 * time.Millisecond, PollInterval: 10 * time.Millisecond})
	must(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	<-w.Ready()
	// Exercise every part: events, timers, a new directory, the poll.
	writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v2")
	writeFile(t, filepath.Join(root, "t/hooks/b.md"), "v2")
	eventually(t, "changes", func() bool { return rec.seenSince(0, "s/hooks/a.md") && rec.seenSince(0, "t/hooks/b.md") })
	// Leave a change pending so cancel lands with the timer armed.
	writeFile(t, filepath.Join(root, "s/hooks/a.md"), "v3")
	cancel()
	select {
	case err := <-done:
		must(t, err)
	case <-time.After(waitLimit):
		t.Fatal("Run did not return after cancel")
	}
	// Goroutines may take a moment to be reaped after they return.
	eventually(t, "goroutines back to "+strconv.Itoa(before), func() bool { return runtime.NumGoroutine() <= before })
}

func TestIgnoredName(t *testing.T) {
	tests := map[string]bool{
		"a.md": false, "hooks.json": false, "4913": true, "5036": true, "4914": false, "04913": false,
		".git": true, "a.md~": true, ".a.md.swp": true, "a.swx": true, "#a.md#": true,
		"a.md___jb_tmp___": true, "~$doc": true, "123": false, "": false,
		".jcli": false, ".picoclaw": false, "hooks.yaml": false, ".hooks.yaml.123.tmp": true,
		".claude": false, ".claude-plugin": false, ".hookstudio": false, "node_modules": true,
	}
	w := &Watcher{opts: Options{Dirs: configDirs}}
	for name, want := range tests {
		if got := w.ignored(name); got != want {
			t.Errorf("ignored(%q) = %v, want %v", name, got, want)
		}
	}
	if !ignoredName(".jcli") {
		t.Error("a hidden folder no one named is watched")
	}
}

// BenchmarkSaveToChange measures the latency from os.WriteFile of a .md to
// OnChange being called, through real fsnotify events. The default debounce
// dominates by design; the 1ms case shows the watcher's own overhead.
func BenchmarkSaveToChange(b *testing.B) {
	for _, debounce := range []time.Duration{DefaultDebounce, time.Millisecond} {
		b.Run("debounce="+debounce.String(), func(b *testing.B) {
			root := b.TempDir()
			path := filepath.Join(root, "s/hooks/a.md")
			writeFile(b, path, "v")
			got := make(chan time.Time, 16)
			w, err := New(root, Options{Debounce: debounce, OnChange: func(c Change) {
				if slices.Contains(c.Paths, "s/hooks/a.md") {
					select {
					case got <- time.Now():
					default: // never block Run; the benchmark would notice the miss
					}
				}
			}})
			must(b, err)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- w.Run(ctx) }()
			defer func() { cancel(); <-done }()
			<-w.Ready()

			lat := make([]time.Duration, 0, b.N)
			content := []byte("# hook\nBe brief.\n")
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				if err := os.WriteFile(path, content, 0o644); err != nil {
					b.Fatal(err)
				}
				select {
				case t1 := <-got:
					lat = append(lat, t1.Sub(t0))
				case <-time.After(waitLimit):
					b.Fatal("no change within 5s")
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			pct := func(p float64) float64 {
				return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
			}
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.95), "p95-ms")
		})
	}
}
