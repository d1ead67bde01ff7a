package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
)

// TestFactsFiles: the files a request quotes are read into their slots
// when the folder holds them, and left out when it does not.
func TestFactsFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"AGENTS.md": "be brief\n", "docs/RULES.md": "no tabs\n"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := Facts(context.Background(), dir, Options{Home: dir, Files: []string{"AGENTS.md", "docs/RULES.md", "MISSING.md"}})
	for name, want := range map[string]string{"AGENTS.md": "be brief\n", "docs/RULES.md": "no tabs\n"} {
		if got := v[request.FileSlot(name)]; got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if _, ok := v[request.FileSlot("MISSING.md")]; ok {
		t.Error("a file the folder lacks has a value")
	}
}

// TestFactsTimezone: the time zone is the one /etc/localtime names, where
// the machine has one.
func TestFactsTimezone(t *testing.T) {
	target, err := os.Readlink("/etc/localtime")
	if err != nil {
		t.Skip("no /etc/localtime link on this machine")
	}
	_, want, _ := strings.Cut(target, "zoneinfo/")
	if got := Facts(context.Background(), t.TempDir(), Options{})[request.SlotTimezone]; got != want {
		t.Errorf("time zone %q, want %q", got, want)
	}
}
