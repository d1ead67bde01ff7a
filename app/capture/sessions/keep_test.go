package sessions

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
)

func openStore(t *testing.T) *history.Store {
	t.Helper()
	st, err := history.Open(context.Background(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestKeep: an import is a run of source session with its account; the
// same session imported again stands in for that run.
func TestKeep(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	im := importFixture(t, "claude-code-2.1.332", Options{})
	id, err := Keep(ctx, st, im, nil)
	if err != nil {
		t.Fatal(err)
	}
	run, err := st.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if run.Source != history.SourceSession || run.Backend != "claude-code@2.1.332" || run.Session == nil || run.Session.Version != "2.1.332" {
		t.Fatalf("run %+v", run.RunSummary)
	}
	var s Session
	if err := json.Unmarshal(run.Session.Data, &s); err != nil || len(s.Calls) != 4 || !s.Calls[0].Exact {
		t.Fatalf("the run's session: %v %+v", err, s)
	}
	if recordJSON(mustTrace(t, im)) != recordJSON(run.Trace) {
		t.Error("the run's trace is not the import's")
	}
	// per-hook metrics: the executable hooks' rows, one per hook that spoke or ran
	if len(run.ExecHooks) == 0 || !slices.ContainsFunc(run.ExecHooks, func(h history.ExecHookMetrics) bool {
		return h.System == "claude-code" && strings.HasPrefix(h.Hook, "sleep 0.2")
	}) {
		t.Errorf("exec hooks %+v", run.ExecHooks)
	}
	again, err := Keep(ctx, st, importFixture(t, "claude-code-2.1.332", Options{}), nil)
	if err != nil || again != id {
		t.Fatalf("imported again: run %d (%v), first %d", again, err, id)
	}
	runs, _ := st.ListRuns(ctx, history.Filter{Source: history.SourceSession})
	if len(runs) != 1 {
		t.Errorf("%d session runs", len(runs))
	}
}

// recordJSON is a trace's record as JSON (a list of no hooks loads as nil).
func recordJSON(tr *engine.Trace) string {
	rec := tr.Record()
	if len(rec.Hooks) == 0 {
		rec.Hooks = nil
	}
	data, _ := json.Marshal(rec)
	return string(data)
}

func mustTrace(t *testing.T, im *Importer) *engine.Trace {
	t.Helper()
	tr, err := im.Trace()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestFollow: a session being written (the agent still running) is kept
// as it grows: each append is read (fsnotify), the run saved again under
// its id, until the run equals the whole file's import.
func TestFollow(t *testing.T) { followFixture(t, "claude-code-2.1.332") }

// followFixture follows a fixture written a few lines at a time.
func followFixture(t *testing.T, name string) {
	t.Helper()
	lines := fixtureLines(t, name)
	lines[len(lines)-1] += "\n"
	dir := t.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines[:3], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	st := openStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	updates := make(chan Update, 64)
	done := make(chan error, 1)
	go func() {
		done <- Follow(ctx, path, st, nil, Options{}, func(u Update) { updates <- u })
	}()
	// wait for a condition, never for time: an update that has read n lines
	deadline := time.After(2 * time.Minute)
	waitLines := func(n int) Update {
		t.Helper()
		for {
			select {
			case u := <-updates:
				if u.Err != nil {
					t.Fatalf("update: %v", u.Err)
				}
				if u.Session.Lines >= n {
					return u
				}
			case <-deadline:
				t.Fatalf("no update with %d lines", n)
			}
		}
	}
	waitLines(3)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var first history.RunID
	for i := 3; i < len(lines); i += 9 {
		end := min(i+9, len(lines))
		// half a line at a time at the end: the agent writes as it goes
		chunk := strings.Join(lines[i:end], "")
		if _, err := f.WriteString(chunk[:len(chunk)-10]); err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(chunk[len(chunk)-10:]); err != nil {
			t.Fatal(err)
		}
		u := waitLines(end)
		if u.Run != 0 && first == 0 {
			first = u.Run
		}
		if u.Run != 0 && u.Run != first {
			t.Fatalf("the growing session became run %d, then %d", first, u.Run)
		}
	}
	f.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	run, err := st.LoadRun(context.Background(), first)
	if err != nil {
		t.Fatal(err)
	}
	if recordJSON(mustTrace(t, importFixture(t, name, Options{}))) != recordJSON(run.Trace) {
		t.Error("the followed run is not the whole file's import")
	}
}

// TestList: sessions under the agents' folders, newest first, filtered by
// agent, project and search; a file that grows is read again.
func TestList(t *testing.T) {
	root := t.TempDir()
	l := Locations{Claude: filepath.Join(root, "claude", "projects"), Codex: filepath.Join(root, "codex", "sessions")}
	for i, name := range []string{"claude-code-2.1.197", "claude-code-2.1.332"} {
		data, err := os.ReadFile(filepath.Join("testdata", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			// another project
			data = []byte(strings.ReplaceAll(string(data), "/home/user/project", "/home/user/other"))
		}
		dir := filepath.Join(l.Claude, "-home-user-p"+string(rune('a'+i)))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ls := NewLister()
	ctx := context.Background()
	all, err := ls.List(ctx, l, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Version != "2.1.332" || all[1].Version != "2.1.197" {
		t.Fatalf("list %+v", all)
	}
	s := all[0]
	if s.Turns != 1 || s.Calls != 4 || s.Model != "claude-opus-5-5" || s.Prompt != "clean the build folder" || s.Size == 0 ||
		!slices.ContainsFunc(s.Hooks, func(h HookCount) bool { return h.Label == "PostToolUse:Bash" && h.Count == 2 }) {
		t.Errorf("summary %+v", s)
	}
	for _, tc := range []struct {
		f    Filter
		want int
	}{
		{Filter{Agent: Codex}, 0},
		{Filter{Agent: ClaudeCode}, 2},
		{Filter{Project: "/home/user/other"}, 1},
		{Filter{Project: "/home/user"}, 2},
		{Filter{Search: "POSTTOOLUSE"}, 2},
		{Filter{Search: "2.1.197"}, 1},
		{Filter{Search: "nothing like it"}, 0},
	} {
		got, err := ls.List(ctx, l, tc.f)
		if err != nil || len(got) != tc.want {
			t.Errorf("%+v: %d sessions (%v)", tc.f, len(got), err)
		}
	}
}

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// TestSaveAsScenario: an imported session saved as a scenario replays the
// recorded answers and tool calls, in order.
func TestSaveAsScenario(t *testing.T) {
	for _, fx := range claudeFixtures {
		t.Run(fx.name, func(t *testing.T) {
			im := importFixture(t, fx.name, Options{})
			tr := mustTrace(t, im)
			data, _, err := ScenarioYAML(tr, im.Session())
			if err != nil {
				t.Fatal(err)
			}
			sc, diags := scenario.Parse("replay.yaml", data)
			for _, d := range diags {
				if d.Severity == "error" {
					t.Fatalf("the saved scenario does not parse: %v\n%s", d, data)
				}
			}
			if !slices.ContainsFunc(sc.Tools, func(tl scenario.Tool) bool { return tl.Name == "Bash" }) {
				t.Errorf("tools %v", sc.Tools)
			}
			sim, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc)})
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, c := range tr.Calls {
				want = append(want, answerKey(c))
			}
			for _, c := range sim.Calls {
				if c.Phase == engine.PhaseAgent {
					got = append(got, answerKey(c))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("replayed answers %q, recorded %q", got, want)
			}
		})
	}
}

func answerKey(c engine.LLMCall) string {
	k := c.Content
	for _, tc := range c.ToolCalls {
		args, _ := json.Marshal(tc.Arguments)
		k += " → " + tc.Name + string(args)
	}
	return k
}
