package studio

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestCopyExamplesKeepsScriptsExecutable: the embedded examples lose their
// modes; a script (#!) comes out executable, so a hook command that names
// it directly (a Claude Code plugin's ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh)
// runs; other files do not.
func TestCopyExamplesKeepsScriptsExecutable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skills")
	src := fstest.MapFS{
		"guard/.claude-plugin/plugin.json": {Data: []byte(`{"name": "guard"}`)},
		"guard/hooks/guard.sh":             {Data: []byte("#!/bin/sh\nexit 0\n")},
		"guard/hooks/hooks.json":           {Data: []byte(`{"hooks": {}}`)},
	}
	if err := copyExamples(src, dir); err != nil {
		t.Fatal(err)
	}
	for file, exec := range map[string]bool{"guard/hooks/guard.sh": true, "guard/hooks/hooks.json": false, "guard/.claude-plugin/plugin.json": false} {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil || (fi.Mode().Perm()&0o100 != 0) != exec {
			t.Errorf("%s: %v, mode %v", file, err, fi.Mode())
		}
	}
}
