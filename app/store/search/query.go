package search

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Query is what to find and where.
type Query struct {
	// Text is what the user typed: words that must all be there, "a
	// phrase" whose words stand together in this order, word* for words
	// starting so, a OR b, NOT word; and filters as key:value (agent,
	// project, hook, event, outcome, source, kind, since, until). A text
	// of several lines (pasted) is a phrase per line.
	Text string `json:"text"`
	// The filters; "" does not filter. Agent, Event, Outcome, Source and
	// Kind match whole values (any case), Project a folder or one inside
	// it, Hook any part of the hook's name or command.
	Agent   string `json:"agent"`
	Project string `json:"project"`
	Hook    string `json:"hook"`
	Event   string `json:"event"`
	Outcome string `json:"outcome"`
	Source  string `json:"source"`
	Kind    string `json:"kind"`
	// Since and Until bound when the run or session started: on or after
	// Since, before Until.
	Since time.Time `json:"since"`
	Until time.Time `json:"until"`
	// Limit hits from Offset (Limit 0: DefaultLimit).
	Limit  int `json:"limit"`
	Offset int `json:"offset"`
}

// DefaultLimit is a page of hits when the query says none; MaxLimit the most.
const (
	DefaultLimit = 20
	MaxLimit     = 500
)

// maxLines bounds the phrases a pasted text makes: a whole file pasted is
// looked for by its start.
const maxLines = 64

// ErrQuery marks a query that cannot be run as written; its message says
// every problem.
var ErrQuery = errors.New("bad search")

// filterKeys are the keys a query's key:value sets.
var filterKeys = []string{"agent", "project", "hook", "event", "outcome", "source", "kind", "since", "until"}

// term is one thing the words must hold.
type term struct {
	text   string // the words, as typed (the tokenizer splits them)
	prefix bool   // word*
	not    bool
	or     bool // joined to the term before it by OR
}

// parsed is a query read: its terms and the filters it set.
type parsed struct {
	terms []term
}

// parse reads q.Text into terms, moving its key:value filters into q.
func parse(q *Query) (parsed, error) {
	var p parsed
	var problems []string
	text := strings.TrimSpace(q.Text)
	if strings.Contains(text, "\n") {
		// pasted text: each line a phrase, so a file's lines match where a
		// tool's output numbered them; the first maxLines of them
		for _, line := range strings.Split(text, "\n") {
			if hasWord(line) && len(p.terms) < maxLines {
				p.terms = append(p.terms, term{text: line})
			}
		}
		return p, nil
	}
	set := func(key, val string) {
		if val == "" {
			problems = append(problems, fmt.Sprintf("%s: needs a value (%s:VALUE)", key, key))
			return
		}
		field := map[string]*string{"agent": &q.Agent, "project": &q.Project, "hook": &q.Hook, "event": &q.Event,
			"outcome": &q.Outcome, "source": &q.Source, "kind": &q.Kind}[key]
		if field != nil {
			if *field != "" && !strings.EqualFold(*field, val) {
				problems = append(problems, fmt.Sprintf("%s is %q in the filters and %q in the search", key, *field, val))
				return
			}
			*field = val
			return
		}
		t, err := time.ParseInLocation("2006-01-02", val, time.Local)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%s is not a date (YYYY-MM-DD)", key, val))
			return
		}
		if key == "since" {
			q.Since = t
		} else {
			q.Until = t.AddDate(0, 0, 1) // until a day: that day included
		}
	}
	or, not := false, false
	for _, tok := range lex(text) {
		switch {
		case !tok.quoted && tok.text == "OR":
			if len(p.terms) == 0 || or {
				problems = append(problems, "OR stands between two words")
			}
			or = true
			continue
		case !tok.quoted && tok.text == "NOT":
			not = true
			continue
		}
		if tok.key != "" {
			set(tok.key, tok.text)
			continue
		}
		t := term{text: tok.text, not: not, or: or}
		if !tok.quoted && strings.HasSuffix(t.text, "*") {
			t.text, t.prefix = strings.TrimRight(t.text, "*"), true
		}
		or, not = false, false
		if !hasWord(t.text) {
			continue // punctuation only ("&&", "-"): no word to find
		}
		if t.or && t.not {
			problems = append(problems, "OR NOT is not a search: say NOT word after the words to find")
			continue
		}
		p.terms = append(p.terms, t)
	}
	if or {
		problems = append(problems, "OR stands between two words")
	}
	if len(p.terms) > 0 && !p.hasPositive() {
		problems = append(problems, "NOT leaves out words: say what to find too")
	}
	for _, f := range []struct{ name, val string }{{"kind", q.Kind}, {"source", q.Source}} {
		if f.val == "" {
			continue
		}
		if ok := map[string][]string{"kind": kinds, "source": sources}[f.name]; !containsFold(ok, f.val) {
			problems = append(problems, fmt.Sprintf("%s %q is none of %s", f.name, f.val, strings.Join(ok, ", ")))
		}
	}
	if len(problems) > 0 {
		return p, fmt.Errorf("%w: %s", ErrQuery, strings.Join(problems, "; "))
	}
	return p, nil
}

var (
	kinds   = []string{KindMessage, KindAnswer, KindToolCall, KindHook}
	sources = []string{"cli", "app", "live", "capture", "session", SourceDisk}
)

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func (p parsed) hasPositive() bool {
	for _, t := range p.terms {
		if !t.not {
			return true
		}
	}
	return false
}

// match is the FTS5 expression of the terms ("": none).
func (p parsed) match() string {
	var pos []string
	var neg []string
	for _, t := range p.terms {
		s := `"` + strings.ReplaceAll(t.text, `"`, `""`) + `"`
		if t.prefix {
			s += "*"
		}
		switch {
		case t.not:
			neg = append(neg, s)
		case t.or && len(pos) > 0:
			pos[len(pos)-1] = pos[len(pos)-1] + " OR " + s
		default:
			pos = append(pos, s)
		}
	}
	for i, s := range pos {
		if strings.Contains(s, " OR ") {
			pos[i] = "(" + s + ")"
		}
	}
	out := strings.Join(pos, " AND ")
	if len(neg) > 0 && out != "" {
		out = "(" + out + ") NOT (" + strings.Join(neg, " OR ") + ")"
	}
	return out
}

// token is a word of the query: quoted (a phrase), or key:value.
type token struct {
	text   string
	key    string
	quoted bool
}

// lex splits the query at spaces, keeping "quoted phrases" whole (an
// unclosed quote runs to the end) and key:value (key:"a value") together.
func lex(s string) []token {
	var out []token
	rs := []rune(s)
	for i := 0; i < len(rs); {
		if unicode.IsSpace(rs[i]) {
			i++
			continue
		}
		if rs[i] == '"' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			out = append(out, token{text: string(rs[i+1 : j]), quoted: true})
			i = j + 1
			continue
		}
		if key, v := keyAt(rs, i); key != "" {
			// key:value, key:"a value"
			j := v
			if j < len(rs) && rs[j] == '"' {
				v++
				for j = v; j < len(rs) && rs[j] != '"'; j++ {
				}
				out = append(out, token{text: string(rs[v:j]), key: key})
				i = j + 1
				continue
			}
			for j < len(rs) && !unicode.IsSpace(rs[j]) {
				j++
			}
			out = append(out, token{text: string(rs[v:j]), key: key})
			i = j
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		out = append(out, token{text: string(rs[i:j])})
		i = j
	}
	return out
}

// keyAt is the filter key rs[i:] starts with ("key:"), and where its
// value starts.
func keyAt(rs []rune, i int) (string, int) {
	for _, k := range filterKeys {
		n := len(k)
		if i+n < len(rs) && rs[i+n] == ':' && strings.EqualFold(string(rs[i:i+n]), k) {
			return k, i + n + 1
		}
	}
	return "", i
}

// hasWord says whether s holds a character the tokenizer keeps in a word
// (unicode61: letters, numbers, marks, private use).
func hasWord(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r) || unicode.Is(unicode.Co, r) {
			return true
		}
	}
	return false
}
