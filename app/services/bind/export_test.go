package bind

import (
	"os"
	"path/filepath"
	"testing"
)

// The app's exports: a folder export is the skill's folder inside the one
// chosen (not nested twice), and a project's .claude exports as a zip the
// app imports elsewhere with its hook script still executable.
func TestExportToFolderAndClaudeProject(t *testing.T) {
	s, win, _ := newStudio(t)
	root := skillsFolder(t)
	script := filepath.Join(root, ".claude/hooks/guard.sh")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".claude/settings.json"),
		[]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenFolder(root); err != nil {
		t.Fatal(err)
	}

	win.choose = t.TempDir()
	got, err := s.ExportSkill("s", false)
	if err != nil || got != filepath.Join(win.choose, "s") {
		t.Fatalf("folder export: %q %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(got, "hooks", "hooks.json")); err != nil {
		t.Errorf("the exported folder has no hooks.json: %v", err)
	}

	win.save = filepath.Join(t.TempDir(), "claude.zip")
	if got, err := s.ExportSkill(".claude", true); err != nil || got != win.save {
		t.Fatalf(".claude export: %q %v", got, err)
	}
	other := t.TempDir()
	if _, err := s.OpenFolder(other); err != nil {
		t.Fatal(err)
	}
	win.open = win.save
	if _, err := s.ImportSkills(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(other, ".claude/hooks/guard.sh"))
	if err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("the imported guard.sh: %v %v", fi, err)
	}
}
