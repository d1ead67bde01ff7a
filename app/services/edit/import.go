package edit

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/atomicfile"
)

// Import limits. A zip bomb is stopped by counting the bytes actually
// decompressed, not by trusting the sizes in the zip's headers.
const (
	MaxImportFile    = skills.MaxFileSize // per file, uncompressed
	MaxImportTotal   = 64 << 20           // all files, uncompressed
	MaxImportEntries = 10000
)

// ErrBadArchive is wrapped by every refusal of a zip's content.
var ErrBadArchive = errors.New("refused archive")

// EntryError names the zip entry that was refused and why.
type EntryError struct {
	Entry  string
	Reason string
}

func (e *EntryError) Error() string { return fmt.Sprintf("zip entry %q: %s", e.Entry, e.Reason) }

// Unwrap lets errors.Is(err, ErrBadArchive) work.
func (e *EntryError) Unwrap() error { return ErrBadArchive }

// ImportOptions controls an import.
type ImportOptions struct {
	// Overwrite replaces existing skills of the same name; without it an
	// existing skill is an *ExistsError and nothing is written.
	Overwrite bool
	// MaxFile and MaxTotal override the uncompressed size limits (0: the
	// defaults).
	MaxFile, MaxTotal int64
}

func (o ImportOptions) limits() (file, total int64) {
	file, total = MaxImportFile, MaxImportTotal
	if o.MaxFile > 0 {
		file = o.MaxFile
	}
	if o.MaxTotal > 0 {
		total = o.MaxTotal
	}
	return file, total
}

// ImportZip installs the skills of a zip (each top-level folder is a skill,
// as ExportSkill writes them) into root. Everything is checked before
// anything is written: entry names (no "..", absolute paths, drive letters,
// backslashes, duplicates), types (no symlinks or devices), sizes, and then
// the skills themselves with skills.Load in a hidden staging folder inside
// root. Only then is each skill renamed into place. It returns the names of
// the imported skills and their diagnostics (warnings only: a skill with
// errors is an *InvalidError).
func ImportZip(ctx context.Context, r io.ReaderAt, size int64, root string, opts ImportOptions) ([]string, []diag.Diagnostic, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w: %w", ErrBadArchive, err)
	}
	files, err := readZip(zr, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	return install(ctx, root, files, opts)
}

// readZip checks every entry and reads the files into memory.
func readZip(zr *zip.Reader, opts ImportOptions) ([]exportFile, error) {
	maxFile, maxTotal := opts.limits()
	if len(zr.File) > MaxImportEntries {
		return nil, &EntryError{Entry: zr.File[MaxImportEntries].Name, Reason: fmt.Sprintf("more than %d entries", MaxImportEntries)}
	}
	seen := map[string]string{}
	var files []exportFile
	var total int64
	for _, f := range zr.File {
		name, skip, reason := checkEntryName(f.Name)
		if reason != "" {
			return nil, &EntryError{Entry: f.Name, Reason: reason}
		}
		if skip {
			continue
		}
		mode := f.Mode()
		switch {
		case mode&fs.ModeSymlink != 0:
			return nil, &EntryError{Entry: f.Name, Reason: "is a symbolic link; only plain files and folders can be imported"}
		case mode.IsDir():
			continue
		case !mode.IsRegular():
			return nil, &EntryError{Entry: f.Name, Reason: "is not a plain file"}
		}
		folded := strings.ToLower(name)
		if first, dup := seen[folded]; dup {
			return nil, &EntryError{Entry: f.Name, Reason: fmt.Sprintf("duplicates %q (names must differ in more than case)", first)}
		}
		seen[folded] = f.Name
		if f.UncompressedSize64 > uint64(maxFile) {
			return nil, &EntryError{Entry: f.Name, Reason: fmt.Sprintf("is larger than %d bytes", maxFile)}
		}
		data, err := readEntry(f, maxFile, maxTotal-total)
		if err != nil {
			return nil, err
		}
		total += int64(len(data))
		files = append(files, exportFile{name: name, data: data, exec: mode&0o111 != 0})
	}
	// A folder and a file of the same name cannot both be written.
	for _, f := range files {
		for dir := path.Dir(f.name); dir != "."; dir = path.Dir(dir) {
			if first, clash := seen[strings.ToLower(dir)]; clash {
				return nil, &EntryError{Entry: first, Reason: fmt.Sprintf("is a file, but %q needs a folder of that name", f.name)}
			}
		}
	}
	return files, nil
}

// readEntry decompresses one entry, counting real bytes against the limits.
func readEntry(f *zip.File, maxFile, remaining int64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, &EntryError{Entry: f.Name, Reason: fmt.Sprintf("cannot be read: %v", err)}
	}
	defer rc.Close()
	limit := min(maxFile, remaining)
	data, err := io.ReadAll(io.LimitReader(rc, limit+1))
	switch {
	case int64(len(data)) > maxFile:
		return nil, &EntryError{Entry: f.Name, Reason: fmt.Sprintf("decompresses to more than %d bytes", maxFile)}
	case int64(len(data)) > limit:
		return nil, &EntryError{Entry: f.Name, Reason: "the archive decompresses to more than the total import limit"}
	case err != nil:
		return nil, &EntryError{Entry: f.Name, Reason: fmt.Sprintf("cannot be read: %v", err)}
	}
	return data, nil
}

// checkEntryName returns the entry's clean slash path, whether to skip it
// silently (macOS metadata), or why it is refused.
func checkEntryName(name string) (clean string, skip bool, reason string) {
	switch {
	case name == "":
		return "", false, "has an empty name"
	case strings.Contains(name, `\`):
		return "", false, "contains a backslash; zip paths use /"
	case strings.HasPrefix(name, "/"):
		return "", false, "is an absolute path"
	case len(name) >= 2 && name[1] == ':':
		return "", false, "starts with a drive letter"
	case strings.ContainsRune(name, 0):
		return "", false, "contains a NUL byte"
	}
	trimmed := strings.TrimSuffix(name, "/")
	for _, el := range strings.Split(trimmed, "/") {
		switch el {
		case "..":
			return "", false, "leads outside the folder it is extracted to (..)"
		case ".", "":
			return "", false, "has an empty or '.' path element"
		}
	}
	first, _, _ := strings.Cut(trimmed, "/")
	if first == "__MACOSX" || path.Base(trimmed) == ".DS_Store" {
		return "", true, ""
	}
	if err := ValidateSkillName(first); err != nil && !isClaudeTop(first) {
		return "", false, fmt.Sprintf("is not inside a skill folder with a valid name: %v", err)
	}
	if !strings.Contains(trimmed, "/") && !strings.HasSuffix(name, "/") {
		return "", false, "is a file at the top level; the archive must hold one folder per skill"
	}
	return trimmed, false, ""
}

// ImportHooksJSON installs data as root/skill/hooks/hooks.json after
// checking it has no errors. Hook files it names that do not exist yet are
// created empty, so the skill loads (each shows an empty-prompt warning). An
// existing hooks.json is replaced only with opts.Overwrite.
func ImportHooksJSON(ctx context.Context, data []byte, root, skill string, opts ImportOptions) ([]diag.Diagnostic, error) {
	if err := ValidateSkillName(skill); err != nil {
		return nil, fmt.Errorf("import hooks.json: %w", err)
	}
	if len(data) > skills.MaxFileSize {
		return nil, fmt.Errorf("import hooks.json: larger than %d bytes", skills.MaxFileSize)
	}
	rel := path.Join(skill, "hooks", "hooks.json")
	entries, ds := skills.ParseHooks(rel, data)
	if diag.HasErrors(ds) {
		return ds, fmt.Errorf("import hooks.json: %w", &InvalidError{Skill: skill, Diagnostics: ds})
	}
	hooksDir := filepath.Join(root, skill, "hooks")
	target := filepath.Join(hooksDir, "hooks.json")
	if _, err := os.Lstat(target); err == nil && !opts.Overwrite {
		return ds, fmt.Errorf("import hooks.json: %w", &ExistsError{Path: rel})
	}
	if _, err := os.Stat(filepath.Join(root, skill)); errors.Is(err, fs.ErrNotExist) {
		// A new skill: stage it whole and move it in like a zip.
		files := []exportFile{{name: rel, data: data}}
		for _, e := range entries {
			files = append(files, exportFile{name: path.Join(skill, "hooks", path.Clean(e.File))})
		}
		_, ds, err := install(ctx, root, files, opts)
		return ds, err
	}
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		return ds, fmt.Errorf("import hooks.json: %w", err)
	}
	for _, e := range entries {
		p := filepath.Join(hooksDir, filepath.FromSlash(path.Clean(e.File)))
		if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return ds, fmt.Errorf("import hooks.json: %w", err)
			}
			if err := atomicfile.Write(p, nil, 0o644); err != nil {
				return ds, fmt.Errorf("import hooks.json: %w", err)
			}
		}
	}
	if err := atomicfile.Write(target, data, 0o644); err != nil {
		return ds, fmt.Errorf("import hooks.json: %w", err)
	}
	set, err := skills.Load(ctx, root)
	if err != nil {
		return ds, fmt.Errorf("import hooks.json: %w", err)
	}
	if sk := set.Skill(skill); sk != nil {
		ds = sk.Diagnostics
	}
	return ds, nil
}

// install writes files (slash paths "<skill>/...") into a hidden staging
// folder inside root, validates the staged skills with skills.Load, and
// renames each into place. Nothing outside the staging folder changes until
// every check has passed.
func install(ctx context.Context, root string, files []exportFile, opts ImportOptions) ([]string, []diag.Diagnostic, error) {
	var names []string
	for _, f := range files {
		skill, _, _ := strings.Cut(f.name, "/")
		if !slices.Contains(names, skill) {
			names = append(names, skill)
		}
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("import: %w: no skill in the archive", ErrBadArchive)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is not a folder", root)
		}
		return nil, nil, fmt.Errorf("import: skills root: %w", err)
	}
	for _, n := range names {
		if _, err := os.Lstat(filepath.Join(root, n)); err == nil && !opts.Overwrite {
			return nil, nil, fmt.Errorf("import: %w", &ExistsError{Path: n})
		}
	}
	stage, err := os.MkdirTemp(root, ".import-*")
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	defer os.RemoveAll(stage)
	if err := writeFiles(stage, files); err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	set, err := skills.Load(ctx, stage)
	if err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	var ds []diag.Diagnostic
	for _, n := range names {
		if n == ClaudeProject {
			continue // a project's .claude: Claude Code's hooks, checked below
		}
		sk := set.Skill(n)
		if sk == nil {
			return nil, nil, fmt.Errorf("import: %w: %s is not a skill folder", ErrBadArchive, n)
		}
		if sk.Broken {
			return nil, sk.Diagnostics, fmt.Errorf("import: %w", &InvalidError{Skill: n, Diagnostics: sk.Diagnostics})
		}
		ds = append(ds, sk.Diagnostics...)
	}
	pds, err := checkProcessHooks(ctx, stage, names) // picoclaw.json: checked, never run
	if err != nil {
		return nil, pds, fmt.Errorf("import: %w", err)
	}
	ds = append(ds, pds...)
	cds, err := checkCommandHooks(stage, names) // hooks.yaml, request-hooks.yaml: checked, never run
	if err != nil {
		return nil, cds, fmt.Errorf("import: %w", err)
	}
	ds = append(ds, cds...)
	ccds, err := checkClaudeImport(stage, names) // plugins' hooks.json, .claude: checked, never run
	if err != nil {
		return nil, ccds, fmt.Errorf("import: %w", err)
	}
	ds = append(ds, ccds...)
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("import: %w", err)
	}
	for _, n := range names {
		if err := replaceDir(filepath.Join(stage, n), filepath.Join(root, n), stage); err != nil {
			return nil, nil, fmt.Errorf("import %s: %w", n, err)
		}
	}
	return names, ds, nil
}

// replaceDir renames src to dst; an existing dst is moved aside into trash
// first and put back if the rename fails.
func replaceDir(src, dst, trash string) error {
	if _, err := os.Lstat(dst); err == nil {
		old := filepath.Join(trash, ".old-"+filepath.Base(dst))
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err != nil {
			return errors.Join(err, os.Rename(old, dst))
		}
		return nil
	}
	return os.Rename(src, dst)
}
