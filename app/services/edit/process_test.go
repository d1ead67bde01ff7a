package edit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Export carries a skill's PicoClaw config and the script it runs; import
// puts them back and refuses a broken config before writing anything.
func TestExportImportProcessHooks(t *testing.T) {
	ctx := context.Background()
	var zipped bytes.Buffer
	if _, err := ExportSkill(ctx, examples, "plugin-tools", &zipped, ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if _, ds, err := ImportZip(ctx, bytes.NewReader(zipped.Bytes()), int64(zipped.Len()), root, ImportOptions{}); err != nil {
		t.Fatalf("import: %v %v", err, ds)
	}
	for _, f := range []string{"hooks/picoclaw.json", "hooks/hook.py"} {
		want, _ := os.ReadFile(filepath.Join(examples, "plugin-tools", f))
		got, err := os.ReadFile(filepath.Join(root, "plugin-tools", f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s not carried (%v)", f, err)
		}
	}

	broken := makeZip(t, zipEntry{name: "plug/hooks/picoclaw.json", data: `{"hooks": {"enabled": true, "processes": {"p": {"enabled": true, "transport": "tcp", "command": ["sh"], "intercept": ["before_tool"]}}}}`})
	dst := t.TempDir()
	_, _, err := ImportZip(ctx, bytes.NewReader(broken), int64(len(broken)), dst, ImportOptions{})
	var inv *InvalidError
	if !errors.As(err, &inv) || inv.Skill != "plug" {
		t.Errorf("broken picoclaw.json imported: %v", err)
	}
	assertEmpty(t, dst)

	src := t.TempDir()
	mkfile(t, src, "plug/hooks/picoclaw.json", `{"hooks": {"enabled": true, "processes": {"p": {"enabled": true, "dir": "../../..", "command": ["sh"], "intercept": ["before_tool"]}}}}`)
	if _, err := ExportSkill(ctx, src, "plug", &bytes.Buffer{}, ExportOptions{}); !errors.As(err, &inv) {
		t.Errorf("a skill whose process hook leaves the root was exported: %v", err)
	}
}
