package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"hookstudio/app/agentdata/request"
)

// TestListing: a folder read for an agent's listing — the folders it
// never opens left unread, links left out, what git ignores marked.
func TestListing(t *testing.T) {
	dir := t.TempDir()
	for rel, text := range map[string]string{"a.txt": "a", "sub/b.txt": "b", "node_modules/m.js": "m", "secret.env": "s", "build/out.bin": "o",
		".gitignore": "secret.env\nbuild/\n"} {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	root, full := Listing(context.Background(), dir, ListingOptions{Skip: []string{"node_modules"}})
	if !full {
		t.Error("read in part")
	}
	got := map[string]request.Node{}
	for _, c := range root.Children {
		got[c.Name] = c
	}
	if _, ok := got["link.txt"]; ok {
		t.Error("a link is listed")
	}
	if !got["secret.env"].Ignored || !got["build"].Ignored || got["a.txt"].Ignored {
		t.Errorf("ignored: %+v", root.Children)
	}
	if len(got["node_modules"].Children) != 0 || len(got["build"].Children) != 0 || len(got["sub"].Children) != 1 {
		t.Errorf("opened: %+v", root.Children)
	}
}

// TestNameSlug: a folder's name as Gemini CLI names its project folder.
func TestNameSlug(t *testing.T) {
	for in, want := range map[string]string{"project": "project", "Hsr_Base.A": "hsr-base-a", "--x--y--": "x-y", "___": "project", "héllo": "h-llo"} {
		if got := NameSlug(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
