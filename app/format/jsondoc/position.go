package jsondoc

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Position converts a byte offset into a 1-based line and column. Columns
// count Unicode code points (a tab is one), lines end at '\n', and a leading
// BOM takes no column because editors do not show it. Offsets past the end
// are clamped to the end.
func Position(data []byte, offset int) (line, col int) {
	offset = max(0, min(offset, len(data)))
	lineStart := bytes.LastIndexByte(data[:offset], '\n') + 1
	line = bytes.Count(data[:lineStart], []byte{'\n'}) + 1
	return line, column(data, lineStart, offset)
}

func column(data []byte, lineStart, offset int) int {
	if lineStart == 0 && HasBOM(data) && offset >= len(bom) {
		lineStart = len(bom)
	}
	return utf8.RuneCount(data[lineStart:offset]) + 1
}

// Lines answers many Position queries on one document in O(log n) each,
// for validators that position every field of every entry.
type Lines struct {
	data   []byte
	starts []int // byte offset where each line starts
}

// NewLines indexes the line starts of data.
func NewLines(data []byte) *Lines {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &Lines{data: data, starts: starts}
}

// Position is Position(data, offset) for the indexed data.
func (l *Lines) Position(offset int) (line, col int) {
	offset = max(0, min(offset, len(l.data)))
	// The line is the last start <= offset.
	i := sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > offset }) - 1
	return i + 1, column(l.data, l.starts[i], offset)
}
