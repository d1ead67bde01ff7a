package main

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/hooks/convert"
)

// copyDir copies a folder (modes kept) into a fresh temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	return dst
}

// convertJSON is hookctl convert --json.
type convertJSON struct {
	From        string            `json:"from"`
	To          string            `json:"to"`
	Written     int               `json:"written"`
	Left        int               `json:"left"`
	Diagnostics []jsonDiag        `json:"diagnostics"`
	Plan        []convert.Planned `json:"plan"`
	Conflicts   []jsonDiag        `json:"conflicts"`
	Checked     []jsonDiag        `json:"checked"`
	Hosted      bool              `json:"hosted"`
	DryRun      bool              `json:"dry_run"`
	Wrote       bool              `json:"wrote"`
}

func convertRun(t *testing.T, args ...string) (convertJSON, int) {
	t.Helper()
	out, stderr, code := runCLI(t, append([]string{"convert", "--json"}, args...)...)
	var rep convertJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("hookctl convert --json %v: exit %d, %v\n%s%s", args, code, err, out, stderr)
	}
	return rep, code
}

// tree lists a folder's files with their modes and times: what a command
// that writes nothing leaves as it was.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = fi.Mode().String() + " " + fi.ModTime().Format(time.RFC3339Nano)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func actions(plan []convert.Planned) map[string]string {
	out := map[string]string{}
	for _, p := range plan {
		out[p.Path] = p.Action
	}
	return out
}

// hookctl convert end to end, through the real binary: its help; a dry run
// prints the plan and the hooks file and writes nothing; a write writes
// exactly the plan (scripts executable, nothing else left behind) and
// names what cannot carry over at the source's file:line:col; the same
// again touches nothing; a settings file keeps its other keys; a file in
// the way is exit 1 with nothing written until --force; a source with
// errors and a folder without hooks are exit 1; a wrong call is exit 2.
func TestConvertCommand(t *testing.T) {
	src := copyDir(t, "../../skills/claude-guard")

	t.Run("help", func(t *testing.T) {
		out, _, code := runCLI(t, "convert", "--help")
		for _, flag := range []string{"--to", "--from", "-o", "--layout", "--name", "--dry-run", "--force", "--json"} {
			if !strings.Contains(out, flag+" ") {
				t.Errorf("convert --help does not describe %s", flag)
			}
		}
		for _, agent := range convert.Targets() {
			if !strings.Contains(out, agent) {
				t.Errorf("convert --help does not name %s", agent)
			}
		}
		if code != exitOK {
			t.Errorf("convert --help: exit %d", code)
		}
		if out, _, code := runCLI(t, "help"); code != exitOK || !strings.Contains(out, "\n  hookctl convert --to ") {
			t.Errorf("hookctl help does not list convert: exit %d", code)
		}
	})

	t.Run("dry run", func(t *testing.T) {
		before := tree(t, src)
		out, _, code := runCLI(t, "convert", "--to", "codex", "--dry-run", src)
		if code != exitOK {
			t.Fatalf("exit %d\n%s", code, out)
		}
		rep, code := convertRun(t, "--to", "codex", "--dry-run", src)
		if code != exitOK || !rep.DryRun || rep.Wrote || len(rep.Plan) != 4 {
			t.Fatalf("exit %d: %+v", code, rep)
		}
		// every planned file a line of the plan; the hooks file's content printed as written
		for _, p := range rep.Plan {
			line := "create    " + filepath.ToSlash(filepath.Join(src, p.Path)) + " (" + p.Role
			if !strings.Contains(out, line) {
				t.Errorf("the plan does not say %q\n%s", line, out)
			}
		}
		var hooks struct{ Hooks map[string]json.RawMessage }
		start := strings.Index(out, "\n    {\n")
		end := strings.Index(out, "\n    }\n")
		if start < 0 || end < start || json.Unmarshal([]byte(out[start:end+6]), &hooks) != nil || hooks.Hooks["PreToolUse"] == nil {
			t.Errorf("the dry run does not print .codex/hooks.json\n%s", out)
		}
		if after := tree(t, src); !equalTrees(before, after) {
			t.Errorf("a dry run changed the folder:\nbefore %v\nafter  %v", before, after)
		}
	})

	t.Run("write", func(t *testing.T) {
		before := tree(t, src)
		rep, code := convertRun(t, "--to", "codex", src)
		if code != exitOK || !rep.Wrote || rep.From != convert.ClaudeCode || rep.Written != 3 || rep.Left != 1 {
			t.Fatalf("exit %d: %+v", code, rep)
		}
		if !slices.ContainsFunc(rep.Diagnostics, func(d jsonDiag) bool {
			return d.Code == convert.CodeSkillScoped && d.File == "skills/release/SKILL.md" && d.Line == 8 && d.Column == 11
		}) {
			t.Errorf("the skill's hook is not named at skills/release/SKILL.md:8:11: %+v", rep.Diagnostics)
		}
		// exactly the planned files are new: no temporary file left behind
		after := tree(t, src)
		var added []string
		for f := range after {
			if _, ok := before[f]; !ok {
				added = append(added, f)
			}
		}
		var planned []string
		for _, p := range rep.Plan {
			planned = append(planned, p.Path)
			fi, err := os.Stat(filepath.Join(src, p.Path))
			if err != nil || fi.Mode().Perm() != p.Mode.Perm() || fi.Size() != int64(p.Size) {
				t.Errorf("%s: %v %v, planned %v %d bytes", p.Path, fi, err, p.Mode, p.Size)
			}
		}
		slices.Sort(added)
		slices.Sort(planned)
		if !slices.Equal(added, planned) {
			t.Errorf("written %v, planned %v", added, planned)
		}

		// the same again: every file unchanged and left alone
		again, code := convertRun(t, "--to", "codex", src)
		for p, a := range actions(again.Plan) {
			if a != convert.ActionUnchanged {
				t.Errorf("again: %s %s", p, a)
			}
		}
		if code != exitOK || !equalTrees(after, tree(t, src)) {
			t.Errorf("again: exit %d, or a file was rewritten", code)
		}
	})

	t.Run("settings keep their other keys", func(t *testing.T) {
		into := t.TempDir()
		settings := filepath.Join(into, ".qwen/settings.json")
		if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(settings, []byte(`{"model": {"name": "qwen3-coder"}, "ui": {"theme": "dark"}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, code := convertRun(t, "--to", "qwen-code", "-o", into, src)
		if code != exitOK || !rep.Wrote || actions(rep.Plan)[".qwen/settings.json"] != convert.ActionMerge {
			t.Fatalf("exit %d: %+v", code, rep)
		}
		var doc struct {
			Model map[string]string          `json:"model"`
			UI    map[string]string          `json:"ui"`
			Hooks map[string]json.RawMessage `json:"hooks"`
		}
		data, _ := os.ReadFile(settings)
		if err := json.Unmarshal(data, &doc); err != nil || doc.UI["theme"] != "dark" || doc.Model["name"] != "qwen3-coder" || doc.Hooks["PreToolUse"] == nil {
			t.Errorf("settings after the merge: %v\n%s", err, data)
		}
		// other hooks there: in the way, unless forced; the other keys kept either way
		if err := os.WriteFile(settings, []byte(`{"ui": {"theme": "dark"}, "hooks": {"Stop": []}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, code = convertRun(t, "--to", "qwen-code", "-o", into, src)
		if code != exitProblems || rep.Wrote || len(rep.Conflicts) != 1 || rep.Conflicts[0].File != ".qwen/settings.json" {
			t.Errorf("hooks in the way: exit %d %+v", code, rep)
		}
		rep, code = convertRun(t, "--to", "qwen-code", "-o", into, "--force", src)
		data, _ = os.ReadFile(settings)
		doc.UI, doc.Hooks = nil, nil
		if err := json.Unmarshal(data, &doc); code != exitOK || !rep.Wrote || err != nil || doc.UI["theme"] != "dark" || doc.Hooks["Stop"] == nil || doc.Hooks["PreToolUse"] == nil {
			t.Errorf("--force: exit %d %+v\n%s", code, rep, data)
		}
	})

	t.Run("a file in the way", func(t *testing.T) {
		into := t.TempDir()
		if rep, code := convertRun(t, "--to", "claude-code", "--layout", "project", "-o", into, src); code != exitOK || !rep.Hosted || len(rep.Checked) > 0 || !rep.Wrote {
			t.Fatalf("to claude-code: exit %d %+v", code, rep)
		}
		if out, _, code := runCLI(t, "validate", into); code != exitOK || strings.Contains(out, ": warning:") {
			t.Errorf("validate of the written project: exit %d\n%s", code, out)
		}
		guard := filepath.Join(into, ".claude/hooks/guard.sh")
		mine := []byte("#!/bin/sh\nexit 0\n")
		if err := os.WriteFile(guard, mine, 0o755); err != nil {
			t.Fatal(err)
		}
		before := tree(t, into)
		rep, code := convertRun(t, "--to", "claude-code", "--layout", "project", "-o", into, src)
		if code != exitProblems || rep.Wrote || len(rep.Conflicts) != 1 || rep.Conflicts[0].Code != convert.CodeExists || rep.Conflicts[0].File != ".claude/hooks/guard.sh" {
			t.Errorf("a script in the way: exit %d %+v", code, rep)
		}
		if !equalTrees(before, tree(t, into)) {
			t.Error("a refused conversion wrote")
		}
		rep, code = convertRun(t, "--to", "claude-code", "--layout", "project", "-o", into, "--force", src)
		if data, _ := os.ReadFile(guard); code != exitOK || !rep.Wrote || actions(rep.Plan)[".claude/hooks/guard.sh"] != convert.ActionReplace || string(data) == string(mine) {
			t.Errorf("--force: exit %d %+v", code, rep)
		}
	})

	// issue 34: a hook that would not do there what it does is an error at
	// its script's line, not an accepted result: nothing is written
	t.Run("a hook that would not work there", func(t *testing.T) {
		proj := t.TempDir()
		writeFiles(t, proj, map[string]string{
			".claude/settings.json":  `{"hooks": {"PostToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "sh .claude/hooks/edits.sh"}]}]}}`,
			".claude/hooks/edits.sh": "#!/bin/sh\ninput=$(cat)\ncase \"$input\" in *'\"tool_name\":\"Edit\"'*) echo edited >&2; exit 2;; esac\n",
		})
		before := tree(t, proj)
		out, _, code := runCLI(t, "convert", "--to", "codex", proj)
		if code != exitProblems || !strings.Contains(out, ".claude/hooks/edits.sh:3:") || !strings.Contains(out, "would not do in Codex what they do in Claude Code") ||
			strings.Contains(out, "accepts it") {
			t.Errorf("exit %d\n%s", code, out)
		}
		if !equalTrees(before, tree(t, proj)) {
			t.Error("a conversion with a hook that would not work wrote")
		}
		// through the adapter, Gemini CLI's replace is Edit to the script
		if rep, code := convertRun(t, "--to", "gemini-cli", proj); code != exitOK || !rep.Wrote ||
			slices.ContainsFunc(rep.Diagnostics, func(d jsonDiag) bool { return d.Code == convert.CodeToolName }) {
			t.Errorf("to gemini-cli: exit %d %+v", code, rep)
		}
	})

	t.Run("bad source", func(t *testing.T) {
		bad := t.TempDir()
		if err := os.MkdirAll(filepath.Join(bad, ".claude"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, ".claude/settings.json"), []byte(`{"hooks": {"Stop": [}`), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, code := runCLI(t, "convert", "--to", "gemini-cli", bad)
		if code != exitProblems || !strings.Contains(out, ".claude/settings.json:1:") {
			t.Errorf("a source with errors: exit %d\n%s", code, out)
		}
		if _, err := os.Stat(filepath.Join(bad, ".gemini")); err == nil {
			t.Error("a source with errors was converted")
		}
		if _, _, code := runCLI(t, "convert", "--to", "codex", t.TempDir()); code != exitProblems {
			t.Errorf("no hooks: exit %d", code)
		}
	})

	t.Run("usage", func(t *testing.T) {
		for _, args := range [][]string{
			{"convert", src},                  // no --to
			{"convert", "--to", "droid", src}, // no such target
			{"convert", "--to", "codex"},      // no folder
			{"convert", "--to", "codex", src, src},
			{"convert", "--to", "codex", "--from", "x", src},
			{"convert", "--to", "codex", "--layout", "flat", src},
			{"convert", "--to", "codex", "--bogus", src},
		} {
			if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, "hookctl: usage") {
				t.Errorf("%v: exit %d\n%s", args, code, stderr)
			}
		}
	})
}

func equalTrees(a, b map[string]string) bool { return maps.Equal(a, b) }
