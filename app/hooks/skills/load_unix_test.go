//go:build unix

package skills

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO named as a hook file must be refused without opening it: a read
// would block the loader forever.
func TestLoadFIFO(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"s/hooks/hooks.json": doc(okEntry)})
	if err := syscall.Mkfifo(filepath.Join(root, "s", "hooks", "a.md"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	set, err := Load(t.Context(), root)
	if err != nil {
		t.Fatal(err)
	}
	l, c := at(t, doc(okEntry), `"a.md"`, 0)
	checkDiags(t, set.Diagnostics(), want{"s/hooks/hooks.json", l, c, "error", CodeNotRegular})
}
