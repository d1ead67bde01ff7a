package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

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

// hookctl convert end to end: exit 0 writes the files (scripts executable)
// that the target validates; a dry run writes nothing; a source with
// errors and a file in the way are exit 1 with nothing written; a wrong
// call is exit 2.
func TestConvertCommand(t *testing.T) {
	src := copyDir(t, "../../skills/claude-guard")

	out, _, code := runCLI(t, "convert", "--to", "codex", "--dry-run", src)
	if code != exitOK || !strings.Contains(out, "nothing written (--dry-run)") || !strings.Contains(out, `"matcher": "apply_patch"`) {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(src, ".codex")); err == nil {
		t.Fatal("a dry run wrote .codex/")
	}

	out, _, code = runCLI(t, "convert", "--to", "codex", src)
	if code != exitOK || !strings.Contains(out, "skills/release/SKILL.md:8:11: warning: not carried over to Codex") ||
		!strings.Contains(out, "[convert-skill-scoped]") || !strings.Contains(out, "written to") {
		t.Fatalf("convert: exit %d\n%s", code, out)
	}
	for _, s := range []string{"guard.sh", "edit-note.sh", "ask-for-tests.sh"} {
		fi, err := os.Stat(filepath.Join(src, ".codex/hooks", s))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: %v %v", s, fi, err)
		}
	}
	// the same again: every file unchanged, exit 0
	if out, _, code = runCLI(t, "convert", "--to", "codex", src); code != exitOK || !strings.Contains(out, "unchanged") {
		t.Errorf("again: exit %d\n%s", code, out)
	}

	// Claude Code as the target: its validator checks what is written
	into := t.TempDir()
	out, _, code = runCLI(t, "convert", "--to", "claude-code", "--layout", "project", "-o", into, "--json", src)
	var rep struct {
		Written int               `json:"written"`
		Hosted  bool              `json:"hosted"`
		Checked []json.RawMessage `json:"checked"`
		Wrote   bool              `json:"wrote"`
		Plan    []convert.Planned `json:"plan"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != exitOK || !rep.Hosted || len(rep.Checked) > 0 || !rep.Wrote || rep.Written != 3 {
		t.Fatalf("to claude-code: exit %d, %v\n%s", code, err, out)
	}
	if out, _, code = runCLI(t, "validate", into); code != exitOK || strings.Contains(out, ": warning:") {
		t.Errorf("validate of the written project: exit %d\n%s", code, out)
	}

	// a file in the way: exit 1, nothing written; --force replaces it
	guard := filepath.Join(into, ".claude/hooks/guard.sh")
	if err := os.WriteFile(guard, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, _, code = runCLI(t, "convert", "--to", "claude-code", "--layout", "project", "-o", into, src); code != exitProblems ||
		!strings.Contains(out, "[convert-exists]") || !strings.Contains(out, "nothing written") {
		t.Errorf("a script in the way: exit %d\n%s", code, out)
	}
	if out, _, code = runCLI(t, "convert", "--to", "claude-code", "--layout", "project", "-o", into, "--force", src); code != exitOK {
		t.Errorf("--force: exit %d\n%s", code, out)
	}

	// a source with errors: exit 1, its diagnostics, nothing written
	bad := t.TempDir()
	if err := os.MkdirAll(filepath.Join(bad, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, ".claude/settings.json"), []byte(`{"hooks": {"Stop": [}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _, code = runCLI(t, "convert", "--to", "gemini-cli", bad); code != exitProblems ||
		!strings.Contains(out, ".claude/settings.json:1:") || !strings.Contains(out, "nothing converted") {
		t.Errorf("a source with errors: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(bad, ".gemini")); err == nil {
		t.Error("a source with errors was converted")
	}
	// no hooks at all: exit 1
	if out, _, code = runCLI(t, "convert", "--to", "codex", t.TempDir()); code != exitProblems || !strings.Contains(out, "nothing to convert") {
		t.Errorf("no hooks: exit %d\n%s", code, out)
	}

	for _, args := range [][]string{
		{"convert", src},                  // no --to
		{"convert", "--to", "droid", src}, // no such target
		{"convert", "--to", "codex"},      // no folder
		{"convert", "--to", "codex", "--from", "x", src},
		{"convert", "--to", "codex", "--layout", "flat", src},
	} {
		if _, stderr, code := runCLI(t, args...); code != exitUsage || !strings.Contains(stderr, "hookctl: usage") {
			t.Errorf("%v: exit %d\n%s", args, code, stderr)
		}
	}
}
