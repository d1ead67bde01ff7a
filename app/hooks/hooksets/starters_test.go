package hooksets

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/registry"
)

// TestStarters: every system with a root-level config has a starter, and
// each starter, alone in an empty folder, is read by its own system
// without an error (a problem at all would greet a new file with a red
// mark), and the registry offers it under its own kind.
func TestStarters(t *testing.T) {
	reg := Registry(RegistryOptions{})
	offered := reg.Starters()
	for _, sys := range reg.Systems() {
		t.Run(sys.Name, func(t *testing.T) {
			rootConfig := slices.ContainsFunc(sys.Files, func(f registry.File) bool {
				return f.Role == registry.Config && f.Level == registry.Root && len(f.Patterns) > 0
			})
			if sys.Starter == nil {
				if rootConfig {
					t.Fatalf("%s reads a root-level config but offers no starter", sys.Name)
				}
				return
			}
			st := sys.Starter
			i := slices.IndexFunc(offered, func(n registry.NewFile) bool { return n.File == st.Path })
			if i < 0 || offered[i].System != sys.Name {
				t.Fatalf("Starters() does not offer %s as %s's: %+v", st.Path, sys.Name, offered)
			}
			root := tree(t, map[string]string{filepath.FromSlash(st.Path): st.Text})
			if got, _, ok := reg.Find(root, st.Path); !ok || got.Name != sys.Name {
				t.Fatalf("%s is not claimed by %s (by %q)", st.Path, sys.Name, got.Name)
			}
			var ds []diag.Diagnostic
			if sys.Load != nil {
				cfg, err := sys.Load(context.Background(), registry.LoadRequest{Root: root, Mode: hostmode.Code})
				if err != nil {
					t.Fatal(err)
				}
				ds = cfg.Diagnostics()
			} else {
				ds = sys.Lint(st.Path, []byte(st.Text))
			}
			for _, d := range ds {
				t.Errorf("starter %s: %s:%d:%d %s %s: %s", st.Path, d.File, d.Line, d.Column, d.Severity, d.Code, d.Message)
			}
		})
	}
}
