package cmdhook

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/")

// copyDir copies src into dst, keeping the scripts as plain files (the
// example invokes them through sh, as the app's copy does).
func copyDir(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestExampleGolden runs the guard-rails example through every event and
// pins the whole trace. The skill runs from a copy outside any git
// repository with 0644 scripts (as the app's copy has them); durations
// and the copy's path are masked.
func TestExampleGolden(t *testing.T) {
	root := t.TempDir()
	copyDir(t, filepath.Join("..", "..", "..", "skills", "guard-rails"), filepath.Join(root, "guard-rails"))
	noGit(t)
	const file = "guard-rails/scenarios/guarded-session.yaml"
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	sc, ds := scenario.Parse(file, data)
	if len(ds) > 0 {
		t.Fatalf("scenario diagnostics: %v", ds)
	}
	tr, h, err := simulate(t, root, sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds := h.Config().Diagnostics; len(ds) > 0 {
		t.Fatalf("hooks.yaml diagnostics: %v", ds)
	}
	// Every event of seed 001 fired at least once, and nothing failed.
	seen := map[string]bool{}
	for _, hc := range tr.HookCalls {
		seen[hc.Event] = true
		if hc.Outcome == engine.OutcomeError || hc.Outcome == engine.OutcomeTimeout || len(hc.Warnings) > 0 {
			t.Errorf("%s %s: %s %s %v", hc.Event, hc.Hook, hc.Outcome, hc.Error, hc.Warnings)
		}
	}
	for _, ev := range Events {
		if !seen[string(ev)] {
			t.Errorf("no %s hook ran", ev)
		}
	}
	for i := range tr.HookCalls {
		tr.HookCalls[i].DurationMS = 0
	}
	doc := struct {
		Trace   engine.Document     `json:"trace"`
		Metrics []engine.HookMetric `json:"metrics"`
	}{tr.Document(), h.Metrics()}
	for i := range doc.Metrics {
		doc.Metrics[i].TotalMS = 0
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(buf.String(), root, "$ROOT")
	golden := filepath.Join("testdata", "guard-rails.golden.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./app/hooks/cmdhook -run Golden -update)", err)
	}
	if got != string(want) {
		t.Errorf("trace differs from %s; rerun with -update after checking the diff", golden)
		os.WriteFile(filepath.Join(t.TempDir(), "got.json"), []byte(got), 0o644)
	}
}

// noGit puts a git that finds no repository first on PATH, so the
// example's git-branch hook answers the same wherever the test runs (a
// temporary folder can lie inside a checkout).
func noGit(t *testing.T) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho 'fatal: not a git repository' >&2\nexit 128\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// TestExampleValidates: the shipped example has no diagnostics at all.
func TestExampleValidates(t *testing.T) {
	cfg, err := Load(filepath.Join("..", "..", "..", "skills"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Diagnostics) > 0 {
		t.Errorf("diagnostics: %v", cfg.Diagnostics)
	}
	if diag.HasErrors(cfg.Diagnostics) || len(cfg.Hooks) < 14 {
		t.Errorf("%d hooks", len(cfg.Hooks))
	}
}
