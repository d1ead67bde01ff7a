package studio

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/hooks/hostmode"
)

// TestSetHostBehaviour: the folder setting is written beside the user's other
// settings, read back, and a bad choice changes nothing.
func TestSetHostBehaviour(t *testing.T) {
	s, _, ctx := newService(t)
	if _, err := s.SetHostBehaviour(ctx, "document"); err == nil {
		t.Error("set with no folder open")
	}
	root := guardedRoot(t)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	if m, err := s.HostBehaviour(); err != nil || m != "code" {
		t.Fatalf("default %q %v", m, err)
	}
	path := filepath.Join(root, filepath.FromSlash(hostmode.File))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("# the team's choice\nother: kept\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetHostBehaviour(ctx, "document"); err != nil {
		t.Fatal(err)
	}
	if m, _ := s.HostBehaviour(); m != "document" {
		t.Errorf("after setting document: %q", m)
	}
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "# the team's choice") || !strings.Contains(string(data), "other: kept") {
		t.Errorf("the other settings were lost:\n%s", data)
	}
	if _, err := s.SetHostBehaviour(ctx, "sometimes"); !errors.Is(err, hostmode.ErrUnknown) {
		t.Errorf("bad mode: %v", err)
	}
	if m, _ := s.HostBehaviour(); m != "document" {
		t.Errorf("a bad choice changed the setting to %q", m)
	}
}
