package hookdecl

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFiles: a draft before the file, a missing file no problem, one that
// cannot be read reported, every file read listed and in the fingerprint.
func TestFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.json": "file", "dir.json/x": ""})
	f := NewFiles(map[string][]byte{"b.json": []byte("draft")}, "x-unreadable")
	data, ok := f.Open(filepath.Join(root, "a.json"), "a.json")
	if !ok || string(data) != "file" {
		t.Errorf("a.json: %q %v", data, ok)
	}
	if data, ok := f.Open(filepath.Join(root, "b.json"), "b.json"); !ok || string(data) != "draft" {
		t.Errorf("the draft: %q %v", data, ok)
	}
	if _, ok := f.Open(filepath.Join(root, "gone.json"), "gone.json"); ok {
		t.Error("a missing file was read")
	}
	if _, ok := f.Open(filepath.Join(root, "dir.json"), "dir.json"); ok || len(f.Diags) != 1 || f.Diags[0].Code != "x-unreadable" {
		t.Errorf("a file that cannot be read: %v %+v", ok, f.Diags)
	}
	if !slices.Equal(f.Read, []string{"a.json", "b.json"}) {
		t.Errorf("read %q", f.Read)
	}
	g := NewFiles(map[string][]byte{"b.json": []byte("other")}, "")
	g.Open(filepath.Join(root, "a.json"), "a.json")
	g.Open(filepath.Join(root, "b.json"), "b.json")
	if f.Fingerprint() == g.Fingerprint() {
		t.Error("two texts of b.json have one fingerprint")
	}
}

func TestBundle(t *testing.T) {
	root := t.TempDir()
	b := Bundle{Manifest: "m.json", Hooks: "hooks/hooks.json"}
	write(t, root, map[string]string{"m.json": "{}", "hooks/hooks.json": "{}", "ext/m.json": "{}", "ext/hooks/hooks.json": "{}", "plain/hooks/hooks.json": "{}"})
	for _, c := range []struct {
		file         string
		hooks, scrip bool
	}{
		{"hooks/hooks.json", true, false}, {"ext/hooks/hooks.json", true, false}, {"plain/hooks/hooks.json", false, false},
		{"hooks/guard.sh", false, true}, {"ext/scripts/x.py", false, true}, {".hidden/hooks/hooks.json", false, false},
	} {
		if got := b.File(root, c.file); got != c.hooks {
			t.Errorf("File(%s) = %v", c.file, got)
		}
		if got := b.Script(root, c.file); got != c.scrip {
			t.Errorf("Script(%s) = %v", c.file, got)
		}
	}
	if got := b.List(root, "ext"); !slices.Equal(got, []string{"ext/hooks/hooks.json"}) {
		t.Errorf("List: %q", got)
	}
	if !slices.Equal(b.Folders(root, "ext"), []string{"scripts"}) || b.Folders(root, "plain") != nil {
		t.Error("a bundle's scripts folder")
	}
	if in := Scripts(".codex"); !in(root, ".codex/hooks/a.sh") || !in(root, "skill/.codex/hooks/a.sh") || in(root, ".codex/a.sh") {
		t.Error("Scripts(.codex)")
	}
}

func TestTitle(t *testing.T) {
	for _, c := range []struct{ name, command, want string }{
		{"", "./hooks/guard.sh --strict", "guard.sh"},
		{"", `python3 "$DIR/hooks/check.py"`, "check.py"},
		{"", "./a.sh | tee log", "./a.sh | tee log"},
		{"named", "./a.sh", "named"},
		{"", "echo one two three four five six seven eight nine ten eleven", "echo one two three four five six seven eight ni…"},
	} {
		if got := Title(c.name, c.command); got != c.want {
			t.Errorf("Title(%q, %q) = %q, want %q", c.name, c.command, got, c.want)
		}
	}
}

// TestCheckCommand: what a line runs, on disk: a script missing, one that
// cannot run, one an interpreter runs (need not be executable), a line
// the shell cannot read; words under a variable the agent sets resolved.
func TestCheckCommand(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"run.sh": "", "lib.py": ""})
	if err := os.Chmod(filepath.Join(root, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	resolve := Resolver(map[string]string{"CLAUDE_PROJECT_DIR": root})
	c := CheckCommand(`./run.sh && python3 lib.py && "$CLAUDE_PROJECT_DIR"/gone.sh; "$GEMINI_CWD"/x.sh`, root, resolve)
	if c.Syntax != nil || len(c.Missing) != 1 || c.Missing[0].Path != filepath.Join(root, "gone.sh") ||
		len(c.NotExecutable) != 1 || c.NotExecutable[0].Word.Text != "./run.sh" || !slices.Equal(c.Scripts, []string{filepath.Join(root, "lib.py")}) {
		t.Errorf("%+v", c)
	}
	if c := CheckCommand("echo 'open", root, resolve); c.Syntax == nil {
		t.Error("a line the shell cannot read")
	}
}

// TestLoaded: what a run reaches of a folder's hooks by the skills it
// enables: the commands trust covers, whether the system is active, the
// handler attached with the run's profile.
func TestLoaded(t *testing.T) {
	l := Loaded{System: "x", Diags: []diag.Diagnostic{{Code: "c"}}, Decls: []Decl{
		{Event: "E", Name: "always", Source: "f:1", Command: "true", Runs: true},
		{Event: "E", Name: "skill", Source: "f:2", Skill: "s", Command: "false", Runs: true},
		{Event: "E", Name: "never", Source: "f:3", Command: "", Runs: false},
	}}
	sc := &scenario.Scenario{}
	if got := len(l.Commands(sc, true)); got != 2 {
		t.Errorf("the folder's commands: %d", got)
	}
	if len(l.Hooks()) != 3 || len(l.Diagnostics()) != 1 || !l.Active(sc) {
		t.Error("hooks, diagnostics, active")
	}
	none := Loaded{System: "x", Decls: []Decl{{Event: "E", Skill: "s", Runs: true}}}
	sc2, ds := scenario.Parse("s.yaml", []byte("name: t\nenabled_skills: [other]\nrequests:\n  - user: hi\n"))
	if sc2 == nil || diag.HasErrors(ds) {
		t.Fatalf("scenario %+v", ds)
	}
	if none.Active(sc2) {
		t.Error("a hook of a skill the run does not enable makes the system active")
	}
	if a, err := none.Attach(nil, registry.Run{Scenario: sc2}); a != nil || err != nil {
		t.Error("attached to a run that reaches none of its hooks")
	}
	if p := Profile(registry.Run{}, "codex"); p == nil || p.By != profile.ByNewest {
		t.Errorf("the newest bundled profile: %+v", p)
	}
}
