package history

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/tokens"
)

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// versions reads schema_migrations.
func versions(t *testing.T, db *sql.DB) []int {
	t.Helper()
	rows, err := db.Query(`SELECT version, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		var at string
		if err := rows.Scan(&v, &at); err != nil {
			t.Fatal(err)
		}
		if _, err := time.Parse(time.RFC3339Nano, at); err != nil {
			t.Errorf("version %d applied_at %q: %v", v, at, err)
		}
		out = append(out, v)
	}
	return out
}

func allVersions() []int {
	var out []int
	for i := range migrations {
		out = append(out, i+1)
	}
	return out
}

func TestMigrationsFromEmpty(t *testing.T) {
	s := openTemp(t)
	if got := versions(t, s.db); !slices.Equal(got, allVersions()) {
		t.Fatalf("schema_migrations %v, want %v", got, allVersions())
	}
	var av, fk int
	var jm string
	if err := s.db.QueryRow(`SELECT * FROM pragma_auto_vacuum(), pragma_foreign_keys(), pragma_journal_mode()`).Scan(&av, &fk, &jm); err != nil {
		t.Fatal(err)
	}
	if av != 2 || fk != 1 || jm != "wal" {
		t.Errorf("auto_vacuum=%d foreign_keys=%d journal_mode=%s, want 2 (incremental), 1, wal", av, fk, jm)
	}
	if s.Recovered != nil {
		t.Errorf("a new database reported a recovery: %+v", s.Recovered)
	}
	// Opening again applies nothing more.
	s.Close()
	s2, err := Open(context.Background(), s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := versions(t, s2.db); !slices.Equal(got, allVersions()) {
		t.Fatalf("after reopening: %v", got)
	}
}

// TestMigrationsFromEveryVersion builds each earlier schema (migrations
// 1..k), stores a run the way that version could, and lets Open upgrade.
func TestMigrationsFromEveryVersion(t *testing.T) {
	for k := 1; k < len(migrations); k++ {
		t.Run(migrations[k-1].name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "history.db")
			db, err := sql.Open("sqlite3", dsn(path))
			if err != nil {
				t.Fatal(err)
			}
			if err := migrate(ctx, db, k); err != nil {
				t.Fatal(err)
			}
			if got := versions(t, db); !slices.Equal(got, allVersions()[:k]) {
				t.Fatalf("built %v, want 1..%d", got, k)
			}
			// A run as version 1 knew it (no metrics yet).
			if _, err := db.Exec(`INSERT INTO runs (scenario, scenario_file, scenario_hash, backend, source, status,
				started_ms, ended_ms, steps, llm_calls) VALUES ('old', 'x/scenarios/old.yaml', 'abc', 'mock', 'cli', 'ok', 1, 2, 3, 4)`); err != nil {
				t.Fatal(err)
			}
			db.Close()

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Recovered != nil {
				t.Fatalf("upgrade moved the database aside: %s", s.Recovered.Message())
			}
			if got := versions(t, s.db); !slices.Equal(got, allVersions()) {
				t.Fatalf("upgraded to %v, want %v", got, allVersions())
			}
			runs, err := s.ListRuns(ctx, Filter{Scenario: "old"})
			if err != nil || len(runs) != 1 || runs[0].Steps != 3 || runs[0].TokensIn != 0 {
				t.Fatalf("old run after upgrade: %+v, %v", runs, err)
			}
			// The upgraded database takes new runs.
			sim := simulate(t, examplesRoot, exampleScenarios(t, examplesRoot)[0])
			if _, err := s.SaveRun(ctx, input(sim, SourceCLI, t0)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	type tc struct {
		name string
		sim  simulated
	}
	var tests []tc
	for _, rel := range exampleScenarios(t, examplesRoot) {
		tests = append(tests, tc{rel, simulate(t, examplesRoot, rel)})
	}
	withAgent := syntheticRun(t, 1, 2, nil)
	withAgent.tr.Agent = &engine.Agent{Agent: "claude-code", Version: "2.1.332", By: "flag"}
	tests = append(tests,
		tc{"model error", syntheticRun(t, 2, 0, failModel{at: 3})},
		tc{"synthetic 3 requests", syntheticRun(t, 3, 40, nil)},
		tc{"an agent version's renderings", withAgent},
	)
	s := openTemp(t)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(tt.sim, SourceCLI, t0.Add(time.Duration(i)*time.Second))
			in.Tokens = counter
			id, err := s.SaveRun(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			run, err := s.LoadRun(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if want, got := tt.sim.tr.Record(), run.Trace.Record(); !reflect.DeepEqual(want, got) {
				t.Fatalf("loaded trace differs from the saved one")
			}
			if !reflect.DeepEqual(tt.sim.tr.Document(), run.Trace.Document()) {
				t.Fatalf("loaded trace's document differs")
			}
			sum := run.RunSummary
			if sum.Status != tt.sim.tr.Status || sum.Error != tt.sim.tr.Error || sum.Steps != tt.sim.tr.NumSteps() ||
				sum.LLMCalls != len(tt.sim.tr.Calls) || sum.ScenarioFile != tt.sim.file || sum.Source != SourceCLI ||
				!sum.Started.Equal(in.Started) || sum.WallMS != 3 || len(sum.ScenarioHash) != 64 {
				t.Errorf("summary %+v", sum)
			}
			if a := tt.sim.tr.Agent; a != nil && sum.Agent != a.String() {
				t.Errorf("summary agent %q, want %s", sum.Agent, a)
			}
			checkMetrics(t, tt.sim.tr, run, counter)
		})
	}
	t.Run("model error keeps status", func(t *testing.T) {
		runs, err := s.ListRuns(ctx, Filter{Scenario: "synthetic"})
		if err != nil {
			t.Fatal(err)
		}
		var statuses []engine.Status
		for _, r := range runs {
			statuses = append(statuses, r.Status)
		}
		if !slices.Contains(statuses, engine.StatusError) {
			t.Errorf("statuses %v lack an error run", statuses)
		}
	})
	if _, err := s.LoadRun(ctx, 9999); err == nil || !strings.Contains(err.Error(), ErrNotFound.Error()) {
		t.Errorf("missing run: %v", err)
	}
}

// checkMetrics recomputes the stored metrics the slow, obvious way: every
// call's full message list (as the app's matrix does).
func checkMetrics(t *testing.T, tr *engine.Trace, run *Run, tc TokenCounter) {
	t.Helper()
	totalIn := 0
	for c := range tr.Calls {
		msgs := tr.CallMessages(c)
		in := 0
		copies := map[string]int{}
		toks := map[string]int{}
		for _, m := range msgs {
			n := tc.CountMessage(m.Role, m.Content)
			in += n
			if m.Hook != "" {
				copies[m.Skill+"/"+m.Hook]++
				toks[m.Skill+"/"+m.Hook] += n
			}
		}
		totalIn += in
		if got := run.Calls[c]; got.TokensIn != in || got.Messages != len(msgs) {
			t.Errorf("call %d: tokens %d messages %d, want %d %d", c, got.TokensIn, got.Messages, in, len(msgs))
		}
		for _, h := range run.Hooks {
			if h.TokensPerCall[c] != toks[h.Hook] {
				t.Errorf("call %d hook %s: %d tokens, want %d", c, h.Hook, h.TokensPerCall[c], toks[h.Hook])
			}
		}
	}
	if run.TokensIn != totalIn {
		t.Errorf("run tokens in %d, want %d", run.TokensIn, totalIn)
	}
	for i, h := range run.Hooks {
		injected, removed := 0, 0
		for id := range tr.NumMessages() {
			m := tr.Message(id)
			if m.Origin == engine.OriginHook && m.Skill+"/"+m.Hook == h.Hook {
				injected++
				if _, r := tr.Lifetime(id); r >= 0 {
					removed++
				}
			}
		}
		if h.Injected != injected || h.Removed != removed || h.Executions != injected || h.Successes != injected || h.Failures != 0 {
			t.Errorf("hook %s: %+v, want injected %d removed %d", h.Hook, h, injected, removed)
		}
		if h.ContentHash == "" || tr.Hooks[i].ID() != h.Hook {
			t.Errorf("hook %d: %+v", i, h)
		}
	}
}

// TestHookMetricsSynthetic pins the per-hook figures of a small run.
func TestHookMetricsSynthetic(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	sim := syntheticRun(t, 1, 4, nil) // 3 rounds with a read call, then done
	id, err := s.SaveRun(ctx, input(sim, SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]HookMetrics{}
	for _, h := range run.Hooks {
		got[h.Hook] = h
	}
	// Calls: planning + 4 agent rounds = 5.
	tests := []struct {
		hook                                   string
		injected, removed, seen, copies, skips int
	}{
		{"bench/persona", 1, 0, 5, 5, 0},
		{"bench/plan", 1, 1, 1, 1, 0},
		{"bench/each", 4, 3, 4, 4, 0}, // the last round's copy stays
		{"bench/first", 1, 1, 4, 4, 0},
		{"bench/after-read", 3, 3, 3, 3, 0},
		{"bench/after-write", 0, 0, 0, 0, 3}, // filter is write; every call was read
		{"other/empty-filter", 0, 0, 0, 0, 3},
	}
	for _, tt := range tests {
		h := got[tt.hook]
		if h.Injected != tt.injected || h.Removed != tt.removed || h.CallsSeen != tt.seen || h.CopiesSeen != tt.copies || h.Skipped != tt.skips {
			t.Errorf("%s: injected %d removed %d seen %d copies %d skipped %d; want %+v",
				tt.hook, h.Injected, h.Removed, h.CallsSeen, h.CopiesSeen, h.Skipped, tt)
		}
	}
	totals, err := s.HookMetricsSince(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range totals {
		if tt.Hook == "bench/each" && (tt.Executions != 4 || tt.Successes != 4 || tt.Runs != 1) {
			t.Errorf("totals %+v", tt)
		}
	}
}

func TestListRunsFilters(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	scen := exampleScenarios(t, examplesRoot)
	sims := map[string]simulated{}
	for _, rel := range scen {
		sims[rel] = simulate(t, examplesRoot, rel)
	}
	// Two runs of every scenario a day apart, alternating sources.
	for day := range 2 {
		for i, rel := range scen {
			src := SourceCLI
			if i%2 == 1 {
				src = SourceApp
			}
			if _, err := s.SaveRun(ctx, input(sims[rel], src, t0.Add(time.Duration(day)*24*time.Hour+time.Duration(i)*time.Minute))); err != nil {
				t.Fatal(err)
			}
		}
	}
	fix := sims["file-tools/scenarios/fix-line-limit.yaml"]
	tests := []struct {
		name string
		f    Filter
		want int
	}{
		{"all", Filter{}, 2 * len(scen)},
		{"scenario", Filter{Scenario: fix.name}, 2},
		{"skill of the scenario", Filter{Skill: "file-tools"}, 2},
		{"skill of planner scenarios", Filter{Skill: "planner"}, 2 * 3},
		{"since", Filter{Since: t0.Add(24 * time.Hour)}, len(scen)},
		{"until", Filter{Until: t0.Add(24 * time.Hour)}, len(scen)},
		{"source", Filter{Source: SourceApp}, 2 * (len(scen) / 2)},
		{"limit", Filter{Limit: 3}, 3},
		{"offset", Filter{Offset: 2*len(scen) - 1}, 1},
		{"nothing", Filter{Scenario: "nope"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs, err := s.ListRuns(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs) != tt.want {
				t.Fatalf("%d runs, want %d", len(runs), tt.want)
			}
			for i := 1; i < len(runs); i++ {
				if runs[i].Started.After(runs[i-1].Started) {
					t.Errorf("not newest first at %d", i)
				}
			}
		})
	}

	pts, err := s.PromptSizeOverTime(ctx, fix.name, 0)
	if err != nil || len(pts) != 2 || !pts[0].Started.Before(pts[1].Started) || pts[0].TokensIn == 0 {
		t.Errorf("prompt size over time: %+v %v", pts, err)
	}
	hp, err := s.HookHistory(ctx, "file-tools/truncated-content-hint", 1)
	if err != nil || len(hp) != 1 || hp[0].TokensTotal == 0 || len(hp[0].ContentHash) != 64 {
		t.Errorf("hook history: %+v %v", hp, err)
	}
}

func countRows(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBlobsStoredOnceAndCollected(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	sim := simulate(t, examplesRoot, "file-tools/scenarios/fix-line-limit.yaml")
	a, err := s.SaveRun(ctx, input(sim, SourceCLI, t0))
	if err != nil {
		t.Fatal(err)
	}
	one := countRows(t, s, "blobs")
	b, err := s.SaveRun(ctx, input(sim, SourceCLI, t0.Add(time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "blobs"); n != one {
		t.Fatalf("second identical run added blobs: %d → %d", one, n)
	}
	// The hook texts are stored once and shared.
	var shared int
	if err := s.db.QueryRow(`SELECT count(DISTINCT content_id) FROM run_hooks`).Scan(&shared); err != nil {
		t.Fatal(err)
	}
	if shared != len(sim.tr.Hooks) {
		t.Errorf("%d distinct hook blobs for %d hooks over two runs", shared, len(sim.tr.Hooks))
	}
	// An edited hook adds one blob; deleting the run that used it collects it.
	sim2 := sim
	sim2.tr = editHook(t, sim.tr, "truncated-content-hint", "Edited hint.")
	c, err := s.SaveRun(ctx, input(sim2, SourceCLI, t0.Add(2*time.Second)))
	if err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "blobs"); n != one+1 {
		t.Errorf("edited hook: %d blobs, want %d", n, one+1)
	}
	if err := s.DeleteRun(ctx, c); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "blobs"); n != one {
		t.Errorf("after deleting the edited run: %d blobs, want %d", n, one)
	}
	if err := s.DeleteRun(ctx, a); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, "blobs"); n != one {
		t.Errorf("run b still uses every blob: %d, want %d", n, one)
	}
	if err := s.DeleteRun(ctx, b); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"blobs", "runs", "run_blobs", "run_messages", "run_calls", "run_hooks", "run_traces", "run_skills"} {
		if n := countRows(t, s, table); n != 0 {
			t.Errorf("%s has %d rows after deleting every run", table, n)
		}
	}
	if err := s.DeleteRun(ctx, b); err == nil {
		t.Error("deleting a missing run succeeded")
	}
}

// reversed is ids newest first.
func reversed(ids []RunID) []RunID {
	out := slices.Clone(ids)
	slices.Reverse(out)
	return out
}

// editHook re-records tr with one hook's text replaced everywhere it
// appears, as a re-run after editing the .md would produce.
func editHook(t testing.TB, tr *engine.Trace, name, text string) *engine.Trace {
	t.Helper()
	rec := tr.Record()
	rec.Hooks = slices.Clone(rec.Hooks)
	var ref int32 = -1
	for i := range rec.Hooks {
		if rec.Hooks[i].Name == name {
			ref = int32(i)
			rec.Hooks[i].Content = text
		}
	}
	if ref < 0 {
		t.Fatalf("no hook %s", name)
	}
	rec.Messages = slices.Clone(rec.Messages)
	for i := range rec.Messages {
		m := &rec.Messages[i]
		if m.Ref == ref && (m.Origin == engine.OriginHook || (m.Origin == engine.OriginHistory && m.HistoryOf == engine.OriginHook)) {
			m.Content = text
		}
	}
	out, err := engine.FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRetentionKeepLive(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, WithRetention(Retention{KeepLive: 2}))
	a := simulate(t, examplesRoot, "file-tools/scenarios/fix-line-limit.yaml")
	b := simulate(t, examplesRoot, "planner/scenarios/multi-step-change.yaml")
	var liveA []RunID
	at := t0
	save := func(sim simulated, src Source) RunID {
		at = at.Add(time.Second)
		id, err := s.SaveRun(ctx, input(sim, src, at))
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	cli := save(a, SourceCLI)
	for range 5 {
		liveA = append(liveA, save(a, SourceLive))
		save(b, SourceLive)
	}
	app := save(a, SourceApp)
	runs, err := s.ListRuns(ctx, Filter{Scenario: a.name})
	if err != nil {
		t.Fatal(err)
	}
	var got []RunID
	for _, r := range runs {
		got = append(got, r.ID)
	}
	want := []RunID{app, liveA[4], liveA[3], cli}
	if !slices.Equal(got, want) {
		t.Errorf("scenario A runs %v, want %v (newest first)", got, want)
	}
	if runs, _ := s.ListRuns(ctx, Filter{Scenario: b.name}); len(runs) != 2 {
		t.Errorf("scenario B keeps %d live runs, want 2", len(runs))
	}
	// Blobs of deleted runs are collected: exactly the blobs still used remain.
	var orphans int
	if err := s.db.QueryRow(`SELECT count(*) FROM blobs WHERE id NOT IN (SELECT blob_id FROM run_blobs)`).Scan(&orphans); err != nil {
		t.Fatal(err)
	}
	if orphans != 0 {
		t.Errorf("%d unreferenced blobs", orphans)
	}
}

func TestRetentionSizeCap(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	// Each run has distinct texts, so it costs real pages.
	mk := func(i int) simulated {
		sim := syntheticRun(t, 1, 60, nil)
		return simulated{name: sim.name, file: sim.file, data: sim.data,
			tr: editHook(t, sim.tr, "each", strings.Repeat("distinct text ", 200)+string(rune('a'+i)))}
	}
	at := t0
	var ids []RunID
	for i := range 3 {
		at = at.Add(time.Second)
		id, err := s.SaveRun(ctx, input(mk(i), SourceCLI, at))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	size3, err := s.Size(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.SetRetention(Retention{KeepLive: 100, MaxBytes: size3})
	// Two live runs over the cap. The first save finds no other live run
	// and takes the oldest CLI run; the second takes the first live run,
	// since live runs go before any CLI run.
	var live []RunID
	for i := 3; i < 5; i++ {
		at = at.Add(time.Second)
		id, err := s.SaveRun(ctx, input(mk(i), SourceLive, at))
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, id)
	}
	runs, err := s.ListRuns(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var got []RunID
	for _, r := range runs {
		got = append(got, r.ID)
	}
	// Whatever survived of the CLI runs are the newest ones.
	if len(got) < 2 || !slices.Equal(got[1:], reversed(ids)[:len(got)-1]) {
		t.Errorf("after the cap: %v (CLI runs %v)", got, ids)
	}
	if slices.Contains(got, live[0]) {
		t.Errorf("the older live run survived the cap: %v", got)
	}
	if !slices.Contains(got, live[1]) {
		t.Errorf("the run just saved was deleted: %v", got)
	}
	if size, _ := s.Size(ctx); size > size3 {
		t.Errorf("size %d over the cap %d", size, size3)
	}
	// A tiny cap leaves only the newest run, whatever its source.
	s.SetRetention(Retention{MaxBytes: 1})
	at = at.Add(time.Second)
	last, err := s.SaveRun(ctx, input(mk(9), SourceCLI, at))
	if err != nil {
		t.Fatal(err)
	}
	runs, _ = s.ListRuns(ctx, Filter{})
	if len(runs) != 1 || runs[0].ID != last {
		t.Errorf("tiny cap left %d runs", len(runs))
	}
	// The freed pages went back to the file system.
	var free int
	if err := s.db.QueryRow(`PRAGMA freelist_count`).Scan(&free); err != nil {
		t.Fatal(err)
	}
	if free != 0 {
		t.Errorf("%d free pages left after incremental vacuum", free)
	}
}
