package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// messageHash is the name Claude Code gives a message of a request in its
// transcript (api-request's tail, api-request-blob's hash): the sha256 of
// the message as JSON with sorted keys and no spaces, a string content
// written as one text block (measured on 2.1.332: a blob's hash, and the
// user and assistant records a request reuses instead of a blob).
func messageHash(role string, content json.RawMessage) (string, error) {
	d := json.NewDecoder(bytes.NewReader(content))
	d.UseNumber() // numbers as written: the agent wrote them
	var c any
	if err := d.Decode(&c); err != nil {
		return "", err
	}
	if s, ok := c.(string); ok {
		c = []any{map[string]any{"type": "text", "text": s}}
	}
	var buf bytes.Buffer
	if err := canonical(&buf, map[string]any{"role": role, "content": c}); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

// canonical writes v as JavaScript's JSON.stringify writes it, keys sorted.
func canonical(buf *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case json.Number:
		buf.WriteString(x.String())
	case string:
		jsString(buf, x)
	case []any:
		buf.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := canonical(buf, e); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		// JavaScript sorts by UTF-16 code units; the keys are ASCII
		slices.Sort(keys)
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			jsString(buf, k)
			buf.WriteByte(':')
			if err := canonical(buf, x[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	default:
		return fmt.Errorf("unexpected %T in a message", v)
	}
	return nil
}

// jsString escapes as JSON.stringify does: quotes, backslashes and control
// characters only (no HTML escapes, no \u2028).
func jsString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for len(s) > 0 {
		i := strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == '"' || r == '\\' || r == utf8.RuneError })
		if i < 0 {
			buf.WriteString(s)
			break
		}
		buf.WriteString(s[:i])
		r, n := utf8.DecodeRuneInString(s[i:])
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		case '\b':
			buf.WriteString(`\b`)
		case '\f':
			buf.WriteString(`\f`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		case '\t':
			buf.WriteString(`\t`)
		default:
			if r == utf8.RuneError && n == 3 {
				buf.WriteString(s[i : i+n]) // a real U+FFFD
			} else if r == utf8.RuneError {
				buf.WriteString(`\ufffd`)
			} else {
				fmt.Fprintf(buf, `\u%04x`, r)
			}
		}
		s = s[i+n:]
	}
	buf.WriteByte('"')
}
