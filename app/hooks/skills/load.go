package skills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"hookstudio/app/format/diag"
)

// MaxFileSize bounds hooks.json and every .md: a prompt larger than this is
// a mistake (a log or a binary named by accident) and would only bloat every
// simulated LLM call.
const MaxFileSize = 8 << 20

// Skill is one folder directly under the skills root.
type Skill struct {
	Name string `json:"name"` // folder name
	Dir  string `json:"dir"`  // folder path (root joined with Name)
	// HasHooks is true when hooks/hooks.json exists, valid or not.
	HasHooks bool `json:"has_hooks"`
	// Hooks are the entries that loaded, in file order. An entry with an
	// error is left out, but one bad entry does not hide the others.
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"` // sorted with diag.Sort
	// Broken is true when any diagnostic of the skill is an error, so its
	// hooks may be incomplete.
	Broken bool `json:"broken"`

	jsonDiags []diag.Diagnostic // hooks.json's own (ParseHooks)
}

// HooksJSONDiagnostics are the problems of the skill's hooks.json text
// itself, as ParseHooks reports them (its prompts' problems aside): what
// the editor's lint of that text shows.
func (s *Skill) HooksJSONDiagnostics() []diag.Diagnostic { return s.jsonDiags }

// Set is every skill under a skills root, in byte order of folder names.
type Set struct {
	Root   string  `json:"root"`
	Skills []Skill `json:"skills"`
}

// Load discovers and validates every skill under root. Only an unreadable
// root (or one that is not a directory) or a cancelled ctx is an error;
// every problem inside the skills becomes a diagnostic. Hidden folders
// (".git") and plain files are skipped; symlinks to folders count as skills,
// and hooks/ may itself be a symlink: os.Root confines reads to wherever
// hooks/ resolves, so hooks.json and .md files cannot escape it.
func Load(ctx context.Context, root string) (*Set, error) {
	return load(ctx, root, runtime.GOMAXPROCS(0), nil)
}

// LoadDrafts is Load with unsaved edits laid over the files on disk: drafts
// maps a path relative to root ("file-tools/hooks/hooks.json",
// "file-tools/hooks/hint.md") to the text the editor holds. A draft may
// stand for a file not yet written. Drafts are confined like the files:
// only hooks.json and the files its entries name are ever read.
func LoadDrafts(ctx context.Context, root string, drafts map[string][]byte) (*Set, error) {
	return load(ctx, root, runtime.GOMAXPROCS(0), drafts)
}

// load reads skills with a fixed pool of workers: each skill costs about a
// dozen syscalls, so overlapping them pays off while a goroutine per skill
// (or per file) would only add scheduling and memory for nothing.
func load(ctx context.Context, root string, workers int, drafts map[string][]byte) (*Set, error) {
	names, err := skillNames(root)
	if err != nil {
		return nil, err
	}
	set := &Set{Root: root, Skills: make([]Skill, len(names))}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range max(1, min(workers, len(names))) {
		wg.Go(func() {
			for i := range jobs {
				set.Skills[i] = loadSkill(root, names[i], drafts)
			}
		})
	}
	for i := range names {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("load skills from %s: %w", root, err)
	}
	return set, nil
}

func skillNames(root string) ([]string, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("open skills root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("skills root %s is not a directory", root)
	}
	entries, err := os.ReadDir(root) // sorted by name, i.e. byte order
	if err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	// A Claude Code project (.claude/ at its root) is opened as it is: its
	// src/, docs/ … are not skills, only folders that hold hooks, scenarios
	// or a plugin are.
	_, err = os.Stat(filepath.Join(root, ".claude"))
	project := err == nil
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") || !isDir(root, e) {
			continue
		}
		if project && !holdsSkill(filepath.Join(root, e.Name())) {
			continue
		}
		names = append(names, e.Name())
	}
	return names, nil
}

// bundleManifests mark a skill folder as another agent's bundle, whose
// hooks/hooks.json is not seed 000's.
var bundleManifests = []string{".claude-plugin/plugin.json", "gemini-extension.json"}

func holdsSkill(dir string) bool {
	for _, sub := range []string{"hooks", "scenarios", ".claude-plugin"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

func isDir(root string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	fi, err := os.Stat(filepath.Join(root, e.Name()))
	return err == nil && fi.IsDir()
}

// skillLoader carries what one skill's checks share.
type skillLoader struct {
	skill    Skill
	hooksRel string // "<skill>/hooks", for diagnostics
	jsonRel  string // "<skill>/hooks/hooks.json"
	drafts   map[string][]byte
}

func loadSkill(root, name string, drafts map[string][]byte) Skill {
	l := &skillLoader{
		skill:    Skill{Name: name, Dir: filepath.Join(root, name)},
		hooksRel: path.Join(name, "hooks"),
		drafts:   drafts,
	}
	l.jsonRel = path.Join(l.hooksRel, "hooks.json")
	l.load()
	diag.Sort(l.skill.Diagnostics)
	l.skill.Broken = diag.HasErrors(l.skill.Diagnostics)
	return l.skill
}

func (l *skillLoader) fileDiag(file, code, format string, args ...any) {
	l.skill.Diagnostics = append(l.skill.Diagnostics, diag.Diagnostic{
		File: file, Severity: diag.Error, Code: code, Message: fmt.Sprintf(format, args...),
	})
}

func (l *skillLoader) load() {
	// Another agent's bundle keeps its own hooks in hooks/hooks.json: a
	// Claude Code plugin's (app/hooks/claudehook), a Gemini CLI extension's
	// (app/hooks/geminihook).
	for _, manifest := range bundleManifests {
		if _, err := os.Stat(filepath.Join(l.skill.Dir, filepath.FromSlash(manifest))); err == nil {
			return
		}
	}
	hooksDir := filepath.Join(l.skill.Dir, "hooks")
	// Every read below goes through this root, so neither hooks.json nor a
	// "file" entry can reach outside hooks/, whatever symlinks say.
	r, err := os.OpenRoot(hooksDir)
	if err != nil {
		_, drafted := l.drafts[l.jsonRel]
		if !drafted || !errors.Is(err, fs.ErrNotExist) {
			l.hooksDirError(hooksDir, err)
			return
		}
		r = nil // a hooks.json being written for a skill without hooks/ yet
	} else {
		defer r.Close()
	}
	data, ok := l.readHooksJSON(r)
	if !ok {
		return
	}
	l.skill.HasHooks = true
	entries, ds := ParseHooks(l.jsonRel, data)
	l.skill.Diagnostics = append(l.skill.Diagnostics, ds...)
	l.skill.jsonDiags = ds
	l.skill.Hooks = make([]Hook, 0, len(entries))
	for i := range entries {
		if h, ok := l.hook(r, &entries[i]); ok {
			l.skill.Hooks = append(l.skill.Hooks, h)
		}
	}
}

func (l *skillLoader) hooksDirError(hooksDir string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		return // a skill without hooks/ simply has no hooks
	}
	if fi, serr := os.Stat(hooksDir); serr == nil && !fi.IsDir() {
		l.fileDiag(l.hooksRel, CodeHooksNotDir, "%s is a file, not a folder; hooks must be in a hooks/ folder next to hooks.json's .md files, so rename or move it", l.hooksRel)
		return
	}
	l.fileDiag(l.hooksRel, CodeUnreadableFile, "cannot open %s: %v; check its permissions", l.hooksRel, unwrapPath(err))
}

// read reads a file of hooks/, preferring the editor's draft of it.
func (l *skillLoader) read(r *os.Root, name string) (data []byte, code, msg string) {
	if d, ok := l.drafts[path.Join(l.hooksRel, name)]; ok {
		if len(d) > MaxFileSize {
			return nil, CodeFileTooLarge, fmt.Sprintf("is larger than the %d bytes a hook file may have; split it or shorten it", MaxFileSize)
		}
		return d, "", ""
	}
	if r == nil {
		code, msg = openCode(fs.ErrNotExist)
		return nil, code, msg
	}
	return readRegular(r, name)
}

func (l *skillLoader) readHooksJSON(r *os.Root) ([]byte, bool) {
	data, code, msg := l.read(r, "hooks.json")
	switch code {
	case "":
		return data, true
	case CodeMissingFile:
		return nil, false // hooks/ without hooks.json: no hooks, not an error
	}
	l.fileDiag(l.jsonRel, code, "%s %s", l.jsonRel, msg)
	return nil, false
}

// hook turns a valid entry into a Hook by reading its .md, reporting
// problems at the entry's "file" value.
func (l *skillLoader) hook(r *os.Root, e *Entry) (Hook, bool) {
	if !e.OK {
		return Hook{}, false
	}
	at := e.Fields["file"]
	report := func(sev diag.Severity, code, format string, args ...any) {
		l.skill.Diagnostics = append(l.skill.Diagnostics, diag.Diagnostic{
			File: l.jsonRel, Line: at.Line, Column: at.Column, Severity: sev, Code: code,
			Message: fmt.Sprintf(format, args...),
		})
	}
	data, code, msg := l.read(r, e.File)
	if code != "" {
		report(diag.Error, code, "%q %s", e.File, msg)
		return Hook{}, false
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	if !utf8.Valid(data) {
		report(diag.Warning, CodeInvalidUTF8, "%q is not valid UTF-8, so some characters will be garbled; save it as UTF-8", e.File)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		report(diag.Warning, CodeEmptyPrompt, "%q is empty, so the hook injects an empty message; write the prompt text or remove the hook", e.File)
	}
	return Hook{
		Skill: l.skill.Name, Name: e.Name, File: e.File, Timing: e.Timing, Role: e.Role,
		Persistent: e.Persistent, ToolFilter: e.ToolFilter, Content: string(data), Line: e.Pos.Line,
	}, true
}

// readRegular reads name inside r if it is a regular file. On failure code
// is one of the file codes and msg completes a sentence about the file. It
// opens first and checks the open file, one Root lookup instead of two;
// openNonblock keeps that open from hanging on a FIFO.
func readRegular(r *os.Root, name string) (data []byte, code, msg string) {
	f, err := r.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		code, msg = openCode(err)
		return nil, code, msg
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		code, msg = openCode(err)
		return nil, code, msg
	}
	switch {
	case fi.IsDir():
		return nil, CodeFileIsDir, "is a folder, not a file; point to a .md file inside it"
	case !fi.Mode().IsRegular():
		return nil, CodeNotRegular, "is not a regular file (a pipe, socket or device); use a plain .md file"
	}
	data, err = readAll(f, fi.Size())
	switch {
	case errors.Is(err, errTooLarge):
		return nil, CodeFileTooLarge, fmt.Sprintf("is larger than the %d bytes a hook file may have; split it or shorten it", MaxFileSize)
	case err != nil:
		code, msg = openCode(err)
		return nil, code, msg
	}
	return data, "", ""
}

var errTooLarge = errors.New("file too large")

// readAll reads f up to MaxFileSize with one allocation when size (from
// Stat) is right; the file may still change under us, so it does not trust
// size beyond that.
func readAll(f *os.File, size int64) ([]byte, error) {
	if size > MaxFileSize {
		return nil, errTooLarge
	}
	data := make([]byte, 0, size+1) // +1: EOF is seen without growing
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, 4096)
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if len(data) > MaxFileSize {
			return nil, errTooLarge
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func openCode(err error) (code, msg string) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return CodeMissingFile, "does not exist in hooks/; create it or fix the path (it is relative to hooks/ and case-sensitive)"
	case isEscape(err):
		return CodeEscapingPath, "leads outside hooks/ through a symbolic link; copy the file into hooks/ instead of linking to it"
	case errors.Is(err, fs.ErrPermission):
		return CodeUnreadableFile, "cannot be read (permission denied); make it readable"
	}
	return CodeUnreadableFile, fmt.Sprintf("cannot be read: %v", unwrapPath(err))
}

// isEscape recognises os.Root's refusal to leave the root. os does not
// export that error, so its (stable) text is the only handle.
func isEscape(err error) bool {
	return strings.Contains(err.Error(), "path escapes from parent")
}

// unwrapPath drops the *PathError wrapper, whose absolute path would leak
// the user's folder layout into a message that already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Diagnostics returns the diagnostics of every skill, sorted.
func (s *Set) Diagnostics() []diag.Diagnostic {
	var all []diag.Diagnostic
	for i := range s.Skills {
		all = append(all, s.Skills[i].Diagnostics...)
	}
	diag.Sort(all)
	return all
}

// Skill returns the skill with that folder name, or nil.
func (s *Set) Skill(name string) *Skill {
	i, ok := slices.BinarySearchFunc(s.Skills, name, func(sk Skill, n string) int {
		return strings.Compare(sk.Name, n)
	})
	if !ok {
		return nil
	}
	return &s.Skills[i]
}

// Hooks returns the loaded hooks of the enabled skills, skills in byte
// order and hooks in file order. nil enables every skill, an empty non-nil
// slice none; names that match no skill are ignored (the scenario validator
// reports them). Hooks of a Broken skill are included when their own entry
// is valid, which is the set Skill.Hooks holds.
func (s *Set) Hooks(enabled []string) []Hook {
	var out []Hook
	for i := range s.Skills {
		sk := &s.Skills[i]
		if enabled == nil || slices.Contains(enabled, sk.Name) {
			out = append(out, sk.Hooks...)
		}
	}
	return out
}
