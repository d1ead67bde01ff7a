package studio

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/services/edit"
)

func TestLintFileByKind(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	write(t, filepath.Join(root, "files/hooks/check.sh"), "echo '{}'\n")
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		file, text string
		code       string // "" no diagnostics
		line       int
	}{
		{"files/hooks/hooks.yaml", "stop:\n  - command: sh $JCLI_HOOK_DIR/check.sh\n", "", 0},
		{"files/hooks/hooks.yaml", "stop:\n  - command: echo\n    colour: red\n", "unknown-field", 3},
		{"files/hooks/hooks.yaml", "stop:\n  - command: sh $JCLI_HOOK_DIR/gone.sh\n", "script-not-found", 2},
		{".jcli/hooks.yaml", "no_such:\n  - command: echo\n", "unknown-event", 1},
		{"files/hooks/request-hooks.yaml", "start:\n  - name: x\n", "missing-field", 2},
		{"files/hooks/picoclaw.json", "{\"hooks\": 3}", "wrong-type", 1},
		{".picoclaw/hooks.json", "{\"hooks\": {\"enabled\": true, \"processes\": {}}}", "", 0},
		{"files/hooks/hooks.json", "{\"hooks\": 3}", "wrong-type", 1},
		{"files/hooks/check.sh", "not checked", "", 0},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.code, func(t *testing.T) {
			ds := s.LintFile(ctx, c.file, c.text)
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
			if d := ds[i]; d.File != c.file || d.Line != c.line {
				t.Errorf("%+v, want %s:%d", d, c.file, c.line)
			}
		})
	}
}

// The root's configs open, draft and save through the editor path; a
// hooks.yaml draft is simulated (its hooks listed) before it is saved.
func TestRootConfigsAndDrafts(t *testing.T) {
	rec := &recorder{}
	s, err := New(withAppHooks(Config{DataDir: t.TempDir(), Tokens: counter(t), Emit: rec.emit}, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); s.Close() })
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".jcli/hooks.yaml", ".picoclaw/hooks.json", ".hookstudio/request-hooks.yaml", ".claude/settings.json", ".claude/settings.local.json"} {
		if _, err := s.OpenFile(f); err != nil {
			t.Errorf("OpenFile(%s): %v", f, err)
		}
	}
	if _, err := s.OpenFile(".jcli/other.yaml"); err == nil {
		t.Error("opened a root file that is no hook config")
	}
	const file = "files/hooks/hooks.yaml"
	if _, err := s.SetDraft(ctx, file, "stop:\n  - name: drafted\n    command: echo hi\n"); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.State().Exec.Hooks, func(h engine.HookInfo) bool { return h.Hook == "drafted" }) {
		t.Errorf("the draft's hook is not listed: %+v", s.State().Exec.Hooks)
	}
	if _, err := s.SetDraft(ctx, "files/hooks/request-hooks.yaml", "start:\n  - name: req-drafted\n    command: cat >/dev/null\n"); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(s.State().Exec.Hooks, func(h engine.HookInfo) bool { return h.Hook == "req-drafted" }) {
		t.Errorf("the request hooks draft is not listed: %+v", s.State().Exec.Hooks)
	}
	res, err := s.SaveFile(ctx, ".jcli/hooks.yaml", "stop:\n  - command: echo\n    colour: red\n", "")
	if err != nil || res.Status != "saved" || len(res.Diagnostics) == 0 {
		t.Fatalf("save: %v %+v", err, res)
	}
	if _, err := os.Stat(filepath.Join(root, ".jcli/hooks.yaml")); err != nil {
		t.Error(err)
	}
	if _, err := s.SetDraft(ctx, ".picoclaw/hooks.json", "{}"); err != nil {
		t.Errorf("root draft refused: %v", err)
	}
	files, err := s.HookFiles("files")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.File+"="+f.Kind)
	}
	if got := strings.Join(names, " "); got != "files/hooks/ctx.md=prompt files/hooks/hint.md=prompt files/hooks/hooks.json=hooks-json .jcli/hooks.yaml=hooks-yaml" {
		t.Errorf("HookFiles = %s", got)
	}
	if _, err := s.HookFiles("../x"); err == nil {
		t.Error("listed outside the root")
	}
}

func TestInspectAndEditCommandHooks(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	const file = "files/hooks/hooks.yaml"
	r, err := s.EditCommandHooks(ctx, file, "", edit.CommandHookOp{Kind: "add", Event: "stop", Fields: map[string]string{"name": "a", "command": "echo"}})
	if err != nil || !r.Editable || len(r.Events) != 1 || r.Events[0].Hooks[0].Fields["name"] != "a" || len(r.Diagnostics) != 0 {
		t.Fatalf("%v %+v", err, r)
	}
	if r, err = s.EditCommandHooks(ctx, file, r.Text, edit.CommandHookOp{Kind: "set", Event: "stop", Key: "on_error", Value: "sometimes"}); err != nil || len(r.Diagnostics) == 0 {
		t.Errorf("a bad value has no diagnostic: %v %+v", err, r)
	}
	bad := s.InspectCommandHooks(ctx, file, "stop: [\n")
	if bad.Editable || bad.Error == "" || len(bad.Diagnostics) == 0 {
		t.Errorf("a broken file is editable: %+v", bad)
	}
	if _, err := s.EditCommandHooks(ctx, file, "stop: [\n", edit.CommandHookOp{Kind: "delete", Event: "stop"}); err == nil {
		t.Error("edited a broken file")
	}
}

// jcli's current HOOK.yaml and the folder's settings open, lint and save
// like the root's other configs; nothing outside .jcli/hooks/<name>/ does.
func TestHookDirFilesInTheEditor(t *testing.T) {
	s, _, ctx := newService(t)
	if _, err := s.Open(ctx, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]bool{
		".jcli/hooks/guard/HOOK.yaml": true, ".jcli/hooks/guard/HOOK.yml": true, ".hookstudio/settings.yaml": true,
		".jcli/hooks/../x/HOOK.yaml": false, ".jcli/hooks/a/b/HOOK.yaml": false, ".jcli/hooks/HOOK.yaml": false, ".jcli/hooks/guard/run.sh": false,
	} {
		if got := s.editableFile("", file); got != want {
			t.Errorf("editableFile(%q) = %v", file, got)
		}
	}
	if k := s.ConfigKind(".jcli/hooks/guard/HOOK.yaml"); k != "hook-yaml" {
		t.Errorf("kind %q", k)
	}
	ds := s.LintFile(ctx, ".jcli/hooks/guard/HOOK.yaml", "events: [stop]\ncommand: \"true\"\non_error: abort\n")
	if len(ds) != 1 || ds[0].Line != 3 || ds[0].File != ".jcli/hooks/guard/HOOK.yaml" {
		t.Errorf("lint %+v, want on_error at line 3", ds)
	}
}

// TestCreateHookFile: an empty folder is offered every system's starter;
// creating one writes its starter text, which lints clean, drops it from the
// offer and lists it; a second create, or one over a file the user wrote,
// fails with fs.ErrExist and leaves the file alone; a path no system
// starts is refused.
func TestCreateHookFile(t *testing.T) {
	s, _, ctx := newService(t, appHooksOn)
	root := t.TempDir()
	write(t, filepath.Join(root, ".gemini/settings.json"), `{"theme": "mine"}`)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	offered := func() []string {
		t.Helper()
		nf, err := s.NewHookFiles()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, n := range nf {
			out = append(out, n.File)
		}
		return out
	}
	before := offered()
	for _, f := range []string{".codex/hooks.json", ".github/hooks/hooks.json", ".qwen/settings.json", ".factory/hooks.json", ".claude/settings.json"} {
		if !slices.Contains(before, f) {
			t.Errorf("%s not offered in %v", f, before)
		}
	}
	if slices.Contains(before, ".gemini/settings.json") {
		t.Errorf("an existing file is offered: %v", before)
	}
	snap, err := s.CreateHookFile(ctx, ".codex/hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := s.Hooks().Starter(".codex/hooks.json")
	if !snap.Exists || snap.Content != want {
		t.Fatalf("created %+v, want the starter %q", snap, want)
	}
	if ds := s.LintFile(ctx, ".codex/hooks.json", snap.Content); len(ds) != 0 {
		t.Errorf("starter diagnostics %v", ds)
	}
	if slices.Contains(offered(), ".codex/hooks.json") {
		t.Error("a created file is still offered")
	}
	files, err := s.HookFiles("")
	if err != nil || !slices.ContainsFunc(files, func(f HookFile) bool { return f.File == ".codex/hooks.json" && f.Kind == "codex-hooks" }) {
		t.Errorf("HookFiles = %v, %v", files, err)
	}
	if _, err := s.CreateHookFile(ctx, ".codex/hooks.json"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second create: %v, want fs.ErrExist", err)
	}
	if _, err := s.CreateHookFile(ctx, ".gemini/settings.json"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("create over the user's file: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, ".gemini/settings.json")); string(got) != `{"theme": "mine"}` {
		t.Errorf("the user's file changed: %q", got)
	}
	if _, err := s.CreateHookFile(ctx, "../outside.json"); !errors.Is(err, ErrNotEditable) {
		t.Errorf("create outside: %v, want ErrNotEditable", err)
	}
}
