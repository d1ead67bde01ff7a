package edit

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/atomicfile"
)

// InvalidError refuses to export or import a skill whose hooks have errors.
// Diagnostics are all of them, warnings included.
type InvalidError struct {
	Skill       string
	Diagnostics []diag.Diagnostic
}

func (e *InvalidError) Error() string {
	n, _ := diag.Count(e.Diagnostics)
	return fmt.Sprintf("skill %s has %d error(s)", e.Skill, n)
}

// ErrNoSkill is returned when the named skill does not exist.
var ErrNoSkill = errors.New("no such skill")

// ExportOptions selects what an export contains besides hooks/hooks.json,
// the .md files it names and the skill's README.md.
type ExportOptions struct {
	Scenarios bool // include scenarios/*.yaml
}

type exportFile struct {
	name string // slash path inside the export, "<skill>/hooks/hooks.json"
	data []byte
	exec bool // written executable (a hook script run by path)
}

// collect reads everything an export of skill contains, after checking the
// skill loads without errors.
func collect(ctx context.Context, root, skill string, opts ExportOptions) ([]exportFile, []diag.Diagnostic, error) {
	if skill == ClaudeProject {
		return exportClaudeProject(ctx, root)
	}
	if err := ValidateSkillName(skill); err != nil {
		return nil, nil, fmt.Errorf("export: %w", err)
	}
	set, err := skills.Load(ctx, root)
	if err != nil {
		return nil, nil, fmt.Errorf("export: %w", err)
	}
	sk := set.Skill(skill)
	if sk == nil {
		return nil, nil, fmt.Errorf("export %s: %w", skill, ErrNoSkill)
	}
	if sk.Broken {
		return nil, sk.Diagnostics, fmt.Errorf("export: %w", &InvalidError{Skill: skill, Diagnostics: sk.Diagnostics})
	}
	dir := filepath.Join(root, skill)
	if claudehook.IsPlugin(dir) {
		// A Claude Code plugin: its hooks/hooks.json is Claude Code's, kept
		// as written, with every file the plugin holds (claude.go).
		files, ds, err := claudeFiles(ctx, root, skill)
		if err != nil {
			return nil, ds, fmt.Errorf("export %s: %w", skill, err)
		}
		if opts.Scenarios {
			if files, err = scenarioFiles(dir, skill, files); err != nil {
				return nil, nil, err
			}
		}
		return files, append(sk.Diagnostics, ds...), nil
	}
	var files []exportFile
	hooksJSON := New("").Bytes()
	if sk.HasHooks {
		if hooksJSON, err = readIn(dir, "hooks/hooks.json"); err != nil {
			return nil, nil, fmt.Errorf("export %s: %w", skill, err)
		}
	}
	doc, err := Parse(path.Join(skill, "hooks", "hooks.json"), hooksJSON)
	if err != nil {
		return nil, nil, fmt.Errorf("export %s: %w", skill, err)
	}
	if doc, err = doc.WithSchema(); err != nil {
		return nil, nil, fmt.Errorf("export %s: %w", skill, err)
	}
	files = append(files, exportFile{name: skill + "/hooks/hooks.json", data: doc.Bytes()})
	seen := map[string]bool{}
	for _, h := range sk.Hooks {
		rel := path.Clean(strings.ReplaceAll(h.File, `\`, "/"))
		if seen[rel] {
			continue
		}
		seen[rel] = true
		data, err := readIn(dir, "hooks/"+rel)
		if err != nil {
			return nil, nil, fmt.Errorf("export %s: %w", skill, err)
		}
		files = append(files, exportFile{name: skill + "/hooks/" + rel, data: data})
	}
	// PicoClaw process hooks: their config, scripts and modules.
	procFiles, procDiags, err := processFiles(ctx, root, skill)
	if err != nil {
		return nil, procDiags, fmt.Errorf("export %s: %w", skill, err)
	}
	// Command and request hooks: hooks.yaml, request-hooks.yaml and every
	// script in hooks/ (configs.go).
	cmdFiles, cmdDiags, err := commandFiles(ctx, root, skill)
	if err != nil {
		return nil, cmdDiags, fmt.Errorf("export %s: %w", skill, err)
	}
	procDiags = append(procDiags, cmdDiags...)
	for _, f := range append(procFiles, cmdFiles...) {
		if !slices.ContainsFunc(files, func(g exportFile) bool { return g.name == f.name }) {
			files = append(files, f)
		}
	}
	if data, err := readIn(dir, "README.md"); err == nil {
		files = append(files, exportFile{name: skill + "/README.md", data: data})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("export %s: %w", skill, err)
	}
	if opts.Scenarios {
		if files, err = scenarioFiles(dir, skill, files); err != nil {
			return nil, nil, err
		}
	}
	return files, append(sk.Diagnostics, procDiags...), nil
}

// scenarioFiles adds the skill's scenarios/*.yaml to files.
func scenarioFiles(dir, skill string, files []exportFile) ([]exportFile, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "scenarios"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("export %s: %w", skill, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !scenario.IsScenarioFile(e.Name()) {
			continue
		}
		data, err := readIn(dir, "scenarios/"+e.Name())
		if err != nil {
			return nil, fmt.Errorf("export %s: %w", skill, err)
		}
		files = append(files, exportFile{name: skill + "/scenarios/" + e.Name(), data: data})
	}
	return files, nil
}

// readIn reads a regular file inside dir, refusing symlinks that leave it.
func readIn(dir, rel string) ([]byte, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	f, err := r.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, skills.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	if len(data) > skills.MaxFileSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", rel, skills.MaxFileSize)
	}
	return data, nil
}

// ExportSkill writes skill (a folder under root) to w as a .zip holding
// <skill>/hooks/hooks.json (with a "$schema" reference added when missing),
// the .md files its hooks name, README.md if present and, with
// opts.Scenarios, scenarios/. A skill whose hooks have errors is refused
// with an *InvalidError carrying its diagnostics. The skill's warnings are
// returned on success.
func ExportSkill(ctx context.Context, root, skill string, w io.Writer, opts ExportOptions) ([]diag.Diagnostic, error) {
	files, ds, err := collect(ctx, root, skill, opts)
	if err != nil {
		return ds, err
	}
	zw := zip.NewWriter(w)
	now := time.Now()
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name, Method: zip.Deflate, Modified: now}
		h.SetMode(0o644)
		if f.exec {
			h.SetMode(0o755)
		}
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return ds, fmt.Errorf("export %s: %w", skill, err)
		}
		if _, err := fw.Write(f.data); err != nil {
			return ds, fmt.Errorf("export %s: %w", skill, err)
		}
	}
	if err := zw.Close(); err != nil {
		return ds, fmt.Errorf("export %s: %w", skill, err)
	}
	return ds, nil
}

// ExportSkillDir writes the same files as ExportSkill into dest/<skill>/.
// An existing dest/<skill> is an *ExistsError.
func ExportSkillDir(ctx context.Context, root, skill, dest string, opts ExportOptions) ([]diag.Diagnostic, error) {
	files, ds, err := collect(ctx, root, skill, opts)
	if err != nil {
		return ds, err
	}
	target := filepath.Join(dest, skill)
	if _, err := os.Lstat(target); err == nil {
		return ds, fmt.Errorf("export %s: %w", skill, &ExistsError{Path: target})
	}
	if err := os.MkdirAll(dest, 0o755); err != nil {
		return ds, fmt.Errorf("export %s: %w", skill, err)
	}
	// Write into a hidden folder and rename it into place, so dest never
	// holds half a skill.
	tmp, err := os.MkdirTemp(dest, ".export-*")
	if err != nil {
		return ds, fmt.Errorf("export %s: %w", skill, err)
	}
	defer os.RemoveAll(tmp)
	if err := writeFiles(tmp, files); err != nil {
		return ds, fmt.Errorf("export %s: %w", skill, err)
	}
	if err := os.Rename(filepath.Join(tmp, skill), target); err != nil {
		return ds, fmt.Errorf("export %s: %w", skill, err)
	}
	return ds, nil
}

func writeFiles(dir string, files []exportFile) error {
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		perm := fs.FileMode(0o644)
		if f.exec {
			perm = 0o755
		}
		if err := atomicfile.Write(p, f.data, perm); err != nil {
			return err
		}
	}
	return nil
}

// HooksJSON returns hooks.json data in canonical form, for "copy
// hooks.json": "$schema" first (added when missing), then "hooks", then any
// other top-level field; in each hook the known fields in schema order,
// then unknown ones in file order; two-space indentation, a final newline,
// no BOM. Data with errors is refused with an *InvalidError.
func HooksJSON(data []byte) ([]byte, error) {
	_, ds := skills.ParseHooks("hooks.json", data)
	if diag.HasErrors(ds) {
		return nil, &InvalidError{Skill: "", Diagnostics: ds}
	}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("copy hooks.json: %w", err)
	}
	root := doc.Root
	var b bytes.Buffer
	b.WriteString("{\n")
	top := []kv{{"$schema", encodeString(SchemaRef)}}
	if s := root.Get("$schema"); s != nil {
		top[0].value = compactRaw(s.Raw)
	}
	var hooks bytes.Buffer
	hooks.WriteString("[")
	for i, el := range root.Get("hooks").Children {
		if i > 0 {
			hooks.WriteString(",")
		}
		hooks.WriteString("\n    {")
		var fields []kv
		for _, k := range skills.KnownFields() {
			if v := el.Get(k); v != nil {
				fields = append(fields, kv{k, canonicalValue(v)})
			}
		}
		for _, m := range el.Children {
			if !slices.Contains(skills.KnownFields(), m.Key) && !slices.ContainsFunc(fields, func(f kv) bool { return f.key == m.Key }) {
				fields = append(fields, kv{m.Key, canonicalValue(el.Get(m.Key))})
			}
		}
		for j, f := range fields {
			if j > 0 {
				hooks.WriteString(",")
			}
			fmt.Fprintf(&hooks, "\n      %s: %s", encodeString(f.key), f.value)
		}
		hooks.WriteString("\n    }")
	}
	if len(root.Get("hooks").Children) > 0 {
		hooks.WriteString("\n  ")
	}
	hooks.WriteString("]")
	top = append(top, kv{"hooks", hooks.Bytes()})
	for _, m := range root.Children {
		if m.Key != "$schema" && m.Key != "hooks" && !slices.ContainsFunc(top, func(f kv) bool { return f.key == m.Key }) {
			top = append(top, kv{m.Key, canonicalValue(root.Get(m.Key))})
		}
	}
	for i, f := range top {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  %s: %s", encodeString(f.key), f.value)
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}

// canonicalValue writes arrays of strings as ["a", "b"] and anything else
// compactly.
func canonicalValue(n *jsondoc.Node) []byte {
	if n.Kind == jsondoc.Array && !slices.ContainsFunc(n.Children, func(c *jsondoc.Node) bool { return c.Kind != jsondoc.String }) {
		parts := make([][]byte, len(n.Children))
		for i, c := range n.Children {
			parts[i] = compactRaw(c.Raw)
		}
		return concat("[", bytes.Join(parts, []byte(", ")), "]")
	}
	return compactRaw(n.Raw)
}

func compactRaw(raw []byte) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}
