package hookdecl

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAdapterIsNoScript: a line that runs the conversion's adapter is
// adapted, and the adapter is not read as the hook's script.
func TestAdapterIsNoScript(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"run-claude-hook.sh": "#!/bin/sh\n" + AdapterMark + "; POSIX sh\n", "guard.sh": "#!/bin/sh\necho hi\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := CheckCommand("sh ./run-claude-hook.sh PreToolUse ./guard.sh", dir, Resolver(nil))
	if !c.Adapted || len(c.Scripts) != 0 {
		t.Errorf("adapted %v, scripts %v", c.Adapted, c.Scripts)
	}
	c = CheckCommand("sh ./guard.sh", dir, Resolver(nil))
	if c.Adapted || len(c.Scripts) != 1 {
		t.Errorf("a hook's own script: adapted %v, scripts %v", c.Adapted, c.Scripts)
	}
}
