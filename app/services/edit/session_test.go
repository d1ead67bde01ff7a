package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSaveConflicts(t *testing.T) {
	ctx := context.Background()
	const base, mine, theirs = "line 1\nmiddle\nline 2\n", "line 1 mine\nmiddle\nline 2\n", "line 1\nmiddle\nline 2 theirs\n"
	tests := []struct {
		name    string
		resolve func(t *testing.T, b *Buffer)
		want    string // on disk afterwards
	}{
		{"keep mine", func(t *testing.T, b *Buffer) {
			if err := b.KeepMine(ctx); err != nil {
				t.Fatal(err)
			}
		}, mine},
		{"take theirs", func(t *testing.T, b *Buffer) {
			if err := b.TakeTheirs(ctx); err != nil {
				t.Fatal(err)
			}
			if b.Dirty() {
				t.Error("dirty after TakeTheirs")
			}
			if err := b.Save(ctx); err != nil {
				t.Fatal(err)
			}
		}, theirs},
		{"merge", func(t *testing.T, b *Buffer) {
			res, err := b.Merge(ctx)
			if err != nil || !res.Clean {
				t.Fatalf("merge: %v %+v", err, res)
			}
			if err := b.Save(ctx); err != nil {
				t.Fatal(err)
			}
		}, "line 1 mine\nmiddle\nline 2 theirs\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "prompt.md")
			writeFile(t, path, base)
			b, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			b.Set([]byte(mine))
			writeFile(t, path, theirs)
			if st, _, _ := b.Check(ctx); st != Changed {
				t.Errorf("Check = %s, want changed", st)
			}
			err = b.Save(ctx)
			var ce *ConflictError
			if !errors.As(err, &ce) {
				t.Fatalf("Save = %v, want ConflictError", err)
			}
			if string(ce.Base) != base || string(ce.Mine) != mine || string(ce.Theirs) != theirs {
				t.Errorf("conflict = %q %q %q", ce.Base, ce.Mine, ce.Theirs)
			}
			if got := readFile(t, path); got != theirs {
				t.Errorf("a refused save wrote %q", got)
			}
			tt.resolve(t, b)
			if got := readFile(t, path); got != tt.want {
				t.Errorf("on disk %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSaveUnchangedDiskAndTouch(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.md")
	writeFile(t, path, "x\n")
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, "x\n") // rewritten with the same bytes: no conflict
	b.Set([]byte("y\n"))
	if err := b.Save(ctx); err != nil {
		t.Fatal(err)
	}
	b.Set([]byte("z\n"))
	if err := b.Save(ctx); err != nil {
		t.Fatalf("second save after our own save: %v", err)
	}
	if got := readFile(t, path); got != "z\n" {
		t.Errorf("on disk %q", got)
	}
}

func TestDeletedOnDisk(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a.md")
	writeFile(t, path, "x\n")
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b.Set([]byte("mine\n"))
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if st, _, _ := b.Check(ctx); st != Deleted {
		t.Errorf("Check = %s, want deleted", st)
	}
	if err := b.Save(ctx); !errors.Is(err, ErrDeletedOnDisk) {
		t.Fatalf("Save = %v, want ErrDeletedOnDisk", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Error("Save recreated the file without being asked")
	}
	if err := b.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "mine\n" {
		t.Errorf("restored %q", got)
	}
}

func TestNewFileConflict(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "new.md")
	b := NewFile(path, []byte("mine\n"))
	writeFile(t, path, "someone else\n")
	var ce *ConflictError
	if err := b.Save(ctx); !errors.As(err, &ce) || ce.Base != nil {
		t.Fatalf("Save = %v, want a ConflictError without base", err)
	}
}

func TestMergeHooksConflict(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	base := mustRead(t, "testdata/hooks.json")
	writeFile(t, path, string(base))
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Mine: role of tool-etiquette, timing of write-safety, a new hook.
	md := parse(t, "testdata/hooks.json")
	md, _ = md.SetField(0, "role", "user")
	md, _ = md.SetField(2, "timing", "before_each_agent")
	md, err = md.AddHook(Hook{Name: "mine-new", File: "m.md", Timing: "after_user_input", Role: "system"})
	if err != nil {
		t.Fatal(err)
	}
	b.Set(md.Bytes())
	// Theirs: persistent of tool-etiquette, timing of write-safety
	// differently, delete truncated-content-hint, top-level field.
	td := parse(t, "testdata/hooks.json")
	td, _ = td.SetField(0, "persistent", true)
	td, _ = td.SetField(2, "timing", "after_user_input")
	td, _ = td.DeleteHook(1)
	td, err = td.SetTopField("x-owner", "team-b")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(td.Bytes()))

	var ce *ConflictError
	if err := b.Save(ctx); !errors.As(err, &ce) {
		t.Fatalf("Save = %v, want conflict", err)
	}
	res, err := b.Merge(ctx)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/golden/merge-hooks.json", res.Merged)
	if res.Clean || len(res.Conflicts) != 1 {
		t.Fatalf("conflicts = %+v, want one", res.Conflicts)
	}
	c := res.Conflicts[0]
	if c.Kind != BothChanged || c.Hook != "write-safety" || c.Field != "timing" ||
		c.Mine != `"before_each_agent"` || c.Theirs != `"after_user_input"` || c.Base != `"after_tool_call"` {
		t.Errorf("conflict = %+v", c)
	}
	m, err := Parse("h", res.Merged)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.names(), ","); got != "tool-etiquette,write-safety,mine-new" {
		t.Errorf("merged hooks = %s", got)
	}
	for _, f := range []struct {
		i          int
		key, value string
	}{{0, "role", `"user"`}, {0, "persistent", "true"}, {1, "timing", `"before_each_agent"`}} {
		if got := string(m.Field(f.i, f.key)); got != f.value {
			t.Errorf("hook %d %s = %s, want %s", f.i, f.key, got, f.value)
		}
	}
	if !strings.Contains(string(res.Merged), `"x-owner": "team-b"`) || !strings.Contains(string(res.Merged), `"x-note"`) {
		t.Error("top-level change from disk or unknown field lost")
	}
	// The merge is the buffer's unsaved text; saving it now succeeds.
	if err := b.Save(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMergeHooksDeleteVersusEdit(t *testing.T) {
	base := mustRead(t, "testdata/hooks.json")
	md := parse(t, "testdata/hooks.json")
	md, _ = md.SetField(1, "role", "user") // edit truncated-content-hint
	td := parse(t, "testdata/hooks.json")
	td, _ = td.DeleteHook(1) // delete it on disk
	td, _ = td.MoveHook(1, 0)
	res, err := MergeHooks("h", base, md.Bytes(), td.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0].Kind != DeletedTheirs || res.Conflicts[0].Hook != "truncated-content-hint" {
		t.Fatalf("conflicts = %+v", res.Conflicts)
	}
	m, _ := Parse("h", res.Merged)
	if got := strings.Join(m.names(), ","); got != "write-safety,tool-etiquette,truncated-content-hint" {
		t.Errorf("merged order = %s", got)
	}
}

func TestMergeText(t *testing.T) {
	tests := []struct {
		name, base, mine, theirs, want string
		conflicts                      int
	}{
		{"one side", "a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\n", "a\nB\nc\n", 0},
		{"both sides apart", "a\nb\nc\nd\n", "A\nb\nc\nd\n", "a\nb\nc\nD\n", "A\nb\nc\nD\n", 0},
		{"same change", "a\nb\n", "a\nX\n", "a\nX\n", "a\nX\n", 0},
		{"conflict", "a\nb\nc\n", "a\nmine\nc\n", "a\ntheirs\nc\n",
			"a\n" + MarkerMine + "\nmine\n" + MarkerSep + "\ntheirs\n" + MarkerTheirs + "\nc\n", 1},
		{"no final newline", "a", "b", "c", MarkerMine + "\nb\n" + MarkerSep + "\nc\n" + MarkerTheirs + "\n", 1},
		{"insert both ends", "m\n", "top\nm\n", "m\nbottom\n", "top\nm\nbottom\n", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := MergeText([]byte(tt.base), []byte(tt.mine), []byte(tt.theirs))
			if string(res.Merged) != tt.want || len(res.Conflicts) != tt.conflicts {
				t.Errorf("merged %q with %d conflicts, want %q with %d", res.Merged, len(res.Conflicts), tt.want, tt.conflicts)
			}
		})
	}
}
