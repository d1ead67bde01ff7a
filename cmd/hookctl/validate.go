package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/hooks/skills"
)

func validateCmd(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print diagnostics as JSON")
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	users := addUserFileFlags(fs, reg) // user-level files to validate too
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) > 1 {
		return 0, fmt.Errorf("%w: validate takes one folder, got %d", errUsage, len(pos))
	}
	root := defaultSkillsDir()
	if len(pos) == 1 {
		root = pos[0]
	}
	ds, err := check(ctx, reg, root, users())
	if err != nil {
		return 0, err
	}
	if *asJSON {
		if err := writeJSON(stdout, struct {
			Diagnostics []diag.Diagnostic `json:"diagnostics"`
		}{ds}); err != nil {
			return 0, err
		}
	} else {
		printDiagnostics(stdout, ds)
		e, w := diag.Count(ds)
		fmt.Fprintf(stdout, "%s: %d error(s), %d warning(s)\n", root, e, w)
	}
	if diag.HasErrors(ds) {
		return exitProblems, nil
	}
	return exitOK, nil
}

// check validates every skill, every hook system's configuration (read,
// never run; the folder's host_behaviour setting too) and every scenario
// under root. users are the systems' user-level files by name.
func check(ctx context.Context, reg *registry.Registry, root string, users map[string]string) ([]diag.Diagnostic, error) {
	set, err := skills.Load(ctx, root)
	if err != nil {
		return nil, err
	}
	ds := set.Diagnostics()
	hooks, err := hooksets.Load(ctx, reg, root, hooksets.Options{User: users})
	if err != nil {
		return nil, err
	}
	ds = append(ds, hooks.Diagnostics()...)
	files, err := scenario.Discover(ctx, root)
	if err != nil {
		return nil, err
	}
	names := hooks.SkillNames(folderNames(set))
	for _, f := range files {
		sc, sds, err := scenario.LoadFile(root, f)
		if err != nil {
			return nil, err
		}
		ds = append(ds, sds...)
		if sc != nil {
			ds = append(ds, scenario.CheckSkills(sc, names)...)
		}
	}
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	diag.Sort(ds)
	return ds, nil
}

func folderNames(set *skills.Set) []string {
	names := make([]string, len(set.Skills))
	for i, s := range set.Skills {
		names[i] = s.Name
	}
	return names
}

func printDiagnostics(w io.Writer, ds []diag.Diagnostic) {
	for _, d := range ds {
		fmt.Fprintf(w, "%s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Code)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
