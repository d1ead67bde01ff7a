package request

import (
	"strings"
	"unicode"
)

// Tree is how an agent draws the working folder's tree (Qwen Code's
// "folder structure"): breadth first, at most Max entries, each folder's
// files before its folders, each by Order; an entry's line is its
// parents' indents (Pipe under a folder that is not its parent's last,
// Blank under one that is), its connector (Branch, Last for the last of
// its folder) and its name (a folder's followed by Sep). A folder of
// Skipped is listed, not read (its name, Sep and More); where entries
// were left out, More stands as an entry of its own.
type Tree struct {
	Max     int      `json:"max"`
	Branch  string   `json:"branch"`
	Last    string   `json:"last"`
	Pipe    string   `json:"pipe"`
	Blank   string   `json:"blank"`
	Sep     string   `json:"sep"`
	More    string   `json:"more"`
	Skipped []string `json:"skipped,omitempty"`
	// Order is how names are sorted: OrderLocale or OrderBytes.
	Order string `json:"order"`
}

// Orders of a Tree's names.
const (
	// OrderLocale is Node's String.localeCompare (ICU's root collation)
	// for the names a project holds: whitespace, punctuation and symbols
	// before digits before letters, letters by their case-folded form,
	// lower case first.
	OrderLocale = "locale"
	OrderBytes  = "bytes"
)

// Node is a folder's content as a Tree reads it.
type Node struct {
	Name string
	Dir  bool
	// Kids are read lazily: a folder's entries, any order.
	Kids func() []Node
}

type treeNode struct {
	name               string
	files              []string
	dirs               []*treeNode
	skipped            bool
	moreFiles, moreDir bool
}

// Draw is the tree of root's entries (the root itself not drawn), lines
// joined with "\n".
func (t *Tree) Draw(root Node) string {
	top := &treeNode{}
	type queued struct {
		n    *treeNode
		node Node
	}
	queue := []queued{{top, root}}
	count := 0
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if count >= t.Max {
			q.n.moreDir = true
			continue
		}
		var kids []Node
		if q.node.Kids != nil {
			kids = q.node.Kids()
		}
		t.sort(kids)
		for _, k := range kids {
			if k.Dir {
				continue
			}
			if count >= t.Max {
				q.n.moreFiles = true
				break
			}
			q.n.files = append(q.n.files, k.Name)
			count++
		}
		for _, k := range kids {
			if !k.Dir {
				continue
			}
			if count >= t.Max {
				q.n.moreDir = true
				break
			}
			sub := &treeNode{name: k.Name, skipped: t.skips(k.Name)}
			q.n.dirs = append(q.n.dirs, sub)
			count++
			if !sub.skipped {
				queue = append(queue, queued{sub, k})
			}
		}
	}
	var lines []string
	t.draw(top, "", true, true, &lines)
	return strings.Join(lines, "\n")
}

func (t *Tree) skips(name string) bool {
	for _, s := range t.Skipped {
		if s == name {
			return true
		}
	}
	return false
}

func (t *Tree) draw(n *treeNode, indent string, last, root bool, lines *[]string) {
	conn := t.Branch
	if last {
		conn = t.Last
	}
	if !root {
		line := indent + conn + n.name + t.Sep
		if n.skipped {
			line += t.More
		}
		*lines = append(*lines, line)
	}
	kid := ""
	if !root {
		kid = indent + t.Blank
		if !last {
			kid = indent + t.Pipe
		}
	}
	for i, f := range n.files {
		c := t.Branch
		if i == len(n.files)-1 && len(n.dirs) == 0 && !n.moreDir {
			c = t.Last
		}
		*lines = append(*lines, kid+c+f)
	}
	if n.moreFiles {
		c := t.Branch
		if len(n.dirs) == 0 && !n.moreDir {
			c = t.Last
		}
		*lines = append(*lines, kid+c+t.More)
	}
	for i, d := range n.dirs {
		t.draw(d, kid, i == len(n.dirs)-1 && !n.moreDir, false, lines)
	}
	if n.moreDir {
		*lines = append(*lines, kid+t.Last+t.More)
	}
}

func (t *Tree) sort(kids []Node) {
	less := func(a, b string) bool { return a < b }
	if t.Order == OrderLocale {
		less = func(a, b string) bool { return LocaleCompare(a, b) < 0 }
	}
	for i := 1; i < len(kids); i++ { // few entries: insertion sort keeps it stable
		for j := i; j > 0 && less(kids[j].Name, kids[j-1].Name); j-- {
			kids[j], kids[j-1] = kids[j-1], kids[j]
		}
	}
}

// localeRank orders ASCII characters as ICU's root collation does
// (primary strength): whitespace, punctuation, symbols, digits, letters.
const localeRank = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"

// LocaleCompare compares a and b as Node's localeCompare does for names
// of ASCII characters: by each character's rank (letters case-folded),
// then lower case before upper case, then byte by byte.
func LocaleCompare(a, b string) int {
	rank := func(r rune) int {
		if r < 128 {
			if i := strings.IndexRune(localeRank, unicode.ToLower(r)); i >= 0 {
				return i
			}
		}
		return len(localeRank) + int(r)
	}
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if x, y := rank(ra[i]), rank(rb[i]); x != y {
			return x - y
		}
	}
	if len(ra) != len(rb) {
		return len(ra) - len(rb)
	}
	for i := range ra {
		if ra[i] != rb[i] {
			if unicode.IsLower(ra[i]) {
				return -1
			}
			return 1
		}
	}
	return 0
}

// NodeOf is the folder whose entries are paths (slash paths, a folder's
// ending in "/"), as workspace.Snapshot lists them.
func NodeOf(paths []string) Node {
	type dir struct {
		files []string
		dirs  []string
	}
	dirs := map[string]*dir{"": {}}
	get := func(p string) *dir {
		if dirs[p] == nil {
			dirs[p] = &dir{}
		}
		return dirs[p]
	}
	for _, p := range paths {
		isDir := strings.HasSuffix(p, "/")
		p = strings.TrimSuffix(p, "/")
		parent, name := "", p
		if i := strings.LastIndex(p, "/"); i >= 0 {
			parent, name = p[:i], p[i+1:]
		}
		d := get(parent)
		if isDir {
			d.dirs = append(d.dirs, name)
			get(p)
		} else {
			d.files = append(d.files, name)
		}
	}
	var node func(path, name string) Node
	node = func(path, name string) Node {
		return Node{Name: name, Dir: true, Kids: func() []Node {
			d := dirs[path]
			var out []Node
			for _, f := range d.files {
				out = append(out, Node{Name: f})
			}
			for _, s := range d.dirs {
				sub := s
				if path != "" {
					sub = path + "/" + s
				}
				out = append(out, node(sub, s))
			}
			return out
		}}
	}
	return node("", "")
}
