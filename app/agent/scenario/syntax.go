package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
)

// syntax turns a YAML parse error into a positioned diagnostic (located
// as well as yaml.v3's text allows: yamlpos.Locate).
func (d *decoder) syntax(err error, data []byte) {
	line, col, problem := yamlpos.Locate(err, data)
	d.diags = append(d.diags, diag.Diagnostic{
		File: d.file, Line: line, Column: col, Severity: diag.Error, Code: CodeYAMLSyntax,
		Message: fmt.Sprintf("YAML syntax error: %s; fix the syntax here or just above (the parser may notice a mistake a line late)", problem),
	})
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
	return !yamlpos.Printable(r) || r == 0x85 || r == 0x2028 || r == 0x2029
}

func hex4(b []byte) rune {
	n, err := strconv.ParseUint(string(b), 16, 32)
	if err != nil {
		return utf8.RuneError
	}
	return rune(n)
}
