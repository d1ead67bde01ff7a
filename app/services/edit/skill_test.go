package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/atomicfile"
)

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
	if !atomicfile.IsTemp(filepath.Base(tmp)) {
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
