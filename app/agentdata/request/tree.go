package request

import (
	"slices"
	"strings"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// Tree is how an agent lists the working folder's structure in its
// request (Gemini CLI's "Directory Structure"), as calibration saw it: a
// line per entry under the folder's path, files before folders, each kind
// in Order, breadth first up to Max entries, folders it never opens
// (Ignored, or left out by the folder's .gitignore) marked with More.
// Render computes it from a folder read by the caller (workspace.Listing).
type Tree struct {
	// Summary is the line above the listing, Truncated the line when
	// something is not shown (the CLI's words: left out of a shipped
	// shape); Gap what stands between it and the folder's path.
	Summary   string `json:"summary,omitempty"`
	Truncated string `json:"truncated,omitempty"`
	Gap       string `json:"gap"`
	// Mid and Last start the line of an entry that has siblings after
	// it, and of the last; Pipe and Blank stand under them for the
	// entries inside a folder.
	Mid   string `json:"mid"`
	Last  string `json:"last"`
	Pipe  string `json:"pipe"`
	Blank string `json:"blank"`
	// Sep follows a folder's name (and the folder's path); More marks a
	// folder not opened, and stands for entries not shown.
	Sep  string `json:"sep"`
	More string `json:"more"`
	// Ignored are the names of the folders listed but never opened.
	Ignored []string `json:"ignored"`
	// Max is how many entries are shown at most.
	Max int `json:"max"`
	// Order is how the names of one folder are sorted: OrderLocale or
	// OrderBytes.
	Order string `json:"order"`
	// Gitignore: in a git repository, a file the .gitignore files ignore
	// is left out, and such a folder is listed but not opened.
	Gitignore bool `json:"gitignore,omitempty"`
	// Bare: the listing is the entries' lines alone, without the summary
	// and the folder's path (Qwen Code writes its own words around it).
	Bare bool `json:"bare,omitempty"`
	// MarkUnread: a folder the listing reaches once Max entries are shown
	// ends with a More line of its own (Qwen Code).
	MarkUnread bool `json:"mark_unread,omitempty"`
}

// The orders a Tree sorts names by.
const (
	// OrderLocale is Node.js's String.prototype.localeCompare: the
	// Unicode collation (punctuation before digits before letters, a
	// lower-case letter before its capital).
	OrderLocale = "locale"
	OrderBytes  = "bytes"
)

// Orders are the orders calibration tries.
var Orders = []string{OrderLocale, OrderBytes}

// Node is one entry of a folder as read for its listing: a file, or a
// folder with its entries (in any order). Ignored is an entry the
// folder's ignore files (.gitignore) leave out.
type Node struct {
	Name     string
	Dir      bool
	Ignored  bool
	Children []Node
}

// Sort sorts names as order does.
func Sort(order string, names []string) {
	if order == OrderLocale {
		c := collate.New(language.Und)
		slices.SortStableFunc(names, func(a, b string) int { return c.CompareString(a, b) })
		return
	}
	slices.Sort(names)
}

type treeNode struct {
	name                string
	files               []string
	subs                []*treeNode
	ignored             bool
	moreFiles, moreSubs bool
}

// Render is the folder at path listed as the agent lists it: the
// summary, the path, a line per entry shown.
func (t *Tree) Render(root Node, path string) string {
	top := t.read(root)
	var lines []string
	t.format(top, "", true, true, &lines)
	if t.Bare {
		return strings.Join(lines, "\n")
	}
	summary := t.Summary
	if truncated(top) {
		summary = t.Truncated
	}
	return summary + t.Gap + path + t.Sep + "\n" + strings.Join(lines, "\n")
}

// read takes the entries to show breadth first, as many as Max allows.
func (t *Tree) read(root Node) *treeNode {
	top := &treeNode{name: root.Name}
	type item struct {
		tn *treeNode
		n  Node
	}
	queue := []item{{top, root}}
	count := 0
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if count >= t.Max {
			it.tn.moreSubs = t.MarkUnread
			continue
		}
		byName := map[string]Node{}
		names := make([]string, 0, len(it.n.Children))
		for _, c := range it.n.Children {
			byName[c.Name] = c
			names = append(names, c.Name)
		}
		Sort(t.Order, names)
		for _, name := range names {
			c := byName[name]
			if c.Dir {
				continue
			}
			if count >= t.Max {
				it.tn.moreFiles = true
				break
			}
			if c.Ignored && t.Gitignore {
				continue
			}
			it.tn.files = append(it.tn.files, name)
			count++
		}
		for _, name := range names {
			c := byName[name]
			if !c.Dir {
				continue
			}
			if count >= t.Max {
				it.tn.moreSubs = true
				break
			}
			sub := &treeNode{name: name}
			it.tn.subs = append(it.tn.subs, sub)
			count++
			if slices.Contains(t.Ignored, name) || c.Ignored && t.Gitignore {
				sub.ignored = true
				continue
			}
			queue = append(queue, item{sub, c})
		}
	}
	return top
}

func truncated(n *treeNode) bool {
	if n.moreFiles || n.moreSubs || n.ignored {
		return true
	}
	return slices.ContainsFunc(n.subs, truncated)
}

func (t *Tree) format(n *treeNode, indent string, last, root bool, out *[]string) {
	conn := t.Mid
	if last {
		conn = t.Last
	}
	if !root || n.ignored {
		line := indent + conn + n.name + t.Sep
		if n.ignored {
			line += t.More
		}
		*out = append(*out, line)
	}
	inner := ""
	if !root {
		inner = indent + t.Pipe
		if last {
			inner = indent + t.Blank
		}
	}
	for i, f := range n.files {
		c := t.Mid
		if i == len(n.files)-1 && len(n.subs) == 0 && !n.moreSubs {
			c = t.Last
		}
		*out = append(*out, inner+c+f)
	}
	if n.moreFiles {
		c := t.Mid
		if len(n.subs) == 0 && !n.moreSubs {
			c = t.Last
		}
		*out = append(*out, inner+c+t.More)
	}
	for i, s := range n.subs {
		t.format(s, inner, i == len(n.subs)-1 && !n.moreSubs, false, out)
	}
	if n.moreSubs {
		*out = append(*out, inner+t.Last+t.More)
	}
}
