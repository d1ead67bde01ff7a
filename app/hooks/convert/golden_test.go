package convert

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hooksets"
)

var update = flag.Bool("update", false, "rewrite the golden conversions in testdata/golden")

// example is the claude-guard example: a Claude Code plugin with a guard,
// an edit note, a Stop hook and a skill's frontmatter hook.
const example = "../../../skills/claude-guard"

// render is a result as its golden file holds it: each file (scripts by
// path, mode and source), then the diagnostics.
func render(res *Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s → %s (%s): %d written, %d left out\n", res.From, res.To, res.Layout, res.Written, res.Left)
	for _, f := range res.Files {
		if f.Role == "script" {
			fmt.Fprintf(&b, "== %s (%o, from %s)\n", f.Path, f.Mode, f.From)
			continue
		}
		if f.Role == "adapter" { // its text: testdata/adapter
			fmt.Fprintf(&b, "== %s (%o, the adapter)\n", f.Path, f.Mode)
			continue
		}
		data := f.Data
		if f.Member != "" { // as a new file holds it
			data, _, _ = member(nil, false, f.Member, f.Data)
		}
		fmt.Fprintf(&b, "== %s\n%s", f.Path, data)
	}
	b.WriteString("== diagnostics\n")
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", d.File, d.Line, d.Column, d.Severity, d.Message, d.Code)
	}
	return b.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	file := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test ./app/hooks/convert -run Golden -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from its golden file (-update rewrites it):\n%s", name, got)
	}
}

// TestGoldenExample converts the example for every agent, in both layouts.
func TestGoldenExample(t *testing.T) {
	set := read(t, example)
	for _, to := range Targets() {
		for _, layout := range []string{LayoutPackage, LayoutProject} {
			res, err := Convert(set, to, Options{Layout: layout})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, fmt.Sprintf("claude-guard.%s.%s.txt", to, layout), render(res))
		}
	}
}

// aboutTheUser are the warnings a validator gives every hook new to the
// user's agent, whoever wrote it: Codex trusts hooks one by one, by hash
// (codexhook), so each converted hook waits for that trust; copilot -p runs
// a repository's hooks only with --trust-folder.
var aboutTheUser = map[string]bool{"codex-untrusted": true, "copilot-needs-trust": true}

// aboutTheScripts are validator warnings on a script's answer that the
// conversion names itself (CodeOutputField): the scripts are carried over
// as written, so both say what the target reads otherwise.
var aboutTheScripts = map[string]bool{"copilot-nested-output": true}

// TestWrittenFilesValidate: what is written for an agent loads in that
// agent's hook system (hookctl validate) without an error or a warning
// about the files themselves, wherever Hook Studio hosts one.
func TestWrittenFilesValidate(t *testing.T) {
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	validate := func(ctx context.Context, dir, agent string) ([]diag.Diagnostic, bool, error) {
		return hooksets.Check(ctx, reg, dir, agent)
	}
	set := read(t, example)
	hosted := 0
	for _, to := range Targets() {
		for _, layout := range []string{LayoutPackage, LayoutProject} {
			res, err := Convert(set, to, Options{Layout: layout})
			if err != nil {
				t.Fatal(err)
			}
			ds, ok, err := Check(context.Background(), res, validate)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue
			}
			hosted++
			named := slices.ContainsFunc(res.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == CodeOutputField })
			ds = slices.DeleteFunc(ds, func(d diag.Diagnostic) bool {
				return d.Severity == diag.Warning && (aboutTheUser[d.Code] || named && aboutTheScripts[d.Code])
			})
			if len(ds) > 0 {
				t.Errorf("%s (%s): %v", to, layout, ds)
			}
		}
	}
	if hosted == 0 {
		t.Fatal("no target was checked")
	}
}

func TestPlanAndWrite(t *testing.T) {
	set := read(t, example)
	res, err := Convert(set, ClaudeCode, Options{Layout: LayoutProject})
	if err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{
		".claude/settings.json":  "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n",
		".claude/hooks/guard.sh": "#!/bin/sh\necho mine\n",
	})
	plan, conflicts, err := Plan(dir, res, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(conflicts) != 1 || conflicts[0].File != ".claude/hooks/guard.sh" || conflicts[0].Code != CodeExists || conflicts[0].Severity != diag.Error {
		t.Fatalf("conflicts %v", conflicts)
	}
	if plan[0].Action != ActionMerge {
		t.Errorf("settings: %s, want a merge (it has no hooks yet)", plan[0].Action)
	}
	if plan, conflicts, err = Plan(dir, res, true); err != nil || len(conflicts) > 0 {
		t.Fatal(err, conflicts)
	}
	if err := Write(dir, plan); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".claude/settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.Contains(s, `"model": "opus"`) || !strings.Contains(s, `"allow"`) || strings.Index(s, `"model"`) > strings.Index(s, `"hooks"`) {
		t.Errorf("the settings' other keys are not kept in their order:\n%s", s)
	}
	for _, name := range []string{"guard.sh", "edit-note.sh", "ask-for-tests.sh"} {
		fi, err := os.Stat(filepath.Join(dir, ".claude/hooks", name))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v %v", name, fi, err)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ".claude"))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
	// written again: nothing changes, a settings file that has hooks now
	// is a conflict without force
	plan, conflicts, _ = Plan(dir, res, false)
	for _, p := range plan {
		if p.Action != ActionUnchanged {
			t.Errorf("%s: %s after writing the same", p.Path, p.Action)
		}
	}
	if len(conflicts) > 0 {
		t.Errorf("conflicts after writing the same: %v", conflicts)
	}
	other, _ := Convert(set, ClaudeCode, Options{Layout: LayoutProject, Name: "x"})
	other.Files[0].Data = []byte(`{"Stop": []}`)
	if _, conflicts, _ = Plan(dir, other, false); len(conflicts) != 1 || conflicts[0].File != ".claude/settings.json" {
		t.Errorf("settings with other hooks: %v", conflicts)
	}
}
