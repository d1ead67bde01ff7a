package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"hookstudio/app/diag"
)

// yaml.v3 reports syntax errors only as text, "yaml: line N: problem",
// with N computed differently by its layers. These lists classify the
// problem so the line can be corrected; anything unlisted is a scanner
// problem.
var (
	// parserProblems come from libyaml's parser, which reports a 0-based
	// line (yaml.v3 adds 1 only for scanner errors).
	parserProblems = []string{
		"did not find expected <stream-start>",
		"did not find expected <document start>",
		"found undefined tag handle",
		"did not find expected node content",
		"did not find expected '-' indicator",
		"did not find expected key",
		"did not find expected ',' or ']'",
		"did not find expected ',' or '}'",
		"found duplicate %YAML directive",
		"found incompatible YAML document",
		"found duplicate %TAG directive",
	}
	// readerProblems come from the byte reader, which reports an offset
	// yaml.v3 drops; the position is found again by scanning the input.
	readerProblems = []string{
		"invalid leading UTF-8 octet",
		"incomplete UTF-8 octet sequence",
		"invalid trailing UTF-8 octet",
		"invalid length of a UTF-8 sequence",
		"invalid Unicode character",
		"control characters are not allowed",
	}
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
	if last := bytes.Count(data, []byte("\n")) + 1; line > last {
		line = last
	}
	d.diags = append(d.diags, diag.Diagnostic{
		File: d.file, Line: line, Column: col, Severity: diag.Error, Code: CodeYAMLSyntax,
		Message: fmt.Sprintf("YAML syntax error: %s; fix the syntax here or just above (the parser may notice a mistake a line late)", problem),
	})
}

func isParserProblem(p string) bool {
	for _, s := range parserProblems {
		if p == s {
			return true
		}
	}
	return false
}

func isReaderProblem(p string) bool {
	for _, s := range readerProblems {
		if p == s || strings.HasPrefix(p, "input error") {
			return true
		}
	}
	return false
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

// position converts a byte offset to a 1-based line and code-point column.
func position(data []byte, off int) (line, col int) {
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// jsonCompat rewrites the few JSON string escapes YAML's double-quoted
// style lacks, so every valid JSON file parses: \/ becomes /, a UTF-16
// surrogate pair becomes \U, a lone surrogate becomes U+FFFD (as
// encoding/json decodes it), and raw characters YAML may not contain are
// escaped. Columns after a rewritten escape shift left on its line; that
// is the price of not reimplementing a JSON parser with positions.
func jsonCompat(data []byte) []byte {
	if !json.Valid(data) || !needsCompat(data) {
		return data
	}
	out := make([]byte, 0, len(data))
	inString := false
	for i := 0; i < len(data); {
		c := data[i]
		if !inString {
			out = append(out, c)
			inString = c == '"'
			i++
			continue
		}
		switch {
		case c == '"':
			out = append(out, c)
			inString = false
			i++
		case c == '\\' && data[i+1] == '/':
			out = append(out, '/')
			i += 2
		case c == '\\' && data[i+1] == 'u':
			r1 := hex4(data[i+2 : i+6])
			switch {
			case utf16.IsSurrogate(r1) && i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u' && utf16.DecodeRune(r1, hex4(data[i+8:i+12])) != utf8.RuneError:
				out = fmt.Appendf(out, `\U%08X`, utf16.DecodeRune(r1, hex4(data[i+8:i+12])))
				i += 12
			case utf16.IsSurrogate(r1):
				out = append(out, `\uFFFD`...)
				i += 6
			default:
				out = append(out, data[i:i+6]...)
				i += 6
			}
		case c == '\\':
			out = append(out, data[i:i+2]...)
			i += 2
		default:
			r, size := utf8.DecodeRune(data[i:])
			if mustEscape(r) {
				out = fmt.Appendf(out, `\u%04X`, r) // all such runes are in the BMP
			} else {
				out = append(out, data[i:i+size]...)
			}
			i += size
		}
	}
	return out
}

// needsCompat reports whether the JSON has anything jsonCompat rewrites,
// so ordinary files keep their exact bytes (and columns).
func needsCompat(data []byte) bool {
	if bytes.Contains(data, []byte(`\/`)) {
		return true
	}
	for i := 0; i+5 < len(data); i++ {
		if data[i] == '\\' && data[i+1] == 'u' && utf16.IsSurrogate(hex4(data[i+2:i+6])) {
			return true
		}
	}
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if mustEscape(r) {
			return true
		}
		data = data[size:]
	}
	return false
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
