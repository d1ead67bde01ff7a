package request

import (
	"slices"
	"testing"
)

// TestSortLocale: names sort as Gemini CLI 0.61.0 listed them (its
// localeCompare): punctuation before digits before letters, a lower-case
// letter before its capital, "10" before "9".
func TestSortLocale(t *testing.T) {
	want := []string{".gitignore", "10.txt", "9.txt", "alpha.md", "GEMINI.md", "hsr_c.txt", "hsr-a.txt", "Hsr-A.txt", "hsr-A2.txt", "hsr-b.txt", "Zeta.md"}
	got := slices.Clone(want)
	slices.Reverse(got)
	Sort(OrderLocale, got)
	if !slices.Equal(got, want) {
		t.Errorf("locale order\n got %q\nwant %q", got, want)
	}
	dirs := []string{"vendor", "build", ".git", "__pycache__", ".venv", ".gemini", "dist", "node_modules"}
	Sort(OrderLocale, dirs)
	if w := []string{"__pycache__", ".gemini", ".git", ".venv", "build", "dist", "node_modules", "vendor"}; !slices.Equal(dirs, w) {
		t.Errorf("locale order\n got %q\nwant %q", dirs, w)
	}
}

// TestTreeRender: a folder listed as calibration learned Gemini CLI lists
// it — files before folders, breadth first, a folder never opened marked,
// what git ignores left out (a file) or not opened (a folder), the entries
// past the bound marked, the summary saying so.
func TestTreeRender(t *testing.T) {
	tree := Tree{Summary: "ALL", Truncated: "SOME", Gap: "\n\n", Mid: "├─", Last: "└─", Pipe: "│ ", Blank: "  ", Sep: "/", More: "...",
		Ignored: []string{"node_modules"}, Max: 100, Order: OrderLocale, Gitignore: true}
	file := func(name string) Node { return Node{Name: name} }
	dir := func(name string, c ...Node) Node { return Node{Name: name, Dir: true, Children: c} }
	for _, c := range []struct {
		name string
		max  int
		root Node
		want string
	}{
		{"files then folders", 100, dir("p", dir("src", file("b.go"), file("a.go")), file("README.md"), file("a.txt"), dir("docs", file("x.md"))),
			"ALL\n\n/w/p/\n├─a.txt\n├─README.md\n├─docs/\n│ └─x.md\n└─src/\n  ├─a.go\n  └─b.go"},
		{"a folder never opened", 100, dir("p", dir("node_modules", file("m.js")), file("a.txt")),
			"SOME\n\n/w/p/\n├─a.txt\n└─node_modules/..."},
		{"what git ignores", 100, dir("p", Node{Name: "secret.env", Ignored: true}, Node{Name: "build", Dir: true, Ignored: true}, file("a.txt")),
			"SOME\n\n/w/p/\n├─a.txt\n└─build/..."},
		// the last file shown is drawn as the last, the mark after it too
		// (seen: "└───f195.txt" then "└───...")
		{"past the bound", 4, dir("p", file("a"), file("b"), dir("d", file("x"), file("y"))),
			"SOME\n\n/w/p/\n├─a\n├─b\n└─d/\n  └─x\n  └─..."},
		// reached at a folder's turn: the folder stays unopened, unmarked
		{"the bound at a folder", 3, dir("p", file("a"), file("b"), dir("d", file("x"))),
			"ALL\n\n/w/p/\n├─a\n├─b\n└─d/"},
	} {
		tr := tree
		tr.Max = c.max
		if got := tr.Render(c.root, "/w/p"); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
