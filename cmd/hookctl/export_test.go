package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unzip extracts a trusted zip written by the test itself, with its modes.
func unzip(t *testing.T, file, dest string) {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		p := filepath.Join(dest, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		// The zip's modes, as unzip(1) keeps them: hook scripts stay executable.
		if err := os.WriteFile(p, data, f.Mode().Perm()|0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestExportValidatesEndToEnd(t *testing.T) {
	examples := filepath.Join("..", "..", "skills")
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			tmp := t.TempDir()
			out := filepath.Join(tmp, "out.zip")
			if stdout, stderr, code := runCLI(t, "export", filepath.Join(examples, e.Name()), "-o", out, "--scenarios"); code != exitOK {
				t.Fatalf("export exit %d\n%s%s", code, stdout, stderr)
			}
			dir := filepath.Join(tmp, "unzipped")
			unzip(t, out, dir)
			if stdout, _, code := runCLI(t, "validate", dir); code != exitOK || !strings.Contains(stdout, " 0 error(s)") {
				t.Errorf("validate of the export: exit %d\n%s", code, stdout)
			}
			// The same zip through hookctl import, then validate.
			root := filepath.Join(tmp, "root")
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if stdout, stderr, code := runCLI(t, "import", out, "--skills", root); code != exitOK {
				t.Fatalf("import exit %d\n%s%s", code, stdout, stderr)
			}
			if stdout, _, code := runCLI(t, "validate", root); code != exitOK {
				t.Errorf("validate of the import: exit %d\n%s", code, stdout)
			}
			if _, _, code := runCLI(t, "import", out, "--skills", root); code != exitProblems {
				t.Errorf("importing over an existing skill: exit %d, want %d", code, exitProblems)
			}
			// A folder export validates too.
			if _, stderr, code := runCLI(t, "export", filepath.Join(examples, e.Name()), "-o", filepath.Join(tmp, "folder")+"/"); code != exitOK {
				t.Fatalf("folder export exit %d\n%s", code, stderr)
			}
			if stdout, _, code := runCLI(t, "validate", filepath.Join(tmp, "folder")); code != exitOK {
				t.Errorf("validate of the folder export: exit %d\n%s", code, stdout)
			}
		})
	}
}

func TestExportRefusesErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bad.zip")
	stdout, _, code := runCLI(t, "export", "testdata/broken/bad", "-o", out)
	if code != exitProblems || !strings.Contains(stdout, "error") {
		t.Errorf("exit %d, want %d with diagnostics:\n%s", code, exitProblems, stdout)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused export left a file")
	}
	if _, _, code := runCLI(t, "export", "testdata/broken/good"); code != exitUsage {
		t.Errorf("export without -o: exit %d, want %d", code, exitUsage)
	}
}
