package main

import (
	"context"
	"encoding/xml"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/expect"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/runs"
	"hookstudio/app/store/atomicfile"
)

// scenarioReport is one scenario's outcome in hookctl test.
type scenarioReport struct {
	File        string            `json:"file"`
	Name        string            `json:"name"`
	Status      string            `json:"status"` // the run's status, or "invalid"
	Error       string            `json:"error,omitempty"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Results     []expect.Result   `json:"results"`
	Passed      int               `json:"passed"`
	Failed      int               `json:"failed"`
	Updated     bool              `json:"updated,omitempty"`
	Duration    time.Duration     `json:"-"`

	trace     *engine.Trace
	untrusted []registry.Command // commands that would run without --trust
}

func testCmd(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the results as JSON")
	junit := fs.String("junit", "", "also write the results as JUnit XML to this file")
	update := fs.Bool("update", false, "write what the run observes into each scenario as its expectations")
	trust := fs.Bool("trust", false, "run the folder's executable hooks (hooks.yaml commands, process hooks); without it a folder with any is refused")
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	users := addUserFileFlags(fs, reg)
	behaviour := addBehaviourFlag(fs)
	agents := addAgentFlag(fs)
	color := fs.String("color", "auto", "colour output: auto, always or never")
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
	if !slices.Contains([]string{"auto", "always", "never"}, *color) {
		return 0, fmt.Errorf("%w: --color must be auto, always or never, got %q", errUsage, *color)
	}
	root, files, err := testTargets(ctx, pos)
	if err != nil {
		return 0, err
	}
	set, err := skills.Load(ctx, root)
	if err != nil {
		return 0, err
	}
	tc, err := tokens.NewCounter()
	if err != nil {
		return 0, err
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "hookctl: no scenarios under %s (<skill>/%s/*.yaml, or %s/*.yaml for the folder's own hooks); nothing was tested\n",
			root, scenario.ScenarioDir, scenario.ProjectScenarioDir)
	}
	var reports []*scenarioReport
	for _, f := range files {
		rep, err := testScenario(ctx, reg, root, f, set, tc, hooksets.Options{User: users(), Mode: mode}, picker, *trust, *update)
		if err != nil {
			return 0, err
		}
		if rep.untrusted != nil {
			// Nothing runs in a folder nobody trusted: say exactly what would.
			return notTrusted(stderr, root, rep.untrusted), nil
		}
		reports = append(reports, rep)
	}
	passed, failed := 0, 0
	for _, r := range reports {
		passed += r.Passed
		failed += r.Failed
	}
	if *junit != "" {
		data, err := junitXML(reports)
		if err != nil {
			return 0, err
		}
		if err := atomicfile.Write(*junit, data, 0o644); err != nil {
			return 0, fmt.Errorf("write junit report: %w", err)
		}
	}
	if *asJSON {
		err := writeJSON(stdout, struct {
			Scenarios []*scenarioReport `json:"scenarios"`
			Passed    int               `json:"passed"`
			Failed    int               `json:"failed"`
		}{reports, passed, failed})
		if err != nil {
			return 0, err
		}
	} else {
		r := newRenderer(stdout, useColor(*color, stdout), false)
		for _, rep := range reports {
			r.report(rep)
		}
		fmt.Fprintf(stdout, "\n%d passed, %d failed\n", passed, failed)
	}
	if failed > 0 {
		return exitProblems, nil
	}
	return exitOK, nil
}

// testTargets reads [SKILLS_DIR] [SCENARIO...]: a first argument that is a
// folder is the skills root; the scenarios default to every one under it.
func testTargets(ctx context.Context, pos []string) (string, []string, error) {
	root := defaultSkillsDir()
	if len(pos) > 0 {
		if fi, err := os.Stat(pos[0]); err == nil && fi.IsDir() {
			root, pos = pos[0], pos[1:]
		}
	}
	if len(pos) == 0 {
		files, err := scenario.Discover(ctx, root)
		if err != nil {
			return "", nil, err
		}
		return root, files, nil
	}
	var files []string
	for _, p := range pos {
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", nil, fmt.Errorf("%w: scenario %s is not inside the skills folder %s", errUsage, p, root)
		}
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return "", nil, fmt.Errorf("%w: no scenario file %s", errUsage, p)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	return root, files, nil
}

// testScenario validates, runs and checks one scenario; with update it
// first writes the run's observations into the file.
func testScenario(ctx context.Context, reg *registry.Registry, root, file string, set *skills.Set, tc *tokens.Counter, opts hooksets.Options,
	picker *profile.Picker, trusted, update bool) (*scenarioReport, error) {
	started := time.Now()
	rep := &scenarioReport{File: file, Name: file, Diagnostics: []diag.Diagnostic{}, Results: []expect.Result{}}
	sc, ds, err := scenario.LoadFile(root, file)
	if err != nil {
		return nil, err
	}
	var hooks *hooksets.Set
	if sc != nil {
		rep.Name = sc.Name
		hooks, err = hooksets.Load(ctx, reg, root, opts)
		if err != nil {
			return nil, err
		}
		ds = append(ds, scenario.CheckSkills(sc, hooks.SkillNames(folderNames(set)))...)
		ds = append(ds, usedSkillDiagnostics(set, sc)...)
		ds = append(ds, usedHookDiagnostics(set, sc, hooks.Diagnostics())...)
	}
	diag.Sort(ds)
	if ds != nil {
		rep.Diagnostics = ds
	}
	if diag.HasErrors(ds) {
		// A broken scenario or expectation never passes.
		rep.Status, rep.Failed = "invalid", 1
		return rep, nil
	}
	if cmds := hooks.Commands(sc); len(cmds) > 0 && !trusted {
		rep.untrusted = cmds
		return rep, nil
	}
	// The scenario's approval policy (scripted decisions) and budget, as
	// simulate runs them; the events themselves are not printed.
	profiles, err := hooksets.Profiles(picker, sc) // which version renders Claude Code's hooks
	if err != nil {
		return nil, err
	}
	requests, err := requestCatalog()
	if err != nil {
		return nil, err
	}
	run, err := runs.Assemble(runs.Spec{Scenario: sc, Prompt: set, Hooks: hooks, Trusted: trusted, Tokens: tc, Profiles: profiles,
		Requests: requests, Dir: root})
	if err != nil {
		return nil, err
	}
	if ads := run.Diagnostics(); len(ads) > 0 { // the tools of the agent the run is
		rep.Diagnostics = append(rep.Diagnostics, ads...)
		diag.Sort(rep.Diagnostics)
		if diag.HasErrors(ads) {
			_ = run.Close()
			rep.Status, rep.Failed = "invalid", 1
			return rep, nil
		}
	}
	tr, runErr := run.Execute(ctx)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("test %s: %w", file, ctx.Err())
	}
	rep.trace, rep.Status = tr, string(tr.Status)
	if runErr != nil {
		rep.Error = runErr.Error()
	}
	if update {
		if err := updateScenario(root, file, tr); err != nil {
			return nil, err
		}
		rep.Updated = true
		if sc, ds, err = scenario.LoadFile(root, file); err != nil {
			return nil, err
		}
		if diag.HasErrors(ds) {
			return nil, fmt.Errorf("update %s: the written expectations do not validate: %v", file, ds)
		}
	}
	rep.Results = expect.Evaluate(sc, tr, tc)
	rep.Passed, rep.Failed = expect.Counts(rep.Results)
	rep.Duration = time.Since(started)
	return rep, nil
}

// updateScenario writes the run's observations into the file atomically.
func updateScenario(root, file string, tr *engine.Trace) error {
	path := filepath.Join(root, filepath.FromSlash(file))
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("update %s: %w", file, err)
	}
	out, err := expect.Snapshot(data, tr)
	if err != nil {
		return fmt.Errorf("update %s: %w", file, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("update %s: %w", file, err)
	}
	if err := atomicfile.Write(path, out, fi.Mode().Perm()); err != nil {
		return fmt.Errorf("update %s: %w", file, err)
	}
	return nil
}

// report prints one scenario: a line, and every failure in detail.
func (r *renderer) report(rep *scenarioReport) {
	label := r.paint(green, "PASS")
	if rep.Failed > 0 {
		label = r.paint(red, "FAIL")
	}
	extra := fmt.Sprintf("%d passed, %d failed", rep.Passed, rep.Failed)
	switch {
	case rep.Status == "invalid":
		extra = "not run: the scenario or its skills have errors"
		if rep.Error != "" {
			extra = "not run: " + rep.Error
		}
	case len(rep.Results) == 0:
		extra = "no expectations"
	}
	if rep.Updated {
		extra += ", expectations updated"
	}
	fmt.Fprintf(r.w, "%s %s  %s\n", label, rep.File, r.paint(dim, extra))
	for _, d := range rep.Diagnostics {
		if d.Severity == diag.Error {
			fmt.Fprintf(r.w, "  %s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Code)
		}
	}
	if rep.Status != "invalid" && rep.Error != "" && rep.Failed > 0 {
		fmt.Fprintf(r.w, "  %s %s\n", r.paint(yellow, "run ended "+rep.Status+":"), rep.Error)
	}
	for _, res := range rep.Results {
		if !res.Pass {
			r.failure(rep, res)
		}
	}
}

// failure prints a failed expectation: where it is written, what was
// expected and found, a diff, and the call's messages around the spot.
func (r *renderer) failure(rep *scenarioReport, res expect.Result) {
	fmt.Fprintf(r.w, "\n  %s %s:%d:%d %s\n", r.paint(red, "✗"), res.File, res.Line, res.Column, r.paint(bold, res.Kind))
	fmt.Fprintf(r.w, "    %s\n", res.Title)
	fmt.Fprintf(r.w, "    expected: %s\n", res.Expected)
	fmt.Fprintf(r.w, "    actual:   %s\n", res.Actual)
	if len(res.Want) > 0 || len(res.Got) > 0 {
		fmt.Fprintf(r.w, "    %s\n", r.paint(dim, "--- expected  +++ actual"))
		for _, l := range lineDiff(res.Want, res.Got) {
			switch l[0] {
			case '-':
				fmt.Fprintf(r.w, "    %s\n", r.paint(red, l))
			case '+':
				fmt.Fprintf(r.w, "    %s\n", r.paint(green, l))
			default:
				fmt.Fprintf(r.w, "    %s\n", l)
			}
		}
	}
	if res.Call != nil && rep.trace != nil && *res.Call < len(rep.trace.Calls) {
		r.context(rep.trace, *res.Call, res.At)
	}
}

// context prints the call's message list around the positions at (the
// whole list when it is short), marking them with >.
func (r *renderer) context(tr *engine.Trace, c int, at []int) {
	ms := tr.CallMessages(c)
	const around = 2
	show := make([]bool, len(ms))
	if len(ms) <= 12 || len(at) == 0 {
		for i := range show {
			show[i] = len(ms) <= 12 || i >= len(ms)-6
		}
	}
	for _, a := range at {
		for i := max(0, a-around); i <= min(len(ms)-1, a+around); i++ {
			show[i] = true
		}
	}
	fmt.Fprintf(r.w, "    %s\n", r.paint(dim, fmt.Sprintf("messages of LLM call #%d (%d):", c+1, len(ms))))
	skipped := false
	for i, m := range ms {
		if !show[i] {
			if !skipped {
				fmt.Fprintf(r.w, "        %s\n", r.paint(dim, "…"))
			}
			skipped = true
			continue
		}
		skipped = false
		mark := " "
		if slices.Contains(at, i) {
			mark = r.paint(yellow, ">")
		}
		body := m.Content
		for _, tc := range m.ToolCalls {
			body += fmt.Sprintf(" → %s(%s)", tc.Name, argsText(tc.Arguments))
		}
		prefix := fmt.Sprintf("    %s %3d %-9s %s  ", mark, i+1, m.Role, plainOrigin(m))
		fmt.Fprintf(r.w, "%s%s\n", prefix, r.paint(dim, r.line(body, r.width-visibleLen(prefix))))
	}
}

// lineDiff is a minimal diff of two line lists (longest common
// subsequence): "- " expected only, "+ " actual only, "  " both.
func lineDiff(want, got []string) []string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			out = append(out, "  "+want[i])
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "- "+oneLine(want[i]))
			i++
		default:
			out = append(out, "+ "+oneLine(got[j]))
			j++
		}
	}
	return out
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > 200 {
		return string(rs[:200]) + "…"
	}
	return s
}

// JUnit XML, the subset CI systems read (GitHub, GitLab, Jenkins).
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
)

func junitXML(reports []*scenarioReport) ([]byte, error) {
	all := junitSuites{Name: "hookctl test", Suites: []junitSuite{}}
	for _, rep := range reports {
		s := junitSuite{Name: rep.File, Time: fmt.Sprintf("%.3f", rep.Duration.Seconds()), Cases: []junitCase{}}
		if rep.Status == "invalid" {
			var text strings.Builder
			for _, d := range rep.Diagnostics {
				fmt.Fprintf(&text, "%s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Code)
			}
			if rep.Error != "" {
				text.WriteString(rep.Error + "\n")
			}
			msg := "the scenario or its skills have errors"
			if rep.Error != "" {
				msg = rep.Error
			}
			s.Cases = append(s.Cases, junitCase{Name: "validate", Classname: rep.File, File: rep.File,
				Error: &junitProblem{Message: msg, Type: "invalid", Text: text.String()}})
			s.Errors++
		}
		for _, res := range rep.Results {
			c := junitCase{Name: res.Title, Classname: rep.File, File: res.File, Line: res.Line}
			if !res.Pass {
				var text strings.Builder
				fmt.Fprintf(&text, "%s:%d:%d %s\nexpected: %s\nactual:   %s\n", res.File, res.Line, res.Column, res.Kind, res.Expected, res.Actual)
				for _, l := range lineDiff(res.Want, res.Got) {
					text.WriteString(l + "\n")
				}
				if len(res.Messages) > 0 {
					text.WriteString("messages: " + strings.Join(res.Messages, ", ") + "\n")
				}
				c.Failure = &junitProblem{Message: fmt.Sprintf("expected %s; actual %s", res.Expected, res.Actual), Type: res.Kind, Text: text.String()}
				s.Failures++
			}
			s.Cases = append(s.Cases, c)
		}
		s.Tests = len(s.Cases)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Suites = append(all.Suites, s)
	}
	out, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode junit: %w", err)
	}
	return append([]byte(xml.Header), append(out, '\n')...), nil
}
