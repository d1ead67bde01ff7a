package calibrate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// ErrListing: the CLI lists the folder in a way the runs do not teach
// (the tree's glyphs, its order, what it leaves out or where it stops).
var ErrListing = errors.New("the CLI's folder listing does not follow rules the runs teach")

// listing is where a run's first request lists its folder: the text of
// the message that holds it, and where the listing starts (its summary)
// and the folder's path stands.
type listing struct {
	text        string
	start, root int
	lines       []string // the entries' lines, in order
	sep         string   // after the folder's path
}

// findListing finds the folder's listing in a run's first request: the
// folder's path alone on a line, the entries' lines under it, the summary
// the line above the newlines before it.
func findListing(r *reqRan) (listing, bool) {
	c, ok := firstCall(r)
	if !ok {
		return listing{}, false
	}
	cwd := r.values[request.SlotCwd]
	for _, m := range c.Messages {
		if m.Origin == capture.OriginHook {
			continue
		}
		text := m.Content
		for from := 0; ; {
			i := strings.Index(text[from:], "\n"+cwd)
			if i < 0 {
				break
			}
			at := from + i + 1
			from = at
			end := strings.IndexByte(text[at:], '\n')
			if end < 0 {
				continue
			}
			sep := text[at+len(cwd) : at+end]
			if sep == "" || len(sep) > 2 {
				continue
			}
			l := listing{text: text, root: at, sep: sep}
			rest := text[at+end+1:]
			for _, line := range strings.Split(rest, "\n") {
				if line == "" || !isGlyph(firstRune(line)) {
					break
				}
				l.lines = append(l.lines, line)
			}
			// the summary: the line above the newlines before the path
			gap := at
			for gap > 0 && text[gap-1] == '\n' {
				gap--
			}
			l.start = strings.LastIndexByte(text[:gap], '\n') + 1
			if len(l.lines) > 0 && gap < at {
				return l, true
			}
		}
	}
	return listing{}, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// isGlyph says whether r draws a tree (box drawing) or indents it.
func isGlyph(r rune) bool { return r == ' ' || r >= 0x2500 && r <= 0x257F }

// glyphs splits a listing line into its prefix (glyphs and indent) and
// the entry's text.
func glyphs(line string) (prefix, rest string) {
	for i, r := range line {
		if !isGlyph(r) {
			return line[:i], line[i:]
		}
	}
	return line, ""
}

// learnTree reads how the CLI lists the folder from the runs' listings and
// the folders as read before the CLI started: the glyphs from the lines,
// then the order, the folders never opened, the bound and what git
// ignores as the rules under which every run's listing comes out as the
// CLI wrote it. Each run's listing is then its SlotTree.
func learnTree(m *request.Model, spec reqAgent, ran []*reqRan) error {
	if !spec.tree {
		return nil
	}
	ls := make([]listing, len(ran))
	for i, r := range ran {
		l, ok := findListing(r)
		if !ok {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: no listing of the folder under its path", ErrListing)}
		}
		ls[i] = l
	}
	t := &request.Tree{Sep: ls[0].sep, Gap: ls[0].text[strings.IndexByte(ls[0].text[ls[0].start:], '\n')+ls[0].start : ls[0].root]}
	// the connectors: the top entries' lines (those of the shortest
	// prefix), the last one's apart; the indents: the lines under a top
	// folder, the last top folder's apart
	for _, l := range ls {
		width := -1
		for _, line := range l.lines {
			p, _ := glyphs(line)
			if n := utf8.RuneCountInString(p); width < 0 || n < width {
				width = n
			}
		}
		var top []int
		for k, line := range l.lines {
			if p, _ := glyphs(line); utf8.RuneCountInString(p) == width {
				top = append(top, k)
			}
		}
		for n, k := range top {
			p, _ := glyphs(l.lines[k])
			last := n == len(top)-1
			if last {
				t.Last = p
			} else if t.Mid == "" {
				t.Mid = p
			}
			if k+1 < len(l.lines) {
				if q, _ := glyphs(l.lines[k+1]); utf8.RuneCountInString(q) > width {
					indent := string([]rune(q)[:width])
					if last {
						t.Blank = indent
					} else if t.Pipe == "" {
						t.Pipe = indent
					}
				}
			}
		}
	}
	if t.Mid == "" || t.Last == "" || t.Pipe == "" || t.Blank == "" {
		return &ProbeError{Probe: "request tree", Err: fmt.Errorf("%w: the runs' listings do not show every glyph (%q %q %q %q)", ErrListing, t.Mid, t.Last, t.Pipe, t.Blank)}
	}
	// what marks a folder never opened: the rest of the line of a folder
	// that has entries and shows none
	for i, l := range ls {
		dirs := map[string]bool{}
		for _, c := range ran[i].folder.Children {
			if c.Dir && len(c.Children) > 0 {
				dirs[c.Name] = true
			}
		}
		for _, line := range l.lines {
			p, rest := glyphs(line)
			if utf8.RuneCountInString(p) != utf8.RuneCountInString(t.Mid) {
				continue
			}
			name, more, ok := strings.Cut(rest, t.Sep)
			if ok && more != "" && dirs[name] {
				if t.More == "" {
					t.More = more
				}
				if !slices.Contains(t.Ignored, name) && !gitIgnoredDir(ran[i].folder, name) {
					t.Ignored = append(t.Ignored, name)
				}
			}
		}
	}
	slices.Sort(t.Ignored)
	// the bound: the entries a listing cut short shows
	t.Max = 1 << 30
	for _, l := range ls {
		shown, cut := 0, false
		for _, line := range l.lines {
			_, rest := glyphs(line)
			if rest == t.More {
				cut = true
				continue
			}
			shown++
		}
		if cut {
			t.Max = min(t.Max, shown)
		}
	}
	// the summaries: a listing that leaves nothing out, and one that does
	var problems []string
	for _, order := range request.Orders {
		for _, git := range []bool{true, false} {
			t.Order, t.Gitignore = order, git
			t.Summary, t.Truncated = "", ""
			problems = problems[:0]
			for i, l := range ls {
				summary := l.text[l.start : l.start+strings.IndexByte(l.text[l.start:], '\n')]
				probe := *t
				probe.Summary, probe.Truncated = "\x00", "\x01"
				got := probe.Render(ran[i].folder, ran[i].values[request.SlotCwd])
				if strings.HasPrefix(got, "\x01") {
					t.Truncated = summary
				} else {
					t.Summary = summary
				}
				want := l.text[l.start:]
				got = summary + got[1:]
				if !strings.HasPrefix(want, got) || len(want) > len(got) && want[len(got)] != '\n' {
					k := commonPrefix(got, want)
					problems = append(problems, fmt.Sprintf("%s: listed %q, the CLI wrote %q", ran[i].run.name, clip(around(got, k)), clip(around(want, k))))
				}
			}
			if len(problems) == 0 {
				break
			}
		}
		if len(problems) == 0 {
			break
		}
	}
	if len(problems) > 0 {
		return &ProbeError{Probe: "request tree", Err: fmt.Errorf("%w: %s", ErrListing, strings.Join(problems, "; "))}
	}
	if t.Summary == "" || t.Truncated == "" {
		return &ProbeError{Probe: "request tree", Err: fmt.Errorf("%w: no run's listing showed everything, or none left something out", ErrListing)}
	}
	m.Tree = t
	for _, r := range ran {
		r.values[request.SlotTree] = t.Render(r.folder, r.values[request.SlotCwd])
	}
	return nil
}

// gitIgnoredDir says whether the folder's top entry name is a folder git
// ignores there.
func gitIgnoredDir(root request.Node, name string) bool {
	for _, c := range root.Children {
		if c.Name == name {
			return c.Ignored
		}
	}
	return false
}

// learnFiles reads the context files the CLI writes into its request:
// whether it trims their content (a run planted one with white space
// around its words), and gives every run their slots' values.
func learnFiles(m *request.Model, spec reqAgent, ran []*reqRan) error {
	for _, name := range spec.files {
		f := request.ContextFile{Name: name}
		seen := false
		for _, r := range ran {
			content, ok := r.contexts[name]
			if !ok {
				continue
			}
			c, _ := firstCall(r)
			in := func(s string) bool {
				return slices.ContainsFunc(c.Messages, func(msg capture.Message) bool { return strings.Contains(msg.Content, s) })
			}
			switch {
			case in(content):
				seen = true
			case in(strings.TrimSpace(content)):
				seen, f.Trim = true, true
			default:
				return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the CLI does not write the %s the run planted", ErrTextNotFound, name)}
			}
		}
		if !seen {
			return &ProbeError{Probe: "request", Err: fmt.Errorf("%w: no run planted %s", ErrTextNotFound, name)}
		}
		m.Files = append(m.Files, f)
	}
	for _, r := range ran {
		for k, x := range m.FileValues(func(name string) (string, bool) { c, ok := r.contexts[name]; return c, ok }) {
			r.values[k] = x
		}
	}
	return nil
}
