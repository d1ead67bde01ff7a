package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"hookstudio/app/agentdata/profile"
)

// Replacer rewrites a text (*strings.Replacer is one).
type Replacer interface{ Replace(s string) string }

// Chain is reps applied one after the other.
func Chain(reps ...Replacer) Replacer { return chain(reps) }

type chain []Replacer

func (c chain) Replace(s string) string {
	for _, r := range c {
		s = r.Replace(s)
	}
	return s
}

// Scrub copies a Claude Code transcript with rep's replacements made in
// every line (a user's paths, host names), keeping it whole: the hashes by
// which recorded requests name their messages are those of the messages as
// rewritten, so the copy imports as the original does. Replacements are
// made in the JSON text: give them as they appear there.
func Scrub(in io.Reader, out io.Writer, rep Replacer) error {
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

// AgentTexts finds the agent's own texts in a fixture recorded from a real
// CLI — its system prompt, its tools' descriptions, the context it adds —
// which are not the project's to ship, and replaces each line of them by
// a placeholder as long (in runes), keeping its whitespace and markup
// tags: a reader that tells the agent's context by its tags, or splits a
// text at blank lines, reads the fixture as it read the original. Kept:
// the lines that hold a text of the test's own (its prompt, hooks' words,
// tools' output), and the rendering profiles' words, by which readers
// tell hooks. Collect every file of one run (the log and what the capture
// saw), then replace with JSON (in JSON text) or Text (in decoded texts)
// alike, so the scrubbed fixture reads as consistently as the original.
type AgentTexts struct {
	keep     []string
	prefixes []string
	profiles []string
	// own are the fingerprints (profile.Fingerprint) of the agent's own
	// paragraphs its profiles know: such a line keeps its first three
	// words, by which a reader tells it from a hook's.
	own   map[string]bool
	lines map[string]string
}

// KeepPrefix keeps the first words of the agent's lines that start with
// p (the words a reader tells the agent by: "You are Cline"), the rest of
// them scrubbed.
func (t *AgentTexts) KeepPrefix(p ...string) { t.prefixes = append(t.prefixes, p...) }

// NewAgentTexts scrubs the texts that hold none of keep.
func NewAgentTexts(keep ...string) *AgentTexts {
	t := &AgentTexts{lines: map[string]string{}, own: map[string]bool{}}
	for _, k := range keep {
		if k = strings.TrimSpace(k); k != "" {
			t.keep = append(t.keep, k)
		}
	}
	catalog := profile.NewCatalog("")
	for _, agent := range Agents {
		ps, _ := catalog.All(string(agent))
		for _, p := range ps {
			for _, f := range p.AgentParagraphs {
				t.own[f] = true
			}
			data, _ := json.Marshal(p.Outcomes)
			var v any
			_ = json.Unmarshal(data, &v)
			eachString(v, "", func(_, s string) {
				for _, part := range placeholderRe.Split(s, -1) {
					for _, line := range strings.Split(part, "\n") {
						// words, not a wrapper's tag alone
						if line = strings.TrimSpace(line); utf8.RuneCountInString(strings.TrimSpace(tagRe.ReplaceAllString(line, ""))) >= 12 {
							t.profiles = append(t.profiles, line)
						}
					}
				}
			})
		}
	}
	return t
}

// placeholderRe is a profile's placeholder ({text}, {event}).
var placeholderRe = regexp.MustCompile(`\{[a-z_]+\}`)

// Collect finds the agent's texts in data: a JSON document or JSON lines.
func (t *AgentTexts) Collect(data []byte) error {
	d := json.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		if err := d.Decode(&v); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("collect the agent's texts: %w", err)
		}
		eachString(v, "", t.add)
	}
}

// add registers the lines of s when one is the agent's prose, or s
// describes a tool or a parameter: all of its lines but the shortest (a
// heading, a path, a list of a text of the agent's), except those of the
// test's own or the profiles'.
func (t *AgentTexts) add(key, s string) {
	lines := strings.Split(s, "\n")
	if key != "description" && !slices.ContainsFunc(lines, func(l string) bool { l = strings.TrimSpace(l); return prose(l) && !t.kept(l) }) {
		return
	}
	for _, line := range lines {
		trimmed := strings.TrimSpace(line)
		if _, ok := t.lines[line]; ok || utf8.RuneCountInString(trimmed) < 8 || t.kept(trimmed) {
			continue
		}
		kept := ""
		for _, p := range t.prefixes {
			if strings.HasPrefix(line, p) {
				kept = p
			}
		}
		if t.own[profile.Fingerprint(line)] {
			kept = firstWords(line, 3)
		}
		if p := kept + placeholder(line[len(kept):]); p != line {
			t.lines[line] = p
		}
	}
}

// firstWords is line up to the end of its n-th word (letters and digits).
func firstWords(line string, n int) string {
	in, words := false, 0
	for i, r := range line {
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if in && !w {
			if words++; words == n {
				return line[:i]
			}
		}
		in = w
	}
	return line
}

// prose is a line of words: long enough to be the agent's sentence, not
// a name, a path, an id or markup.
func prose(line string) bool {
	line = strings.TrimSpace(tagRe.ReplaceAllString(line, ""))
	return utf8.RuneCountInString(line) >= 24 && strings.Count(line, " ") >= 3
}

func (t *AgentTexts) kept(line string) bool {
	for _, k := range t.keep {
		if strings.Contains(line, k) || strings.Contains(k, line) {
			return true
		}
	}
	for _, p := range t.profiles {
		if strings.Contains(line, p) || strings.Contains(p, line) {
			return true
		}
	}
	return false
}

// tagRe is a markup tag (<system-reminder>, </session_context>,
// <model name="x" />).
var tagRe = regexp.MustCompile(`</?[A-Za-z_][\w:.-]*(\s+[\w:.-]+(="[^"<>]*"|='[^'<>]*')?)*\s*/?>`)

// placeholder is line with each rune but whitespace and tags replaced.
func placeholder(line string) string {
	const filler = "scrubbed"
	var b strings.Builder
	i := 0
	for _, loc := range append(tagRe.FindAllStringIndex(line, -1), []int{len(line), len(line)}) {
		for _, r := range line[i:loc[0]] {
			if unicode.IsSpace(r) {
				b.WriteRune(r)
			} else {
				b.WriteByte(filler[b.Len()%len(filler)])
			}
		}
		b.WriteString(line[loc[0]:loc[1]])
		i = loc[1]
	}
	return b.String()
}

// Count is how many lines are replaced.
func (t *AgentTexts) Count() int { return len(t.lines) }

// Text replaces the agent's lines in decoded texts.
func (t *AgentTexts) Text() Replacer { return t.replacer(func(s string) string { return s }) }

// JSON replaces the agent's lines in JSON text, as JSON.stringify (and
// Rust's serde_json) escape them.
func (t *AgentTexts) JSON() Replacer { return t.replacer(jsEscape) }

func (t *AgentTexts) replacer(enc func(string) string) Replacer {
	olds := make([]string, 0, len(t.lines))
	for old := range t.lines {
		olds = append(olds, old)
	}
	// the longest first: a line that holds another is replaced whole
	slices.SortFunc(olds, func(a, b string) int {
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	pairs := make([]string, 0, 2*len(olds))
	for _, old := range olds {
		pairs = append(pairs, enc(old), enc(t.lines[old]))
	}
	return strings.NewReplacer(pairs...)
}

// jsEscape is s as it is inside a JSON string written by JSON.stringify.
func jsEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// eachString calls fn with each string of a decoded JSON value and the
// key it is under (a list's elements are under the list's).
func eachString(v any, key string, fn func(key, s string)) {
	switch x := v.(type) {
	case string:
		fn(key, x)
	case []any:
		for _, e := range x {
			eachString(e, key, fn)
		}
	case map[string]any:
		for k, e := range x {
			eachString(e, k, fn)
		}
	}
}
