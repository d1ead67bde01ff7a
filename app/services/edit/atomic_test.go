package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/hooks/skills"
)

// crashFS is the real file system with one step that fails, as a crash or
// a full disk would.
type crashFS struct {
	osFS
	failRename, failWrite bool
}

var errCrash = errors.New("simulated crash")

func (c crashFS) Rename(oldpath, newpath string) error {
	if c.failRename {
		return errCrash
	}
	return os.Rename(oldpath, newpath)
}

func (c crashFS) CreateTemp(dir, pattern string) (tempFile, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil || !c.failWrite {
		return f, err
	}
	return failingFile{f}, nil
}

type failingFile struct{ *os.File }

func (failingFile) Write([]byte) (int, error) { return 0, errCrash }

func TestWriteFileAtomic(t *testing.T) {
	tests := []struct {
		name string
		fsys fileSystem
		err  error
	}{
		{"ok", osFS{}, nil},
		{"crash between temp write and rename", crashFS{failRename: true}, errCrash},
		{"write fails", crashFS{failWrite: true}, errCrash},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "hooks.json")
			old := []byte(`{"hooks": []}`)
			if err := os.WriteFile(path, old, 0o600); err != nil {
				t.Fatal(err)
			}
			err := writeAtomic(tt.fsys, path, []byte(`{"hooks": [], "x": 1}`), 0o644)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			got, _ := os.ReadFile(path)
			if tt.err != nil && string(got) != string(old) {
				t.Errorf("old file not whole: %q", got)
			}
			if tt.err == nil {
				if string(got) != `{"hooks": [], "x": 1}` {
					t.Errorf("new content = %q", got)
				}
				if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
					t.Errorf("mode = %v, want the old file's 0600", fi.Mode().Perm())
				}
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// TestLeftTempIgnored covers a real crash (power loss) that leaves the
// temporary file: the loader does not read it.
func TestLeftTempIgnored(t *testing.T) {
	root := t.TempDir()
	path, err := CreateSkill(root, "s")
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(path), ".hooks.json.12345.tmp")
	if err := os.WriteFile(tmp, []byte(`{"hooks": [{"broken`), 0o644); err != nil {
		t.Fatal(err)
	}
	if !IsTemp(filepath.Base(tmp)) {
		t.Error("IsTemp does not recognise the temp file")
	}
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if ds := set.Diagnostics(); len(ds) != 0 {
		t.Errorf("diagnostics from a left-behind temp file: %v", ds)
	}
}

func TestCreateSkill(t *testing.T) {
	root := t.TempDir()
	if _, err := CreateSkill(root, "fresh"); err != nil {
		t.Fatal(err)
	}
	// A skill folder without hooks/ gets one.
	if err := os.MkdirAll(filepath.Join(root, "bare"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := CreateSkill(root, "bare"); err != nil {
		t.Fatal(err)
	}
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fresh", "bare"} {
		sk := set.Skill(name)
		if sk == nil || !sk.HasHooks || len(sk.Diagnostics) != 0 {
			t.Errorf("skill %s: %+v", name, sk)
		}
	}
	if _, err := CreateSkill(root, "fresh"); !errors.Is(err, ErrExists) {
		t.Errorf("second CreateSkill = %v, want ErrExists", err)
	}
	for _, bad := range []string{"", "a/b", "..", ".hidden", "x:y", " pad"} {
		var ne *NameError
		if _, err := CreateSkill(root, bad); !errors.As(err, &ne) {
			t.Errorf("CreateSkill(%q) = %v, want NameError", bad, err)
		}
	}
}
