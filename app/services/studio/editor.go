package studio

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/edit"
	"hookstudio/app/store/atomicfile"
)

// FileSnapshot is a file as it is on disk, with the hash a later save is
// checked against.
type FileSnapshot struct {
	File    string `json:"file"`
	Content string `json:"content"`
	Hash    string `json:"hash"`
	Exists  bool   `json:"exists"`
}

// HooksEdit is a hooks.json text with its entries and diagnostics.
type HooksEdit struct {
	Text        string            `json:"text"`
	Entries     []skills.Entry    `json:"entries"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
}

// HookOp is one editing operation on a hooks.json.
type HookOp struct {
	Kind   string         `json:"kind"` // add, update, rename, duplicate, move, delete
	Index  int            `json:"index"`
	To     int            `json:"to"`
	Name   string         `json:"name"`
	Hook   *edit.Hook     `json:"hook"`
	Fields map[string]any `json:"fields"`
}

// SaveResult says how a save went: saved, or refused because the disk
// changed (conflict, with the disk's text) or the file was deleted.
type SaveResult struct {
	Status      string            `json:"status"` // saved, conflict, deleted
	Hash        string            `json:"hash"`
	Theirs      string            `json:"theirs,omitempty"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
}

// MergeResult is a three-way merge; Text becomes the unsaved text.
type MergeResult struct {
	Text      string          `json:"text"`
	Conflicts []edit.Conflict `json:"conflicts"`
}

// ErrNotEditable is returned for a path outside <skill>/hooks/ and
// <skill>/scenarios/ that no hook system reads.
var ErrNotEditable = errors.New("not an editable file")

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// editablePath checks file is <skill>/hooks/... or <skill>/scenarios/...
// under the root and returns its absolute path.
func (s *Service) editablePath(file string) (string, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	parts := strings.Split(file, "/")
	if !s.editableFile(root, file) && (!filepath.IsLocal(filepath.FromSlash(file)) || strings.Contains(file, "\\") || len(parts) < 3 ||
		(parts[1] != "hooks" && parts[1] != "scenarios")) {
		return "", fmt.Errorf("%w: %q is not inside <skill>/hooks/ or <skill>/scenarios/, nor a hooks config of the root", ErrNotEditable, file)
	}
	if root == "" {
		return "", errors.New("no skills folder is open")
	}
	return filepath.Join(root, filepath.FromSlash(file)), nil
}

// OpenFile reads a file of a skill as it is on disk.
func (s *Service) OpenFile(file string) (FileSnapshot, error) {
	p, err := s.editablePath(file)
	if err != nil {
		return FileSnapshot{}, err
	}
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return FileSnapshot{File: file, Hash: hashOf(nil)}, nil
	}
	if err != nil {
		return FileSnapshot{}, fmt.Errorf("open %s: %w", file, err)
	}
	return FileSnapshot{File: file, Content: string(data), Hash: hashOf(data), Exists: true}, nil
}

// InspectHooks parses a hooks.json text for the form.
func InspectHooks(file, text string) HooksEdit {
	entries, ds := skills.ParseHooks(file, []byte(text))
	if entries == nil {
		entries = []skills.Entry{}
	}
	if ds == nil {
		ds = []diag.Diagnostic{}
	}
	return HooksEdit{Text: text, Entries: entries, Diagnostics: ds}
}

// EditHooks applies one operation to a hooks.json text, keeping key order,
// unknown fields and formatting.
func EditHooks(file, text string, op HookOp) (HooksEdit, error) {
	var d *edit.Document
	var err error
	if strings.TrimSpace(text) == "" {
		d = edit.New(file)
	} else if d, err = edit.Parse(file, []byte(text)); err != nil {
		return HooksEdit{}, fmt.Errorf("%s: %w; fix it in the raw view first", file, err)
	}
	switch op.Kind {
	case "add":
		if op.Hook == nil {
			return HooksEdit{}, errors.New("add: no hook given")
		}
		d, err = d.AddHook(*op.Hook)
	case "update":
		d, err = d.UpdateHook(op.Index, op.Fields)
	case "rename":
		d, err = d.RenameHook(op.Index, op.Name)
	case "duplicate":
		d, err = d.DuplicateHook(op.Index, op.Name)
	case "move":
		d, err = d.MoveHook(op.Index, op.To)
	case "delete":
		d, err = d.DeleteHook(op.Index)
	default:
		return HooksEdit{}, fmt.Errorf("unknown hook operation %q", op.Kind)
	}
	if err != nil {
		return HooksEdit{}, fmt.Errorf("%s: %w", op.Kind, err)
	}
	return InspectHooks(file, string(d.Bytes())), nil
}

// SaveFile writes text atomically if the disk still holds baseHash; the
// file's draft is dropped and the folder reloaded.
func (s *Service) SaveFile(ctx context.Context, file, text, baseHash string) (SaveResult, error) {
	p, err := s.editablePath(file)
	if err != nil {
		return SaveResult{}, err
	}
	disk, err := os.ReadFile(p)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return SaveResult{}, fmt.Errorf("save %s: %w", file, err)
	}
	res := SaveResult{Diagnostics: []diag.Diagnostic{}}
	switch {
	case !exists && baseHash != "" && baseHash != hashOf(nil):
		res.Status = "deleted"
		return res, nil
	case exists && hashOf(disk) != baseHash:
		res.Status, res.Theirs, res.Hash = "conflict", string(disk), hashOf(disk)
		return res, nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return SaveResult{}, fmt.Errorf("save %s: %w", file, err)
	}
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if err := s.writeOwn(root, file, []byte(text)); err != nil {
		return SaveResult{}, fmt.Errorf("save %s: %w", file, err)
	}
	res.Status, res.Hash = "saved", hashOf([]byte(text))
	s.mu.Lock()
	delete(s.drafts, file)
	s.mu.Unlock()
	// One reload: one parse of each config, one simulation, one history
	// row; the saved file's diagnostics are that parse's, and the watcher's
	// report of this write reloads nothing (ownwrites.go).
	s.reloadNow(ctx)
	s.noteLint(file, []byte(text))
	res.Diagnostics = s.LintFile(ctx, file, text)
	return res, nil
}

// MergeFile merges my edits and the disk's: by hook for hooks.json, by line
// for anything else.
func MergeFile(file, base, mine, theirs string) (MergeResult, error) {
	var r edit.MergeResult
	if path.Base(file) == "hooks.json" {
		var err error
		if r, err = edit.MergeHooks(file, []byte(base), []byte(mine), []byte(theirs)); err != nil {
			return MergeResult{}, fmt.Errorf("merge %s: %w", file, err)
		}
	} else {
		r = edit.MergeText([]byte(base), []byte(mine), []byte(theirs))
	}
	if r.Conflicts == nil {
		r.Conflicts = []edit.Conflict{}
	}
	return MergeResult{Text: string(r.Merged), Conflicts: r.Conflicts}, nil
}

// CreateSkill makes a new skill folder with an empty, valid hooks.json.
func (s *Service) CreateSkill(ctx context.Context, name string) (State, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return s.State(), errors.New("no skills folder is open")
	}
	if _, err := edit.CreateSkill(root, name); err != nil {
		return s.State(), err
	}
	// A new skill gets a scenario of its own: the examples enable only
	// their own skills, so without one its hooks would show up nowhere.
	file := path.Join(name, "scenarios", "try-it.yaml")
	if err := writeNew(filepath.Join(root, filepath.FromSlash(file)), starterScenario(name)); err != nil {
		return s.State(), err
	}
	s.reloadNow(ctx)
	if _, err := s.Select(ctx, file); err != nil {
		return s.State(), err
	}
	return s.State(), nil
}

// writeNew writes a file that must not exist yet.
func writeNew(p string, data []byte) error {
	if _, err := os.Stat(p); err == nil {
		return nil // the user's own scenario wins
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(p), err)
	}
	return atomicfile.Write(p, data, 0o644)
}

// starterScenario passes every checkpoint: a planning round, agent rounds
// with a tool call, and a second request that carries history.
func starterScenario(skill string) []byte {
	return []byte(fmt.Sprintf(`# A starter scenario for %[1]s: change the requests and the scripted answers to
# match how your skill is used. It passes every checkpoint: after_user_input,
# before_planning, before_each_agent, before_first_agent and after_tool_call.
name: %[1]s-try-it
system_prompt: You are a helpful assistant working in the user's project.
enabled_skills: [%[1]s]
tools:
  - name: read_file
    description: Read a file of the project
    parameters: {type: object, properties: {path: {type: string}}, required: [path]}
requests:
  - user: Read README.md and tell me what this project does.
    planning: {need_tool: true, content: I will read README.md first.}
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: README.md}, result: "# Atlas
A small service that turns CSV reports into JSON."}]
      - content: Atlas is a small service that turns CSV reports into JSON.
  - user: Thanks!
    planning: {need_tool: false, content: You are welcome.}
`, skill))
}

// ExportSkill writes a skill as a .zip (zip true) or into dest/<skill>/
// (zip false); skill ".claude" is the project's Claude Code folder.
func (s *Service) ExportSkill(ctx context.Context, skill, dest string, zip bool) error {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	opts := edit.ExportOptions{Scenarios: true}
	if !zip {
		_, err := edit.ExportSkillDir(ctx, root, skill, dest, opts)
		return err
	}
	var buf bytes.Buffer
	if _, err := edit.ExportSkill(ctx, root, skill, &buf, opts); err != nil {
		return err
	}
	return atomicfile.Write(dest, buf.Bytes(), 0o644)
}

// HooksJSONText is the skill's hooks.json in canonical form, for copying.
func (s *Service) HooksJSONText(skill string) (string, error) {
	snap, err := s.OpenFile(path.Join(skill, "hooks", "hooks.json"))
	if err != nil {
		return "", err
	}
	if !snap.Exists {
		return "", fmt.Errorf("skill %q has no hooks.json", skill)
	}
	out, err := edit.HooksJSON([]byte(snap.Content))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// Import installs skills from a .zip, or a hooks.json as a new skill named
// after the file's folder.
func (s *Service) Import(ctx context.Context, file string) (State, error) {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if root == "" {
		return s.State(), errors.New("no skills folder is open")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return s.State(), fmt.Errorf("import: %w", err)
	}
	if strings.EqualFold(filepath.Ext(file), ".zip") {
		_, _, err = edit.ImportZip(ctx, bytes.NewReader(data), int64(len(data)), root, edit.ImportOptions{})
	} else if claudeShaped(data) {
		return s.State(), fmt.Errorf("import %s: %w", filepath.Base(file), ErrClaudeHooksJSON)
	} else {
		skill := filepath.Base(filepath.Dir(file))
		if skill == "hooks" {
			skill = filepath.Base(filepath.Dir(filepath.Dir(file)))
		}
		_, err = edit.ImportHooksJSON(ctx, data, root, skill, edit.ImportOptions{})
	}
	if err != nil {
		return s.State(), err
	}
	s.reloadNow(ctx)
	return s.State(), nil
}
