package geminihook

import (
	"flag"
	"testing"

	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/render"
)

var update = flag.Bool("update", false, "rewrite the generated table of docs/gemini-cli-hooks.md")

// TestDocs: docs/gemini-cli-hooks.md shows what the model reads from each
// answer as the bundled profile (and this package's seen renderings) say
// (-update writes it there).
func TestDocs(t *testing.T) {
	p, err := profile.NewCatalog("").NewestBundled(System)
	if err != nil {
		t.Fatal(err)
	}
	want := render.Table(Outcomes, render.New(p, ownOutcomes), "run_shell_command")
	ok, err := render.UpdateDocs("../../../docs/gemini-cli-hooks.md", want, *update)
	if err != nil {
		t.Fatal(err)
	}
	if !ok && !*update {
		t.Errorf("docs/gemini-cli-hooks.md's renderings are out of date: go test ./app/hooks/geminihook -run TestDocs -update")
	}
}
