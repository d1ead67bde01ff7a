package studio

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
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/cmdhook"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/prochook"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/services/edit"
)

// RootConfigs are the hook configs of the skills root itself (not of a
// skill): jcli's project hooks.yaml, PicoClaw's hooks.json and the request
// hooks, Claude Code's project settings files. The editor opens, lints and
// drafts them like a skill's files.
var RootConfigs = []string{cmdhook.ProjectFile, prochook.RootFile, reqhook.ProjectFile, claudehook.ProjectSettings, claudehook.LocalSettings}

// IsRootConfig says whether file (root-relative, slashes) is one of
// RootConfigs, a project hook's HOOK.yaml (jcli's current format) or the
// folder's settings (hostmode.File).
func IsRootConfig(file string) bool {
	return slices.Contains(RootConfigs, file) || isHookDirFile(file) || file == hostmode.File
}

// isHookDirFile says whether file is .jcli/hooks/<name>/HOOK.yaml (or .yml).
func isHookDirFile(file string) bool {
	dir, base := path.Split(file)
	name := strings.TrimSuffix(strings.TrimPrefix(dir, cmdhook.ProjectHookDirs+"/"), "/")
	return strings.HasPrefix(dir, cmdhook.ProjectHookDirs+"/") && name != "" && !strings.ContainsAny(name, `/\`) &&
		!strings.HasPrefix(name, ".") && (base == cmdhook.HookDirFile || base == cmdhook.HookDirAltFile)
}

// ConfigKindIn is ConfigKind with the folder looked at: Claude Code's
// files (claudeKind) are told from the other systems' by where they are,
// and a plugin's hooks/hooks.json from seed 000's by the plugin manifest
// beside it.
func ConfigKindIn(root, file string) string {
	if k := claudeKind(root, file); k != "" {
		return k
	}
	return ConfigKind(file)
}

// ConfigKind names what a file is for the editor: "hooks-json",
// "hooks-yaml" (jcli command hooks), "hook-yaml" (jcli's current
// one-hook HOOK.yaml), "picoclaw" (process hooks),
// "request-hooks", "claude-settings" and "claude-skill" (Claude Code's
// project files; a plugin's need ConfigKindIn), "prompt" (.md),
// "scenario", or "text" (a script).
func ConfigKind(file string) string {
	base := path.Base(file)
	if k := claudeKind("", file); k != "" {
		return k
	}
	switch {
	case file == cmdhook.ProjectFile || strings.HasSuffix(file, "/hooks/hooks.yaml"):
		return "hooks-yaml"
	case isHookDirFile(file):
		return "hook-yaml"
	case file == prochook.RootFile || strings.HasSuffix(file, "/"+prochook.SkillFile):
		return "picoclaw"
	case file == reqhook.ProjectFile || strings.HasSuffix(file, "/"+reqhook.SkillFile):
		return "request-hooks"
	case base == "hooks.json":
		return "hooks-json"
	case strings.Contains(file, "/scenarios/"):
		return "scenario"
	case path.Ext(base) == ".md":
		return "prompt"
	}
	return "text"
}

// LintFile validates text as the file it would be saved as, with the
// backend's validators and their positions: hooks.json, a hooks.yaml (also
// each command's program and script), a picoclaw.json (also its dir and
// program) or a request-hooks.yaml. Other files have no diagnostics. Only
// the diagnostics of file itself are returned.
func (s *Service) LintFile(ctx context.Context, file, text string) []diag.Diagnostic {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	out := []diag.Diagnostic{}
	own := func(ds []diag.Diagnostic) []diag.Diagnostic {
		for _, d := range ds {
			if filepath.ToSlash(d.File) == file {
				out = append(out, d)
			}
		}
		return out
	}
	drafts := map[string][]byte{file: []byte(text)}
	switch ConfigKindIn(root, file) {
	case KindClaudeSettings, KindClaudeSkill:
		if root == "" {
			return out
		}
		// The whole folder is read, as a run reads it, so the file's
		// handlers are checked with their scripts and plugin root.
		if cfg, err := claudehook.Load(root, claudehook.LoadOptions{Drafts: drafts}); err == nil {
			return own(cfg.Diagnostics)
		}
		return out
	case "hooks-json":
		return InspectHooks(file, text).Diagnostics
	case "hooks-yaml":
		if root != "" {
			if cfg, err := cmdhook.Load(root, cmdhook.LoadOptions{Drafts: drafts}); err == nil {
				return own(cfg.Diagnostics)
			}
		}
		_, ds := cmdhook.Parse(file, []byte(text))
		return own(ds)
	case "hook-yaml":
		if root != "" {
			if cfg, err := cmdhook.Load(root, cmdhook.LoadOptions{Drafts: drafts}); err == nil {
				return own(cfg.Diagnostics)
			}
		}
		_, ds := cmdhook.ParseHookDir(file, path.Base(path.Dir(file)), []byte(text))
		return own(ds)
	case "picoclaw":
		if root != "" {
			if c, err := prochook.Read(ctx, root, nil, drafts); err == nil {
				return own(c.Diagnostics)
			}
		}
		skill, _, _ := strings.Cut(file, "/")
		if file == prochook.RootFile {
			skill = ""
		}
		_, ds := prochook.Parse(root, file, skill, []byte(text))
		return own(ds)
	case "request-hooks":
		skill, _, _ := strings.Cut(file, "/")
		if file == reqhook.ProjectFile {
			skill = ""
		}
		_, _, ds := reqhook.Parse(file, []byte(text), skill)
		return own(ds)
	}
	return out
}

// HookFile is one file the editor can open for a skill: its hooks/ folder
// and the root's hook configs.
type HookFile struct {
	File   string `json:"file"`
	Kind   string `json:"kind"` // ConfigKind
	Exists bool   `json:"exists"`
}

// HookFiles lists the files of skill's hooks/ folder (hidden files,
// __pycache__ and node_modules left out; sub-folders included) and the
// root's hook configs that exist, for the editor's file list. skill ""
// lists the root's configs only.
func (s *Service) HookFiles(skill string) ([]HookFile, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return nil, errors.New("no skills folder is open")
	}
	out := []HookFile{}
	if skill != "" {
		if !filepath.IsLocal(skill) || strings.ContainsAny(skill, `/\`) {
			return nil, fmt.Errorf("%w: %q is not a skill", ErrNotEditable, skill)
		}
		dir := filepath.Join(root, skill)
		folders := []string{"hooks"}
		if claudehook.IsPlugin(dir) {
			folders = append(folders, "scripts") // ${CLAUDE_PLUGIN_ROOT}/scripts/…
		}
		for _, folder := range folders {
			err := fs.WalkDir(os.DirFS(dir), folder, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" || d.Name() == "node_modules" {
					if d.IsDir() {
						return fs.SkipDir
					}
					return nil
				}
				if d.Type().IsRegular() && len(out) < 500 {
					f := skill + "/" + p
					out = append(out, HookFile{File: f, Kind: ConfigKindIn(root, f), Exists: true})
				}
				return nil
			})
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("list %s/%s: %w", skill, folder, err)
			}
		}
	}
	// A plugin skill's SKILL.md files (its hooks.json is in the walk above).
	if skill != "" {
		for _, f := range claudeFiles(root, skill) {
			if !slices.ContainsFunc(out, func(h HookFile) bool { return h.File == f }) {
				out = append(out, HookFile{File: f, Kind: ConfigKindIn(root, f), Exists: true})
			}
		}
	}
	roots := slices.Clone(RootConfigs)
	for _, pat := range []string{cmdhook.HookDirFile, cmdhook.HookDirAltFile} {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(cmdhook.ProjectHookDirs), "*", pat))
		for _, m := range matches {
			if rel, err := filepath.Rel(root, m); err == nil {
				roots = append(roots, filepath.ToSlash(rel))
			}
		}
	}
	roots = append(roots, hostmode.File)
	for _, f := range roots {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() {
			out = append(out, HookFile{File: f, Kind: ConfigKind(f), Exists: true})
		}
	}
	// Claude Code's project skills and root plugin, after the root's configs.
	for _, f := range claudeFiles(root, "") {
		out = append(out, HookFile{File: f, Kind: ConfigKindIn(root, f), Exists: true})
	}
	return out, nil
}

// CommandHooksEdit is a hooks.yaml text for the form: its events and hooks
// and the validator's diagnostics. Editable is false (Error says why) for
// a text the form cannot edit: it opens raw only.
type CommandHooksEdit struct {
	Text        string              `json:"text"`
	Editable    bool                `json:"editable"`
	Error       string              `json:"error,omitempty"`
	Events      []edit.CommandEvent `json:"events"`
	Diagnostics []diag.Diagnostic   `json:"diagnostics"`
}

// InspectCommandHooks parses a hooks.yaml text for the form.
func (s *Service) InspectCommandHooks(ctx context.Context, file, text string) CommandHooksEdit {
	r := CommandHooksEdit{Text: text, Events: []edit.CommandEvent{}, Diagnostics: s.LintFile(ctx, file, text)}
	evs, err := edit.CommandHooks([]byte(text))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Editable, r.Events = true, evs
	return r
}

// EditCommandHooks applies one form edit to a hooks.yaml text.
func (s *Service) EditCommandHooks(ctx context.Context, file, text string, op edit.CommandHookOp) (CommandHooksEdit, error) {
	out, err := edit.EditCommandHooks([]byte(text), op)
	if err != nil {
		return CommandHooksEdit{}, fmt.Errorf("%s: %w", file, err)
	}
	return s.InspectCommandHooks(ctx, file, string(out)), nil
}
