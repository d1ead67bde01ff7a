package search

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Hit is one thing found: where it is (the run or transcript, the call,
// the message, the step) and a snippet of it with the matched words marked.
type Hit struct {
	Key     string    `json:"key"`
	Source  string    `json:"source"`
	Run     int64     `json:"run"`  // 0: a transcript not imported (File)
	File    string    `json:"file"` // the transcript, for a session
	Agent   string    `json:"agent"`
	Version string    `json:"version"`
	Project string    `json:"project"`
	Title   string    `json:"title"`
	Started time.Time `json:"started"`
	Kind    string    `json:"kind"`
	Role    string    `json:"role"`
	Origin  string    `json:"origin"`
	Call    int       `json:"call"`    // 0-based; -1: none
	Message int       `json:"message"` // -1: none
	Step    int       `json:"step"`
	Hook    string    `json:"hook"`
	Event   string    `json:"event"`
	Outcome string    `json:"outcome"`
	Tool    string    `json:"tool"`
	// Count is how often the same words stand in this run.
	Count   int       `json:"count"`
	Snippet []Segment `json:"snippet"`
	// Rank is bm25's score: lower is better (0 without words).
	Rank float64 `json:"rank"`
}

// Segment is a piece of a snippet; Hit marks the matched words.
type Segment struct {
	Text string `json:"text"`
	Hit  bool   `json:"hit,omitempty"`
}

// Results are a page of hits, best first.
type Results struct {
	Hits []Hit `json:"hits"`
	// Total is how many hits there are, counted up to RankCap; More says
	// there are more than that: the hits are then the best of the newest
	// RankCap.
	Total int  `json:"total"`
	More  bool `json:"more"`
	// Offset and Limit are the page's.
	Offset int `json:"offset"`
	Limit  int `json:"limit"`
}

// RankCap bounds the hits ranked and counted: a word in more places is
// ranked among its newest RankCap (and counted "RankCap+").
const RankCap = 20000

// the bytes snippets mark matches with (cleaned out of every indexed text)
const (
	markOpen  = "\x02"
	markClose = "\x03"
)

// snippetTokens is how many words a snippet shows around the match.
const snippetTokens = 24

// bm25 weighs the words above what they are about.
const rankExpr = `bm25(fts, 1.0, 0.3)`

// Search runs q: the hits best first (bm25; newest first among equals, and
// when the query has filters only), a page of them, and how many in all
// (up to RankCap).
func (ix *Index) Search(ctx context.Context, q Query) (Results, error) {
	p, err := parse(&q)
	if err != nil {
		return Results{}, err
	}
	match := p.match()
	where, args := filters(q)
	if match == "" && len(where) == 0 {
		return Results{}, fmt.Errorf("%w: type words to find, or a filter (outcome:blocked)", ErrQuery)
	}
	if q.Limit <= 0 {
		q.Limit = DefaultLimit
	}
	q.Limit = min(q.Limit, MaxLimit)
	q.Offset = max(q.Offset, 0)
	res := Results{Hits: []Hit{}, Offset: q.Offset, Limit: q.Limit}

	// Without words: the newest first (ids go with time). With words:
	// bm25 over the newest RankCap matches that pass the filters — all of
	// them but for words in more places, whose best are looked for among
	// the newest (ranking every place of a word found everywhere costs a
	// second a gigabyte) — the newest first among equals.
	from := `items i JOIN docs d ON d.id = i.doc`
	cond := " WHERE " + strings.Join(where, " AND ")
	cols := `i.id, 0 AS r, d.key, d.source, d.run, d.file, d.agent, d.version, d.project, d.title, d.started_ms,
		i.kind, i.role, i.origin, i.call, i.message, i.step, i.hook, i.event, i.outcome, i.tool, i.count`
	query := `SELECT ` + cols + ` FROM ` + from + cond + ` ORDER BY i.id DESC LIMIT ? OFFSET ?`
	if match != "" {
		from = `fts JOIN items i ON i.id = fts.rowid JOIN docs d ON d.id = i.doc`
		cond = " WHERE " + strings.Join(append([]string{`fts MATCH ?`}, where...), " AND ")
		args = append([]any{match}, args...)
		query = `SELECT * FROM (SELECT ` + strings.Replace(cols, "0 AS r", rankExpr+" AS r", 1) + ` FROM ` + from + cond +
			` ORDER BY fts.rowid DESC LIMIT ` + fmt.Sprint(ix.rankCap) + `) ORDER BY r, id DESC LIMIT ? OFFSET ?`
	}
	rows, err := ix.db.QueryContext(ctx, query, append(slices.Clone(args), q.Limit, q.Offset)...)
	if err != nil {
		return Results{}, queryErr(err)
	}
	var ids []int64
	for rows.Next() {
		var h Hit
		var id, started int64
		if err := rows.Scan(&id, &h.Rank, &h.Key, &h.Source, &h.Run, &h.File, &h.Agent, &h.Version, &h.Project, &h.Title, &started,
			&h.Kind, &h.Role, &h.Origin, &h.Call, &h.Message, &h.Step, &h.Hook, &h.Event, &h.Outcome, &h.Tool, &h.Count); err != nil {
			rows.Close()
			return Results{}, err
		}
		if started != 0 {
			h.Started = time.UnixMilli(started)
		}
		ids = append(ids, id)
		res.Hits = append(res.Hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return Results{}, queryErr(err)
	}
	// snippets for the page only: made for every hit, they would cost
	// reading every matched text
	snips, err := ix.snippets(ctx, p, match, ids)
	if err != nil {
		return Results{}, err
	}
	for i, id := range ids {
		res.Hits[i].Snippet = snips[id]
		if res.Hits[i].Snippet == nil {
			res.Hits[i].Snippet = []Segment{}
		}
	}
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM `+from+cond+` LIMIT ?)`, append(args, ix.rankCap+1)...).Scan(&res.Total); err != nil {
		return Results{}, queryErr(err)
	}
	if res.Total > ix.rankCap {
		res.Total, res.More = ix.rankCap, true
	}
	return res, nil
}

// filters are the query's conditions on items (i) and docs (d).
func filters(q Query) ([]string, []any) {
	var where []string
	var args []any
	add := func(cond string, a ...any) { where, args = append(where, cond), append(args, a...) }
	if q.Agent != "" {
		add(`d.agent = ? COLLATE NOCASE`, q.Agent)
	}
	if q.Project != "" {
		p := filepath.Clean(q.Project)
		add(`(d.project = ? OR substr(d.project, 1, ?) = ?)`, p, len(p)+1, p+string(filepath.Separator))
	}
	if q.Source != "" {
		add(`d.source = ? COLLATE NOCASE`, q.Source)
	}
	if q.Kind != "" {
		add(`i.kind = ? COLLATE NOCASE`, q.Kind)
	}
	if q.Hook != "" || q.Event != "" || q.Outcome != "" {
		add(`i.hook != ''`) // lets the partial index of hooks' items serve
	}
	if q.Hook != "" {
		add(`instr(lower(i.hook), lower(?)) > 0`, q.Hook)
	}
	if q.Event != "" {
		// PreToolUse finds the agent's label PreToolUse:Bash too
		add(`(i.event = ? COLLATE NOCASE OR i.event LIKE ? ESCAPE '\')`, q.Event, likeEscape(q.Event)+":%")
	}
	if q.Outcome != "" {
		add(`i.outcome = ? COLLATE NOCASE`, q.Outcome)
	}
	if !q.Since.IsZero() {
		add(`d.started_ms >= ?`, q.Since.UnixMilli())
	}
	if !q.Until.IsZero() {
		add(`d.started_ms < ?`, q.Until.UnixMilli())
	}
	return where, args
}

// likeEscape makes s match itself in a LIKE pattern.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

// snippetWindow bounds the text a snippet is looked for in: a longer one
// is cut around the first place a word of the query stands.
const snippetWindow = 32 << 10

// snippets are the parts of the items' words that matched, marked by the
// tokenizer that matched them: the page's texts go through a table of
// their own, in memory, which FTS5's snippet() reads. Without words, the
// start of each.
func (ix *Index) snippets(ctx context.Context, p parsed, match string, ids []int64) (map[int64][]Segment, error) {
	out := map[int64][]Segment{}
	if len(ids) == 0 {
		return out, nil
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := conn.QueryContext(ctx, `SELECT id, body, context FROM texts WHERE id IN (?`+strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, queryErr(err)
	}
	type text struct {
		id            int64
		body, context string
	}
	var texts []text
	for rows.Next() {
		var t text
		var b, c []byte
		if err := rows.Scan(&t.id, &b, &c); err != nil {
			rows.Close()
			return nil, err
		}
		if t.body, err = unpack(b); err == nil {
			t.context, err = unpack(c)
		}
		if err != nil {
			rows.Close()
			return nil, err
		}
		texts = append(texts, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if match == "" {
		for _, t := range texts {
			s := t.body
			if strings.TrimSpace(s) == "" {
				s = t.context
			}
			if r := []rune(s); len(r) > 200 {
				s = string(r[:200]) + "…"
			}
			out[t.id] = []Segment{{Text: s}}
		}
		return out, nil
	}
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.snip USING fts5(body, context, tokenize = 'unicode61 remove_diacritics 2')`); err != nil {
		return nil, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DELETE FROM temp.snip`)
	for _, t := range texts {
		if _, err := conn.ExecContext(ctx, `INSERT INTO temp.snip (rowid, body, context) VALUES (?, ?, ?)`,
			t.id, window(t.body, p), window(t.context, p)); err != nil {
			return nil, err
		}
	}
	rows, err = conn.QueryContext(ctx, `SELECT rowid, snippet(snip, -1, ?, ?, '…', ?) FROM temp.snip WHERE snip MATCH ?`,
		markOpen, markClose, snippetTokens, match)
	if err != nil {
		return nil, queryErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var s string
		if err := rows.Scan(&id, &s); err != nil {
			return nil, err
		}
		out[id] = segments(s)
	}
	return out, rows.Err()
}

// window is s, or the part of a long s around the first word of the
// query found in it (its start when none is).
func window(s string, p parsed) string {
	if len(s) <= snippetWindow {
		return s
	}
	lower := strings.ToLower(s)
	at := -1
	for _, t := range p.terms {
		if t.not {
			continue
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(t.text), func(r rune) bool { return !hasWord(string(r)) }) {
			if i := strings.Index(lower, w); i >= 0 && (at < 0 || i < at) {
				at = i
			}
			break
		}
	}
	// (lower case may differ in length from s: a place, not an offset)
	from := min(max(0, at-snippetWindow/2), len(s))
	for from < len(s) && s[from]&0xC0 == 0x80 {
		from++ // a whole rune
	}
	return cut(s[from:], snippetWindow)
}

// segments splits a marked snippet into plain and matched pieces.
func segments(s string) []Segment {
	out := []Segment{}
	for s != "" {
		open := strings.Index(s, markOpen)
		if open < 0 {
			out = append(out, Segment{Text: s})
			break
		}
		if open > 0 {
			out = append(out, Segment{Text: s[:open]})
		}
		s = s[open+len(markOpen):]
		end := strings.Index(s, markClose)
		if end < 0 {
			end = len(s)
		}
		if end > 0 {
			// matches a space or a dash apart ("guard forbids", "rm -rf")
			// read as one
			n := len(out)
			switch {
			case n > 0 && out[n-1].Hit:
				out[n-1].Text += s[:end]
			case n > 1 && out[n-2].Hit && len(out[n-1].Text) <= 3 && !hasWord(out[n-1].Text):
				out[n-2].Text += out[n-1].Text + s[:end]
				out = out[:n-1]
			default:
				out = append(out, Segment{Text: s[:end], Hit: true})
			}
		}
		s = s[min(end+len(markClose), len(s)):]
	}
	return out
}

// queryErr says what FTS5 did not understand as a bad query.
func queryErr(err error) error {
	if strings.Contains(err.Error(), "fts5: syntax error") {
		return fmt.Errorf("%w: %w", ErrQuery, err)
	}
	return fmt.Errorf("search: %w", err)
}
