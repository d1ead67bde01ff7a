package codexhook

import (
	"flag"
	"testing"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/render"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/codex-hooks.md")

// TestDocs: docs/codex-hooks.md shows what the model reads from each answer as
// the bundled profile says (-update writes it there).
func TestDocs(t *testing.T) {
	p, err := profile.NewCatalog("").NewestBundled(System)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := render.UpdateDocs("../../../docs/codex-hooks.md", render.ShapeTable(p, "Bash"), *update)
	if err != nil {
		t.Fatal(err)
	}
	if !ok && !*update {
		t.Errorf("docs/codex-hooks.md's renderings are out of date: go test ./app/hooks/codexhook -run TestDocs -update")
	}
}
