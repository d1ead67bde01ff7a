package request

import (
	"slices"
	"testing"
)

// qwenTree is how Qwen Code 0.24.4 draws a folder (seen).
var qwenTree = &Tree{Max: 20, Branch: "├───", Last: "└───", Pipe: "│   ", Blank: "    ", Sep: "/", More: "...",
	Skipped: []string{".git", "dist", "node_modules"}, Order: OrderLocale}

// TestTreeDraw: breadth first, each folder's files before its folders in
// locale order, at most Max entries, skipped folders listed unread, what
// is left out marked where it stands (the drawings Qwen Code made of the
// calibration's folders).
func TestTreeDraw(t *testing.T) {
	for _, c := range []struct {
		name  string
		paths []string
		want  string
	}{
		{"one folder", []string{"QWEN.md", ".qwen/", ".qwen/settings.json"},
			"├───QWEN.md\n└───.qwen/\n    └───settings.json"},
		{"git", []string{"hsr-untracked.txt", ".git/", ".git/HEAD", ".qwen/", ".qwen/settings.json"},
			"├───hsr-untracked.txt\n├───.git/...\n└───.qwen/\n    └───settings.json"},
		{"more than it draws", []string{"AGENTS.md", "a.md", "B.md", "QWEN.md", "z1.txt", "z2.txt", "z3.txt", "z4.txt", "z5.txt", "z6.txt", "z7.txt", "z8.txt",
			".qwen/", ".qwen/settings.json", "d/", "d/c.txt", "d/e/", "d/e/f.txt", "dist/", "dist/y.js", "g/", "g/h.txt", "node_modules/", "node_modules/x.js"},
			"├───a.md\n├───AGENTS.md\n├───B.md\n├───QWEN.md\n├───z1.txt\n├───z2.txt\n├───z3.txt\n├───z4.txt\n├───z5.txt\n├───z6.txt\n├───z7.txt\n├───z8.txt\n" +
				"├───.qwen/\n│   └───settings.json\n├───d/\n│   ├───c.txt\n│   └───e/\n│       └───...\n├───dist/...\n├───g/\n│   └───...\n└───node_modules/..."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := qwenTree.Draw(NodeOf(c.paths)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestLocaleCompare: names sort as Node's localeCompare sorts them
// (punctuation, digits, letters case-folded, lower case first).
func TestLocaleCompare(t *testing.T) {
	names := []string{"Zeta", "a2", "_x", "README.md", ".qwen", "a10", "zeta", "A", "a", "-y", "run-tests.sh", ".github", "B", "a1", "QWEN.md"}
	want := []string{"_x", "-y", ".github", ".qwen", "a", "A", "a1", "a10", "a2", "B", "QWEN.md", "README.md", "run-tests.sh", "zeta", "Zeta"}
	slices.SortFunc(names, LocaleCompare)
	if !slices.Equal(names, want) {
		t.Errorf("got %q\nwant %q", names, want)
	}
}
