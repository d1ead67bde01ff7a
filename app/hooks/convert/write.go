package convert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/store/atomicfile"
)

// Actions of a planned file.
const (
	ActionCreate    = "create"    // a new file
	ActionReplace   = "replace"   // a file of other content, replaced (force)
	ActionMerge     = "merge"     // a settings file: its hooks set, its other keys kept
	ActionUnchanged = "unchanged" // the file already holds this
)

// Planned is one file as writing a result into a folder leaves it.
type Planned struct {
	Path   string      `json:"path"`
	Role   string      `json:"role"`
	Action string      `json:"action"`
	Mode   fs.FileMode `json:"mode"`
	Size   int         `json:"size"`
	From   string      `json:"from,omitempty"`
	Data   []byte      `json:"-"`
}

// Plan says what writing res into dir does, file by file, reading what is
// there. A file of other content — a script, a hook file, a settings file
// that has hooks already — is an error at that file (CodeExists) unless
// force; a package manifest that exists is kept.
func Plan(dir string, res *Result, force bool) ([]Planned, []diag.Diagnostic, error) {
	var out []Planned
	var ds []diag.Diagnostic
	conflict := func(f File, why string) {
		ds = append(ds, diag.Diagnostic{File: f.Path, Severity: diag.Error, Code: CodeExists,
			Message: fmt.Sprintf("%s %s: write the hooks elsewhere (-o DIR) or replace it (--force)", f.Path, why)})
	}
	for _, f := range res.Files {
		file := filepath.Join(dir, filepath.FromSlash(f.Path))
		old, err := os.ReadFile(file)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("plan %s: %w", f.Path, err)
		}
		p := Planned{Path: f.Path, Role: f.Role, Mode: f.Mode, From: f.From, Action: ActionCreate, Data: f.Data}
		switch {
		case f.Member != "":
			data, has, err := member(old, exists, f.Member, f.Data)
			if err != nil {
				conflict(f, fmt.Sprintf("is not a JSON object (%v), so its %q cannot be set", err, f.Member))
				continue
			}
			p.Data = data
			switch {
			case !exists:
			case bytes.Equal(old, data):
				p.Action = ActionUnchanged
			case has && !force:
				conflict(f, fmt.Sprintf("already has %q", f.Member))
				continue
			default:
				p.Action = ActionMerge
			}
		case !exists:
		case bytes.Equal(old, f.Data):
			p.Action = ActionUnchanged
		case f.Role == "manifest":
			p.Action, p.Data = ActionUnchanged, old
		case !force:
			conflict(f, "exists with other content")
			continue
		default:
			p.Action = ActionReplace
		}
		p.Size = len(p.Data)
		out = append(out, p)
	}
	diag.Sort(ds)
	return out, ds, nil
}

// member is a settings document with key set to value: old's other
// members kept in their order (new: a document of key alone), and whether
// old had key.
func member(old []byte, exists bool, key string, value []byte) ([]byte, bool, error) {
	doc := obj{}
	has := false
	if exists && len(bytes.TrimSpace(old)) > 0 {
		d, err := jsondoc.Parse(old)
		if err != nil {
			return nil, false, err
		}
		if d.Root.Kind != jsondoc.Object {
			return nil, false, fmt.Errorf("it is %s", d.Root.Kind)
		}
		for _, m := range d.Root.Children {
			if m.Key == key {
				if has {
					continue
				}
				has = true
				doc = append(doc, kv{key, json.RawMessage(value)})
				continue
			}
			doc = append(doc, kv{m.Key, json.RawMessage(m.Raw)})
		}
	}
	if !has {
		doc = append(doc, kv{key, json.RawMessage(value)})
	}
	data, err := encode(doc)
	return data, has, err
}

// Write writes the planned files into dir, each atomically (a reader sees
// the old file or the new one), scripts with their modes, folders made as
// needed. Unchanged files are not touched.
func Write(dir string, plan []Planned) error {
	for _, p := range plan {
		if p.Action == ActionUnchanged {
			continue
		}
		file := filepath.Join(dir, filepath.FromSlash(p.Path))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return fmt.Errorf("write %s: %w", p.Path, err)
		}
		if err := atomicfile.Write(file, p.Data, p.Mode); err != nil {
			return fmt.Errorf("write %s: %w", p.Path, err)
		}
		// atomicfile keeps a replaced file's mode: a script copied over one
		// gets its source's exec bits
		if p.Role == "script" {
			if err := os.Chmod(file, p.Mode); err != nil {
				return fmt.Errorf("write %s: %w", p.Path, err)
			}
		}
	}
	return nil
}

// Stage writes res into dir as it stands, replacing what is there: a
// throw-away copy to validate or simulate.
func Stage(dir string, res *Result) error {
	plan, _, err := Plan(dir, res, true)
	if err != nil {
		return err
	}
	return Write(dir, plan)
}

// Validator says what the hook system of an agent makes of a folder —
// hookctl validate's diagnostics — and false when no system hosts that
// agent (hooksets.Check).
type Validator func(ctx context.Context, dir, agent string) ([]diag.Diagnostic, bool, error)

// Check writes res into a throw-away folder and asks validate what the
// target's system makes of it: the diagnostics of the written files, at
// their paths in the output. False when no system hosts the target.
func Check(ctx context.Context, res *Result, validate Validator) ([]diag.Diagnostic, bool, error) {
	dir, err := os.MkdirTemp("", "hookstudio-convert-*")
	if err != nil {
		return nil, false, fmt.Errorf("check: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := Stage(dir, res); err != nil {
		return nil, false, fmt.Errorf("check: %w", err)
	}
	ds, ok, err := validate(ctx, dir, res.To)
	if err != nil || !ok {
		return nil, ok, err
	}
	out := []diag.Diagnostic{}
	for _, d := range ds {
		if slices.ContainsFunc(res.Files, func(f File) bool { return f.Path == d.File }) {
			out = append(out, d)
		}
	}
	return out, true, nil
}
