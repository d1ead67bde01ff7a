package studio

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
	examples "hookstudio/skills"
)

// work counts what the app does: each hook system's parses of the folder
// (skills: seed 000's), runs that attach the command hooks, history rows.
type work struct {
	mu     sync.Mutex
	parses map[string]int
	runs   int
	rows   int
}

func (w *work) add(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f()
}

func (w *work) snapshot() (map[string]int, int, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.parses), w.runs, w.rows
}

func (w *work) SaveRun(context.Context, history.RunInput) (history.RunID, error) {
	w.add(func() { w.rows++ })
	return 1, nil
}

// countedLoaded counts the runs a system's hooks are attached to.
type countedLoaded struct {
	registry.Loaded
	w *work
}

func (c countedLoaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	a, err := c.Loaded.Attach(cfg, run)
	if a != nil {
		c.w.add(func() { c.w.runs++ })
	}
	return a, err
}

// countingRegistry is the app's registry with every parse counted, and the
// command hooks' runs.
func countingRegistry(t *testing.T, w *work) *registry.Registry {
	var systems []registry.System
	for _, sys := range hooksets.Registry(hooksets.RegistryOptions{ReuseResults: true}).Systems() {
		name := sys.Name
		if load := sys.Load; load != nil {
			sys.Load = func(ctx context.Context, req registry.LoadRequest) (registry.Loaded, error) {
				w.add(func() { w.parses[name]++ })
				l, err := load(ctx, req)
				if err != nil || name != "command" {
					return l, err
				}
				return countedLoaded{l, w}, nil
			}
		}
		if lint := sys.Lint; lint != nil {
			sys.Lint = func(file string, text []byte) []diag.Diagnostic {
				w.add(func() { w.parses[name]++ })
				return lint(file, text)
			}
		}
		systems = append(systems, sys)
	}
	reg, err := registry.New(systems...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestOneSaveOneParse: a save in the example folder parses each config
// once (every hook system's, seed 000's skills), simulates once and stores
// one history row — the watcher's report of the app's own write reloads
// nothing; a draft is linted by the load that simulates it.
func TestOneSaveOneParse(t *testing.T) {
	w := &work{parses: map[string]int{}}
	data := t.TempDir()
	root := filepath.Join(data, "skills")
	if err := copyExamples(examples.FS, root); err != nil {
		t.Fatal(err)
	}
	reg := countingRegistry(t, w)
	rec := &recorder{}
	s, err := New(Config{DataDir: data, Tokens: counter(t), Emit: rec.emit, History: w, Hooks: reg, ExecHooks: HooksetsLoader(reg, nil),
		LoadSkills: func(ctx context.Context, root string, drafts map[string][]byte) (*skills.Set, error) {
			w.add(func() { w.parses["skills"]++ })
			return skills.LoadDrafts(ctx, root, drafts)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); s.Close() }()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	systems := []string{"skills", "command", "process", "claude-code", "request"}
	// delta runs step and says what it did: parses per system, runs with
	// command hooks, history rows, finished traces shown.
	delta := func(step func() int) (map[string]int, int, int, int) {
		t.Helper()
		p0, r0, rows0 := w.snapshot()
		from := rec.len()
		rev := step()
		// The finished trace of this step, then the watcher's report of the
		// write taken (a reload it caused would have parsed by then).
		rec.waitFor(t, from, isTrace(func(v TraceView) bool { return v.Revision >= rev && !v.Pending }))
		waitOwnTaken(t, s)
		p1, r1, rows1 := w.snapshot()
		for k := range p1 {
			p1[k] -= p0[k]
		}
		traces := 0
		for _, e := range rec.events[from:] {
			if v, ok := e.payload.(TraceView); ok && e.name == EventTrace && !v.Pending {
				traces++
			}
		}
		return p1, r1 - r0, rows1 - rows0, traces
	}
	save := func(file, text string) func() int {
		return func() int {
			snap, err := s.OpenFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if res, err := s.SaveFile(ctx, file, text, snap.Hash); err != nil || res.Status != "saved" {
				t.Fatalf("save %s: %v %+v", file, err, res)
			}
			return s.Trace().Revision
		}
	}
	once := func(what string, parses map[string]int) {
		t.Helper()
		for _, sys := range systems {
			if parses[sys] != 1 {
				t.Errorf("%s: %s parsed %d times, want once (%v)", what, sys, parses[sys], parses)
			}
		}
	}

	// settled waits until the simulation of view (and any run before it) is
	// shown and the watcher's reports are handled.
	settled := func(v TraceView, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if v.Pending { // a finished view is given, not sent
			rec.waitFor(t, 0, isTrace(func(x TraceView) bool { return x.Revision >= v.Revision && !x.Pending }))
		}
		waitOwnTaken(t, s)
	}

	// A prompt of a folder nobody trusted (its Claude Code plugin's hooks,
	// which the scenario does not reach, run in the background).
	settled(s.Select(ctx, "planner/scenarios/multi-step-change.yaml"))
	parses, _, rows, traces := delta(save("planner/hooks/plan-format.md", "Answer with a numbered plan.\n"))
	once("saving a prompt", parses)
	if rows != 1 || traces != 1 {
		t.Errorf("saving a prompt: %d history rows, %d simulations shown; want 1 and 1", rows, traces)
	}

	// A hook config: its diagnostics come from that one parse.
	yamlFile := "guard-rails/hooks/hooks.yaml"
	orig, err := os.ReadFile(filepath.Join(root, yamlFile))
	if err != nil {
		t.Fatal(err)
	}
	parses, _, rows, traces = delta(save(yamlFile, string(orig)+"# saved\n"))
	once("saving hooks.yaml", parses)
	if rows != 1 || traces != 1 {
		t.Errorf("saving hooks.yaml: %d history rows, %d simulations shown; want 1 and 1", rows, traces)
	}

	// A draft, then the editor's lint of the same text: one parse.
	parses, _, rows, _ = delta(func() int {
		text := string(orig) + "# unsaved\n"
		v, err := s.SetDraft(ctx, yamlFile, text)
		if err != nil {
			t.Fatal(err)
		}
		s.LintFile(ctx, yamlFile, text)
		return v.Revision
	})
	once("a draft and its lint", parses)
	if rows != 0 {
		t.Errorf("a draft stored %d history rows", rows)
	}
	settled(s.DiscardDraft(ctx, yamlFile))

	// A script of guard-rails in the trusted folder: its hooks run once.
	settled(s.Select(ctx, "guard-rails/scenarios/guarded-session.yaml"))
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	settled(s.Trace(), nil)
	script := "guard-rails/hooks/count.sh"
	body, err := os.ReadFile(filepath.Join(root, script))
	if err != nil {
		t.Fatal(err)
	}
	parses, runs, rows, traces := delta(save(script, string(body)+"# saved\n"))
	once("saving a script", parses)
	if runs != 1 || rows != 1 || traces != 1 {
		t.Errorf("saving a script: %d runs with the hooks, %d history rows, %d simulations shown; want 1, 1, 1", runs, rows, traces)
	}
}

// waitOwnTaken waits until the watcher has reported every write the app
// made and the worker has looked at the reports.
func waitOwnTaken(t *testing.T, s *Service) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // only for failing
	for time.Now().Before(deadline) {
		// Until the worker takes a report it is in changed; from then until
		// it is done (a reload included) busy says so.
		s.own.mu.Lock()
		idle := len(s.own.written) == 0 && len(s.own.changed) == 0 && len(s.reload) == 0 && !s.own.busy.Load()
		s.own.mu.Unlock()
		if idle {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the watcher never reported the app's write")
}
