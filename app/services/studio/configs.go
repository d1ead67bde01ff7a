package studio

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/registry"
	"hookstudio/app/services/edit"
	"hookstudio/app/store/atomicfile"
)

// Hooks is the hook systems' registry the service reads.
func (s *Service) Hooks() *registry.Registry { return s.cfg.Hooks }

// ConfigKind names what a file is for the editor, looked up in the hook
// systems' registry: a system's kind ("hooks-yaml", "picoclaw",
// "claude-settings", …; a plugin's files are told by the folder), else
// "scenario", "prompt" (.md) or "text" (a script).
func (s *Service) ConfigKind(file string) string {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	return s.cfg.Hooks.Kind(root, file)
}

// editableFile says whether the editor opens and saves file of root
// besides a skill's hooks/ and scenarios/: a file some hook system reads
// (its configs, the scripts its hooks run, its project's scenarios) or the
// folder's settings (hostmode.File).
func (s *Service) editableFile(root, file string) bool {
	_, _, ok := s.cfg.Hooks.Find(root, file)
	return ok || file == hostmode.File
}

// draftableFile says whether a draft of file is what a run reads besides
// a skill's hooks/: a hook system's configs and scripts, and the folder's
// settings. Scenarios are not drafted anywhere.
func (s *Service) draftableFile(root, file string) bool {
	_, f, ok := s.cfg.Hooks.Find(root, file)
	return (ok && f.Role != registry.Scenario) || file == hostmode.File
}

// lint is what the last reload found in a file: its diagnostics for the
// text whose hash it keeps.
type lint struct {
	hash  [32]byte
	diags []diag.Diagnostic
}

// noteLint keeps what the last reload found in file, read as text (a
// draft it loaded, a file it saved), so that LintFile of that text parses
// nothing again.
func (s *Service) noteLint(file string, text []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ds, ok := s.loadedDiagnosticsLocked(file); ok {
		if s.lints == nil {
			s.lints = map[string]lint{}
		}
		s.lints[file] = lint{hash: sha256.Sum256(text), diags: ds}
	}
}

// loadedDiagnosticsLocked are file's own diagnostics as the last reload
// found them; false when it did not read the file as a config.
func (s *Service) loadedDiagnosticsLocked(file string) ([]diag.Diagnostic, bool) {
	out := []diag.Diagnostic{}
	sys, f, ok := s.cfg.Hooks.Find(s.root, file)
	switch {
	case !ok || f.Role != registry.Config:
		return out, true // nothing lints it
	case sys.Load == nil: // seed 000's hooks.json, parsed by the skills' load
		skill, _, _ := strings.Cut(file, "/")
		if s.set == nil || s.set.Skill(skill) == nil {
			return nil, false
		}
		return append(out, s.set.Skill(skill).HooksJSONDiagnostics()...), true
	case s.exec.set == nil:
		return nil, false
	}
	for _, d := range s.exec.diags {
		if filepath.ToSlash(d.File) == file {
			out = append(out, d)
		}
	}
	return out, true
}

// LintFile validates text as the file it would be saved as, with the
// validators of the hook system that reads it and their positions (the
// whole folder is read as a run reads it, the text in place of the file,
// so a command's program and script are checked too). Other files have no
// diagnostics. Only the diagnostics of file itself are returned. A text
// the last reload read (a draft being simulated, a file just saved) is
// not parsed again: its diagnostics are the reload's.
func (s *Service) LintFile(ctx context.Context, file, text string) []diag.Diagnostic {
	s.mu.Lock()
	root := s.root
	l, known := s.lints[file]
	s.mu.Unlock()
	if known && l.hash == sha256.Sum256([]byte(text)) {
		return slices.Clone(l.diags)
	}
	out := []diag.Diagnostic{}
	sys, f, ok := s.cfg.Hooks.Find(root, file)
	if !ok || f.Role != registry.Config {
		return out
	}
	own := func(ds []diag.Diagnostic) []diag.Diagnostic {
		for _, d := range ds {
			if filepath.ToSlash(d.File) == file {
				out = append(out, d)
			}
		}
		return out
	}
	if sys.Load == nil {
		return own(sys.Lint(file, []byte(text)))
	}
	if root == "" {
		return out
	}
	mode, _, err := hostmode.Load(root)
	if err != nil {
		return out
	}
	cfg, err := sys.Load(ctx, registry.LoadRequest{Root: root, Drafts: map[string][]byte{file: []byte(text)}, Mode: mode})
	if err != nil {
		return out
	}
	return own(cfg.Diagnostics())
}

// HookFile is one file the editor can open for a skill: its hooks/ folder
// and the root's hook configs.
type HookFile struct {
	File   string `json:"file"`
	Kind   string `json:"kind"` // ConfigKind
	Exists bool   `json:"exists"`
}

// HookFiles lists the files of skill's hooks/ folder and the other
// folders its hook systems keep files in (a plugin's scripts/), hidden
// files, __pycache__ and node_modules left out, sub-folders included; then
// the root's hook configs that exist, for the editor's file list. skill ""
// lists the root's configs only.
func (s *Service) HookFiles(skill string) ([]HookFile, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return nil, errors.New("no skills folder is open")
	}
	reg := s.cfg.Hooks
	out := []HookFile{}
	seen := map[string]bool{}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, HookFile{File: f, Kind: reg.Kind(root, f), Exists: true})
		}
	}
	if skill != "" {
		if !filepath.IsLocal(skill) || strings.ContainsAny(skill, `/\`) {
			return nil, fmt.Errorf("%w: %q is not a skill", ErrNotEditable, skill)
		}
		dir := filepath.Join(root, skill)
		folders := []string{"hooks"}
		for _, sys := range reg.Systems() {
			if sys.SkillFolders != nil {
				folders = append(folders, sys.SkillFolders(root, skill)...)
			}
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
					add(skill + "/" + p)
				}
				return nil
			})
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("list %s/%s: %w", skill, folder, err)
			}
		}
		for _, f := range listed(reg, root, skill) { // a plugin skill's SKILL.md files
			add(f)
		}
	}
	for _, pat := range reg.Patterns(func(_ registry.System, f registry.File) bool {
		return f.Role == registry.Config && f.Level == registry.Root
	}) {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if fi, serr := os.Stat(m); err == nil && serr == nil && fi.Mode().IsRegular() {
				if f := filepath.ToSlash(rel); reg.Kind(root, f) != registry.KindText {
					add(f)
				}
			}
		}
	}
	if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(hostmode.File))); err == nil && fi.Mode().IsRegular() {
		add(hostmode.File)
	}
	for _, f := range listed(reg, root, "") { // the root plugin's files
		add(f)
	}
	return out, nil
}

// listed is what the systems' folder-aware files list in root (skill "")
// or a skill's folder.
func listed(reg *registry.Registry, root, skill string) []string {
	var out []string
	for _, sys := range reg.Systems() {
		for _, f := range sys.Files {
			if f.List != nil {
				out = append(out, f.List(root, skill)...)
			}
		}
	}
	return out
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

// NewHookFiles are the hook systems' starter files the open folder lacks,
// which the editor offers to create (CreateHookFile).
func (s *Service) NewHookFiles() ([]registry.NewFile, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return nil, errors.New("no skills folder is open")
	}
	out := []registry.NewFile{}
	for _, n := range s.cfg.Hooks.Starters() {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(n.File))); errors.Is(err, fs.ErrNotExist) {
			out = append(out, n)
		}
	}
	return out, nil
}

// CreateHookFile creates a system's starter file (NewHookFiles) in the open
// folder with its starter text, atomically and never over a file that
// exists (the error wraps fs.ErrExist); the folder is reloaded and the new
// file returned as OpenFile reads it.
func (s *Service) CreateHookFile(ctx context.Context, file string) (FileSnapshot, error) {
	text, ok := s.cfg.Hooks.Starter(file)
	if !ok {
		return FileSnapshot{}, fmt.Errorf("%w: no hook system starts %q", ErrNotEditable, file)
	}
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return FileSnapshot{}, errors.New("no skills folder is open")
	}
	p := filepath.Join(root, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return FileSnapshot{}, fmt.Errorf("create %s: %w", file, err)
	}
	s.own.expect(file, []byte(text))
	if err := atomicfile.WriteNew(p, []byte(text), 0o644); err != nil {
		s.own.forget(file)
		return FileSnapshot{}, fmt.Errorf("create %s: %w", file, err)
	}
	s.reloadNow(ctx)
	return s.OpenFile(file)
}
