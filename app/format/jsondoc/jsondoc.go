// Package jsondoc is a small JSON parser that keeps what encoding/json
// throws away: the byte span of every value and every object key, members in
// file order, duplicate keys and the exact position of the first syntax
// error. Validators use it to put line and column on every diagnostic; an
// editor can use the same tree to rewrite a document while preserving key
// order and fields it does not know.
package jsondoc

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"
)

// DefaultMaxDepth is the nesting limit Parse uses. hooks.json needs 3
// levels; anything far deeper is a mistake or an attack, and a limit keeps a
// hostile file from exhausting the stack.
const DefaultMaxDepth = 64

// ErrTooDeep is wrapped by the SyntaxError returned when a document nests
// objects and arrays deeper than the limit.
var ErrTooDeep = errors.New("nesting too deep")

// Kind is the JSON type of a node.
type Kind uint8

// The JSON kinds. The zero Kind is invalid so a zero Node is recognisable.
const (
	Null Kind = iota + 1
	Bool
	Number
	String
	Array
	Object
)

// String names the kind the way a user-facing message would.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// Node is one JSON value. Offsets are byte offsets into the original input
// (a leading BOM included), End is exclusive.
type Node struct {
	Kind   Kind
	Offset int
	End    int
	// Raw is the value's source text, Data[Offset:End]; it aliases the input.
	Raw []byte
	// Key, KeyOffset and KeyEnd describe the member key when the node is a
	// value inside an object; KeyOffset is -1 otherwise. The key span
	// includes the quotes.
	Key       string
	KeyOffset int
	KeyEnd    int
	Str       string  // decoded value of a String
	Bool      bool    // value of a Bool
	Children  []*Node // elements or members, in file order (duplicates kept)
}

// Get returns the value of the last member named key, or nil. The last one
// wins because that is what encoding/json and most other decoders do with
// duplicate keys.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	for i := len(n.Children) - 1; i >= 0; i-- {
		if n.Children[i].Key == key {
			return n.Children[i]
		}
	}
	return nil
}

// Duplicate is an object key that occurs more than once in one object.
type Duplicate struct {
	Key         string
	Offset      int // offset of the repeated key's opening quote
	FirstOffset int // offset of the first occurrence's opening quote
}

// Doc is a parsed document.
type Doc struct {
	Data       []byte
	Root       *Node
	BOM        bool        // the input started with a UTF-8 byte order mark
	Duplicates []Duplicate // in the order they were found
}

// SyntaxError is the first problem found in a document.
type SyntaxError struct {
	Offset int    // byte offset into the original input
	Msg    string // what is wrong, for a human
	Err    error  // ErrTooDeep for the nesting limit, nil otherwise
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Unwrap lets errors.Is(err, ErrTooDeep) work.
func (e *SyntaxError) Unwrap() error { return e.Err }

// Parse parses data with DefaultMaxDepth. Any error is a *SyntaxError.
func Parse(data []byte) (*Doc, error) { return ParseDepth(data, DefaultMaxDepth) }

// ParseDepth parses data allowing at most maxDepth nested arrays and objects
// (the root container is depth 1).
func ParseDepth(data []byte, maxDepth int) (*Doc, error) {
	p := &parser{data: data, maxDepth: maxDepth}
	doc := &Doc{Data: data}
	if HasBOM(data) {
		doc.BOM = true
		p.pos = len(bom)
	}
	p.skipSpace()
	if p.pos >= len(data) {
		return nil, p.fail(p.pos, "empty document; expected a JSON value")
	}
	root, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(data) {
		return nil, p.fail(p.pos, "%s after the end of the top-level value; remove it", p.describe(p.pos))
	}
	doc.Root = root
	doc.Duplicates = p.dups
	return doc, nil
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// HasBOM reports whether data starts with a UTF-8 byte order mark.
func HasBOM(data []byte) bool {
	return len(data) >= 3 && data[0] == bom[0] && data[1] == bom[1] && data[2] == bom[2]
}

type parser struct {
	data     []byte
	pos      int
	maxDepth int
	dups     []Duplicate
	// slab hands out Nodes in chunks and stack collects the children of
	// open containers, so a document costs a few allocations rather than
	// several per value (Load parses thousands of files).
	slab  []Node
	stack []*Node
	keys  map[string]string // interned object keys: they repeat in every entry
}

func (p *parser) node() *Node {
	if len(p.slab) == 0 {
		p.slab = make([]Node, 32)
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	return n
}

// children moves the nodes pushed since mark into an exactly sized slice.
func (p *parser) children(mark int) []*Node {
	if len(p.stack) == mark {
		return nil
	}
	c := append([]*Node(nil), p.stack[mark:]...)
	clear(p.stack[mark:])
	p.stack = p.stack[:mark]
	return c
}

func (p *parser) intern(b []byte) string {
	if s, ok := p.keys[string(b)]; ok {
		return s
	}
	if p.keys == nil {
		p.keys = make(map[string]string)
	}
	s := string(b)
	p.keys[s] = s
	return s
}

func (p *parser) fail(off int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// describe names whatever is at off for an "unexpected ..." message.
func (p *parser) describe(off int) string {
	if off >= len(p.data) {
		return "unexpected end of input"
	}
	r, size := utf8.DecodeRune(p.data[off:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("invalid UTF-8 byte 0x%02X", p.data[off])
	case r < 0x20 || r == 0x7F:
		return fmt.Sprintf("unexpected control character U+%04X", r)
	}
	return fmt.Sprintf("unexpected character %q", r)
}

// hint adds advice for the mistakes people coming from JavaScript or YAML
// actually make.
func (p *parser) hint(off int) string {
	if off >= len(p.data) {
		return ""
	}
	switch c := p.data[off]; {
	case c == '\'':
		return " (JSON strings use double quotes)"
	case c == '/' || c == '#':
		return " (JSON does not allow comments)"
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_':
		return " (strings need double quotes; the literals true, false and null are lowercase)"
	}
	return ""
}

func (p *parser) value(depth int) (*Node, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.fail(p.pos, "unexpected end of input; expected a value")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		start := p.pos
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return p.leaf(String, start, func(n *Node) { n.Str = s }), nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.pos
		if err := p.number(); err != nil {
			return nil, err
		}
		return p.leaf(Number, start, nil), nil
	case c == 't':
		return p.literal("true", Bool, func(n *Node) { n.Bool = true })
	case c == 'f':
		return p.literal("false", Bool, nil)
	case c == 'n':
		return p.literal("null", Null, nil)
	}
	return nil, p.fail(p.pos, "%s; expected a value%s", p.describe(p.pos), p.hint(p.pos))
}

func (p *parser) leaf(k Kind, start int, set func(*Node)) *Node {
	n := p.node()
	*n = Node{Kind: k, Offset: start, End: p.pos, Raw: p.data[start:p.pos:p.pos], KeyOffset: -1}
	if set != nil {
		set(n)
	}
	return n
}

func (p *parser) literal(word string, k Kind, set func(*Node)) (*Node, error) {
	start := p.pos
	if !bytes.HasPrefix(p.data[start:], []byte(word)) {
		return nil, p.fail(start, "invalid literal; expected %q%s", word, p.hint(start))
	}
	p.pos += len(word)
	if p.pos < len(p.data) && isIdentByte(p.data[p.pos]) {
		return nil, p.fail(start, "invalid literal; expected %q%s", word, p.hint(start))
	}
	return p.leaf(k, start, set), nil
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func (p *parser) enter(start, depth int) error {
	if depth > p.maxDepth {
		return &SyntaxError{Offset: start, Err: ErrTooDeep,
			Msg: fmt.Sprintf("nesting deeper than %d levels of arrays and objects", p.maxDepth)}
	}
	return nil
}

func (p *parser) object(depth int) (*Node, error) {
	start := p.pos
	if err := p.enter(start, depth); err != nil {
		return nil, err
	}
	p.pos++ // '{'
	n := p.node()
	*n = Node{Kind: Object, Offset: start, KeyOffset: -1}
	mark := len(p.stack)
	comma := -1
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail(p.pos, "unexpected end of input; the object is missing its closing '}'")
		}
		c := p.data[p.pos]
		if c == '}' {
			if comma >= 0 {
				return nil, p.fail(comma, "trailing comma before '}'; remove it")
			}
			p.pos++
			return p.close(n, mark), nil
		}
		if len(p.stack) > mark && comma < 0 {
			return nil, p.fail(p.pos, "%s; expected ',' or '}'%s", p.describe(p.pos), p.missingComma(c))
		}
		m, err := p.member(depth)
		if err != nil {
			return nil, err
		}
		p.checkDuplicate(p.stack[mark:], m)
		p.stack = append(p.stack, m)
		p.skipSpace()
		comma = -1
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			comma = p.pos
			p.pos++
		}
	}
}

// missingComma explains the common case of a forgotten separator.
func (p *parser) missingComma(c byte) string {
	if c == '"' || c == '{' || c == '[' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n' {
		return " (missing comma between the previous value and this one?)"
	}
	return p.hint(p.pos)
}

func (p *parser) member(depth int) (*Node, error) {
	if p.data[p.pos] != '"' {
		return nil, p.fail(p.pos, "%s; expected a double-quoted object key%s", p.describe(p.pos), p.hint(p.pos))
	}
	keyStart := p.pos
	key, err := p.strWith(p.intern)
	if err != nil {
		return nil, err
	}
	keyEnd := p.pos
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != ':' {
		return nil, p.fail(p.pos, "%s; expected ':' after the key %q", p.describe(p.pos), key)
	}
	p.pos++
	v, err := p.value(depth)
	if err != nil {
		return nil, err
	}
	v.Key, v.KeyOffset, v.KeyEnd = key, keyStart, keyEnd
	return v, nil
}

// checkDuplicate is quadratic in the member count, which is fine for the
// small objects this package is for and avoids a map per object.
func (p *parser) checkDuplicate(members []*Node, m *Node) {
	for _, prev := range members {
		if prev.Key == m.Key {
			p.dups = append(p.dups, Duplicate{Key: m.Key, Offset: m.KeyOffset, FirstOffset: prev.KeyOffset})
			return
		}
	}
}

func (p *parser) close(n *Node, mark int) *Node {
	n.Children = p.children(mark)
	n.End = p.pos
	n.Raw = p.data[n.Offset:p.pos:p.pos]
	return n
}

func (p *parser) array(depth int) (*Node, error) {
	start := p.pos
	if err := p.enter(start, depth); err != nil {
		return nil, err
	}
	p.pos++ // '['
	n := p.node()
	*n = Node{Kind: Array, Offset: start, KeyOffset: -1}
	mark := len(p.stack)
	comma := -1
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail(p.pos, "unexpected end of input; the array is missing its closing ']'")
		}
		c := p.data[p.pos]
		if c == ']' {
			if comma >= 0 {
				return nil, p.fail(comma, "trailing comma before ']'; remove it")
			}
			p.pos++
			return p.close(n, mark), nil
		}
		if len(p.stack) > mark && comma < 0 {
			return nil, p.fail(p.pos, "%s; expected ',' or ']'%s", p.describe(p.pos), p.missingComma(c))
		}
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		p.stack = append(p.stack, v)
		p.skipSpace()
		comma = -1
		if p.pos < len(p.data) && p.data[p.pos] == ',' {
			comma = p.pos
			p.pos++
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) digits() int {
	start := p.pos
	for p.pos < len(p.data) && isDigit(p.data[p.pos]) {
		p.pos++
	}
	return p.pos - start
}

func (p *parser) number() error {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos >= len(p.data) || !isDigit(p.data[p.pos]):
		return p.fail(p.pos, "%s; expected a digit in the number", p.describe(p.pos))
	case p.data[p.pos] == '0':
		p.pos++
		if p.pos < len(p.data) && isDigit(p.data[p.pos]) {
			return p.fail(start, "invalid number: leading zeros are not allowed")
		}
	default:
		p.digits()
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if p.digits() == 0 {
			return p.fail(p.pos, "%s; expected a digit after the decimal point", p.describe(p.pos))
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if p.digits() == 0 {
			return p.fail(p.pos, "%s; expected a digit in the exponent", p.describe(p.pos))
		}
	}
	return nil
}

// str parses a string at p.pos (which is '"') and returns its decoded value.
func (p *parser) str() (string, error) { return p.strWith(nil) }

// strWith is str with an optional way to turn escape-free bytes into a
// string (interning for keys).
func (p *parser) strWith(conv func([]byte) string) (string, error) {
	start := p.pos
	p.pos++
	// Fast path: plain ASCII without escapes needs no decoding buffer.
	i := p.pos
	for i < len(p.data) {
		c := p.data[i]
		if c == '"' || c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		i++
	}
	if i < len(p.data) && p.data[i] == '"' {
		var s string
		if conv != nil {
			s = conv(p.data[p.pos:i])
		} else {
			s = string(p.data[p.pos:i])
		}
		p.pos = i + 1
		return s, nil
	}
	buf := append([]byte(nil), p.data[p.pos:i]...)
	p.pos = i
	for {
		if p.pos >= len(p.data) {
			return "", p.fail(start, "unterminated string; add the closing '\"'")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c == '\\':
			var err error
			if buf, err = p.escape(buf, start); err != nil {
				return "", err
			}
		case c == '\n' || c == '\r':
			return "", p.fail(start, "unterminated string: line break before the closing '\"' (write \\n for a newline inside a string)")
		case c < 0x20:
			return "", p.fail(p.pos, "control character U+%04X inside a string; escape it (for example \\t or \\u%04x)", c, c)
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.fail(p.pos, "invalid UTF-8 byte 0x%02X inside a string; save the file as UTF-8", c)
			}
			buf = append(buf, p.data[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
}

// escape decodes the escape sequence at p.pos ('\\') into buf.
func (p *parser) escape(buf []byte, strStart int) ([]byte, error) {
	at := p.pos
	p.pos++
	if p.pos >= len(p.data) {
		return nil, p.fail(strStart, "unterminated string; add the closing '\"'")
	}
	c := p.data[p.pos]
	p.pos++
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, err := p.hex4(at)
		if err != nil {
			return nil, err
		}
		if utf16IsHigh(r) && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
			save := p.pos
			p.pos += 2
			lo, err := p.hex4(save)
			if err != nil {
				return nil, err
			}
			if utf16IsLow(lo) {
				return utf8.AppendRune(buf, (r-0xD800)<<10+(lo-0xDC00)+0x10000), nil
			}
			p.pos = save // not a pair: decode the second escape on its own
		}
		// A lone surrogate decodes to U+FFFD, as encoding/json does.
		return utf8.AppendRune(buf, r), nil
	}
	p.pos-- // point at the offending character
	return nil, p.fail(at, "invalid escape \\%s in string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", p.describe1())
}

func (p *parser) describe1() string {
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	return string(r)
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r < 0xDC00 }
func utf16IsLow(r rune) bool  { return r >= 0xDC00 && r < 0xE000 }

// hex4 reads the four hex digits of a \u escape that starts at at.
func (p *parser) hex4(at int) (rune, error) {
	var r rune
	for i := 0; i < 4; i++ {
		if p.pos >= len(p.data) {
			return 0, p.fail(at, "unterminated \\u escape; expected 4 hex digits")
		}
		c := p.data[p.pos]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return 0, p.fail(at, "invalid \\u escape; expected 4 hex digits")
		}
		r = r<<4 | rune(v)
		p.pos++
	}
	return r, nil
}
