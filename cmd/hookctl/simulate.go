package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/platform/otelexport"
	"hookstudio/app/services/runs"
	"hookstudio/app/store/history"
)

func simulateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	root := fs.String("skills", defaultSkillsDir(), "skills folder")
	asJSON := fs.Bool("json", false, "print the trace as JSON")
	full := fs.Bool("full", false, "print whole message contents instead of one line each")
	color := fs.String("color", "auto", "colour output: auto, always or never")
	db := fs.String("db", "", "history database (default: history.db in the app's data folder)")
	noHistory := fs.Bool("no-history", false, "do not record the run in the history")
	trust := fs.Bool("trust", false, "run the folder's executable hooks (hooks.yaml commands); without it a folder with any is refused")
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	users := addUserFileFlags(fs, reg)
	behaviour := addBehaviourFlag(fs)
	agents := addAgentFlag(fs)
	home := addHomeFlag(fs)
	workDir := addDirFlag(fs)
	otlp := fs.String("otlp", "", "send the run to an OpenTelemetry collector (OTLP/HTTP), e.g. http://localhost:4318")
	prov := addProviderFlags(fs)
	evf := addEventFlags(fs)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	mode, err := behaviour()
	if err != nil {
		return 0, err
	}
	picker, err := agents(stderr)
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
	var hooks *hooksets.Set
	if sc != nil {
		hooks, err = hooksets.Load(ctx, reg, *root, hooksets.Options{User: users(), Mode: mode})
		if err != nil {
			return 0, err
		}
		ds = append(ds, scenario.CheckSkills(sc, hooks.SkillNames(folderNames(set)))...)
		ds = append(ds, usedSkillDiagnostics(set, sc)...)
		ds = append(ds, usedHookDiagnostics(set, sc, hooks.Diagnostics())...)
	}
	diag.Sort(ds)
	if diag.HasErrors(ds) {
		// Never a partial trace: a broken hook or scenario gives diagnostics only.
		return notSimulated(stdout, ds, *asJSON)
	}

	if cmds := hooks.Commands(sc); len(cmds) > 0 && !*trust {
		// Nothing runs in a folder nobody trusted: say exactly what would.
		return notTrusted(stderr, *root, cmds), nil
	}

	run, err := prov.setup(ctx, sc, stderr)
	if err != nil {
		return 0, err
	}
	defer run.cancel(nil)
	// The one way the app runs a scenario too: its prompt hooks, the
	// folder's hooks (request hooks innermost; with --provider llm hooks
	// ask the real model through them), the event stream last.
	spec := run.spec
	spec.Scenario, spec.Prompt, spec.Hooks, spec.Trusted = sc, set, hooks, *trust
	if spec.Profiles, err = hooksets.Profiles(picker, sc); err != nil { // which version renders Claude Code's hooks
		return 0, err
	}
	if spec.Requests, err = requestCatalog(); err != nil { // an agent's run is its loop and request
		return 0, err
	}
	spec.Dir, spec.Home = *root, *home
	if *workDir != "" {
		spec.Dir = *workDir
	}
	if c, err := tokens.NewCounter(); err == nil {
		spec.Tokens = c
	}
	evr, err := evf.start(ctx, run, &spec, stdout, stderr, *asJSON) // events.go
	if err != nil {
		return 0, err
	}
	defer evr.stop()
	r, err := runs.Assemble(spec)
	if err != nil {
		return 0, err
	}
	if ads := r.Diagnostics(); len(ads) > 0 { // the tools of the agent the run is
		ds = append(ds, ads...)
		diag.Sort(ds)
		if diag.HasErrors(ads) {
			_ = r.Close()
			return notSimulated(stdout, ds, *asJSON)
		}
	}
	started := time.Now()
	tr, runErr := r.Execute(evr.ctx)
	runErr = run.explain(runErr)
	ended := time.Now()
	evs := evr.finish()
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

// notSimulated says why a scenario was not simulated: its diagnostics.
func notSimulated(stdout io.Writer, ds []diag.Diagnostic, asJSON bool) (int, error) {
	if asJSON {
		return exitProblems, writeJSON(stdout, struct {
			Diagnostics []diag.Diagnostic `json:"diagnostics"`
		}{ds})
	}
	printDiagnostics(stdout, ds)
	e, w := diag.Count(ds)
	fmt.Fprintf(stdout, "not simulated: %d error(s), %d warning(s)\n", e, w)
	return exitProblems, nil
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

// usedHookDiagnostics returns the hooks.yaml diagnostics that matter to
// the scenario: the user and project files, and the skills it enables.
func usedHookDiagnostics(set *skills.Set, sc *scenario.Scenario, ds []diag.Diagnostic) []diag.Diagnostic {
	enabled := map[string]bool{}
	for _, s := range usedSkills(set, sc) {
		enabled[s.Name] = true
	}
	var out []diag.Diagnostic
	for _, d := range ds {
		// A skill's file is "<skill>/hooks/hooks.yaml"; the project's
		// ".jcli/hooks.yaml" and the user's file always count.
		skill, _, inSkill := strings.Cut(d.File, "/")
		if !inSkill || strings.HasPrefix(skill, ".") || enabled[skill] || !isSkill(set, skill) {
			out = append(out, d)
		}
	}
	return out
}

func isSkill(set *skills.Set, name string) bool {
	for _, s := range set.Skills {
		if s.Name == name {
			return true
		}
	}
	return false
}

// usedSkills are the skills some request of the scenario enables.
func usedSkills(set *skills.Set, sc *scenario.Scenario) []skills.Skill {
	var out []skills.Skill
	for _, s := range set.Skills {
		for _, r := range sc.Requests {
			sel := sc.EnabledSkills
			if r.EnabledSkills != nil {
				sel = r.EnabledSkills
			}
			if sel == nil || slices.Contains(sel, s.Name) {
				out = append(out, s)
				break
			}
		}
	}
	return out
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
