package scenario

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
)

// MaxFileSize is the largest scenario file LoadFile reads. Real scenarios
// are a few kilobytes; the cap keeps a stray huge file from stalling the UI.
const MaxFileSize = 8 << 20

// ScenarioDir is the folder inside a skill that holds its scenarios.
const ScenarioDir = "scenarios"

// ProjectScenarioDir holds the scenarios of the folder itself, relative to
// the root (a Claude Code project opened as a skills folder).
const ProjectScenarioDir = ".hookstudio/scenarios"

// IsScenarioFile reports whether a file name has a scenario extension
// (.yaml, .yml or .json, lower case, as the design notes spell them) and is
// not hidden, so watchers can filter events the way Discover lists files.
func IsScenarioFile(name string) bool {
	if strings.HasPrefix(name, ".") {
		return false
	}
	switch path.Ext(name) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Discover lists every scenario file under the skills root:
// <skill>/scenarios/<file> with a scenario extension, as paths relative to
// root with forward slashes. Skills come in byte order of their folder
// names, files in byte order within a skill; hidden folders and files are
// skipped, and so are skills without a scenarios folder.
func Discover(ctx context.Context, root string) ([]string, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("open skills root: %w", err)
	}
	defer r.Close()
	fsys := r.FS()
	skills, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("list skills root %s: %w", root, err)
	}
	// fs.ReadDir sorts by name, which is byte order.
	out := []string{}
	// A project (a Claude Code project's .claude/ beside it) keeps its
	// scenarios in .hookstudio/scenarios: its own folders are not skills.
	if entries, err := fs.ReadDir(fsys, ProjectScenarioDir); err == nil {
		for _, e := range entries {
			if IsScenarioFile(e.Name()) && isRegular(fsys, ProjectScenarioDir, e) {
				out = append(out, ProjectScenarioDir+"/"+e.Name())
			}
		}
	}
	for _, sk := range skills {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if strings.HasPrefix(sk.Name(), ".") || !isDir(fsys, sk) {
			continue
		}
		dir := sk.Name() + "/" + ScenarioDir
		// A skill without a scenarios folder (or with a plain file of that
		// name) simply has no scenarios.
		if fi, err := fs.Stat(fsys, dir); errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.IsDir()) {
			continue
		}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("list scenarios of skill %s: %w", sk.Name(), err)
		}
		for _, e := range entries {
			if !IsScenarioFile(e.Name()) || !isRegular(fsys, dir, e) {
				continue
			}
			out = append(out, dir+"/"+e.Name())
		}
	}
	return out, nil
}

// isDir follows a symlink (os.Root keeps it inside the root) so linked
// skill folders count like real ones.
func isDir(fsys fs.FS, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := fs.Stat(fsys, e.Name())
	return err == nil && fi.IsDir()
}

func isRegular(fsys fs.FS, dir string, e fs.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := fs.Stat(fsys, dir+"/"+e.Name())
	return err == nil && fi.Mode().IsRegular()
}

// LoadFile reads and parses the scenario at rel (forward slashes, relative
// to root). A rel that is absolute or climbs out of root is an error, and
// os.Root also refuses symlinks that lead outside it. I/O problems are
// errors; problems with the content are diagnostics.
func LoadFile(root, rel string) (*Scenario, []diag.Diagnostic, error) {
	if rel == "" || strings.Contains(rel, `\`) || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, nil, fmt.Errorf("scenario path %q must be relative to the skills root, with forward slashes, and stay inside it", rel)
	}
	rel = path.Clean(rel)
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, nil, fmt.Errorf("open skills root: %w", err)
	}
	defer r.Close()
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, nil, fmt.Errorf("open scenario: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("stat scenario %s: %w", rel, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("scenario %s is not a regular file", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read scenario %s: %w", rel, err)
	}
	if len(data) > MaxFileSize {
		return nil, nil, fmt.Errorf("scenario %s is larger than %d bytes", rel, MaxFileSize)
	}
	s, ds := Parse(rel, data)
	return s, ds, nil
}
