package hostmode

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	cases := []struct {
		name, text string // "" no file
		want       Mode
		diagLine   int // 0: no diagnostic
	}{
		{"no file", "", Code, 0},
		{"no key", "other: 1\n", Code, 0},
		{"code", "host_behaviour: code\n", Code, 0},
		{"document", "# the seeds\nhost_behaviour: document\n", Document, 0},
		{"bad value", "x: 1\nhost_behaviour: docs\n", Code, 2},
		{"bad yaml", "host_behaviour: [\n", Code, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			if c.text != "" {
				os.MkdirAll(filepath.Join(root, ".hookstudio"), 0o755)
				if err := os.WriteFile(filepath.Join(root, File), []byte(c.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ds, err := Load(root)
			if err != nil || got != c.want {
				t.Fatalf("Load = %q, %v; want %q", got, err, c.want)
			}
			if (len(ds) > 0) != (c.diagLine > 0) || (len(ds) > 0 && (ds[0].Line != c.diagLine || ds[0].File != File)) {
				t.Errorf("diagnostics %+v, want one at line %d", ds, c.diagLine)
			}
		})
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Mode{"": Code, "code": Code, "document": Document} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := Parse("seed"); !errors.Is(err, ErrUnknown) {
		t.Errorf("Parse(seed) err %v, want ErrUnknown", err)
	}
	if Code.Other() != Document || Document.Other() != Code {
		t.Error("Other")
	}
}

func TestSetKeepsTheRest(t *testing.T) {
	out, err := Set(nil, Document)
	if err != nil || strings.TrimSpace(string(out)) != "host_behaviour: document" {
		t.Fatalf("new file: %q %v", out, err)
	}
	out, err = Set([]byte("# why: the team's agents run PicoClaw 0.9\nother: 1\nhost_behaviour: document # for now\n"), Code)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# why: the team's agents run PicoClaw 0.9", "other: 1", "host_behaviour: code"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(File))
	_ = os.MkdirAll(filepath.Dir(path), 0o755)
	_ = os.WriteFile(path, out, 0o644)
	if m, ds, err := Load(root); err != nil || len(ds) > 0 || m != Code {
		t.Errorf("reads back as %s %v %v", m, ds, err)
	}
}

func TestSetRefusesWhatItCannotKeep(t *testing.T) {
	if _, err := Set(nil, Mode("sometimes")); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown mode: %v", err)
	}
	for _, bad := range []string{"host_behaviour: [code\n", "- a list\n"} {
		if _, err := Set([]byte(bad), Document); err == nil {
			t.Errorf("set in %q", bad)
		}
	}
}
