package skills

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/format/diag"
)

const okEntry = `{"name": "a", "file": "a.md", "timing": "after_user_input", "role": "system", "persistent": false}`

func load1(t *testing.T, files map[string]string) (*Set, string) {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	set, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	return set, root
}

func TestLoadFileRules(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.md": "top secret"})
	hj := "s/hooks/hooks.json"
	tests := []struct {
		name   string
		files  map[string]string
		hooks  int
		broken bool
		marks  []mark // positions in hooks.json
		whole  []want // file-level diagnostics
	}{
		{"no hooks folder", map[string]string{"s/README.md": "x"}, 0, false, nil, nil},
		{"hooks folder without hooks.json", map[string]string{"s/hooks/a.md": "x"}, 0, false, nil, nil},
		{"valid", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "hi"}, 1, false, nil, nil},
		{"hooks is a file", map[string]string{"s/hooks": "x"}, 0, true, nil,
			[]want{{"s/hooks", 0, 0, diag.Error, CodeHooksNotDir}}},
		{"hooks.json is a folder", map[string]string{"s/hooks/hooks.json/": ""}, 0, true, nil,
			[]want{{hj, 0, 0, diag.Error, CodeFileIsDir}}},
		{"hooks.json escapes by symlink", map[string]string{"s/hooks/hooks.json": "->" + filepath.Join(outside, "secret.md")}, 0, true, nil,
			[]want{{hj, 0, 0, diag.Error, CodeEscapingPath}}},
		{"missing md", map[string]string{"s/hooks/hooks.json": doc(okEntry)}, 0, true,
			[]mark{E(CodeMissingFile, `"a.md"`, 0)}, nil},
		{"md case differs", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/A.md": "x"}, 0, true,
			[]mark{E(CodeMissingFile, `"a.md"`, 0)}, nil},
		{"md is a folder", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md/": ""}, 0, true,
			[]mark{E(CodeFileIsDir, `"a.md"`, 0)}, nil},
		{"md symlink escapes (absolute)", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "->" + filepath.Join(outside, "secret.md")}, 0, true,
			[]mark{E(CodeEscapingPath, `"a.md"`, 0)}, nil},
		{"md symlink escapes (relative)", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "->../secret.md", "s/secret.md": "x"}, 0, true,
			[]mark{E(CodeEscapingPath, `"a.md"`, 0)}, nil},
		{"subfolder symlink escapes", map[string]string{"s/hooks/hooks.json": doc(`{"name": "a", "file": "sub/secret.md", "timing": "after_user_input", "role": "system", "persistent": false}`),
			"s/hooks/sub": "->" + outside}, 0, true, []mark{E(CodeEscapingPath, `"sub/`, 0)}, nil},
		{"md symlink inside hooks", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "->real.md", "s/hooks/real.md": "x"}, 1, false, nil, nil},
		{"md in subfolder", map[string]string{"s/hooks/hooks.json": doc(`{"name": "a", "file": "p/a.md", "timing": "after_user_input", "role": "system", "persistent": false}`), "s/hooks/p/a.md": "x"}, 1, false, nil, nil},
		{"unreadable md (bad name)", map[string]string{"s/hooks/hooks.json": doc(`{"name": "a", "file": "a\u0000.md", "timing": "after_user_input", "role": "system", "persistent": false}`)}, 0, true,
			[]mark{E(CodeUnreadableFile, `"a\u0000`, 0)}, nil},
		{"empty md", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": ""}, 1, false,
			[]mark{W(CodeEmptyPrompt, `"a.md"`, 0)}, nil},
		{"blank md with BOM", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "\uFEFF \n\t"}, 1, false,
			[]mark{W(CodeEmptyPrompt, `"a.md"`, 0)}, nil},
		{"md not UTF-8", map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": "caf\xe9"}, 1, false,
			[]mark{W(CodeInvalidUTF8, `"a.md"`, 0)}, nil},
		{"non-ASCII file name", map[string]string{"s/hooks/hooks.json": doc(`{"name": "提示", "file": "提示.md", "timing": "after_user_input", "role": "user", "persistent": false}`), "s/hooks/提示.md": "你好"}, 1, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, _ := load1(t, tt.files)
			sk := set.Skill("s")
			if sk == nil {
				t.Fatal("skill s not found")
			}
			ws := append([]want(nil), tt.whole...)
			for _, m := range tt.marks {
				line, col := at(t, tt.files["s/hooks/hooks.json"], m.needle, m.n)
				ws = append(ws, want{hj, line, col, m.sev, m.code})
			}
			checkDiags(t, sk.Diagnostics, ws...)
			if len(sk.Hooks) != tt.hooks || sk.Broken != tt.broken {
				t.Errorf("hooks=%d broken=%v, want %d %v", len(sk.Hooks), sk.Broken, tt.hooks, tt.broken)
			}
			for _, h := range sk.Hooks {
				if h.Content == "top secret" {
					t.Error("read a file outside hooks/")
				}
			}
		})
	}
}

func TestLoadHookFields(t *testing.T) {
	hooksJSON := "\uFEFF" + doc(
		`{"name": "提示", "file": "提示.md", "timing": "after_tool_call", "role": "user", "persistent": false, "tool_filter": ["read_file"]}`,
		`{"name": "p", "file": "p.md", "timing": "after_user_input", "role": "system", "persistent": true}`,
	)
	set, root := load1(t, map[string]string{
		"file-tools/hooks/hooks.json": hooksJSON,
		"file-tools/hooks/提示.md":      "\uFEFF读完再改。\n",
		"file-tools/hooks/p.md":       "persona",
	})
	got := set.Hooks(nil)
	want := []Hook{
		{Skill: "file-tools", Name: "提示", File: "提示.md", Timing: AfterToolCall, Role: User, ToolFilter: []string{"read_file"}, Content: "读完再改。\n", Line: 2},
		{Skill: "file-tools", Name: "p", File: "p.md", Timing: AfterUserInput, Role: System, Persistent: true, Content: "persona", Line: 3},
	}
	if len(got) != len(want) {
		t.Fatalf("hooks = %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Skill != w.Skill || g.Name != w.Name || g.File != w.File || g.Timing != w.Timing || g.Role != w.Role ||
			g.Persistent != w.Persistent || !slices.Equal(g.ToolFilter, w.ToolFilter) || g.Content != w.Content || g.Line != w.Line {
			t.Errorf("hook %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
	sk := set.Skill("file-tools")
	if !sk.HasHooks || sk.Broken || sk.Dir != filepath.Join(root, "file-tools") || len(sk.Diagnostics) != 0 {
		t.Errorf("skill = %+v", sk)
	}
}

func TestLoadDiscovery(t *testing.T) {
	set, _ := load1(t, map[string]string{
		"b/hooks/hooks.json":    `{"hooks": []}`,
		"a/x":                   "",
		"B/":                    "",
		"_z/":                   "",
		"技能/":                   "",
		".git/hooks/hooks.json": "garbage",
		".hidden/":              "",
		"file.txt":              "not a skill",
		"linked":                "->a",
		"dangling":              "->nowhere",
	})
	var names []string
	for _, s := range set.Skills {
		names = append(names, s.Name)
	}
	if want := []string{"B", "_z", "a", "b", "linked", "技能"}; !slices.Equal(names, want) {
		t.Errorf("skills = %q, want %q", names, want)
	}
	if set.Skill("b") == nil || !set.Skill("b").HasHooks || set.Skill("a").HasHooks || set.Skill("nope") != nil {
		t.Error("Skill lookup / HasHooks")
	}
	if ds := set.Diagnostics(); len(ds) != 0 {
		t.Errorf("diagnostics = %v", ds)
	}
}

func TestLoadRootErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{filepath.Join(dir, "missing"), file} {
		if set, err := Load(context.Background(), root); err == nil || set != nil {
			t.Errorf("Load(%s) = %v, %v; want an error", root, set, err)
		}
	}
	if _, err := Load(context.Background(), filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("error does not wrap ErrNotExist: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Load: %v", err)
	}
}

// Several broken skills and one good one: every problem is reported at
// once, and the good skill (and the good hooks of broken ones) still load.
func TestLoadManyBrokenSkills(t *testing.T) {
	files := map[string]string{
		"bad-json/hooks/hooks.json":  "{\"hooks\": [\n  {\"name\": \"a\",}\n]}",
		"bad-entry/hooks/hooks.json": doc(okEntry, `{"name": "b", "file": "b.md", "timing": "before_plan", "role": "robot", "persistent": "yes"}`),
		"bad-entry/hooks/a.md":       "fine",
		"bad-file/hooks/hooks.json":  doc(okEntry),
		"empty/hooks/hooks.json":     "",
		"good/hooks/hooks.json":      doc(okEntry, `{"name": "b", "file": "b.md", "timing": "before_each_agent", "role": "user", "persistent": false}`),
		"good/hooks/a.md":            "A",
		"good/hooks/b.md":            "B",
		"hooks-file/hooks":           "",
		"null/hooks/hooks.json":      "null",
		"warn-only/hooks/hooks.json": doc(`{"name": "a", "file": "a.md", "timing": "before_planning", "role": "system", "persistent": false, "tool_filter": ["x"], "persitent": true}`),
		"warn-only/hooks/a.md":       "x",
	}
	set, _ := load1(t, files)
	pos := func(file, needle string, n int) (int, int) { return at(t, files[file], needle, n) }
	var ws []want
	add := func(file string, sev diag.Severity, code, needle string, n int) {
		l, c := pos(file, needle, n)
		ws = append(ws, want{file, l, c, sev, code})
	}
	add("bad-json/hooks/hooks.json", diag.Error, CodeSyntax, ",}", 0) // at the trailing comma
	add("bad-entry/hooks/hooks.json", diag.Error, CodeUnknownTiming, `"before_plan"`, 0)
	add("bad-entry/hooks/hooks.json", diag.Error, CodeUnknownRole, `"robot"`, 0)
	add("bad-entry/hooks/hooks.json", diag.Error, CodeType, `"yes"`, 0)
	add("bad-file/hooks/hooks.json", diag.Error, CodeMissingFile, `"a.md"`, 0)
	add("empty/hooks/hooks.json", diag.Error, CodeEmptyFile, "", 0)
	ws = append(ws, want{"hooks-file/hooks", 0, 0, diag.Error, CodeHooksNotDir})
	add("null/hooks/hooks.json", diag.Error, CodeNull, "null", 0)
	add("warn-only/hooks/hooks.json", diag.Warning, CodeToolFilterIgnored, `["x"]`, 0)
	add("warn-only/hooks/hooks.json", diag.Warning, CodeUnknownField, `"persitent"`, 0)
	all := set.Diagnostics()
	checkDiags(t, all, ws...)
	sorted := slices.Clone(all)
	diag.Sort(sorted)
	if !slices.Equal(all, sorted) {
		t.Error("Set.Diagnostics not sorted")
	}

	broken := map[string]bool{}
	for _, s := range set.Skills {
		broken[s.Name] = s.Broken
	}
	wantBroken := map[string]bool{"bad-json": true, "bad-entry": true, "bad-file": true, "empty": true, "good": false, "hooks-file": true, "null": true, "warn-only": false}
	for name, b := range wantBroken {
		if broken[name] != b {
			t.Errorf("%s broken = %v, want %v", name, broken[name], b)
		}
	}
	ids := func(hs []Hook) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.ID())
		}
		return out
	}
	if got, want := ids(set.Hooks(nil)), []string{"bad-entry/a", "good/a", "good/b", "warn-only/a"}; !slices.Equal(got, want) {
		t.Errorf("Hooks(nil) = %q, want %q", got, want)
	}
	if got := set.Hooks([]string{}); len(got) != 0 {
		t.Errorf("Hooks([]) = %v, want none", got)
	}
	if got, want := ids(set.Hooks([]string{"warn-only", "good", "no-such-skill"})), []string{"good/a", "good/b", "warn-only/a"}; !slices.Equal(got, want) {
		t.Errorf("Hooks(selection) = %q, want %q (skill byte order, not selection order)", got, want)
	}
}

func TestLoadFileTooLarge(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"s/hooks/hooks.json": doc(okEntry), "s/hooks/a.md": ""})
	if err := os.Truncate(filepath.Join(root, "s/hooks/a.md"), MaxFileSize+1); err != nil {
		t.Fatal(err)
	}
	set, err := Load(t.Context(), root)
	if err != nil {
		t.Fatal(err)
	}
	l, c := at(t, doc(okEntry), `"a.md"`, 0)
	checkDiags(t, set.Diagnostics(), want{"s/hooks/hooks.json", l, c, diag.Error, CodeFileTooLarge})
}

// TestClaudeProjectFoldersAreNotSkills: in a Claude Code project only the
// folders that hold hooks, scenarios or a plugin are skills.
func TestClaudeProjectFoldersAreNotSkills(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".claude", "src/pkg", "node_modules/x", "guard/hooks", "plugin/.claude-plugin", "flows/scenarios"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	set, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range set.Skills {
		names = append(names, s.Name)
	}
	if want := []string{"flows", "guard", "plugin"}; !slices.Equal(names, want) {
		t.Errorf("skills %v, want %v", names, want)
	}
}
