package request

import (
	"slices"
	"strings"
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

// qwenTree is how Qwen Code 0.24.4 draws a folder (seen).
var qwenTree = &Tree{Max: 20, Mid: "├───", Last: "└───", Pipe: "│   ", Blank: "    ", Sep: "/", More: "...",
	Ignored: []string{".git", "dist", "node_modules"}, Order: OrderLocale, Bare: true, MarkUnread: true}

// TestTreeBare: breadth first, each folder's files before its folders in
// locale order, at most Max entries, skipped folders listed unread, what
// is left out marked where it stands (the drawings Qwen Code made of the
// calibration's folders).
func TestTreeBare(t *testing.T) {
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
			if got := qwenTree.Render(nodeOf(c.paths), "/p"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestSortLocaleQwen: names sort as Node's localeCompare sorts them
// (punctuation, digits, letters case-folded, lower case first).
func TestSortLocaleQwen(t *testing.T) {
	names := []string{"Zeta", "a2", "_x", "README.md", ".qwen", "a10", "zeta", "A", "a", "-y", "run-tests.sh", ".github", "B", "a1", "QWEN.md"}
	want := []string{"_x", "-y", ".github", ".qwen", "a", "A", "a1", "a10", "a2", "B", "QWEN.md", "README.md", "run-tests.sh", "zeta", "Zeta"}
	Sort(OrderLocale, names)
	if !slices.Equal(names, want) {
		t.Errorf("got %q\nwant %q", names, want)
	}
}

// nodeOf is the folder whose entries are paths (slash paths, a folder's
// ending in "/").
func nodeOf(paths []string) Node {
	var add func(n *Node, parts []string, dir bool)
	add = func(n *Node, parts []string, dir bool) {
		for i := range n.Children {
			if c := &n.Children[i]; c.Name == parts[0] && c.Dir {
				add(c, parts[1:], dir)
				return
			}
		}
		n.Children = append(n.Children, Node{Name: parts[0], Dir: dir || len(parts) > 1})
		if len(parts) > 1 {
			add(&n.Children[len(n.Children)-1], parts[1:], dir)
		}
	}
	root := Node{Name: "p", Dir: true}
	for _, p := range paths {
		add(&root, strings.Split(strings.TrimSuffix(p, "/"), "/"), strings.HasSuffix(p, "/"))
	}
	return root
}
