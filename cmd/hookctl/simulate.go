package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"hookstudio/app/diag"
	"hookstudio/app/engine"
	"hookstudio/app/history"
	"hookstudio/app/otelexport"
	"hookstudio/app/scenario"
	"hookstudio/app/skills"
)

func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	root := fs.String("skills", defaultSkillsDir(), "skills folder")
	asJSON := fs.Bool("json", false, "print the trace as JSON")
	full := fs.Bool("full", false, "print whole message contents instead of one line each")
	color := fs.String("color", "auto", "colour output: auto, always or never")
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	noHistory := fs.Bool("no-history", false, "do not record the run in the history")
	otlp := fs.String("otlp", "", "send the run to an OpenTelemetry collector (OTLP/HTTP), e.g. http://localhost:4318")
	prov := addProviderFlags(fs)
	evf := addEventFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 {
		return 0, fmt.Errorf("%w: simulate takes one scenario file, got %d", errUsage, len(pos))
	}
	if err := checkOTLP(*otlp); err != nil {
		return 0, err
	}
	if !slices.Contains([]string{"auto", "always", "never"}, *color) {
		return 0, fmt.Errorf("%w: --color must be auto, always or never, got %q", errUsage, *color)
	}

	set, err := skills.Load(ctx, *root)
	if err != nil {
		return 0, err
	}
	sc, ds, err := loadScenario(*root, pos[0])
	if err != nil {
		return 0, err
	}
	if sc != nil {
		ds = append(ds, scenario.CheckSkills(sc, skillNames(set))...)
		ds = append(ds, usedSkillDiagnostics(set, sc)...)
	}
	diag.Sort(ds)
	if diag.HasErrors(ds) {
		// Never a partial trace: a broken hook or scenario gives diagnostics only.
		if *asJSON {
			return exitProblems, writeJSON(stdout, struct {
				Diagnostics []diag.Diagnostic `json:"diagnostics"`
			}{ds})
		}
		printDiagnostics(stdout, ds)
		e, w := diag.Count(ds)
		fmt.Fprintf(stdout, "not simulated: %d error(s), %d warning(s)\n", e, w)
		return exitProblems, nil
	}

	run, err := prov.setup(ctx, sc, stderr)
	if err != nil {
		return 0, err
	}
	defer run.cancel(nil)
	evr, err := evf.start(ctx, run, sc, stdout, stderr, *asJSON) // events.go
	if err != nil {
		return 0, err
	}
	defer evr.stop()
	started := time.Now()
	tr, runErr := engine.Run(evr.ctx, sc, set, run.cfg)
	runErr = run.explain(runErr)
	ended := time.Now()
	evs := evr.finish(tr, runErr)
	if *asJSON {
		if err := writeJSON(stdout, tr.Document()); err != nil {
			return 0, err
		}
	} else if !*evf.events {
		r := newRenderer(stdout, useColor(*color, stdout), *full)
		r.diagnostics(ds)
		r.trace(tr, *root)
	}
	if !*noHistory {
		data, _ := os.ReadFile(pos[0]) // read moments ago by loadScenario
		recordRun(ctx, stderr, *db, history.RunInput{Trace: tr, ScenarioFile: sc.File, ScenarioData: data,
			Backend: run.backend, Source: history.SourceCLI, Started: started, Ended: ended}, evs...)
	}
	exported := exportOTLP(ctx, stderr, *otlp, otelexport.Run{Trace: tr, Scenario: sc.File, Backend: run.backend, Started: started, Ended: ended})
	if runErr != nil {
		return exitProblems, fmt.Errorf("simulation stopped: %w", runErr)
	}
	if !exported {
		return exitProblems, nil
	}
	return exitOK, nil
}

// loadScenario reads a scenario given as a path, naming it relative to the
// skills root when it lies inside it, as the app does.
func loadScenario(root, path string) (*scenario.Scenario, []diag.Diagnostic, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read scenario: %w", err)
	}
	name := filepath.ToSlash(path)
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		name = filepath.ToSlash(rel)
	}
	sc, ds := scenario.Parse(name, data)
	return sc, ds, nil
}

// usedSkillDiagnostics returns the diagnostics of the skills the scenario
// enables: a broken skill it does not use does not stop it.
func usedSkillDiagnostics(set *skills.Set, sc *scenario.Scenario) []diag.Diagnostic {
	used := map[string]bool{}
	mark := func(sel []string) {
		if sel == nil {
			for _, s := range set.Skills {
				used[s.Name] = true
			}
		}
		for _, n := range sel {
			used[n] = true
		}
	}
	for _, r := range sc.Requests {
		if r.EnabledSkills != nil {
			mark(r.EnabledSkills)
		} else {
			mark(sc.EnabledSkills)
		}
	}
	var out []diag.Diagnostic
	for _, s := range set.Skills {
		if used[s.Name] {
			out = append(out, s.Diagnostics...)
		}
	}
	return out
}

func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
