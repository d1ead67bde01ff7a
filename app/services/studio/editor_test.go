package studio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/edit"
)

func TestEditHooksOperations(t *testing.T) {
	const file = "files/hooks/hooks.json"
	base := `{
  "x-owner": "docs team",
  "hooks": [
    {"name": "a", "file": "a.md", "timing": "after_user_input", "role": "system", "persistent": false, "x-note": "keep me"}
  ]
}
`
	add := HookOp{Kind: "add", Hook: &edit.Hook{Name: "b", File: "b.md", Timing: skills.AfterToolCall, Role: skills.System, ToolFilter: []string{"read_file"}}}
	tests := []struct {
		name  string
		ops   []HookOp
		names []string
		err   bool
	}{
		{"add", []HookOp{add}, []string{"a", "b"}, false},
		{"add then move first", []HookOp{add, {Kind: "move", Index: 1, To: 0}}, []string{"b", "a"}, false},
		{"duplicate", []HookOp{{Kind: "duplicate", Index: 0}}, []string{"a", "a-copy"}, false},
		{"rename", []HookOp{{Kind: "rename", Index: 0, Name: "first"}}, []string{"first"}, false},
		{"rename to a taken name", []HookOp{add, {Kind: "rename", Index: 1, Name: "a"}}, nil, true},
		{"update timing", []HookOp{{Kind: "update", Index: 0, Fields: map[string]any{"timing": "before_planning"}}}, []string{"a"}, false},
		{"delete", []HookOp{{Kind: "delete", Index: 0}}, nil, false},
		{"unknown op", []HookOp{{Kind: "explode"}}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := base
			var res HooksEdit
			var err error
			for _, op := range tt.ops {
				if res, err = EditHooks(file, text, op); err != nil {
					break
				}
				text = res.Text
			}
			if (err != nil) != tt.err {
				t.Fatalf("err = %v, want error %v", err, tt.err)
			}
			if tt.err {
				return
			}
			var names []string
			for _, e := range res.Entries {
				names = append(names, e.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.names, ",") {
				t.Errorf("hooks = %v, want %v", names, tt.names)
			}
			if !strings.Contains(text, `"x-owner": "docs team"`) || (len(tt.names) > 0 && tt.name != "rename" && !strings.Contains(text, `"x-note": "keep me"`)) {
				t.Errorf("unknown fields lost:\n%s", text)
			}
		})
	}
	if _, err := EditHooks(file, "{not json", HookOp{Kind: "delete"}); err == nil {
		t.Error("edited a broken file")
	}
	if res, err := EditHooks(file, "", HookOp{Kind: "add", Hook: add.Hook}); err != nil || len(res.Entries) != 1 {
		t.Errorf("add to an empty file: %v %+v", err, res.Entries)
	}
}

func TestSaveConflictsAndMerge(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	const file = "files/hooks/hint.md"
	snap, err := s.OpenFile(file)
	if err != nil || !snap.Exists {
		t.Fatal(snap, err)
	}
	if _, err := s.SetDraft(ctx, file, "mine"); err != nil {
		t.Fatal(err)
	}
	res, err := s.SaveFile(ctx, file, "mine", snap.Hash)
	if err != nil || res.Status != "saved" {
		t.Fatalf("save: %v %+v", err, res)
	}
	if data, _ := os.ReadFile(filepath.Join(root, file)); string(data) != "mine" {
		t.Errorf("disk = %q", data)
	}
	if len(s.State().Drafts) != 0 || s.Trace().Draft {
		t.Error("draft kept after save")
	}
	// The disk changes behind the editor's back: the next save is refused.
	write(t, filepath.Join(root, file), "theirs")
	res, err = s.SaveFile(ctx, file, "mine again", res.Hash)
	if err != nil || res.Status != "conflict" || res.Theirs != "theirs" {
		t.Fatalf("conflict: %v %+v", err, res)
	}
	m, err := MergeFile(file, "a\nb\nc\n", "A\nb\nc\n", "a\nb\nC\n")
	if err != nil || m.Text != "A\nb\nC\n" || len(m.Conflicts) != 0 {
		t.Errorf("clean merge = %q %+v %v", m.Text, m.Conflicts, err)
	}
	if m, _ := MergeFile(file, "x\n", "mine\n", "theirs\n"); len(m.Conflicts) != 1 || !strings.Contains(m.Text, "mine") || !strings.Contains(m.Text, "theirs") {
		t.Errorf("conflicting merge dropped a side: %q", m.Text)
	}
	// Keep mine: save again with the disk's hash as base.
	if res, _ = s.SaveFile(ctx, file, "mine again", res.Hash); res.Status != "saved" {
		t.Errorf("keep mine: %+v", res)
	}
	// Deleted on disk while open.
	os.Remove(filepath.Join(root, file))
	if res, _ = s.SaveFile(ctx, file, "restore me", res.Hash); res.Status != "deleted" {
		t.Errorf("deleted: %+v", res)
	}
	if res, _ = s.SaveFile(ctx, file, "restore me", ""); res.Status != "saved" {
		t.Errorf("restore: %+v", res)
	}
	for _, bad := range []string{"../x", "files/README.md", "/etc/passwd"} {
		if _, err := s.OpenFile(bad); !errors.Is(err, ErrNotEditable) {
			t.Errorf("OpenFile(%q) = %v", bad, err)
		}
	}
}

func TestCreateSkillAndTools(t *testing.T) {
	s, _, ctx := newService(t)
	root := skillsRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	st, err := s.CreateSkill(ctx, "new-skill")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sk := range st.Skills {
		found = found || (sk.Name == "new-skill" && sk.HasHooks && !sk.Broken)
	}
	if !found {
		t.Errorf("new skill not loaded: %+v", st.Skills)
	}
	// It comes with a valid scenario of its own, selected, so its hooks show at once.
	if st.Selected != "new-skill/scenarios/try-it.yaml" || s.Trace().Status != "ok" || len(s.Trace().Calls) != 4 {
		t.Errorf("starter scenario: selected %q, status %s, %d calls", st.Selected, s.Trace().Status, len(s.Trace().Calls))
	}
	if _, err := s.CreateSkill(ctx, "../evil"); err == nil {
		t.Error("escaping skill name accepted")
	}
	if _, err := s.Select(ctx, "files/scenarios/demo.yaml"); err != nil {
		t.Fatal(err)
	}
	if tools := s.Trace().Tools; len(tools) != 1 || tools[0] != "read_file" {
		t.Errorf("tools = %v", tools)
	}
}
