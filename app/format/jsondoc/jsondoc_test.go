package jsondoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseTree(t *testing.T) {
	data := []byte("\xEF\xBB\xBF{\"b\": [1, -2.5e3, true], \"a\": {\"x\": null}, \"s\": \"h\\u00e9\\n\\ud83d\\ude00提示\"}")
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.BOM {
		t.Error("BOM not reported")
	}
	root := doc.Root
	if root.Kind != Object || root.Offset != 3 || root.End != len(data) {
		t.Fatalf("root = %v [%d,%d)", root.Kind, root.Offset, root.End)
	}
	var keys []string
	for _, c := range root.Children {
		keys = append(keys, c.Key)
		if got := string(data[c.KeyOffset:c.KeyEnd]); got != `"`+c.Key+`"` {
			t.Errorf("key span %q", got)
		}
		if !bytes.Equal(c.Raw, data[c.Offset:c.End]) {
			t.Errorf("raw of %s", c.Key)
		}
	}
	if strings.Join(keys, ",") != "b,a,s" {
		t.Errorf("keys in file order = %v", keys)
	}
	if got := root.Get("s").Str; got != "hé\n😀提示" {
		t.Errorf("decoded string = %q", got)
	}
	b := root.Get("b")
	if len(b.Children) != 3 || string(b.Children[1].Raw) != "-2.5e3" || !b.Children[2].Bool {
		t.Errorf("array = %+v", b.Children)
	}
	if root.Get("a").Get("x").Kind != Null || root.Get("missing") != nil {
		t.Error("Get")
	}
}

func TestDuplicates(t *testing.T) {
	data := []byte(`{"a":1,"b":{"a":1},"a":2}`)
	doc, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Duplicates) != 1 || doc.Duplicates[0].Key != "a" || doc.Duplicates[0].Offset != 19 || doc.Duplicates[0].FirstOffset != 1 {
		t.Fatalf("duplicates = %+v", doc.Duplicates)
	}
	if string(doc.Root.Get("a").Raw) != "2" {
		t.Error("last duplicate should win")
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in  string
		line, col int
		deep      bool
	}{
		{"empty", "", 1, 1, false},
		{"spaces", " \n ", 2, 2, false},
		{"unexpected char", "{\n  \"a\": @}", 2, 8, false},
		{"unterminated string", "{\"a\": \"abc", 1, 7, false},
		{"newline in string", "[\"ab\ncd\"]", 1, 2, false},
		{"trailing comma object", "{\"a\": 1,\n}", 1, 8, false},
		{"trailing comma array", "[1, 2, ]", 1, 6, false},
		{"missing comma", "{\"a\": 1\n \"b\": 2}", 2, 2, false},
		{"missing colon", "{\"a\" 1}", 1, 6, false},
		{"unquoted key", "{a: 1}", 1, 2, false},
		{"single quotes", "['x']", 1, 2, false},
		{"comment", "{} // x", 1, 4, false},
		{"bad escape", `["a\x"]`, 1, 4, false},
		{"bad unicode escape", `["\u12G4"]`, 1, 3, false},
		{"control char", "[\"a\tb\"]", 1, 4, false},
		{"invalid utf8", "[\"a\xffb\"]", 1, 4, false},
		{"leading zero", "[012]", 1, 2, false},
		{"bad literal", "[tru]", 1, 2, false},
		{"capital True", "[True]", 1, 2, false},
		{"after value", "{} {}", 1, 4, false},
		{"unclosed object", "{\"a\": 1", 1, 8, false},
		{"non-ascii columns", "{\"名前\": x}", 1, 8, false},
		{"bom columns", "\xEF\xBB\xBF{,}", 1, 2, false},
		{"too deep", strings.Repeat("[", 65) + strings.Repeat("]", 65), 1, 65, true},
		{"too deep objects", strings.Repeat(`{"a":`, 70), 1, 321, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *SyntaxError", err)
			}
			line, col := Position([]byte(tt.in), se.Offset)
			if line != tt.line || col != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", line, col, tt.line, tt.col, err)
			}
			if errors.Is(err, ErrTooDeep) != tt.deep {
				t.Errorf("ErrTooDeep = %v, want %v", !tt.deep, tt.deep)
			}
			if se.Msg == "" {
				t.Error("empty message")
			}
		})
	}
}

func TestDepthLimitExact(t *testing.T) {
	ok := strings.Repeat("[", 64) + strings.Repeat("]", 64)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("depth 64 rejected: %v", err)
	}
	huge := strings.Repeat("[", 1_000_000)
	if _, err := Parse([]byte(huge)); !errors.Is(err, ErrTooDeep) {
		t.Errorf("deep input: %v", err)
	}
}

func TestPosition(t *testing.T) {
	data := []byte("\xEF\xBB\xBFab\n\tç提x\r\nz")
	tests := []struct{ off, line, col int }{
		{0, 1, 1}, {3, 1, 1}, {4, 1, 2}, {6, 2, 1}, {7, 2, 2}, {9, 2, 3}, {12, 2, 4}, {15, 3, 1}, {99, 3, 2},
	}
	lines := NewLines(data)
	for _, tt := range tests {
		if l, c := Position(data, tt.off); l != tt.line || c != tt.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
		if l, c := lines.Position(tt.off); l != tt.line || c != tt.col {
			t.Errorf("Lines.Position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
}

// checkTree verifies the structural invariants every caller relies on.
func checkTree(t *testing.T, data []byte, n *Node, lo, hi int) {
	t.Helper()
	if n.Offset < lo || n.End > hi || n.Offset >= n.End || !bytes.Equal(n.Raw, data[n.Offset:n.End]) {
		t.Fatalf("bad span [%d,%d) within [%d,%d)", n.Offset, n.End, lo, hi)
	}
	if n.Kind == String {
		var s string
		if err := json.Unmarshal(n.Raw, &s); err != nil || s != n.Str {
			t.Fatalf("string %q decoded as %q, encoding/json says %q (%v)", n.Raw, n.Str, s, err)
		}
	}
	prev := n.Offset
	for _, c := range n.Children {
		if n.Kind == Object && (c.KeyOffset < prev || c.KeyEnd > c.Offset) {
			t.Fatalf("key span out of order")
		}
		checkTree(t, data, c, prev, n.End)
		prev = c.End
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"hooks":[{"name":"a","file":"a.md","timing":"after_tool_call","role":"system","persistent":false,"tool_filter":["x"]}]}`,
		`[1,2.5e-3,-0,true,false,null,"\u00e9\ud83d\ude00\ud800"]`, "\xEF\xBB\xBF{}", `{"a":1,"a":2}`,
		`{"a" 1}`, `[1,]`, `"\x"`, "\"a\xffb\"", `[[[[[[]]]]]]`, ` `, `01`, `1e`, `-`, `{"a":{"b":[{}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Parse(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) || se.Msg == "" {
				t.Fatalf("bad error %#v", err)
			}
			Position(data, se.Offset)
		} else {
			checkTree(t, data, doc.Root, 0, len(data))
		}
		// encoding/json does not validate UTF-8 inside strings, knows no
		// BOM and allows 10000 levels: compare only where the rules agree.
		if !utf8.Valid(data) || errors.Is(err, ErrTooDeep) {
			return
		}
		plain := bytes.TrimPrefix(data, bom)
		if want := json.Valid(plain); want != (err == nil) {
			t.Fatalf("encoding/json valid=%v, Parse err=%v for %q", want, err, data)
		}
	})
}
