package studio

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/hooksets"
)

// claudeRoot is a skills folder that is also a Claude Code project: its
// settings files, a project skill with frontmatter hooks, a hook script,
// a plugin skill (hooks/hooks.json, skills/<n>/SKILL.md) and a seed 000
// skill whose hooks.json is not Claude Code's.
func claudeRoot(t *testing.T) string {
	root := skillsRoot(t)
	write(t, filepath.Join(root, ".claude/settings.json"), `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh .claude/hooks/guard.sh"}]}]
  }
}`)
	write(t, filepath.Join(root, ".claude/settings.local.json"), `{}`)
	write(t, filepath.Join(root, ".claude/hooks/guard.sh"), "exit 0\n")
	write(t, filepath.Join(root, ".claude/skills/review/SKILL.md"), "---\nname: review\nhooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: echo once\n          once: true\n---\nReview the change.\n")
	write(t, filepath.Join(root, "plug/.claude-plugin/plugin.json"), `{"name": "plug"}`)
	write(t, filepath.Join(root, "plug/hooks/hooks.json"), `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo plug"}]}]}}`)
	write(t, filepath.Join(root, "plug/skills/fmt/SKILL.md"), "---\nname: fmt\n---\nFormat.\n")
	write(t, filepath.Join(root, "plug/scripts/note.sh"), "echo note\n")
	return root
}

func TestClaudeConfigKinds(t *testing.T) {
	root := claudeRoot(t)
	reg := hooksets.Registry(hooksets.RegistryOptions{})
	cases := []struct{ file, in, bare string }{
		{".claude/settings.json", claudehook.KindSettings, claudehook.KindSettings},
		{".claude/settings.local.json", claudehook.KindSettings, claudehook.KindSettings},
		{".claude/skills/review/SKILL.md", claudehook.KindSkill, claudehook.KindSkill},
		{"plug/hooks/hooks.json", claudehook.KindSettings, "hooks-json"}, // the manifest beside it decides
		{"plug/skills/fmt/SKILL.md", claudehook.KindSkill, "prompt"},
		{"files/hooks/hooks.json", "hooks-json", "hooks-json"}, // seed 000's: no manifest
		{"files/skills/x/SKILL.md", "prompt", "prompt"},
		{".claude/skills/.hidden/SKILL.md", "prompt", "prompt"},
		{".claude/hooks/guard.sh", "text", "text"},
	}
	for _, c := range cases {
		if got := reg.Kind(root, c.file); got != c.in {
			t.Errorf("Kind(root, %s) = %s, want %s", c.file, got, c.in)
		}
		if got := reg.Kind("", c.file); got != c.bare {
			t.Errorf("Kind(%s) = %s, want %s", c.file, got, c.bare)
		}
	}
	// The root itself a plugin: its hooks/hooks.json and skills/ are Claude Code's.
	plugin := t.TempDir()
	write(t, filepath.Join(plugin, ".claude-plugin/plugin.json"), `{"name": "p"}`)
	for file, want := range map[string]string{"hooks/hooks.json": claudehook.KindSettings, "skills/a/SKILL.md": claudehook.KindSkill} {
		if got := reg.Kind(plugin, file); got != want {
			t.Errorf("root plugin: Kind(%s) = %s, want %s", file, got, want)
		}
	}
}

// Claude Code's files open, save and draft through the editor path; a
// draft of the settings is what the run reads; other paths stay closed.
func TestClaudeFilesInTheEditor(t *testing.T) {
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: (&recorder{}).emit}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	root := claudeRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".claude/settings.json", ".claude/settings.local.json", ".claude/skills/review/SKILL.md", ".claude/hooks/guard.sh",
		"plug/hooks/hooks.json", "plug/skills/fmt/SKILL.md", "plug/scripts/note.sh", ".hookstudio/scenarios/x.yaml"} {
		if _, err := s.OpenFile(f); err != nil {
			t.Errorf("OpenFile(%s): %v", f, err)
		}
	}
	for _, bad := range []string{".claude/other.json", ".claude/skills/review/notes.md", "files/skills/x/SKILL.md", ".claude/../x", "files/scripts/x.sh"} {
		if _, err := s.OpenFile(bad); !errors.Is(err, ErrNotEditable) {
			t.Errorf("OpenFile(%s) = %v, want ErrNotEditable", bad, err)
		}
	}
	if _, err := s.SetDraft(ctx, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo drafted"}]}]}}`); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.State().Exec.Hooks, func(h engine.HookInfo) bool { return h.System == "claude-code" && h.Hook == "echo drafted" }) {
		t.Errorf("the settings draft's handler is not listed: %+v", s.State().Exec.Hooks)
	}
	if _, err := s.SetDraft(ctx, "files/skills/x/SKILL.md", "x"); !errors.Is(err, ErrNotHookFile) {
		t.Errorf("a non-plugin SKILL.md was drafted: %v", err)
	}
	res, err := s.SaveFile(ctx, ".claude/settings.local.json", `{"hooks": {"Nope": []}}`, hashOf([]byte("{}")))
	if err != nil || res.Status != "saved" || len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != "claude-unknown-event" {
		t.Fatalf("save: %v %+v", err, res)
	}
	if data, _ := os.ReadFile(filepath.Join(root, ".claude/settings.local.json")); !strings.Contains(string(data), "Nope") {
		t.Errorf("not saved: %s", data)
	}

	files, err := s.HookFiles("plug")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.File+"="+f.Kind)
	}
	want := "plug/hooks/hooks.json=claude-settings plug/scripts/note.sh=text plug/skills/fmt/SKILL.md=claude-skill .claude/settings.json=claude-settings " +
		".claude/settings.local.json=claude-settings .claude/skills/review/SKILL.md=claude-skill"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("HookFiles(plug) =\n%s\nwant\n%s", got, want)
	}
}

// LintFile reads Claude Code's files with claudehook and returns the
// diagnostics of the file linted, at their lines.
func TestLintClaudeFiles(t *testing.T) {
	s, _, ctx := newService(t)
	root := claudeRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file, text string
		code       string // "" none
		line       int
	}{
		{".claude/settings.json", "{\n  \"hooks\": {\n    \"PreToolUse\": []\n  }\n}\n", "", 0},
		{".claude/settings.json", "{\n  \"hooks\": {\n    \"PreToolUze\": []\n  }\n}\n", "claude-unknown-event", 3},
		{".claude/settings.json", "{\n  \"hooks\": {\n", "claude-syntax", 3},
		{".claude/settings.local.json", "{\"hooks\": {\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"sh .claude/hooks/gone.sh\"}]}]}}", "claude-missing-script", 1},
		{"plug/hooks/hooks.json", "{\"hooks\": {\"Stop\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo\"}]}]}}", "claude-matcher-ignored", 1},
		{".claude/skills/review/SKILL.md", "---\nname: review\nhooks:\n  Stop:\n    - hooks:\n        - type: nope\n---\n", "claude-unknown-type", 6},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.code, func(t *testing.T) {
			ds := s.LintFile(ctx, c.file, c.text)
			for _, d := range ds {
				if d.File != c.file {
					t.Errorf("another file's diagnostic: %+v", d)
				}
			}
			if c.code == "" {
				if len(ds) != 0 {
					t.Fatalf("diagnostics %v", ds)
				}
				return
			}
			i := slices.IndexFunc(ds, func(d diag.Diagnostic) bool { return d.Code == c.code })
			if i < 0 {
				t.Fatalf("no %s in %v", c.code, ds)
			}
			if ds[i].Line != c.line {
				t.Errorf("%+v, want line %d", ds[i], c.line)
			}
		})
	}
}

// The form's round trip through the service: hooks and lines read, the
// events catalogue, an edit written with the other keys kept, and the
// diagnostics of the new text.
func TestClaudeHooksForm(t *testing.T) {
	s, _, ctx := newService(t)
	root := claudeRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	const file = ".claude/settings.json"
	text := "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"PreToolUze\": []\n  }\n}\n"
	r := s.InspectClaudeHooks(ctx, file, text)
	if !r.Editable || r.Lines["PreToolUze"] != 4 || len(r.Diagnostics) != 1 || r.Diagnostics[0].Line != 4 {
		t.Fatalf("inspect %+v", r)
	}
	i := slices.IndexFunc(r.Events, func(e ClaudeEventInfo) bool { return e.Name == "PreToolUse" })
	if i < 0 || !r.Events[i].Fires || !r.Events[i].Matcher || !r.Events[i].If {
		t.Errorf("events %+v", r.Events)
	}
	if j := slices.IndexFunc(r.Events, func(e ClaudeEventInfo) bool { return e.Name == "Notification" }); j < 0 || r.Events[j].Fires {
		t.Errorf("Notification: %+v", r.Events)
	}
	r, err := s.EditClaudeHooks(ctx, file, text, []byte(`{"Stop":[{"hooks":[{"type":"command","command":"echo done"}]}]}`))
	if err != nil || !r.Editable || len(r.Diagnostics) != 0 || !strings.HasPrefix(r.Text, "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"Stop\"") {
		t.Fatalf("edit: %v %+v", err, r)
	}
	if bad := s.InspectClaudeHooks(ctx, file, "{\"hooks\": ["); bad.Editable || bad.Error == "" || len(bad.Diagnostics) == 0 {
		t.Errorf("a broken file is editable: %+v", bad)
	}
	if _, err := s.EditClaudeHooks(ctx, file, "{\"hooks\": [", []byte(`{}`)); err == nil {
		t.Error("edited a broken file")
	}
}

// Importing a Claude Code hooks.json as a seed 000 skill says what it is.
func TestImportClaudeHooksJSON(t *testing.T) {
	s, _, ctx := newService(t)
	if _, err := s.Open(ctx, skillsRoot(t)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "plug", "hooks", "hooks.json")
	write(t, file, `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo"}]}]}}`)
	if _, err := s.Import(ctx, file); !errors.Is(err, ErrClaudeHooksJSON) {
		t.Errorf("import = %v, want ErrClaudeHooksJSON", err)
	}
	seed := filepath.Join(t.TempDir(), "mine", "hooks", "hooks.json")
	write(t, seed, `{"hooks": [{"name": "h", "file": "h.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`)
	if _, err := s.Import(ctx, seed); err != nil {
		t.Errorf("a seed 000 hooks.json: %v", err)
	}
}
