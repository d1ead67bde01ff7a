package edit

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

func put(t *testing.T, root, rel, content string, mode fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// claudeFolder is a skills root with a Claude Code plugin skill whose
// hooks/guard.sh is executable, and a project .claude with its own guard.
func claudeFolder(t *testing.T) string {
	root := t.TempDir()
	put(t, root, "plug/.claude-plugin/plugin.json", `{"name": "plug"}`, 0o644)
	put(t, root, "plug/hooks/hooks.json", `{
  "description": "kept as written",
  "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh"}]}]}
}`, 0o644)
	put(t, root, "plug/hooks/guard.sh", "#!/bin/sh\nexit 0\n", 0o755)
	put(t, root, "plug/scripts/note.py", "print('x')\n", 0o644)
	put(t, root, "plug/skills/fmt/SKILL.md", "---\nname: fmt\n---\nFormat.\n", 0o644)
	put(t, root, "plug/scenarios/try.yaml", "name: try\nrequests:\n  - user: hi\n    reply: hello\n", 0o644)
	put(t, root, "plug/.git/config", "x", 0o644)
	put(t, root, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/stop.sh"}]}]}}`, 0o644)
	put(t, root, ".claude/settings.local.json", `{"env": {"TOKEN": "mine"}}`, 0o644)
	put(t, root, ".claude/hooks/stop.sh", "#!/bin/sh\nexit 0\n", 0o755)
	put(t, root, ".claude/skills/review/SKILL.md", "---\nname: review\n---\nReview.\n", 0o644)
	return root
}

// zipModes lists a zip's entries as name=mode.
func zipModes(t *testing.T, data []byte) map[string]fs.FileMode {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]fs.FileMode{}
	for _, f := range zr.File {
		out[f.Name] = f.Mode().Perm()
	}
	return out
}

func keys(m map[string]fs.FileMode) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

func mode(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// A Claude Code plugin skill and a project's .claude export with every
// file (hooks.json as written, not seed 000's), scripts keep their exec
// bits through a .zip, a folder and an import.
func TestExportImportClaudeCode(t *testing.T) {
	ctx := context.Background()
	root := claudeFolder(t)
	cases := []struct {
		name, want string
		execs      []string
	}{
		{"plug", "plug/.claude-plugin/plugin.json plug/hooks/guard.sh plug/hooks/hooks.json plug/scenarios/try.yaml plug/scripts/note.py plug/skills/fmt/SKILL.md",
			[]string{"plug/hooks/guard.sh"}},
		{ClaudeProject, ".claude/hooks/stop.sh .claude/settings.json .claude/skills/review/SKILL.md", []string{".claude/hooks/stop.sh"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var zipped bytes.Buffer
			if _, err := ExportSkill(ctx, root, c.name, &zipped, ExportOptions{Scenarios: true}); err != nil {
				t.Fatal(err)
			}
			modes := zipModes(t, zipped.Bytes())
			if got := keys(modes); got != c.want {
				t.Fatalf("zip holds %s\nwant %s", got, c.want)
			}
			for name, m := range modes {
				want := fs.FileMode(0o644)
				if strings.Contains(strings.Join(c.execs, " "), name) {
					want = 0o755
				}
				if m != want {
					t.Errorf("%s: mode %v, want %v", name, m, want)
				}
			}
			dest := t.TempDir()
			if _, err := ExportSkillDir(ctx, root, c.name, dest, ExportOptions{}); err != nil {
				t.Fatal(err)
			}
			for _, x := range c.execs {
				if m := mode(t, filepath.Join(dest, filepath.FromSlash(x))); m&0o111 == 0 {
					t.Errorf("folder export: %s lost its exec bits (%v)", x, m)
				}
			}
			into := t.TempDir()
			names, _, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), into, ImportOptions{})
			if err != nil || len(names) != 1 || names[0] != c.name {
				t.Fatalf("import: %v %v", names, err)
			}
			for _, x := range c.execs {
				if m := mode(t, filepath.Join(into, filepath.FromSlash(x))); m&0o111 == 0 {
					t.Errorf("import: %s lost its exec bits (%v)", x, m)
				}
			}
			if c.name == "plug" {
				got, _ := os.ReadFile(filepath.Join(into, "plug/hooks/hooks.json"))
				want, _ := os.ReadFile(filepath.Join(root, "plug/hooks/hooks.json"))
				if !bytes.Equal(got, want) {
					t.Errorf("hooks.json changed on the way:\n%s", got)
				}
			}
			if _, _, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), into, ImportOptions{}); !errors.As(err, new(*ExistsError)) {
				t.Errorf("a second import over it: %v", err)
			}
		})
	}
}

// Claude Code hooks with errors are refused on export and on import.
func TestClaudeCodeInvalid(t *testing.T) {
	ctx := context.Background()
	root := claudeFolder(t)
	put(t, root, "plug/hooks/hooks.json", `{"hooks": {"PreToolUse": [{"hooks": [{"type": "comand", "command": "x"}]}]}}`, 0o644)
	var buf bytes.Buffer
	_, err := ExportSkill(ctx, root, "plug", &buf, ExportOptions{})
	var invalid *InvalidError
	if !errors.As(err, &invalid) || len(invalid.Diagnostics) == 0 || invalid.Diagnostics[0].Code != "claude-unknown-type" {
		t.Fatalf("export of a broken plugin: %v", err)
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	for name, text := range map[string]string{".claude/settings.json": `{"hooks": {"Stop": 3}}`} {
		w, _ := zw.Create(name)
		w.Write([]byte(text))
	}
	zw.Close()
	into := t.TempDir()
	if _, _, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), into, ImportOptions{}); !errors.As(err, &invalid) {
		t.Fatalf("import of a broken .claude: %v", err)
	}
	if _, err := os.Stat(filepath.Join(into, ".claude")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a refused import wrote .claude")
	}
}
