package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// Scrub copies a Claude Code transcript with rep's replacements made in
// every line (a user's paths, host names), keeping it whole: the hashes by
// which recorded requests name their messages are those of the messages as
// rewritten, so the copy imports as the original does. Replacements are
// made in the JSON text: give them as they appear there.
func Scrub(in io.Reader, out io.Writer, rep *strings.Replacer) error {
	var lines [][]byte
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		return err
	}
	// the messages by their hash, as a request names them (blobs, records, merged records)
	im := NewImporter("", Options{Agent: ClaudeCode})
	cr := newClaudeReader(im)
	cr.keepRaw = true
	im.r = cr
	for _, l := range lines {
		_, _ = im.Write(append(l, '\n'))
	}
	hashes := map[string]string{}
	for old, w := range cr.blobs {
		if w.missing != "" {
			continue
		}
		if h, err := messageHash(w.role, json.RawMessage(rep.Replace(string(w.content)))); err == nil && h != old {
			hashes[old] = h
		}
	}
	pairs := make([]string, 0, 2*len(hashes))
	for o, n := range hashes {
		pairs = append(pairs, `"`+o+`"`, `"`+n+`"`)
	}
	rehash := strings.NewReplacer(pairs...)
	w := bufio.NewWriter(out)
	for _, l := range lines {
		s := rep.Replace(string(l))
		if bytes.Contains(l, []byte(`"type":"api-request`)) {
			s = rehash.Replace(s)
		}
		if _, err := w.WriteString(s + "\n"); err != nil {
			return err
		}
	}
	return w.Flush()
}
