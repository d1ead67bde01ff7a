package edit

import (
	"bytes"
	"slices"
)

// Conflict markers MergeText writes around lines both sides changed.
const (
	MarkerMine   = "<<<<<<< mine (unsaved edits)"
	MarkerSep    = "======="
	MarkerTheirs = ">>>>>>> theirs (on disk)"
)

// maxDiffCells bounds the table of the line diff. Beyond it the differing
// middle of the files is treated as one change, which can only turn a
// clean merge into a conflict, never lose a line.
const maxDiffCells = 4 << 20

// MergeText merges two edits of base line by line, like diff3: lines changed
// on one side only are taken from that side, lines changed identically on
// both sides once, and lines changed differently on both sides are kept
// from both, between conflict markers, each reported as a Conflict.
func MergeText(base, mine, theirs []byte) MergeResult {
	b, m, t := splitLines(base), splitLines(mine), splitLines(theirs)
	mb := matchLines(b, m) // base index -> mine index, or -1
	tb := matchLines(b, t)
	var out bytes.Buffer
	var res MergeResult
	i, a, c := 0, 0, 0 // positions in base, mine, theirs
	for i <= len(b) {
		// The next base line kept by both sides ends the current chunk.
		j := i
		for j < len(b) && (mb[j] < 0 || tb[j] < 0) {
			j++
		}
		ma, tc := len(m), len(t)
		if j < len(b) {
			ma, tc = mb[j], tb[j]
		}
		bc, mc, thc := b[i:j], m[a:ma], t[c:tc]
		switch {
		case linesEqual(mc, bc):
			writeLines(&out, thc)
		case linesEqual(thc, bc), linesEqual(mc, thc):
			writeLines(&out, mc)
		default:
			line := bytes.Count(out.Bytes(), []byte{'\n'}) + 1
			if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte{'\n'}) {
				out.WriteByte('\n')
				line++
			}
			out.WriteString(MarkerMine + "\n")
			writeLinesNL(&out, mc)
			out.WriteString(MarkerSep + "\n")
			writeLinesNL(&out, thc)
			out.WriteString(MarkerTheirs + "\n")
			res.Conflicts = append(res.Conflicts, Conflict{
				Kind: BothChanged, Line: line,
				Base: string(bytes.Join(bc, nil)), Mine: string(bytes.Join(mc, nil)), Theirs: string(bytes.Join(thc, nil)),
			})
		}
		if j == len(b) {
			break
		}
		out.Write(b[j]) // stable line
		i, a, c = j+1, ma+1, tc+1
	}
	res.Merged = out.Bytes()
	res.Clean = len(res.Conflicts) == 0
	return res
}

func writeLines(w *bytes.Buffer, ls [][]byte) {
	for _, l := range ls {
		w.Write(l)
	}
}

// writeLinesNL writes lines and makes sure the last one ends, so a marker
// after it starts its own line.
func writeLinesNL(w *bytes.Buffer, ls [][]byte) {
	writeLines(w, ls)
	if len(ls) > 0 && !bytes.HasSuffix(ls[len(ls)-1], []byte{'\n'}) {
		w.WriteByte('\n')
	}
}

// splitLines splits after every '\n', keeping it; a last line without one
// is kept as it is.
func splitLines(data []byte) [][]byte {
	var ls [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n') + 1
		if i == 0 {
			i = len(data)
		}
		ls = append(ls, data[:i:i])
		data = data[i:]
	}
	return ls
}

func linesEqual(a, b [][]byte) bool { return slices.EqualFunc(a, b, bytes.Equal) }

// matchLines returns, for every line of a, the index of the line of b it is
// matched with by a longest common subsequence, or -1.
func matchLines(a, b [][]byte) []int {
	match := make([]int, len(a))
	for i := range match {
		match[i] = -1
	}
	// Common prefix and suffix are matched directly.
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		match[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		match[len(a)-1-suf] = len(b) - 1 - suf
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n == 0 || m == 0 || (n+1)*(m+1) > maxDiffCells {
		return match
	}
	// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if bytes.Equal(ma[i], mb[j]) {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case bytes.Equal(ma[i], mb[j]):
			match[pre+i] = pre + j
			i++
			j++
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	return match
}
