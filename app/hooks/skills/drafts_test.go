package skills

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/format/diag"
)

func TestLoadDrafts(t *testing.T) {
	root := t.TempDir()
	mk := func(p, c string) {
		p = filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/hooks/hooks.json", `{"hooks": [{"name": "h", "file": "h.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`)
	mk("a/hooks/h.md", "on disk")
	mk("b/README.md", "no hooks yet")
	mk("outside.md", "secret")

	tests := []struct {
		name    string
		drafts  map[string][]byte
		skill   string
		content []string // contents of the skill's hooks, in order
		code    string   // a diagnostic code expected on the skill
	}{
		{"no drafts reads the disk", nil, "a", []string{"on disk"}, ""},
		{"a draft .md wins over the disk", map[string][]byte{"a/hooks/h.md": []byte("draft")}, "a", []string{"draft"}, ""},
		{"a draft hooks.json names a drafted new file", map[string][]byte{
			"a/hooks/hooks.json": []byte(`{"hooks": [{"name": "n", "file": "new.md", "timing": "before_planning", "role": "user", "persistent": false}]}`),
			"a/hooks/new.md":     []byte("brand new"),
		}, "a", []string{"brand new"}, ""},
		{"a broken draft is diagnosed like a file", map[string][]byte{"a/hooks/hooks.json": []byte(`{"hooks": [`)}, "a", nil, CodeSyntax},
		{"a draft hooks.json for a skill without hooks/", map[string][]byte{
			"b/hooks/hooks.json": []byte(`{"hooks": [{"name": "x", "file": "x.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`),
			"b/hooks/x.md":       []byte("x"),
		}, "b", []string{"x"}, ""},
		{"a draft cannot reach outside hooks/", map[string][]byte{
			"a/hooks/hooks.json": []byte(`{"hooks": [{"name": "x", "file": "../../outside.md", "timing": "after_user_input", "role": "system", "persistent": false}]}`),
			"outside.md":         []byte("draft secret"),
		}, "a", nil, CodeEscapingPath},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := LoadDrafts(context.Background(), root, tt.drafts)
			if err != nil {
				t.Fatal(err)
			}
			sk := set.Skill(tt.skill)
			var got []string
			for _, h := range sk.Hooks {
				got = append(got, h.Content)
			}
			if len(got) != len(tt.content) || (len(got) > 0 && got[0] != tt.content[0]) {
				t.Errorf("hooks = %q, want %q", got, tt.content)
			}
			if tt.code != "" && !slices.ContainsFunc(sk.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == tt.code }) {
				t.Errorf("no %s in %+v", tt.code, sk.Diagnostics)
			}
			if data, _ := os.ReadFile(filepath.Join(root, "a/hooks/h.md")); string(data) != "on disk" {
				t.Error("a draft was written to disk")
			}
		})
	}
}
