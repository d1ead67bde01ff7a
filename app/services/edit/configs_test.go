package edit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Export carries a skill's hooks.yaml and the scripts it runs; import puts
// them back byte for byte.
func TestExportImportCommandHooks(t *testing.T) {
	ctx := context.Background()
	var zipped bytes.Buffer
	if _, err := ExportSkill(ctx, examples, "guard-rails", &zipped, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if _, ds, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{}); err != nil {
		t.Fatalf("import: %v %v", err, ds)
	}
	for _, f := range []string{"hooks/hooks.yaml", "hooks/block-rm-rf.sh", "hooks/redact.sh", "hooks/count.sh"} {
		want, _ := os.ReadFile(filepath.Join(examples, "guard-rails", f))
		got, err := os.ReadFile(filepath.Join(root, "guard-rails", f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s not carried (%v)", f, err)
		}
	}
}

// A script run by path keeps its executable bit through a zip and a folder
// export, and request-hooks.yaml travels too.
func TestExportKeepsExecutableScripts(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	mkfile(t, src, "runner/hooks/hooks.yaml", "stop:\n  - name: go\n    command: $JCLI_HOOK_DIR/go.sh\n")
	mkfile(t, src, "runner/hooks/go.sh", "#!/bin/sh\necho '{}'\n")
	mkfile(t, src, "runner/hooks/request-hooks.yaml", "start:\n  - command: cat >/dev/null\n")
	if err := os.Chmod(filepath.Join(src, "runner/hooks/go.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	var zipped bytes.Buffer
	if _, err := ExportSkill(ctx, src, "runner", &zipped, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	dirOut := t.TempDir()
	if _, err := ExportSkillDir(ctx, src, "runner", dirOut, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if _, ds, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{}); err != nil {
		t.Fatalf("import: %v %v", err, ds)
	}
	for _, base := range []string{root, dirOut} {
		fi, err := os.Stat(filepath.Join(base, "runner/hooks/go.sh"))
		if err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s: go.sh not executable (%v)", base, err)
		}
		if _, err := os.Stat(filepath.Join(base, "runner/hooks/request-hooks.yaml")); err != nil {
			t.Errorf("%s: request-hooks.yaml not carried: %v", base, err)
		}
	}
}

// A broken hooks.yaml or request-hooks.yaml refuses the export, and the
// import of one writes nothing.
func TestBrokenCommandConfigsRefused(t *testing.T) {
	ctx := context.Background()
	cases := []struct{ name, file, data string }{
		{"unknown event", "hooks/hooks.yaml", "no_such_event:\n  - command: echo\n"},
		{"missing script", "hooks/hooks.yaml", "stop:\n  - command: sh $JCLI_HOOK_DIR/gone.sh\n"},
		{"not yaml", "hooks/hooks.yaml", "stop: [\n"},
		{"request hook without command", "hooks/request-hooks.yaml", "start:\n  - name: x\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var inv *InvalidError
			src := t.TempDir()
			mkfile(t, src, "bad/"+c.file, c.data)
			if _, err := ExportSkill(ctx, src, "bad", &bytes.Buffer{}, ExportOptions{}); !errors.As(err, &inv) || inv.Skill != "bad" {
				t.Errorf("exported: %v", err)
			}
			zipped := makeZip(t, zipEntry{name: "bad/hooks/hooks.json", data: `{"hooks": []}`}, zipEntry{name: "bad/" + c.file, data: c.data})
			dst := t.TempDir()
			if _, _, err := ImportZip(ctx, bytes.NewReader(zipped), int64(len(zipped)), dst, ImportOptions{}); !errors.As(err, &inv) || inv.Skill != "bad" {
				t.Errorf("imported: %v", err)
			}
			assertEmpty(t, dst)
		})
	}
}
