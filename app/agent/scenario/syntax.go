package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"hookstudio/app/format/diag"
)

// syntax turns a yaml.v3 parse error into a positioned diagnostic. Column
// is 1 when only the line is known: yaml.v3 does not report columns.
func (d *decoder) syntax(err error, data []byte) {
	problem := strings.TrimPrefix(err.Error(), "yaml: ")
	line, col := 0, 0
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
	if last := lineCount(data); line > last {
		line = last
	}
	d.diags = append(d.diags, diag.Diagnostic{
		File: d.file, Line: line, Column: col, Severity: diag.Error, Code: CodeYAMLSyntax,
		Message: fmt.Sprintf("YAML syntax error: %s; fix the syntax here or just above (the parser may notice a mistake a line late)", problem),
	})
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
		if (r == utf8.RuneError && size <= 1) || !yamlPrintable(r) {
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

// yamlPrintable is YAML 1.2's c-printable set, which is also what
// yaml.v3's reader accepts.
func yamlPrintable(r rune) bool {
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

// lineCount counts lines the way YAML breaks them: LF, CR, CRLF, NEL, LS
// and PS all end a line.
func lineCount(data []byte) int {
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

// jsonCompat rewrites the few places where valid JSON is not valid YAML,
// so every JSON file parses:
//   - string escapes YAML lacks: \/ becomes /, a UTF-16 surrogate pair
//     becomes one \U escape, a lone surrogate U+FFFD (as encoding/json
//     decodes it);
//   - raw characters YAML rejects or folds as line breaks become escapes;
//   - tabs outside strings become spaces;
//   - whitespace between a key and its colon moves after the colon (YAML
//     wants the colon on the key's line);
//   - keys longer than YAML's 1024-character implicit-key limit get the
//     explicit "? " indicator.
//
// Lines never change. Columns after a rewritten escape or a "? " shift on
// that line; that is the price of not writing a JSON parser with positions.
func jsonCompat(data []byte) []byte {
	if !json.Valid(data) {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	var stack []byte // open containers, '{' or '['
	expectKey := false
	for i := 0; i < len(data); {
		c := data[i]
		switch c {
		case '{', '[':
			stack = append(stack, c)
			expectKey = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
			expectKey = false
		case ',':
			expectKey = stack[len(stack)-1] == '{'
		case '\t':
			// JSON whitespace, but YAML rejects tabs where indentation
			// counts; a space has the same width.
			c = ' '
		case '"':
			str, end := compatString(data, i)
			if !expectKey {
				out = append(out, str...)
				i = end
				continue
			}
			if len(str) > 1000 { // bytes >= characters: a safe side of the limit
				out = append(out, "? "...)
			}
			out = append(out, str...)
			colon := end + bytes.IndexByte(data[end:], ':') // json.Valid promises it
			out = append(out, ':')
			out = append(out, data[end:colon]...)
			i = colon + 1
			expectKey = false
			continue
		}
		out = append(out, c)
		i++
	}
	if bytes.Equal(out, data) {
		return data
	}
	return out
}

// compatString rewrites the JSON string starting at data[start] (a quote)
// for YAML's double-quoted style and returns it with the offset after its
// closing quote.
func compatString(data []byte, start int) ([]byte, int) {
	out := []byte{'"'}
	for i := start + 1; ; {
		c := data[i]
		switch {
		case c == '"':
			return append(out, '"'), i + 1
		case c == '\\' && data[i+1] == '/':
			out = append(out, '/')
			i += 2
		case c == '\\' && data[i+1] == 'u':
			r1 := hex4(data[i+2 : i+6])
			if utf16.IsSurrogate(r1) {
				if i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
					if r := utf16.DecodeRune(r1, hex4(data[i+8:i+12])); r != utf8.RuneError {
						out = fmt.Appendf(out, `\U%08X`, r)
						i += 12
						continue
					}
				}
				out = append(out, `\uFFFD`...)
				i += 6
				continue
			}
			out = append(out, data[i:i+6]...)
			i += 6
		case c == '\\':
			out = append(out, data[i:i+2]...)
			i += 2
		default:
			r, size := utf8.DecodeRune(data[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				out = append(out, `\uFFFD`...) // as encoding/json decodes invalid UTF-8
			case mustEscape(r):
				out = fmt.Appendf(out, `\u%04X`, r) // all such runes are in the BMP
			default:
				out = append(out, data[i:i+size]...)
			}
			i += size
		}
	}
}

// mustEscape reports whether a raw rune inside a JSON string must become
// an escape for YAML: YAML rejects it, or folds it as a line break (NEL,
// LS, PS), which would change the string. JSON strings hold no raw
// C0 controls, so tab, CR and LF never reach here inside a string.
func mustEscape(r rune) bool {
	if r == '\n' || r == '\r' || r == '\t' {
		return false
	}
	return !yamlPrintable(r) || r == 0x85 || r == 0x2028 || r == 0x2029
}

func hex4(b []byte) rune {
	n, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return utf8.RuneError
	}
	return rune(n)
}
