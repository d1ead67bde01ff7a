package locate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "count")
	cli := filepath.Join(dir, "claude")
	if err := os.WriteFile(cli, []byte("#!/bin/sh\necho x >> "+count+"\necho '2.1.332 (Claude Code)'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	f := NewFinder()
	for range 2 {
		c, err := f.Find(context.Background(), "claude-code")
		if err != nil || c.Path != cli || c.Version != "2.1.332" {
			t.Fatalf("%+v %v", c, err)
		}
	}
	if data, _ := os.ReadFile(count); len(data) != 2 {
		t.Errorf("--version ran %d times, want once", len(data)/2)
	}
	if _, err := f.Find(context.Background(), "codex"); !errors.Is(err, ErrNotFound) {
		t.Errorf("codex: %v", err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("#!/bin/sh\necho 'no version here'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Version(context.Background(), bad); err == nil {
		t.Error("a CLI that prints no version has one")
	}
}
