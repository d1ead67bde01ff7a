package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentFlagWithoutVersion: --agent codex picks what a scenario's
// agent: codex picks — the installed CLI's version when a profile exists
// for it, else the newest bundled — and says which, where it used to be
// a usage error.
func TestAgentFlagWithoutVersion(t *testing.T) {
	skillsDir := filepath.Join("..", "..", "skills")
	scenario := filepath.Join(skillsDir, "codex-guard", "scenarios", "release.yaml")
	// PATH without any codex, and with one that says its version
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "codex")); err != nil {
			dirs = append(dirs, d)
		}
	}
	bin := strings.Join(dirs, string(os.PathListSeparator))
	withCodex := t.TempDir()
	if err := os.WriteFile(filepath.Join(withCodex, "codex"), []byte("#!/bin/sh\necho codex-cli 0.171.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"no CLI", bin, "--agent codex: codex@0.171.0 (the newest bundled profile"},
		{"installed", withCodex + string(os.PathListSeparator) + bin, "--agent codex: codex@0.171.0 (the installed CLI)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLIEnv(t, []string{"PATH=" + c.path}, "simulate", "--trust", "--no-history", "--agent", "codex", "--skills", skillsDir, scenario)
			if code != exitOK {
				t.Fatalf("exit %d: %s\n%s", code, errOut, out)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr does not say which version --agent codex picked (%q):\n%s", c.want, errOut)
			}
			if !strings.Contains(out, "renders as codex@0.171.0") {
				t.Errorf("the trace does not say which version renders it:\n%s", out)
			}
		})
	}
	// an agent nobody knows is still a usage error
	if _, _, code := runCLI(t, "simulate", "--agent", "nobody", scenario); code != exitUsage {
		t.Errorf("--agent nobody: exit %d, want %d", code, exitUsage)
	}
}
