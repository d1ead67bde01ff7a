package prochook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
)

// Where PicoClaw hook configs live under a skills root.
const (
	SkillFile = "hooks/picoclaw.json"  // skills/<skill>/hooks/picoclaw.json
	RootFile  = ".picoclaw/hooks.json" // <root>/.picoclaw/hooks.json
	maxConfig = 1 << 20                // a config larger than this is a mistake
)

// Files lists the config files under root, relative to it with forward
// slashes: the root's own first, then each skill's in folder order. skills
// limits which skills are looked at (nil: all).
func Files(root string, skills []string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	var out []string
	if fileExists(filepath.Join(root, filepath.FromSlash(RootFile))) {
		out = append(out, RootFile)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || (skills != nil && !slices.Contains(skills, name)) {
			continue
		}
		if fi, err := os.Stat(filepath.Join(root, name)); err != nil || !fi.IsDir() {
			continue
		}
		rel := path.Join(name, SkillFile)
		if fileExists(filepath.Join(root, filepath.FromSlash(rel))) {
			out = append(out, rel)
		}
	}
	return out, nil
}

func fileExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Config is what the configs under a root declare.
type Config struct {
	Hooks       []Hook            // the hooks that can run (enabled, no errors)
	Diagnostics []diag.Diagnostic // sorted
	Files       []string          // the config files read, relative to the root
	// Fingerprint hashes every config's path and content: trust is
	// remembered by it, and a change asks again.
	Fingerprint string
}

// Validate checks every config under root without running anything. It
// returns the hooks that would run and every diagnostic.
func Validate(ctx context.Context, root string, skills []string) ([]Hook, []diag.Diagnostic, error) {
	c, err := Read(ctx, root, skills, nil)
	if err != nil {
		return nil, nil, err
	}
	return c.Hooks, c.Diagnostics, nil
}

// Read reads and validates every config under root; drafts holds unsaved
// editor texts by path relative to root (a draft may stand for a file not
// yet written).
func Read(ctx context.Context, root string, skills []string, drafts map[string][]byte) (*Config, error) {
	// The folder setting's problems are reported by whoever loads the
	// folder (app/hooks/hooksets); here an unreadable one is the default.
	mode, _, _ := hostmode.Load(root)
	return read(ctx, root, skills, drafts, mode)
}

// read is Read for a folder that follows mode.
func read(ctx context.Context, root string, skills []string, drafts map[string][]byte, mode hostmode.Mode) (*Config, error) {
	files, err := Files(root, skills)
	if err != nil {
		return nil, err
	}
	for p := range drafts {
		if isConfigPath(p) && !slices.Contains(files, p) && (skills == nil || p == RootFile || slices.Contains(skills, strings.SplitN(p, "/", 2)[0])) {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	var hooks []Hook
	var ds []diag.Diagnostic
	sum := sha256.New()
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("validate process hooks: %w", err)
		}
		skill := ""
		if f != RootFile {
			skill = strings.SplitN(f, "/", 2)[0]
		}
		data, ok := drafts[f]
		if !ok {
			data, err = readConfig(root, f)
			if err != nil {
				ds = append(ds, diag.Diagnostic{File: f, Severity: diag.Error, Code: CodeUnreadable, Message: err.Error()})
				continue
			}
		}
		fmt.Fprintf(sum, "%s\x00%d\x00", f, len(data))
		sum.Write(data)
		hs, fds := parse(root, f, skill, data, mode)
		hooks = append(hooks, hs...)
		ds = append(ds, fds...)
	}
	diag.Sort(ds)
	c := &Config{Hooks: hooks, Diagnostics: ds, Files: files}
	if len(files) > 0 {
		c.Fingerprint = hex.EncodeToString(sum.Sum(nil))
	}
	return c, nil
}

// isConfigPath says whether rel names a process hook config.
func isConfigPath(rel string) bool {
	if rel == RootFile {
		return true
	}
	skill, rest, ok := strings.Cut(rel, "/")
	return ok && rest == SkillFile && skill != "" && !strings.HasPrefix(skill, ".")
}

// readConfig reads a config through os.Root, so a symlink cannot make it
// read outside the skills root.
func readConfig(root, rel string) ([]byte, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open skills root: %w", err)
	}
	defer r.Close()
	fi, err := r.Stat(filepath.FromSlash(rel))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s cannot be read: %w", rel, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s is not a regular file", rel)
	case fi.Size() > maxConfig:
		return nil, fmt.Errorf("%s is larger than %d bytes", rel, maxConfig)
	}
	data, err := r.ReadFile(filepath.FromSlash(rel))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s cannot be read: %w", rel, err)
	}
	return data, err
}

// Load validates the configs under root and returns a handler for the
// hooks that can run (enabled, no errors). It starts nothing: processes
// start during a run. skills limits which skills' configs are read (nil:
// all); within a run a skill's hooks are active only while the scenario
// enables the skill.
func Load(ctx context.Context, root string, skills []string, opts Options) (*Handler, []diag.Diagnostic, error) {
	c, err := Read(ctx, root, skills, nil)
	if err != nil {
		return nil, nil, err
	}
	return New(c.Hooks, opts), c.Diagnostics, nil
}

// Reachable keeps the hooks a run of sc can start: the root's, and each
// skill's while some request (or the scenario) enables the skill. A nil
// scenario reaches every hook.
func Reachable(hooks []Hook, sc *scenario.Scenario) []Hook {
	if sc == nil {
		return hooks
	}
	var out []Hook
	for _, h := range hooks {
		reach := h.Skill == ""
		for _, r := range sc.Requests {
			sel := sc.EnabledSkills
			if r.EnabledSkills != nil {
				sel = r.EnabledSkills
			}
			reach = reach || enables(sel, h.Skill)
		}
		if reach {
			out = append(out, h)
		}
	}
	return out
}

func enables(sel []string, skill string) bool { return sel == nil || slices.Contains(sel, skill) }
