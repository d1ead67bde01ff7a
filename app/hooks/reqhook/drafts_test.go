package reqhook

import (
	"os"
	"path/filepath"
	"testing"
)

// An editor draft is read instead of the file, also for a file not written
// yet, and changes the fingerprint.
func TestLoadDrafts(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "a", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", SkillFile), []byte("start: [{command: on-disk}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	disk, err := Load(root)
	if err != nil || len(disk.Start) != 1 || disk.Start[0].Name != "on-disk" {
		t.Fatalf("disk: %v %+v", err, disk)
	}
	cases := []struct {
		name   string
		drafts map[string][]byte
		start  []string
		diags  int
	}{
		{"draft over the file", map[string][]byte{"a/" + SkillFile: []byte("start: [{command: drafted}]\n")}, []string{"drafted"}, 0},
		{"draft of a new project file", map[string][]byte{ProjectFile: []byte("start: [{command: project}]\n")}, []string{"project", "on-disk"}, 0},
		{"broken draft", map[string][]byte{"a/" + SkillFile: []byte("start: [{name: x}]\n")}, nil, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := LoadDrafts(root, c.drafts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range cfg.Start {
				got = append(got, h.Name)
			}
			if len(got) != len(c.start) || (len(got) > 0 && got[0] != c.start[0]) || len(cfg.Diagnostics) != c.diags {
				t.Errorf("start %v diagnostics %v", got, cfg.Diagnostics)
			}
			if cfg.Fingerprint == disk.Fingerprint {
				t.Error("a draft did not change the fingerprint")
			}
		})
	}
}
