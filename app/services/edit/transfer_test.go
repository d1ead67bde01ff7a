package edit

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/skills"
)

const examples = "../../../skills"

func loadSkill(t *testing.T, root, name string) *skills.Skill {
	t.Helper()
	set, err := skills.Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	sk := set.Skill(name)
	if sk == nil {
		t.Fatalf("no skill %s in %s", name, root)
	}
	return sk
}

// comparable drops what differs between two roots (positions may shift by
// the added $schema line).
func comparableHooks(hs []skills.Hook) []skills.Hook {
	out := append([]skills.Hook(nil), hs...)
	for i := range out {
		out[i].Line = 0
	}
	return out
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	entries, err := os.ReadDir(examples)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			var zipped bytes.Buffer
			if _, err := ExportSkill(ctx, examples, e.Name(), &zipped, ExportOptions{Scenarios: true}); err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			names, ds, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(names, []string{e.Name()}) || diag.HasErrors(ds) {
				t.Errorf("imported %v with %v", names, ds)
			}
			orig, got := loadSkill(t, examples, e.Name()), loadSkill(t, root, e.Name())
			if got.Broken || !reflect.DeepEqual(comparableHooks(orig.Hooks), comparableHooks(got.Hooks)) {
				t.Errorf("hooks differ after the round trip:\n%+v\n%+v", orig.Hooks, got.Hooks)
			}
			data := readFile(t, filepath.Join(root, e.Name(), "hooks", "hooks.json"))
			if claudehook.IsPlugin(filepath.Join(examples, e.Name())) {
				// Claude Code's hooks.json is kept as written: no seed 000 $schema.
				if want := readFile(t, filepath.Join(examples, e.Name(), "hooks", "hooks.json")); data != want {
					t.Errorf("a plugin's hooks.json changed on export:\n%s", data)
				}
			} else if !strings.Contains(data, `"$schema": "`+SchemaRef+`"`) {
				t.Errorf("exported hooks.json has no $schema:\n%s", data)
			}
			if _, err := os.Stat(filepath.Join(root, e.Name(), "scenarios")); err != nil {
				t.Errorf("scenarios not exported: %v", err)
			}
			// A second import without Overwrite is refused, with it accepted.
			_, _, err = ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{})
			if !errors.Is(err, ErrExists) {
				t.Errorf("second import = %v, want ErrExists", err)
			}
			if _, _, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{Overwrite: true}); err != nil {
				t.Errorf("overwrite import: %v", err)
			}
			assertNoStaging(t, root)
		})
	}
}

func TestExportDir(t *testing.T) {
	ctx := context.Background()
	dest := t.TempDir()
	if _, err := ExportSkillDir(ctx, examples, "planner", dest, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if sk := loadSkill(t, dest, "planner"); sk.Broken || len(sk.Hooks) != 4 {
		t.Errorf("exported folder: %+v", sk.Diagnostics)
	}
	if _, err := os.Stat(filepath.Join(dest, "planner", "scenarios")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("scenarios exported without the option")
	}
	if _, err := ExportSkillDir(ctx, examples, "planner", dest, ExportOptions{}); !errors.Is(err, ErrExists) {
		t.Errorf("second export = %v, want ErrExists", err)
	}
}

func TestExportRefusesBrokenSkill(t *testing.T) {
	root := t.TempDir()
	mkfile(t, root, "bad/hooks/hooks.json", `{"hooks": [{"name": "x"}]}`)
	var buf bytes.Buffer
	ds, err := ExportSkill(context.Background(), root, "bad", &buf, ExportOptions{})
	var ie *InvalidError
	if !errors.As(err, &ie) || !diag.HasErrors(ie.Diagnostics) || !diag.HasErrors(ds) {
		t.Fatalf("err = %v, want InvalidError with diagnostics", err)
	}
	if buf.Len() != 0 {
		t.Error("a refused export wrote output")
	}
	if _, err := ExportSkill(context.Background(), root, "missing", &buf, ExportOptions{}); !errors.Is(err, ErrNoSkill) {
		t.Errorf("missing skill: %v", err)
	}
}

func mkfile(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, data)
}

type zipEntry struct {
	name string
	data string
	mode fs.FileMode
}

func makeZip(t *testing.T, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(e.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// lyingZip declares a tiny uncompressed size for an entry that inflates to
// much more, as a zip bomb does.
func lyingZip(t *testing.T, name string, real int) []byte {
	t.Helper()
	var compressed bytes.Buffer
	fw, err := flate.NewWriter(&compressed, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	content := bytes.Repeat([]byte("A"), real)
	fw.Write(content)
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{
		Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(content),
		CompressedSize64: uint64(compressed.Len()), UncompressedSize64: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Write(compressed.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const validHooks = `{"hooks": [{"name": "a", "file": "a.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`

func TestImportRefusesBadArchives(t *testing.T) {
	good := []zipEntry{{name: "ok/hooks/hooks.json", data: validHooks}, {name: "ok/hooks/a.md", data: "hi"}}
	tests := []struct {
		name  string
		zip   func(t *testing.T) []byte
		entry string // the entry the error must name
		opts  ImportOptions
	}{
		{"dot-dot", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: "ok/../../evil.md", data: "x"})...)
		}, "ok/../../evil.md", ImportOptions{}},
		{"leading dot-dot", func(t *testing.T) []byte { return makeZip(t, zipEntry{name: "../evil/hooks/a.md", data: "x"}) }, "../evil/hooks/a.md", ImportOptions{}},
		{"absolute", func(t *testing.T) []byte { return makeZip(t, append(good, zipEntry{name: "/etc/evil", data: "x"})...) }, "/etc/evil", ImportOptions{}},
		{"drive letter", func(t *testing.T) []byte { return makeZip(t, append(good, zipEntry{name: "C:/evil", data: "x"})...) }, "C:/evil", ImportOptions{}},
		{"backslash", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: `ok\..\..\evil`, data: "x"})...)
		}, `ok\..\..\evil`, ImportOptions{}},
		{"symlink", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: "ok/hooks/link.md", data: "/etc/passwd", mode: fs.ModeSymlink | 0o777})...)
		}, "ok/hooks/link.md", ImportOptions{}},
		{"duplicate", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: "ok/hooks/A.md", data: "x"})...)
		}, "ok/hooks/A.md", ImportOptions{}},
		{"top-level file", func(t *testing.T) []byte { return makeZip(t, append(good, zipEntry{name: "loose.md", data: "x"})...) }, "loose.md", ImportOptions{}},
		{"hidden skill", func(t *testing.T) []byte { return makeZip(t, zipEntry{name: ".git/config", data: "x"}) }, ".git/config", ImportOptions{}},
		{"over-size entry", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: "ok/hooks/big.md", data: strings.Repeat("x", 2000)})...)
		}, "ok/hooks/big.md", ImportOptions{MaxFile: 1000}},
		{"bomb with lying header", func(t *testing.T) []byte { return lyingZip(t, "ok/hooks/bomb.md", 1<<20) }, "ok/hooks/bomb.md", ImportOptions{MaxFile: 1000}},
		{"total too large", func(t *testing.T) []byte {
			return makeZip(t, append(good, zipEntry{name: "ok/hooks/b.md", data: strings.Repeat("x", 900)}, zipEntry{name: "ok/hooks/c.md", data: strings.Repeat("x", 900)})...)
		}, "ok/hooks/c.md", ImportOptions{MaxTotal: 1500}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			z := tt.zip(t)
			_, _, err := ImportZip(context.Background(), bytes.NewReader(z), int64(len(z)), root, tt.opts)
			var ee *EntryError
			if !errors.As(err, &ee) || !errors.Is(err, ErrBadArchive) || ee.Entry != tt.entry {
				t.Fatalf("err = %v, want an EntryError naming %q", err, tt.entry)
			}
			assertEmpty(t, root)
		})
	}
}

func TestImportRefusesInvalidSkill(t *testing.T) {
	root := t.TempDir()
	z := makeZip(t, zipEntry{name: "ok/hooks/hooks.json", data: validHooks}) // a.md missing
	_, ds, err := ImportZip(context.Background(), bytes.NewReader(z), int64(len(z)), root, ImportOptions{})
	var ie *InvalidError
	if !errors.As(err, &ie) || !hasCode(ds, skills.CodeMissingFile) {
		t.Fatalf("err = %v %v, want InvalidError with missing-file", err, ds)
	}
	assertEmpty(t, root)
}

func TestImportHooksJSON(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	ds, err := ImportHooksJSON(ctx, []byte(validHooks), root, "pasted", ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !hasCode(ds, skills.CodeEmptyPrompt) {
		t.Errorf("no empty-prompt warning for the placeholder: %v", ds)
	}
	if sk := loadSkill(t, root, "pasted"); sk.Broken || len(sk.Hooks) != 1 {
		t.Errorf("imported skill: %+v", sk)
	}
	if _, err := ImportHooksJSON(ctx, []byte(validHooks), root, "pasted", ImportOptions{}); !errors.Is(err, ErrExists) {
		t.Errorf("second import = %v, want ErrExists", err)
	}
	writeFile(t, filepath.Join(root, "pasted", "hooks", "a.md"), "kept")
	if _, err := ImportHooksJSON(ctx, []byte(validHooks), root, "pasted", ImportOptions{Overwrite: true}); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(root, "pasted", "hooks", "a.md")); got != "kept" {
		t.Errorf("existing prompt overwritten: %q", got)
	}
	other := t.TempDir()
	if _, err := ImportHooksJSON(ctx, []byte(`{"hooks": [{"name": "a"}]}`), other, "bad", ImportOptions{}); !isInvalid(err) {
		t.Errorf("invalid hooks.json = %v, want InvalidError", err)
	}
	assertEmpty(t, other)
}

func assertEmpty(t *testing.T, root string) {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("a refused import wrote %v", entries)
	}
}

func assertNoStaging(t *testing.T, root string) {
	t.Helper()
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("staging folder left behind: %s", e.Name())
		}
	}
}
