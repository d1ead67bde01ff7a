package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/prochook"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
)

func validateCmd(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print diagnostics as JSON")
	claudeUser := fs.String("claude-user-settings", "", "Claude Code's user-level settings.json (~/.claude/settings.json) to validate too")
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
	ds, err := check(ctx, root, *claudeUser)
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

// check validates every skill and every scenario under root.
func check(ctx context.Context, root, claudeUser string) ([]diag.Diagnostic, error) {
	set, err := skills.Load(ctx, root)
	if err != nil {
		return nil, err
	}
	ds := set.Diagnostics()
	hooks, err := cmdhook.Load(root, cmdhook.LoadOptions{}) // hooks.yaml files: read, never run
	if err != nil {
		return nil, err
	}
	ds = append(ds, hooks.Diagnostics...)
	_, pds, err := prochook.Validate(ctx, root, nil) // picoclaw.json files: read, never run
	if err != nil {
		return nil, err
	}
	ds = append(ds, pds...)
	rh, err := reqhook.Load(root) // request-hooks.yaml files: read, never run
	if err != nil {
		return nil, err
	}
	ds = append(ds, rh.Diagnostics...)
	cc, err := claudehook.Load(root, claudehook.LoadOptions{UserSettings: claudeUser}) // Claude Code's settings, plugins, SKILL.md: read, never run
	if err != nil {
		return nil, err
	}
	ds = append(ds, cc.Diagnostics...)
	_, hds, err := hostmode.Load(root) // the folder's host_behaviour setting
	if err != nil {
		return nil, err
	}
	ds = append(ds, hds...)
	files, err := scenario.Discover(ctx, root)
	if err != nil {
		return nil, err
	}
	names := cc.SkillNames(folderNames(set))
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

// skillNames is what enabled_skills may name in set's root: its skill
// folders and its Claude Code skills.
func skillNames(set *skills.Set) scenario.SkillNames {
	cc, err := claudehook.Load(set.Root, claudehook.LoadOptions{})
	if err != nil { // the root was read a moment ago; only the folders are known
		return scenario.SkillNames{Folders: folderNames(set)}
	}
	return cc.SkillNames(folderNames(set))
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
