package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sort"
)

// messageHash is the name Claude Code gives a message of a request in its
// transcript (api-request's tail, api-request-blob's hash): the sha256 of
// the message as JSON with sorted keys and no spaces, a string content
// written as one text block (measured on 2.1.332: a blob's hash, and the
// user and assistant records a request reuses instead of a blob).
//
// The transcript's JSON is JSON.stringify's, so its strings and numbers
// are already as the hash's text has them: only the keys are put in order,
// every other byte is copied (no string is decoded).
func messageHash(role string, content json.RawMessage) (string, error) {
	var buf bytes.Buffer
	buf.Grow(len(content) + 64)
	buf.WriteString(`{"content":`)
	content = bytes.TrimSpace(content)
	if len(content) > 0 && content[0] == '"' {
		buf.WriteString(`[{"text":`)
		buf.Write(content)
		buf.WriteString(`,"type":"text"}]`)
	} else {
		c := canonicalizer{src: content}
		if err := c.value(&buf); err != nil {
			return "", err
		}
		if c.skipSpace(); c.at != len(c.src) {
			return "", errBadJSON
		}
	}
	buf.WriteString(`,"role":`)
	r, _ := json.Marshal(role)
	buf.Write(r)
	buf.WriteByte('}')
	sum := sha256.Sum256(buf.Bytes())
	return hex.EncodeToString(sum[:]), nil
}

var errBadJSON = errors.New("not JSON")

// canonicalizer copies JSON with each object's keys sorted.
type canonicalizer struct {
	src []byte
	at  int
}

func (c *canonicalizer) skipSpace() {
	for c.at < len(c.src) {
		switch c.src[c.at] {
		case ' ', '\t', '\n', '\r':
			c.at++
		default:
			return
		}
	}
}

func (c *canonicalizer) value(out *bytes.Buffer) error {
	c.skipSpace()
	if c.at >= len(c.src) {
		return errBadJSON
	}
	switch c.src[c.at] {
	case '{':
		return c.object(out)
	case '[':
		c.at++
		out.WriteByte('[')
		for first := true; ; first = false {
			c.skipSpace()
			if c.at < len(c.src) && c.src[c.at] == ']' {
				c.at++
				out.WriteByte(']')
				return nil
			}
			if !first {
				if c.src[c.at] != ',' {
					return errBadJSON
				}
				c.at++
				out.WriteByte(',')
			}
			if err := c.value(out); err != nil {
				return err
			}
		}
	case '"':
		s, err := c.str()
		out.Write(s)
		return err
	default:
		start := c.at
		for c.at < len(c.src) && !bytes.ContainsRune([]byte(",]} \t\n\r"), rune(c.src[c.at])) {
			c.at++
		}
		if start == c.at {
			return errBadJSON
		}
		out.Write(c.src[start:c.at])
		return nil
	}
}

// str is the string token at c.at, as written.
func (c *canonicalizer) str() ([]byte, error) {
	start := c.at
	c.at++
	for c.at < len(c.src) {
		switch c.src[c.at] {
		case '\\':
			c.at += 2
		case '"':
			c.at++
			return c.src[start:c.at], nil
		default:
			c.at++
		}
	}
	return nil, errBadJSON
}

type member struct {
	key   []byte // the key as written, quotes included
	value []byte // canonical
}

func (c *canonicalizer) object(out *bytes.Buffer) error {
	c.at++
	var ms []member
	for {
		c.skipSpace()
		if c.at >= len(c.src) {
			return errBadJSON
		}
		if c.src[c.at] == '}' {
			c.at++
			break
		}
		if len(ms) > 0 {
			if c.src[c.at] != ',' {
				return errBadJSON
			}
			c.at++
			c.skipSpace()
		}
		if c.at >= len(c.src) || c.src[c.at] != '"' {
			return errBadJSON
		}
		key, err := c.str()
		if err != nil {
			return err
		}
		c.skipSpace()
		if c.at >= len(c.src) || c.src[c.at] != ':' {
			return errBadJSON
		}
		c.at++
		var v bytes.Buffer
		if err := c.value(&v); err != nil {
			return err
		}
		ms = append(ms, member{key: key, value: v.Bytes()})
	}
	// the keys are ASCII names: their written form sorts as JavaScript sorts them
	sort.SliceStable(ms, func(i, j int) bool { return bytes.Compare(ms[i].key, ms[j].key) < 0 })
	out.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			out.WriteByte(',')
		}
		out.Write(m.key)
		out.WriteByte(':')
		out.Write(m.value)
	}
	out.WriteByte('}')
	return nil
}

// skip moves past the value at c.at.
func (c *canonicalizer) skip() error {
	c.skipSpace()
	if c.at >= len(c.src) {
		return errBadJSON
	}
	switch c.src[c.at] {
	case '"':
		_, err := c.str()
		return err
	case '{', '[':
		depth := 0
		for c.at < len(c.src) {
			switch c.src[c.at] {
			case '"':
				if _, err := c.str(); err != nil {
					return err
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					c.at++
					return nil
				}
			}
			c.at++
		}
		return errBadJSON
	}
	var sink bytes.Buffer
	return c.value(&sink)
}

// firstBlock is the type of a message content's first block ("text" for a
// string content) and, for text, the text — found without decoding the
// rest (a tool's output can be megabytes).
func firstBlock(content json.RawMessage) (typ, text string) {
	c := canonicalizer{src: content}
	c.skipSpace()
	if c.at >= len(c.src) {
		return "", ""
	}
	if c.src[c.at] == '"' {
		var s string
		_ = json.Unmarshal(content, &s)
		return "text", s
	}
	if c.src[c.at] != '[' {
		return "", ""
	}
	c.at++
	c.skipSpace()
	if c.at >= len(c.src) || c.src[c.at] != '{' {
		return "", ""
	}
	c.at++
	var textRaw []byte
	for {
		c.skipSpace()
		if c.at >= len(c.src) || c.src[c.at] == '}' {
			break
		}
		if c.src[c.at] == ',' {
			c.at++
			continue
		}
		key, err := c.str()
		if err != nil {
			return "", ""
		}
		c.skipSpace()
		if c.at >= len(c.src) || c.src[c.at] != ':' {
			return "", ""
		}
		c.at++
		c.skipSpace()
		start := c.at
		if err := c.skip(); err != nil {
			return "", ""
		}
		switch string(key) {
		case `"type"`:
			_ = json.Unmarshal(c.src[start:c.at], &typ)
			if typ != "text" {
				return typ, ""
			}
		case `"text"`:
			textRaw = c.src[start:c.at]
		}
		if typ == "text" && textRaw != nil {
			break
		}
	}
	if typ == "text" && textRaw != nil {
		_ = json.Unmarshal(textRaw, &text)
	}
	return typ, text
}

// elements are a JSON list's elements as written (nil: not a list).
func elements(list json.RawMessage) []json.RawMessage {
	c := canonicalizer{src: list}
	c.skipSpace()
	if c.at >= len(c.src) || c.src[c.at] != '[' {
		return nil
	}
	c.at++
	out := []json.RawMessage{}
	for {
		c.skipSpace()
		if c.at >= len(c.src) {
			return nil
		}
		switch c.src[c.at] {
		case ']':
			return out
		case ',':
			c.at++
			continue
		}
		start := c.at
		if c.skip() != nil {
			return nil
		}
		out = append(out, c.src[start:c.at])
	}
}
