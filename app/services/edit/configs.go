package edit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/reqhook"
)

// CommandHooksFile is a skill's jcli command hooks, relative to the skill.
const CommandHooksFile = "hooks/hooks.yaml"

// commandFiles is what a skill's command and request hooks need: its
// hooks/hooks.yaml and hooks/request-hooks.yaml (validated: an error
// refuses the export, like a broken hooks.json) and every plain file under
// hooks/ (the scripts they run), executable bits kept.
func commandFiles(ctx context.Context, root, skill string) ([]exportFile, []diag.Diagnostic, error) {
	dir := filepath.Join(root, skill)
	var ds []diag.Diagnostic
	if _, err := readIn(dir, CommandHooksFile); err == nil {
		cfg, err := cmdhook.Load(root, cmdhook.LoadOptions{})
		if err != nil {
			return nil, nil, err
		}
		ds = append(ds, ofSkill(cfg.Diagnostics, skill)...)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if data, err := readIn(dir, reqhook.SkillFile); err == nil {
		_, _, rds := reqhook.Parse(path.Join(skill, reqhook.SkillFile), data, skill)
		ds = append(ds, rds...)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	if diag.HasErrors(ds) {
		return nil, ds, &InvalidError{Skill: skill, Diagnostics: ds}
	}
	out, err := collectFiles(ctx, dir, skill, []string{"hooks"})
	if err != nil {
		return nil, ds, err
	}
	return out, ds, nil
}

// collectFiles reads the regular files under each folder of dir (relative,
// slash-separated; a missing one is skipped) for an export of skill: hidden
// files, Python caches and installed packages stay out, and so does a file
// reached twice; more than maxProcessFiles in all is an error.
func collectFiles(ctx context.Context, dir, skill string, folders []string) ([]exportFile, error) {
	var out []exportFile
	seen := map[string]bool{}
	for _, f := range folders {
		err := fs.WalkDir(os.DirFS(dir), f, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" || d.Name() == "node_modules" {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || seen[p] {
				return nil
			}
			if len(out) >= maxProcessFiles {
				return fmt.Errorf("%s holds more than %d files", f, maxProcessFiles)
			}
			seen[p] = true
			b, err := readIn(dir, p)
			if err != nil {
				return err
			}
			out = append(out, exportFile{name: skill + "/" + p, data: b, exec: isExec(dir, p)})
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	return out, nil
}

// isExec says whether the file rel inside dir has an executable bit.
func isExec(dir, rel string) bool {
	fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// ofSkill keeps the diagnostics of files inside skill's folder.
func ofSkill(ds []diag.Diagnostic, skill string) []diag.Diagnostic {
	return slices.DeleteFunc(slices.Clone(ds), func(d diag.Diagnostic) bool {
		return !strings.HasPrefix(filepath.ToSlash(d.File), skill+"/")
	})
}

// checkCommandHooks validates the hooks.yaml and request-hooks.yaml of
// imported skills (staged under root) before anything is installed: every
// field, and that each command's program and script exist. Nothing runs.
func checkCommandHooks(root string, names []string) ([]diag.Diagnostic, error) {
	cfg, err := cmdhook.Load(root, cmdhook.LoadOptions{})
	if err != nil {
		return nil, err
	}
	rc, err := reqhook.Load(root)
	if err != nil {
		return nil, err
	}
	var ds []diag.Diagnostic
	for _, n := range names {
		ds = append(ds, ofSkill(cfg.Diagnostics, n)...)
		ds = append(ds, ofSkill(rc.Diagnostics, n)...)
	}
	for _, d := range ds {
		if d.Severity == diag.Error {
			skill, _, _ := strings.Cut(filepath.ToSlash(d.File), "/")
			return ds, &InvalidError{Skill: skill, Diagnostics: ds}
		}
	}
	return ds, nil
}
