package profile

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/claude-code-hooks.md")

const (
	docsFile   = "../../../docs/claude-code-hooks.md"
	docsBegin  = "<!-- renderings: generated from app/agentdata/profile/bundled; do not edit -->\n"
	docsFinish = "<!-- end renderings -->"
)

// TestDocs: docs/claude-code-hooks.md shows every bundled version's
// renderings as the profiles say (-update writes them there).
func TestDocs(t *testing.T) {
	ps, err := NewCatalog("").All(ClaudeCode)
	if err != nil || len(ps) < 2 {
		t.Fatalf("%d profiles: %v", len(ps), err)
	}
	data, err := os.ReadFile(filepath.FromSlash(docsFile))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	a, e := strings.Index(doc, docsBegin), strings.Index(doc, docsFinish)
	if a < 0 || e < a {
		t.Fatalf("%s has no %q … %q section", docsFile, docsBegin, docsFinish)
	}
	want := Markdown(ClaudeCode, ps)
	if got := doc[a+len(docsBegin) : e]; got != want {
		if *update {
			doc = doc[:a+len(docsBegin)] + want + doc[e:]
			if err := os.WriteFile(filepath.FromSlash(docsFile), []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's renderings are out of date: go test ./app/agentdata/profile -run TestDocs -update", docsFile)
	}
	for _, p := range ps {
		if !strings.Contains(want, ClaudeCode+" "+p.Version) {
			t.Errorf("no column for %s", p.Version)
		}
	}
}
