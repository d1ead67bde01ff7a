package recipe

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/capture.md's recipes section from the table")

// docsURL is the base URL docs/capture.md's examples use.
const docsURL = "http://127.0.0.1:41237"

const (
	docsBegin = "<!-- recipes:begin (generated from app/agentdata/recipe) -->\n"
	docsEnd   = "<!-- recipes:end -->"
)

// TestDocsCaptureRecipes: docs/capture.md shows exactly the table's recipes.
func TestDocsCaptureRecipes(t *testing.T) {
	path := filepath.Join("..", "..", "..", "docs", "capture.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	begin, end := strings.Index(doc, docsBegin), strings.Index(doc, docsEnd)
	if begin < 0 || end < begin {
		t.Fatalf("%s has no %q … %q section", path, docsBegin, docsEnd)
	}
	want := Markdown(docsURL)
	got := doc[begin+len(docsBegin) : end]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("%s's recipes differ from app/agentdata/recipe: go test ./app/agentdata/recipe -run TestDocs -update", path)
	}
	doc = doc[:begin+len(docsBegin)] + want + doc[end:]
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFrontendFixture: the app's mock backend (vite dev, the frontend's
// tests) serves the recipes this table gives for the docs' URL.
func TestFrontendFixture(t *testing.T) {
	path := filepath.Join("..", "..", "..", "frontend", "src", "fixtures", "recipes.json")
	want, err := json.MarshalIndent(ForAPI(docsURL, ""), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s differs from app/agentdata/recipe (%v): go test ./app/agentdata/recipe -run TestFrontendFixture -update", path, err)
	}
}

func TestFor(t *testing.T) {
	for _, r := range All() {
		got := r.For(docsURL, "fix it")
		var all []string
		for _, v := range got.Env {
			all = append(all, v.Value)
		}
		for _, f := range got.Files {
			all = append(all, f.Content)
		}
		for _, argv := range append(got.Before, got.Run) {
			all = append(all, argv...)
		}
		all = append(all, got.Lines...)
		text := strings.Join(all, "\n")
		if strings.Contains(text, "{{") {
			t.Errorf("%s: a placeholder is left: %s", r.Agent, text)
		}
		if !strings.Contains(text, docsURL) {
			t.Errorf("%s: the capture's URL is nowhere", r.Agent)
		}
		if got.Run[len(got.Run)-1] != "fix it" && !slices.Contains(got.Run, "fix it") {
			t.Errorf("%s: the prompt is not in the command: %v", r.Agent, got.Run)
		}
		if last := got.Lines[len(got.Lines)-1]; !strings.Contains(last, `"fix it"`) || !strings.HasPrefix(last, got.Run[0]+" ") {
			t.Errorf("%s: the last line is not the command: %q", r.Agent, last)
		}
		if r.Hooks == "" || r.Trap == "" || r.Version == "" || r.Package == "" || APIName(r.API) == r.API {
			t.Errorf("%s: incomplete: %+v", r.Agent, r)
		}
		// For works on a copy: the table keeps its placeholders
		if !strings.Contains(strings.Join(r.Run, " "), Prompt) {
			t.Errorf("%s: For changed the table", r.Agent)
		}
	}
}

func TestFind(t *testing.T) {
	if r, err := Find("codex"); err != nil || r.API != Responses {
		t.Errorf("codex: %+v %v", r, err)
	}
	if _, err := Find("cursor"); !errors.Is(err, ErrUnknown) {
		t.Errorf("cursor: %v", err)
	}
	seen := map[string]bool{}
	for _, a := range Agents() {
		if seen[a] {
			t.Errorf("%s has two recipes", a)
		}
		seen[a] = true
	}
}

func TestForAPI(t *testing.T) {
	for _, api := range []string{Anthropic, OpenAI, Responses, Gemini} {
		rs := ForAPI(docsURL, api)
		if len(rs) == 0 {
			t.Errorf("%s: no recipe", api)
		}
		for _, r := range rs {
			if r.API != api || len(r.Lines) == 0 {
				t.Errorf("%s: %s speaks %s (lines %v)", api, r.Agent, r.API, r.Lines)
			}
		}
	}
	if len(ForAPI(docsURL, "")) != len(All()) {
		t.Error("every recipe without an API")
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"capture":                      "capture",
		"http://127.0.0.1:41237/v1":    "http://127.0.0.1:41237/v1",
		"custom:Capture-0":             "custom:Capture-0",
		"clean the build folder":       `"clean the build folder"`,
		"":                             `""`,
		`say "hi"`:                     `'say "hi"'`,
		"it's $HOME":                   `'it'\''s $HOME'`,
		"--dangerously-bypass-hook-tr": "--dangerously-bypass-hook-tr",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
