package registry

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/format/diag"
)

func load(context.Context, LoadRequest) (Loaded, error) {
	return nil, errors.New("not loaded in this test")
}

// two systems as a new one would register: one with a file only the
// folder can tell, one plain.
func twoSystems() []System {
	return []System{
		{Name: "alpha", Load: load, Dirs: []string{".alpha", ".shared"},
			Files: []File{
				{Kind: "alpha-config", Role: Config, Level: Root, Patterns: []string{".alpha/hooks.json"}, Schema: "{}", Trust: true},
				{Kind: "alpha-plugin", Role: Config, Level: Skill, In: func(root, file string) bool { return root != "" && strings.HasSuffix(file, "/hooks/hooks.json") }},
			}},
		{Name: "beta", Lint: func(string, []byte) []diag.Diagnostic { return nil }, Dirs: []string{".shared"},
			Files: []File{
				{Kind: "beta-config", Role: Config, Level: Skill, Patterns: []string{"*/hooks/hooks.json", "*/beta/*.toml"}},
				{Kind: KindText, Role: Script, Level: Skill, Patterns: []string{"*/beta/run.sh"}},
			}},
	}
}

func TestNewChecksRegistrations(t *testing.T) {
	if _, err := New(twoSystems()...); err != nil {
		t.Fatal(err)
	}
	bad := twoSystems()
	bad[1].Files[0].Kind = "alpha-config"                                                                            // another system's kind
	bad = append(bad, System{Name: "alpha", Load: load})                                                             // a name twice
	bad = append(bad, System{Name: "gamma", Files: []File{{Kind: "g", Role: Config, Patterns: []string{"g.yaml"}}}}) // no Load, no Lint
	_, err := New(bad...)
	if !errors.Is(err, ErrInvalid) || strings.Count(err.Error(), "\n") != 2 {
		t.Fatalf("every problem at once: %v", err)
	}
}

func TestKinds(t *testing.T) {
	r, err := New(twoSystems()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ root, file, kind string }{
		{"/p", "s/hooks/hooks.json", "alpha-plugin"}, // the folder-aware claim first
		{"", "s/hooks/hooks.json", "beta-config"},    // without a root only patterns tell
		{"", ".alpha/hooks.json", "alpha-config"},
		{"", "s/beta/a.toml", "beta-config"},
		{"", ".s/beta/a.toml", KindText},  // "*" is never a hidden folder
		{"", "s/beta/x/a.toml", KindText}, // nor two
		{"", "s/beta/run.sh", KindText},
		{"", "s/scenarios/a.yaml", KindScenario},
		{"", "s/notes.md", KindPrompt},
		{"", "../s/hooks/hooks.json", KindText},
	} {
		if got := r.Kind(c.root, c.file); got != c.kind {
			t.Errorf("Kind(%q, %s) = %s, want %s", c.root, c.file, got, c.kind)
		}
	}
	if sch, ok := r.Schema("alpha-config"); !ok || sch != "{}" {
		t.Error("no schema")
	}
	if _, ok := r.Schema("beta-config"); ok {
		t.Error("a schema for a kind without one")
	}
	if got := r.TrustPatterns(); !slices.Equal(got, []string{".alpha/hooks.json"}) {
		t.Errorf("trust patterns %v", got)
	}
	if got := r.Dirs(); !slices.Equal(got, []string{".alpha", ".shared"}) {
		t.Errorf("dirs %v", got)
	}
	// The frontend matches with the same expressions.
	for _, k := range r.FileKinds() {
		if k.Kind != "beta-config" {
			continue
		}
		re := regexp.MustCompile(k.Patterns[1])
		if !re.MatchString("s/beta/a.toml") || re.MatchString(".s/beta/a.toml") {
			t.Errorf("pattern %s", k.Patterns[1])
		}
	}
}

// TestStarterChecked: a starter must be a fixed root-level config path of
// its own system; Starters lists the good ones with their kind.
func TestStarterChecked(t *testing.T) {
	for _, c := range []struct {
		name, path string
		sys        int
		ok         bool
	}{
		{"own root config", ".alpha/hooks.json", 0, true},
		{"wildcard", "*/hooks/hooks.json", 1, false},
		{"skill-level file", "s/hooks/hooks.json", 1, false},
		{"another system's", ".alpha/hooks.json", 1, false},
		{"claimed by none", ".alpha/other.json", 0, false},
		{"outside the root", "../x.json", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			systems := twoSystems()
			systems[c.sys].Starter = &Starter{Path: c.path, Text: "{}"}
			r, err := New(systems...)
			if !c.ok {
				if !errors.Is(err, ErrInvalid) {
					t.Fatalf("New: %v, want ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := []NewFile{{File: c.path, Kind: "alpha-config", System: "alpha", Label: "alpha"}}
			if got := r.Starters(); !slices.Equal(got, want) {
				t.Errorf("Starters() = %v, want %v", got, want)
			}
			if text, ok := r.Starter(c.path); !ok || text != "{}" {
				t.Errorf("Starter(%s) = %q, %v", c.path, text, ok)
			}
		})
	}
}
