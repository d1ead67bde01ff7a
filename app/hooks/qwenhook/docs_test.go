package qwenhook

import (
	"flag"
	"testing"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/render"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/qwen-code-hooks.md")

// TestDocs: docs/qwen-code-hooks.md shows what the model reads from each answer as
// the bundled profile says (-update writes it there).
func TestDocs(t *testing.T) {
	p, err := profile.NewCatalog("").NewestBundled(System)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := render.UpdateDocs("../../../docs/qwen-code-hooks.md", render.ShapeTable(p, "run_shell_command"), *update)
	if err != nil {
		t.Fatal(err)
	}
	if !ok && !*update {
		t.Errorf("docs/qwen-code-hooks.md's renderings are out of date: go test ./app/hooks/qwenhook -run TestDocs -update")
	}
}
