package scenario

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		"a-b/scenarios/z.yaml",
		"a/scenarios/b.yml",
		"a/scenarios/a.json",
		"a/scenarios/c.txt",
		"a/scenarios/.hidden.yaml",
		"a/scenarios/nested/deep.yaml",
		"a/scenarios/UPPER.YAML",
		"a/hooks/hooks.json",
		".git/scenarios/x.yaml",
		"B/scenarios/x.yaml",
		"plain/scenarios", // a file, not a folder
		"top.yaml",
	} {
		write(t, root, rel, "requests: [{user: hi}]")
	}
	if err := os.Mkdir(filepath.Join(root, "no-scenarios"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Discover(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	// Skills in byte order ("B" < "a" < "a-b"), then files in byte order.
	want := []string{"B/scenarios/x.yaml", "a/scenarios/a.json", "a/scenarios/b.yml", "a-b/scenarios/z.yaml"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Discover(ctx, root); err == nil {
		t.Error("cancelled context: want an error")
	}
	if _, err := Discover(context.Background(), filepath.Join(root, "missing")); err == nil {
		t.Error("missing root: want an error")
	}
}

func TestDiscoverFollowsLinksInsideRoot(t *testing.T) {
	root := t.TempDir()
	write(t, root, "real/scenarios/s.yaml", "requests: [{user: hi}]")
	outside := t.TempDir()
	write(t, outside, "evil/scenarios/s.yaml", "requests: [{user: hi}]")
	// os.Root follows relative links that stay inside the root.
	if err := os.Symlink("real", filepath.Join(root, "linked")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil"), filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	got, err := Discover(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"linked/scenarios/s.yaml", "real/scenarios/s.yaml"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLoadFile(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a/scenarios/s.yaml", "name: s\nrequests: [{user: hi, bogus: 1}]\n")
	s, ds, err := LoadFile(root, "a/scenarios/s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "s" || s.File != "a/scenarios/s.yaml" || len(ds) != 1 || ds[0].File != "a/scenarios/s.yaml" || ds[0].Code != CodeUnknownField {
		t.Errorf("got %+v, %v", s, ds)
	}

	outside := t.TempDir()
	write(t, outside, "secret.yaml", "requests: [{user: hi}]")
	if err := os.Symlink(filepath.Join(outside, "secret.yaml"), filepath.Join(root, "a", "scenarios", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	write(t, root, "a/scenarios/big.yaml", "requests: [{user: "+strings.Repeat("x", MaxFileSize)+"}]")
	for _, rel := range []string{
		"", "../secret.yaml", "a/../../secret.yaml", "/etc/passwd", `a\scenarios\s.yaml`,
		"a/scenarios/link.yaml", "a/scenarios/missing.yaml", "a/scenarios", "a/scenarios/big.yaml",
	} {
		if _, _, err := LoadFile(root, rel); err == nil {
			t.Errorf("LoadFile(%q): want an error", rel)
		}
	}
}
