package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hookctl export of a Claude Code plugin skill and of a project's .claude,
// then hookctl import: the hook scripts arrive executable and the imported
// folder validates clean.
func TestExportImportClaudeCode(t *testing.T) {
	src := t.TempDir()
	files := []struct {
		rel, text string
		mode      os.FileMode
	}{
		{"plug/.claude-plugin/plugin.json", `{"name": "plug"}`, 0o644},
		{"plug/hooks/hooks.json", `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"}]}]}}`, 0o644},
		{"plug/hooks/guard.sh", "#!/bin/sh\nexit 0\n", 0o755},
		{".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/stop.sh"}]}]}}`, 0o644},
		{".claude/hooks/stop.sh", "#!/bin/sh\nexit 0\n", 0o755},
	}
	for _, f := range files {
		p := filepath.Join(src, filepath.FromSlash(f.rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.text), f.mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	into := t.TempDir()
	for _, c := range []struct{ dir, script string }{{"plug", "plug/hooks/guard.sh"}, {".claude", ".claude/hooks/stop.sh"}} {
		out := filepath.Join(t.TempDir(), "out.zip")
		if stdout, stderr, code := runCLI(t, "export", filepath.Join(src, c.dir), "-o", out); code != exitOK {
			t.Fatalf("export %s: exit %d\n%s%s", c.dir, code, stdout, stderr)
		}
		if stdout, stderr, code := runCLI(t, "import", out, "--skills", into); code != exitOK || !strings.Contains(stdout, "imported "+c.dir) {
			t.Fatalf("import %s: exit %d\n%s%s", c.dir, code, stdout, stderr)
		}
		fi, err := os.Stat(filepath.Join(into, filepath.FromSlash(c.script)))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s after export and import: %v %v", c.script, fi, err)
		}
	}
	if stdout, _, code := runCLI(t, "validate", into); code != exitOK || strings.Contains(stdout, "claude-missing-script") {
		t.Errorf("validate of the import: exit %d\n%s", code, stdout)
	}
}
