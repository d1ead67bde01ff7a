package edit

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/prochook"
)

// maxProcessFiles bounds the files a process hook brings into an export.
const maxProcessFiles = 200

// processFiles is what a skill's PicoClaw process hooks need besides
// their config: hooks/picoclaw.json and every plain file under hooks/ and
// under each process's dir inside the skill (scripts and the modules they
// import). A config with errors refuses the export, like a broken hooks.json.
func processFiles(ctx context.Context, root, skill string) ([]exportFile, []diag.Diagnostic, error) {
	dir := filepath.Join(root, skill)
	rel := path.Join(skill, prochook.SkillFile)
	data, err := readIn(dir, prochook.SkillFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	hooks, ds := prochook.Parse(root, rel, skill, data)
	if diag.HasErrors(ds) {
		return nil, ds, &InvalidError{Skill: skill, Diagnostics: ds}
	}
	folders := []string{"hooks"}
	for _, h := range hooks {
		if r, err := filepath.Rel(dir, h.Dir); err == nil && filepath.IsLocal(r) {
			folders = append(folders, filepath.ToSlash(r))
		}
	}
	out, err := collectFiles(ctx, dir, skill, folders)
	if err != nil {
		return nil, nil, err
	}
	return out, ds, nil
}

// checkProcessHooks validates the PicoClaw configs of imported skills
// (staged under root) before anything is installed.
func checkProcessHooks(ctx context.Context, root string, names []string) ([]diag.Diagnostic, error) {
	c, err := prochook.Read(ctx, root, names, nil)
	if err != nil {
		return nil, err
	}
	if diag.HasErrors(c.Diagnostics) {
		skill, _, _ := strings.Cut(c.Diagnostics[0].File, "/")
		return c.Diagnostics, &InvalidError{Skill: skill, Diagnostics: c.Diagnostics}
	}
	return c.Diagnostics, nil
}
