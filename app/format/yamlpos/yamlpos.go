// Package yamlpos decodes YAML the way the app's validators need it:
// positioned nodes (go.yaml.in/yaml/v3), one document per file, never a
// panic on user input, syntax errors located as well as the library's text
// allows, and nodes named for messages or written as JSON with positions.
package yamlpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Doc is a decoded YAML stream's first document.
type Doc struct {
	// Node is the document node; nil when the stream holds none (empty,
	// or only comments).
	Node *yaml.Node
	// Second is where a second document starts, if there is one; SecondErr
	// a syntax error after the first document.
	Second    *yaml.Node
	SecondErr error
}

// Root is the document's content: nil when there is none or it is null.
func (d Doc) Root() *yaml.Node {
	if d.Node == nil || len(d.Node.Content) == 0 {
		return nil
	}
	root := d.Node.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil
	}
	return root
}

// Decode reads the first document of data (a UTF-8 BOM dropped) and looks
// for a second one. The error is a syntax error of the first document.
func Decode(data []byte) (Doc, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := safeDecode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return Doc{}, nil
		}
		return Doc{}, err
	}
	d := Doc{Node: &doc}
	var next yaml.Node
	switch err := safeDecode(dec, &next); {
	case err == nil:
		d.Second = &next
	case !errors.Is(err, io.EOF):
		d.SecondErr = err
	}
	return d, nil
}

// safeDecode turns a panic inside the YAML library into an error: a file
// is user input and must never take the app down.
func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal parser failure: %v", r)
		}
	}()
	return dec.Decode(n)
}

// Deref follows aliases (a bounded number of hops: yaml.v3 never chains
// them).
func Deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < 16; hops++ {
		n = n.Alias
	}
	return n
}

// Describe names a node's type for messages ("a mapping", "a string").
func Describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch tag := n.ShortTag(); tag {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		case "!!str", "!!timestamp":
			return "a string"
		default:
			return "a value tagged " + tag
		}
	case yaml.AliasNode:
		return "an alias"
	}
	return "an empty node"
}

// Pair is one entry of a mapping.
type Pair struct {
	Name     string
	Key, Val *yaml.Node
}

// Problem is what Pairs found wrong with a key: its node and what to say.
type Problem struct {
	At        *yaml.Node
	Duplicate bool // a repeated key (else: a key that is not a string, or a bad merge)
	Message   string
}

// Pairs lists a mapping's entries (merge keys applied, written keys
// first). A repeated key and a key that is not a plain string are
// problems, reported through report; only a key's first value counts.
func Pairs(m *yaml.Node, report func(Problem)) []Pair {
	var out []Pair
	seen := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := Deref(m.Content[i]), m.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			report(Problem{At: m.Content[i], Message: fmt.Sprintf("a key must be a plain string, not %s", Describe(k))})
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			report(Problem{At: m.Content[i], Duplicate: true, Message: fmt.Sprintf("key %q is repeated (first at line %d); keep only one", k.Value, prev.Line)})
			continue
		}
		seen[k.Value] = m.Content[i]
		out = append(out, Pair{k.Value, m.Content[i], v})
	}
	for _, src := range merges {
		s := Deref(src)
		if s == nil {
			continue
		}
		var maps []*yaml.Node
		switch s.Kind {
		case yaml.MappingNode:
			maps = []*yaml.Node{s}
		case yaml.SequenceNode:
			for _, c := range s.Content {
				maps = append(maps, Deref(c))
			}
		}
		for _, sm := range maps {
			if sm == nil || sm.Kind != yaml.MappingNode || sm == m {
				report(Problem{At: src, Message: "a merge (<<) takes a mapping or a list of mappings"})
				continue
			}
			for i := 0; i+1 < len(sm.Content); i += 2 {
				k := Deref(sm.Content[i])
				if k == nil || k.Kind != yaml.ScalarNode {
					continue
				}
				if _, dup := seen[k.Value]; !dup {
					seen[k.Value] = sm.Content[i]
					out = append(out, Pair{k.Value, sm.Content[i], sm.Content[i+1]})
				}
			}
		}
	}
	return out
}

var lineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Line reads a syntax error's text as the library writes it, "yaml: line
// N: problem": line is N as written (0 when absent), problem the rest.
func Line(err error) (line int, problem string) {
	msg := err.Error()
	if m := lineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		return line, m[2]
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}

// Locate places a syntax error in data: its line and column (1 when only
// the line is known: yaml.v3 reports no columns) and the problem without
// the library's prefix. The line is corrected for the library's layers and
// found again by scanning data when the library drops it.
func Locate(err error, data []byte) (line, col int, problem string) {
	problem = strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(problem, "line "); ok {
		num, msg, found := strings.Cut(rest, ": ")
		if n, err := strconv.Atoi(num); found && err == nil {
			problem = msg
			line, col = n, 1
			if isParserProblem(problem) {
				line++
			}
		}
	}
	if line == 0 {
		switch {
		case isReaderProblem(problem):
			line, col = locateUnreadable(data)
		case strings.HasPrefix(problem, "unknown anchor '"):
			name := strings.TrimSuffix(strings.TrimPrefix(problem, "unknown anchor '"), "' referenced")
			line, col = locateAlias(data, name)
		case strings.HasPrefix(problem, "internal parser failure"):
			// no position: report the whole file
		default:
			// libyaml omits the line when its 0-based mark is 0.
			line, col = 1, 1
		}
	}
	if last := LineCount(data); line > last {
		line = last
	}
	return line, col, problem
}

// yaml.v3 reports syntax errors only as text, "yaml: line N: problem",
// with N computed differently by its layers, so the problem text decides
// how to read N.

// isParserProblem reports problems from libyaml's parser, which reports a
// 0-based line (yaml.v3 adds 1 only for scanner errors).
func isParserProblem(p string) bool {
	switch p {
	case "did not find expected <stream-start>",
		"did not find expected <document start>",
		"found undefined tag handle",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found duplicate %YAML directive",
		"found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// isReaderProblem reports problems from the byte reader, which reports an
// offset yaml.v3 drops; the position is found again by scanning the input.
func isReaderProblem(p string) bool {
	switch p {
	case "invalid leading UTF-8 octet",
		"incomplete UTF-8 octet sequence",
		"invalid trailing UTF-8 octet",
		"invalid length of a UTF-8 sequence",
		"invalid Unicode character",
		"control characters are not allowed":
		return true
	}
	return strings.HasPrefix(p, "input error")
}

// locateUnreadable finds the first byte sequence YAML's reader rejects:
// invalid UTF-8 or a character outside YAML's printable set.
func locateUnreadable(data []byte) (line, col int) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return 0, 0 // UTF-16: byte offsets do not map to characters here
	}
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if (r == utf8.RuneError && size <= 1) || !Printable(r) {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return 0, 0
}

// Printable is YAML 1.2's c-printable set, which is also what
// yaml.v3's reader accepts.
func Printable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r == 0x85:
	case r >= 0x20 && r <= 0x7E:
	case r >= 0xA0 && r <= 0xD7FF:
	case r >= 0xE000 && r <= 0xFFFD:
	case r >= 0x10000 && r <= 0x10FFFF:
	default:
		return false
	}
	return true
}

// locateAlias finds the first "*name" not followed by more name characters.
func locateAlias(data []byte, name string) (line, col int) {
	needle := []byte("*" + name)
	for off := 0; ; {
		i := bytes.Index(data[off:], needle)
		if i < 0 {
			return 1, 1
		}
		end := off + i + len(needle)
		if end >= len(data) || bytes.IndexByte([]byte(" \t\r\n,]}"), data[end]) >= 0 {
			return position(data, off+i)
		}
		off = end
	}
}

// LineCount counts lines the way YAML breaks them: LF, CR, CRLF, NEL, LS
// and PS all end a line.
func LineCount(data []byte) int {
	n := 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch r {
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				size++
			}
			n++
		case '\n', 0x85, 0x2028, 0x2029:
			n++
		}
		i += size
	}
	return n
}

// position converts a byte offset to a 1-based line and code-point column.
func position(data []byte, off int) (line, col int) {
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// PosMap maps offsets of JSON written by ToJSON back to the YAML
// positions of the nodes there.
type PosMap struct {
	offs []int
	pos  [][2]int
}

// Add notes that the node at line:col starts at off of the JSON.
func (m *PosMap) Add(off, line, col int) {
	m.offs = append(m.offs, off)
	m.pos = append(m.pos, [2]int{line, col})
}

// At is the position of the last node that starts at or before off.
func (m *PosMap) At(off int) (line, col int) {
	i := sort.SearchInts(m.offs, off+1) - 1
	if i < 0 {
		i = 0
	}
	return m.pos[i][0], m.pos[i][1]
}

// ToJSON writes a node as JSON (mappings in their order, aliases followed)
// to b, noting in pm where each node starts.
func ToJSON(b *bytes.Buffer, n *yaml.Node, pm *PosMap) error { return writeJSON(b, n, pm, 0) }

func writeJSON(b *bytes.Buffer, n *yaml.Node, pm *PosMap, depth int) error {
	if depth > 64 {
		return errors.New("the hooks are nested too deeply")
	}
	pm.Add(b.Len(), n.Line, n.Column)
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			b.WriteString("null")
			return nil
		}
		return writeJSON(b, n.Content[0], pm, depth+1)
	case yaml.AliasNode:
		return writeJSON(b, n.Alias, pm, depth+1)
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			k := n.Content[i]
			pm.Add(b.Len(), k.Line, k.Column)
			kb, _ := json.Marshal(k.Value)
			b.Write(kb)
			b.WriteByte(':')
			if err := writeJSON(b, n.Content[i+1], pm, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, c, pm, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		var v any
		if err := n.Decode(&v); err != nil {
			return err
		}
		vb, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b.Write(vb)
	}
	return nil
}
