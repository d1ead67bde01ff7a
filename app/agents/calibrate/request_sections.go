package calibrate

import (
	"fmt"
	"strings"

	"hookstudio/app/agentdata/request"
)

// A section is a part of one of the CLI's texts that it writes only in a
// git repository (Qwen Code's git instructions and snapshot in its system
// prompt), or in other words outside one (Copilot CLI's "Not a git
// repository" where a git run names its root). Before the texts are read
// as templates, each section stands as a slot of its own whose value is
// the section's text in each git run and "" outside (its words there
// read as the slot's empty form); once read, the slot becomes a
// request.Seg section whose text is read between two git runs.
type section struct {
	slot string
	// when: Git (the git runs' own text) or NoGit (words outside git
	// a git run lacks)
	when request.Condition
	// texts are the section's text in each run it stands in, by run index.
	texts map[int]string
}

// sectionSlot names the n-th section of the base's own text i.
func sectionSlot(i, n int) string { return fmt.Sprintf("section.%d.%d", i, n) }

// learnSections finds the sections of the base's own texts against every
// git run's, and gives every run their slots' values.
func learnSections(ran []*reqRan, turns []*firstTurn) ([]*section, error) {
	base := turns[0]
	if isGitRun(ran[0]) {
		return nil, nil
	}
	var out []*section
	for i := range base.own {
		var found []*section
		for k := 1; k < len(ran); k++ {
			if !isGitRun(ran[k]) {
				continue
			}
			j := counterpart(base, turns[k], i)
			if j < 0 {
				continue
			}
			parts := gitParts(base.own[i].text, turns[k].own[j].text, ran[0].values, ran[k].values)
			if found == nil {
				for n, p := range parts {
					s := &section{slot: sectionSlot(i, n), when: request.Git, texts: map[int]string{}}
					if !p.git {
						s.when = request.NoGit
						for r := range ran {
							if !isGitRun(ran[r]) {
								s.texts[r] = unmark(p.marked, ran[r].values)
							}
						}
					}
					found = append(found, s)
				}
			}
			if len(parts) != len(found) {
				return nil, &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: the git runs differ from the base in %d and %d places", ErrUnexplained, len(found), len(parts))}
			}
			for n, p := range parts {
				if p.git {
					found[n].texts[k] = unmark(p.marked, ran[k].values)
				}
			}
		}
		out = append(out, found...)
	}
	for _, s := range out {
		for k, r := range ran {
			r.values[s.slot] = s.texts[k]
		}
	}
	return out, nil
}

func isGitRun(r *reqRan) bool { return r.values[request.SlotIsGit] == "true" }

// gitPart is a place where a git run's text and the base's differ in the
// CLI's words: the git run's text there (with its slots' marks), or, when
// the git run has nothing there, the base's.
type gitPart struct {
	git    bool
	marked string
}

// gitParts are the places where the git run's text b and the base's a
// differ in words of the CLI's (not values of slots), in order.
func gitParts(a, b string, va, vb request.Values) []gitPart {
	na, nb := normalized(a, va, vb), normalized(b, vb, va)
	var out []gitPart
	for _, h := range hunks(na, nb) {
		x, y := na[h[0]:h[1]], nb[h[2]:h[3]]
		p := commonPrefix(x, y)
		s := commonSuffix(x[p:], y[p:])
		x, y = x[p:len(x)-s], y[p:len(y)-s]
		switch {
		case words(y) == "" && words(x) == "", opaqueLike(x) && opaqueLike(y) && !(capitalWord(x) && capitalWord(y)):
			// the runs' values apart, no words of the CLI's (or a token of
			// its own each request has: SlotOpaque)
		case y != "":
			out = append(out, gitPart{git: true, marked: y})
		default:
			out = append(out, gitPart{marked: x})
		}
	}
	return out
}

// words is s without its slots' marks.
func words(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, mark)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+1:], mark)
		if j < 0 {
			return b.String()
		}
		s = s[i+1+j+1:]
	}
}

// unmark writes each slot's mark in s as its value in v.
func unmark(s string, v request.Values) string {
	for k, x := range v {
		s = strings.ReplaceAll(s, mark+k+mark, x)
	}
	return s
}

// hunks are the line ranges where a line diff finds a and b apart:
// [a from, a to, b from, b to] each.
func hunks(a, b string) [][4]int {
	la, lb := strings.SplitAfter(a, "\n"), strings.SplitAfter(b, "\n")
	var out [][4]int
	offA, offB := lineOffsets(la), lineOffsets(lb)
	pairs := matchLines(la, lb)
	pi, pj := 0, 0
	for _, p := range append(pairs, [2]int{len(la), len(lb)}) {
		switch {
		case p[0]-pi == p[1]-pj:
			// as many lines apart on each side: each pair apart of its own
			for k := 0; k < p[0]-pi; k++ {
				if la[pi+k] != lb[pj+k] {
					out = append(out, [4]int{offA[pi+k], offA[pi+k+1], offB[pj+k], offB[pj+k+1]})
				}
			}
		case p[0] > pi || p[1] > pj:
			out = append(out, [4]int{offA[pi], offA[p[0]], offB[pj], offB[p[1]]})
		}
		pi, pj = p[0]+1, p[1]+1
	}
	return out
}

// sectioned is t with each section's slot written as the section: its
// text read between two git runs (or the one) under the section's
// condition, its words outside git under the condition's Not.
func sectioned(t request.Text, secs []*section, ran []*reqRan) (request.Text, error) {
	if len(secs) == 0 {
		return t, nil
	}
	out := make(request.Text, 0, len(t))
	for _, seg := range t {
		var s *section
		for _, x := range secs {
			if x.slot == seg.Slot {
				s = x
			}
		}
		if s == nil {
			out = append(out, seg)
			continue
		}
		// the section's text, read between two runs that hold it
		plain := func(v request.Values) request.Values {
			out := request.Values{}
			for k, x := range v {
				if !strings.HasPrefix(k, "section.") {
					out[k] = x
				}
			}
			return out
		}
		var sub request.Text
		first := -1
		for k := range ran {
			x, ok := s.texts[k]
			if !ok {
				continue
			}
			if first < 0 {
				first, sub = k, request.Text{{Lit: x}}
				continue
			}
			w, err := walk(s.texts[first], x, plain(ran[first].values), plain(ran[k].values))
			if err != nil {
				return nil, &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("a git section: %w", err)}
			}
			sub = w
			break
		}
		sub = machine(sub, ran[first].values)
		for _, x := range sub {
			if x.When == request.Always {
				x.When = s.when
			}
			out = append(out, x)
		}
		if seg.Empty != "" {
			out = append(out, request.Seg{Lit: seg.Empty, When: s.when.Not()})
		}
	}
	return out, nil
}

// opaqueLike says s is a short token of letters and digits, as an
// opaque value is (opaqueAt).
func opaqueLike(s string) bool {
	if s == "" || len(s) > 16 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !alnum(s[i]) {
			return false
		}
	}
	return true
}

// capitalWord says s is a capitalised word of letters (Claude Code's
// sub-agent's "Is directory a git repo: Yes"): words of the CLI's, where
// an opaque token of its own is digits and lower-case hex.
func capitalWord(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
