package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
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

func TestWrite(t *testing.T) {
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

func TestJSONFiles(t *testing.T) {
	dir := t.TempDir()
	type prefs struct {
		Recent []string `json:"recent"`
	}
	var p prefs
	if found, err := ReadJSON(filepath.Join(dir, "none.json"), &p); found || err != nil {
		t.Fatalf("missing file: found %v, err %v", found, err)
	}
	path := filepath.Join(dir, "sub", "prefs.json")
	if err := WriteJSON(path, prefs{Recent: []string{"/a"}}, 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("folder of an owner-only file: %v %v", fi.Mode(), err)
	}
	if found, err := ReadJSON(path, &p); !found || err != nil || len(p.Recent) != 1 || p.Recent[0] != "/a" {
		t.Fatalf("read back: %+v found %v err %v", p, found, err)
	}
	if err := os.WriteFile(path, []byte(`{"recent": [`), 0o600); err != nil {
		t.Fatal(err)
	}
	if found, err := ReadJSON(path, &p); !found || !errors.Is(err, ErrDamaged) {
		t.Fatalf("damaged file: found %v, err %v", found, err)
	}
}

// TestWriteNew: a new file gets the data and the mode, no temporary file
// stays, and an existing file is never replaced.
func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hooks.json")
	if err := WriteNew(p, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(p); err != nil || string(got) != "{}\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if err := WriteNew(p, []byte("other"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second WriteNew: %v, want fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "{}\n" {
		t.Fatalf("existing file replaced: %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("files left: %v", entries)
	}
}
