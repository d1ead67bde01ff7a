package edit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
)

// ClaudeProject is the name a project's Claude Code folder has in an
// export and an import: ".claude", exported from a project root and
// installed into one.
const ClaudeProject = ".claude"

// claudeLocal stays out of an export: Claude Code keeps it for the user's
// own settings, not for sharing (it is not checked in).
const claudeLocal = "settings.local.json"

// claudeDiagnostics are Claude Code's diagnostics of the files under dir
// (a plugin skill's folder or .claude), as claudehook reads root; an
// error is an *InvalidError.
func claudeDiagnostics(root, dir string) ([]diag.Diagnostic, error) {
	cfg, err := claudehook.Load(root, claudehook.LoadOptions{})
	if err != nil {
		return nil, err
	}
	ds := ofSkill(cfg.Diagnostics, dir)
	if diag.HasErrors(ds) {
		return ds, &InvalidError{Skill: dir, Diagnostics: ds}
	}
	return ds, nil
}

// claudeFiles reads a Claude Code plugin skill, or the project's .claude
// (name ClaudeProject), for an export: every file of the folder — the
// manifest, hooks/hooks.json as written (Claude Code's shape, not seed
// 000's), the skills' SKILL.md, and the scripts wherever the hooks name
// them (${CLAUDE_PLUGIN_ROOT}/scripts/…, .claude/hooks/…) with their
// executable bits. Hidden files other than the plugin manifest's folder,
// caches, installed packages and settings.local.json stay out; so do a
// skill's scenarios unless asked for (they are added by the caller).
func claudeFiles(ctx context.Context, root, name string) ([]exportFile, []diag.Diagnostic, error) {
	ds, err := claudeDiagnostics(root, name)
	if err != nil {
		return nil, ds, err
	}
	dir := filepath.Join(root, name)
	var out []exportFile
	err = fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if p == "." {
			return nil
		}
		base := d.Name()
		skip := (strings.HasPrefix(base, ".") && p != ".claude-plugin") || base == "__pycache__" || base == "node_modules" ||
			(name != ClaudeProject && p == "scenarios") || (name == ClaudeProject && p == claudeLocal)
		if skip {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if len(out) >= maxProcessFiles {
			return fmt.Errorf("%s holds more than %d files", name, maxProcessFiles)
		}
		b, err := readIn(dir, p)
		if err != nil {
			return err
		}
		out = append(out, exportFile{name: name + "/" + p, data: b, exec: isExec(dir, p)})
		return nil
	})
	if err != nil {
		return nil, ds, err
	}
	return out, ds, nil
}

// exportClaudeProject reads root's .claude folder (ClaudeProject) for an
// export: its settings.json, skills and hook scripts with their executable
// bits, after checking Claude Code's hooks in it have no errors.
func exportClaudeProject(ctx context.Context, root string) ([]exportFile, []diag.Diagnostic, error) {
	if !claudehook.IsProject(root) {
		return nil, nil, fmt.Errorf("export %s: %w: %s has no .claude folder", ClaudeProject, ErrNoSkill, root)
	}
	return claudeFiles(ctx, root, ClaudeProject)
}

// checkClaudeImport validates the Claude Code hooks of staged folders
// (plugin skills and .claude) before anything is installed. Nothing runs.
func checkClaudeImport(stage string, names []string) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	for _, n := range names {
		if n != ClaudeProject && !claudehook.IsPlugin(filepath.Join(stage, n)) {
			continue
		}
		nds, err := claudeDiagnostics(stage, n)
		ds = append(ds, nds...)
		var invalid *InvalidError
		if errors.As(err, &invalid) {
			return ds, err
		} else if err != nil {
			return nil, err
		}
	}
	return ds, nil
}

// isClaudeTop says whether a zip's top-level folder is a project's .claude.
func isClaudeTop(name string) bool { return path.Clean(name) == ClaudeProject }
