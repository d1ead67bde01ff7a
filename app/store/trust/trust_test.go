package trust

import (
	"os"
	"path/filepath"
	"slices"
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

// patterns are what the hook-system registry's TrustPatterns give for
// command and process hooks.
var patterns = []string{".jcli/hooks.yaml", ".picoclaw/hooks.json", "*/hooks/hooks.yaml", "*/hooks/picoclaw.json"}

func TestConfigsAndHash(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a/hooks/hooks.json", `{"hooks": []}`)
	write(t, root, "a/hooks/hooks.yaml", "pre_tool_execution:\n  - command: ./guard.sh\n")
	write(t, root, "a/hooks/guard.sh", "#!/bin/sh\necho {}\n")
	write(t, root, "b/hooks/picoclaw.json", `{"hooks": {}}`)
	write(t, root, ".jcli/hooks.yaml", "stop: []\n")
	write(t, root, ".picoclaw/hooks.json", `{}`)
	write(t, root, ".x/hooks/hooks.yaml", "stop: []\n") // a hidden folder is no skill
	files, err := Configs(root, patterns)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".jcli/hooks.yaml", ".picoclaw/hooks.json", "a/hooks/hooks.yaml", "b/hooks/picoclaw.json"}
	if !slices.Equal(files, want) {
		t.Fatalf("configs %v, want %v", files, want)
	}
	h1 := Hash(root, files)
	// A script is not a config: editing it keeps the trust.
	write(t, root, "a/hooks/guard.sh", "#!/bin/sh\necho '{\"action\":\"skip\"}'\n")
	if h := Hash(root, files); h != h1 {
		t.Fatal("editing a script changed the hash")
	}
	write(t, root, "a/hooks/hooks.yaml", "pre_tool_execution:\n  - command: ./other.sh\n")
	if h := Hash(root, files); h == h1 {
		t.Fatal("editing hooks.yaml kept the hash")
	}
	empty, err := Configs(t.TempDir(), patterns)
	if err != nil || len(empty) != 0 {
		t.Fatalf("empty folder: %v %v", empty, err)
	}
}

func TestStore(t *testing.T) {
	dir := t.TempDir()
	path := DefaultPath(dir)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Trusted("/x", "h1") || s.Known("/x") {
		t.Fatal("an empty store trusts nothing")
	}
	if err := s.Trust("/x", "h1"); err != nil {
		t.Fatal(err)
	}
	if !s.Trusted("/x", "h1") || s.Trusted("/x", "h2") || !s.Known("/x") {
		t.Fatal("trust is by path and hash")
	}
	// Remembered across restarts.
	s2, err := Open(path)
	if err != nil || !s2.Trusted("/x", "h1") {
		t.Fatalf("reopened: %v", err)
	}
	if err := s2.Untrust("/x"); err != nil {
		t.Fatal(err)
	}
	s3, _ := Open(path)
	if s3.Known("/x") {
		t.Fatal("untrusted folder still known")
	}
	// No temporary files left behind.
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("data folder holds %d entries", len(ents))
	}
}

func TestDamagedFileTrustsNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trusted-folders.json")
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path)
	if err == nil {
		t.Fatal("a damaged file must be reported")
	}
	if s == nil || s.Known("/x") {
		t.Fatal("a damaged file trusts nothing")
	}
	if err := s.Trust("/x", "h"); err != nil {
		t.Fatal(err)
	}
	if s2, err := Open(path); err != nil || !s2.Trusted("/x", "h") {
		t.Fatalf("rewritten: %v", err)
	}
}

func TestFailedSaveKeepsState(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s, _ := Open(filepath.Join(blocker, "trusted.json")) // its folder is a file
	if err := s.Trust("/x", "h"); err == nil {
		t.Fatal("save into a file's path must fail")
	}
	if s.Known("/x") {
		t.Fatal("a trust that could not be saved must not count")
	}
}
