package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/convert"
	"hookstudio/app/hooks/hooksets"
)

// convertCmd writes a folder's hook set in another agent's format.
func convertCmd(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	to := fs.String("to", "", "the agent to write for: "+strings.Join(convert.Targets(), "|"))
	from := fs.String("from", "", "the agent whose hooks to read ("+strings.Join(convert.Sources(), "|")+"; default: the one whose files the folder has)")
	out := fs.String("o", "", "the folder to write into (default: FOLDER itself)")
	layout := fs.String("layout", "", "project (the agent's project settings) or package (a plugin or extension where the agent has one); default: as the source")
	name := fs.String("name", "", "the set's name where files are named for it (Copilot CLI's .github/hooks/NAME.json; default: the folder's)")
	dry := fs.Bool("dry-run", false, "print what would be written and write nothing")
	force := fs.Bool("force", false, "replace files of other content (a settings file's hooks, a script)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	switch {
	case len(pos) != 1:
		return 0, fmt.Errorf("%w: convert takes one FOLDER", errUsage)
	case *to == "":
		return 0, fmt.Errorf("%w: convert needs --to %s", errUsage, strings.Join(convert.Targets(), "|"))
	case !slices.Contains(convert.Targets(), *to):
		return 0, fmt.Errorf("%w: --to %q: write for one of %s", errUsage, *to, strings.Join(convert.Targets(), ", "))
	case *from != "" && !slices.Contains(convert.Sources(), *from):
		return 0, fmt.Errorf("%w: --from %q: read one of %s", errUsage, *from, strings.Join(convert.Sources(), ", "))
	case *layout != "" && *layout != convert.LayoutProject && *layout != convert.LayoutPackage:
		return 0, fmt.Errorf("%w: --layout %q: project or package", errUsage, *layout)
	}
	root := pos[0]
	dir := *out
	if dir == "" {
		dir = root
	}
	source := *from
	if source == "" {
		if source = convert.Detect(root); source == "" {
			fmt.Fprintf(stdout, "%s: no hooks of %s found; nothing to convert\n", root, strings.Join(convert.Titles(convert.Sources()), ", "))
			return exitProblems, nil
		}
	}
	set, warnings, err := convert.Read(ctx, source, root, convert.ReadOptions{})
	var invalid *convert.SourceError
	if errors.As(err, &invalid) {
		printDiagnostics(stdout, invalid.Diagnostics)
		e, w := diag.Count(invalid.Diagnostics)
		fmt.Fprintf(stdout, "%s: %d error(s), %d warning(s) in its %s hooks; nothing converted\n", root, e, w, convert.Title(source))
		return exitProblems, nil
	}
	if err != nil {
		return 0, err
	}
	res, err := convert.Convert(set, *to, convert.Options{Layout: *layout, Name: *name})
	if err != nil {
		return 0, err
	}
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	checked, hosted, err := convert.Check(ctx, res, func(ctx context.Context, dir, agent string) ([]diag.Diagnostic, bool, error) {
		return hooksets.Check(ctx, reg, dir, agent)
	})
	if err != nil {
		return 0, err
	}
	plan, conflicts, err := convert.Plan(dir, res, *force)
	if err != nil {
		return 0, err
	}
	// the written files must load in the target's system (an error there
	// is convert's own), and do there what they do in the source (an error
	// of the conversion: a hook that would not): else nothing is written
	broken := diag.HasErrors(checked) || diag.HasErrors(res.Diagnostics)
	write := !*dry && !broken && len(conflicts) == 0
	if write {
		if err := convert.Write(dir, plan); err != nil {
			return 0, err
		}
	}
	if *asJSON {
		if err := writeJSON(stdout, convertReport{Result: res, Dir: dir, Source: warnings, Plan: plan, Conflicts: conflicts,
			Checked: checked, Hosted: hosted, DryRun: *dry, Wrote: write}); err != nil {
			return 0, err
		}
	} else {
		printConvert(stdout, res, dir, plan, conflicts, checked, hosted, *dry, write)
	}
	if broken || len(conflicts) > 0 {
		return exitProblems, nil
	}
	return exitOK, nil
}

// convertReport is convert --json.
type convertReport struct {
	*convert.Result
	Dir string `json:"dir"`
	// Source are the source's own warnings (its validator's).
	Source    []diag.Diagnostic `json:"source_diagnostics"`
	Plan      []convert.Planned `json:"plan"`
	Conflicts []diag.Diagnostic `json:"conflicts"`
	// Checked is what the target's system says of the written files;
	// Hosted false when Hook Studio has no system of the target yet.
	Checked []diag.Diagnostic `json:"checked"`
	Hosted  bool              `json:"hosted"`
	DryRun  bool              `json:"dry_run"`
	Wrote   bool              `json:"wrote"`
}

func printConvert(w io.Writer, res *convert.Result, dir string, plan []convert.Planned, conflicts, checked []diag.Diagnostic,
	hosted, dry, wrote bool) {
	printDiagnostics(w, res.Diagnostics)
	verb := map[string]string{convert.ActionCreate: "create", convert.ActionReplace: "replace", convert.ActionMerge: "merge",
		convert.ActionUnchanged: "unchanged"}
	for _, p := range plan {
		detail := p.Role
		switch {
		case p.From != "":
			detail += fmt.Sprintf(", %o, from %s", p.Mode, p.From)
		case p.Role == "adapter":
			detail += fmt.Sprintf(", %o: it runs each hook as Claude Code would", p.Mode)
		}
		fmt.Fprintf(w, "%-9s %s (%s)\n", verb[p.Action], filepath.ToSlash(filepath.Join(dir, p.Path)), detail)
		if dry && (p.Role == "hooks" || p.Role == "manifest") && p.Action != convert.ActionUnchanged {
			for _, line := range strings.SplitAfter(strings.TrimSuffix(string(p.Data), "\n"), "\n") {
				fmt.Fprintf(w, "    %s", strings.TrimSuffix(line, "\n")+"\n")
			}
		}
	}
	for _, d := range conflicts {
		d.File = filepath.ToSlash(filepath.Join(dir, d.File))
		printDiagnostics(w, []diag.Diagnostic{d})
	}
	for _, d := range checked {
		d.File = filepath.ToSlash(filepath.Join(dir, d.File))
		printDiagnostics(w, []diag.Diagnostic{d})
	}
	errs, warns := diag.Count(res.Diagnostics)
	fmt.Fprintf(w, "%s → %s: %d hook(s) written, %d left out, %d warning(s)", res.From, res.To, res.Written, res.Left, warns)
	switch {
	case errs > 0:
		fmt.Fprintf(w, "; %d error(s): these hooks would not do in %s what they do in %s", errs, convert.Title(res.To), convert.Title(res.From))
	case !hosted:
		fmt.Fprintf(w, "; not checked: Hook Studio has no %s hook system yet", convert.Title(res.To))
	case diag.HasErrors(checked):
		fmt.Fprintf(w, "; %s's validator refuses the result (a bug in convert: please report it)", convert.Title(res.To))
	default:
		fmt.Fprintf(w, "; %s's validator accepts it", convert.Title(res.To))
	}
	switch {
	case wrote:
		fmt.Fprintf(w, "; written to %s\n", dir)
	case dry:
		fmt.Fprintf(w, "; nothing written (--dry-run)\n")
	default:
		fmt.Fprintf(w, "; nothing written\n")
	}
}
