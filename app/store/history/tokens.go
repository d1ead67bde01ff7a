package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/store/sqlbatch"
)

// ContentCounter counts a text alone in a named encoding, so the history
// may keep the count with the text (blob_tokens, migration 9) and never
// count that text again; tokens.Counter is one.
type ContentCounter interface {
	TokenCounter
	Count(text string) int
	Encoding() string
}

// KeptEncoding is the encoding whose counts the history keeps with its
// texts.
const KeptEncoding = "o200k_base"

// keptBy is tc as a counter whose counts the history keeps, if it is one.
func keptBy(tc TokenCounter) (ContentCounter, bool) {
	cc, ok := tc.(ContentCounter)
	return cc, ok && cc.Encoding() == KeptEncoding
}

// ErrNotKept is returned for deferred counts with a counter whose counts
// the history does not keep: it could never finish them.
var ErrNotKept = errors.New("deferred token counts need a counter of the kept encoding (" + KeptEncoding + ")")

// TextID names one stored text (a blob).
type TextID int64

// TextCount is a text's token count in KeptEncoding.
type TextCount struct {
	Text   TextID `json:"text"`
	Tokens int    `json:"tokens"`
}

// textCounts are the token counts of a run's distinct texts, by their
// index in the run's blobSet, and how SaveRun got them.
type textCounts struct {
	tc TokenCounter
	cc ContentCounter // nil: the counter's counts are not kept
	// n is each text's own tokens (-1 not counted yet); nil when cc is.
	n       []int
	fresh   []bool // counted by this save, to keep with the text
	pending int
}

// hashChunk bounds the hashes of one lookup (SQLite's default limit on
// bound parameters is far above it).
const hashChunk = 400

// countTexts gives each of texts its count: kept ones from the history,
// the others counted now, or left pending when deferred.
func (s *Store) countTexts(ctx context.Context, texts *blobSet, tc TokenCounter, deferred bool) (*textCounts, error) {
	c := &textCounts{tc: tc}
	cc, ok := keptBy(tc)
	if !ok {
		if deferred {
			return nil, ErrNotKept
		}
		return c, nil
	}
	c.cc = cc
	c.n = make([]int, len(texts.texts))
	c.fresh = make([]bool, len(texts.texts))
	for i := range c.n {
		c.n[i] = -1
	}
	at := make(map[[sha256.Size]byte]int, len(texts.hashes))
	for i, h := range texts.hashes {
		at[h] = i
	}
	for start := 0; start < len(texts.hashes); start += hashChunk {
		chunk := texts.hashes[start:min(start+hashChunk, len(texts.hashes))]
		args := make([]any, len(chunk))
		for i := range chunk {
			args[i] = chunk[i][:]
		}
		q := `SELECT b.hash, t.o200k FROM blobs b JOIN blob_tokens t ON t.blob_id = b.id WHERE b.hash IN (` +
			strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",") + `)`
		err := eachRow(ctx, s.db, q, args, func(sc scanner) error {
			var h []byte
			var n int
			if err := sc.Scan(&h, &n); err != nil {
				return err
			}
			if i, ok := at[[sha256.Size]byte(h)]; ok && len(h) == sha256.Size {
				c.n[i] = n
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("kept token counts: %w", err)
		}
	}
	for i, n := range c.n {
		switch {
		case n >= 0:
		case deferred:
			c.pending++
		default:
			c.n[i], c.fresh[i] = cc.Count(texts.texts[i]), true
		}
	}
	return c, nil
}

// ofRecord is the token count of each of rec's messages and answers; a
// text not counted yet counts 0.
func (c *textCounts) ofRecord(rec *engine.Record, texts *blobSet) (msgTokens, outTokens []int) {
	msgTokens, outTokens = make([]int, len(rec.Messages)), make([]int, len(rec.Calls))
	if c.n == nil {
		// the counter's own counts, each distinct message once
		type key struct{ role, content string }
		counted := map[key]int{}
		for i := range rec.Messages {
			m := &rec.Messages[i]
			k := key{string(m.Role), m.Content}
			n, ok := counted[k]
			if !ok {
				n = c.tc.CountMessage(k.role, k.content)
				counted[k] = n
			}
			if p, ok := placeholder(m); ok {
				n = c.tc.CountMessage(k.role, "") + p
			}
			msgTokens[i] = n
		}
		for i := range rec.Calls {
			if content := rec.Calls[i].Content; content != "" {
				// CountMessage minus the framing of an empty message leaves
				// the content's own tokens.
				outTokens[i] = c.tc.CountMessage("assistant", content) - c.tc.CountMessage("assistant", "")
			}
		}
		return msgTokens, outTokens
	}
	text := func(s string) int { return max(c.n[texts.index[s]], 0) }
	roles := roleTokens{cc: c.cc}
	for i := range rec.Messages {
		m := &rec.Messages[i]
		msgTokens[i] = roles.of(string(m.Role)) + text(m.Content)
		if p, ok := placeholder(m); ok {
			msgTokens[i] = roles.of(string(m.Role)) + p
		}
	}
	for i := range rec.Calls {
		if content := rec.Calls[i].Content; content != "" {
			outTokens[i] = text(content)
		}
	}
	return msgTokens, outTokens
}

// placeholder is what the CLI's words cost that a message of a run
// without a calibration stands in for (its own text is the placeholder's).
func placeholder(m *engine.MessageRecord) (int, bool) {
	if a := m.Agent; a != nil && a.Placeholder {
		return a.PlaceholderTokens, true
	}
	return 0, false
}

// roleTokens is what a message of each role costs beyond its text (the
// chat format's framing and the role), counted once per role.
type roleTokens struct {
	cc ContentCounter
	m  map[string]int
}

func (r *roleTokens) of(role string) int {
	if n, ok := r.m[role]; ok {
		return n
	}
	if r.m == nil {
		r.m = map[string]int{}
	}
	n := r.cc.CountMessage(role, "")
	r.m[role] = n
	return n
}

// insertFresh keeps the counts this save made with their texts (their
// blobs' ids are known).
func (c *textCounts) insertFresh(ctx context.Context, tx *sql.Tx, blobs *blobSet) error {
	var rows []int
	for i, f := range c.fresh {
		if f {
			rows = append(rows, i)
		}
	}
	return sqlbatch.Replace(ctx, tx, "blob_tokens", []string{"blob_id", "o200k"}, len(rows), batchRows, func(k int, a []any) []any {
		return append(a, blobs.ids[rows[k]], c.n[rows[k]])
	})
}

// TextRefs say which stored text each message and answer of a skeleton's
// trace is.
type TextRefs struct {
	Messages []TextID // by message id
	Calls    []TextID // each call's answer
}

// Skeleton is a stored run without its texts: every message, answer and
// tool result of Trace is empty, Texts says which stored text each message
// and answer is (read with Texts; a tool call's result is its tool
// message's text), Counts holds the tokens of the run's texts counted so
// far. What a paged view of a large run keeps in memory.
type Skeleton struct {
	*Run
	Texts  TextRefs
	Counts map[TextID]int
}

// LoadSkeleton reads a run back without its texts.
func (s *Store) LoadSkeleton(ctx context.Context, id RunID) (*Skeleton, error) {
	var sk *Skeleton
	err := s.readTx(ctx, func(q querier) error {
		var err error
		sk, err = loadSkeleton(ctx, q, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load run %d: %w", id, err)
	}
	return sk, nil
}

func loadSkeleton(ctx context.Context, q querier, id RunID) (*Skeleton, error) {
	sk := &Skeleton{Counts: map[TextID]int{}}
	var err error
	if sk.Run, err = loadTrace(ctx, q, id, &sk.Texts); err != nil {
		return nil, err
	}
	err = eachRow(ctx, q, `SELECT t.blob_id, t.o200k FROM run_blobs rb JOIN blob_tokens t ON t.blob_id = rb.blob_id WHERE rb.run_id = ?`,
		[]any{int64(id)}, func(sc scanner) error {
			var b int64
			var n int
			if err := sc.Scan(&b, &n); err != nil {
				return err
			}
			sk.Counts[TextID(b)] = n
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("token counts: %w", err)
	}
	return sk, nil
}

// Texts reads stored texts by id; an id not stored (its run was replaced
// meanwhile) is left out.
func (s *Store) Texts(ctx context.Context, ids []TextID) (map[TextID]string, error) {
	out := make(map[TextID]string, len(ids))
	for start := 0; start < len(ids); start += hashChunk {
		chunk := ids[start:min(start+hashChunk, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = int64(id)
		}
		q := `SELECT id, data FROM blobs WHERE id IN (` + strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",") + `)`
		err := eachRow(ctx, s.db, q, args, func(sc scanner) error {
			var id int64
			var t string
			if err := sc.Scan(&id, &t); err != nil {
				return err
			}
			out[TextID(id)] = t
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read texts: %w", err)
		}
	}
	return out, nil
}

// PendingTexts calls fn with each of run id's texts whose tokens are not
// counted yet, one at a time as they are read (a 50 MB session is not
// read into memory at once); it returns how many there were.
func (s *Store) PendingTexts(ctx context.Context, id RunID, fn func(TextID, string) error) (int, error) {
	n := 0
	err := eachRow(ctx, s.db, `SELECT b.id, b.data FROM run_blobs rb JOIN blobs b ON b.id = rb.blob_id
		LEFT JOIN blob_tokens t ON t.blob_id = b.id WHERE rb.run_id = ? AND t.blob_id IS NULL`, []any{int64(id)}, func(sc scanner) error {
		var b int64
		var t string
		if err := sc.Scan(&b, &t); err != nil {
			return err
		}
		n++
		return fn(TextID(b), t)
	})
	if err != nil {
		return n, fmt.Errorf("texts to count of run %d: %w", id, err)
	}
	return n, nil
}

// KeepCounts keeps texts' token counts (KeptEncoding) with them; a text
// no longer stored (its run was replaced meanwhile) is skipped.
func (s *Store) KeepCounts(ctx context.Context, counts []TextCount) error {
	if len(counts) == 0 {
		return nil
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO blob_tokens (blob_id, o200k) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM blobs WHERE id = ?1)`)
		if err != nil {
			return fmt.Errorf("keep token counts: %w", err)
		}
		defer st.Close()
		for _, c := range counts {
			if _, err := st.ExecContext(ctx, int64(c.Text), c.Tokens); err != nil {
				return fmt.Errorf("keep token counts: %w", err)
			}
		}
		return nil
	})
}

// SettleTokens works run id's figures out again from its texts' counts
// (message and call tokens, the hooks' costs, the run's totals) and how
// many of its texts are still to count, in one transaction: a run kept
// with DeferTokens ends with the figures SaveRun would have given it.
func (s *Store) SettleTokens(ctx context.Context, id RunID, cc ContentCounter) error {
	if cc.Encoding() != KeptEncoding {
		return ErrNotKept
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		sk, err := loadSkeleton(ctx, tx, id)
		if err != nil {
			return err
		}
		var pending int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM run_blobs rb LEFT JOIN blob_tokens t ON t.blob_id = rb.blob_id
			WHERE rb.run_id = ? AND t.blob_id IS NULL`, int64(id)).Scan(&pending); err != nil {
			return err
		}
		rec := sk.Trace.Record()
		msgTokens, outTokens := sk.tokens(&rec, cc)
		met, err := computeMetrics(&rec, msgTokens, outTokens)
		if err != nil {
			return err
		}
		return updateTokens(ctx, tx, id, met, pending)
	})
	if err != nil {
		return fmt.Errorf("settle the tokens of run %d: %w", id, err)
	}
	return nil
}

// tokens is each message's and answer's count from the skeleton's counted
// texts (0 for one not counted yet).
func (sk *Skeleton) tokens(rec *engine.Record, cc ContentCounter) (msgTokens, outTokens []int) {
	msgTokens, outTokens = make([]int, len(rec.Messages)), make([]int, len(rec.Calls))
	roles := roleTokens{cc: cc}
	for i := range rec.Messages {
		m := &rec.Messages[i]
		msgTokens[i] = roles.of(string(m.Role)) + sk.Counts[sk.Texts.Messages[i]]
		if p, ok := placeholder(m); ok {
			msgTokens[i] = roles.of(string(m.Role)) + p
		}
	}
	for i := range rec.Calls {
		outTokens[i] = sk.Counts[sk.Texts.Calls[i]]
	}
	return msgTokens, outTokens
}

func updateTokens(ctx context.Context, tx *sql.Tx, id RunID, met *metrics, pending int) error {
	rid := int64(id)
	msg, err := tx.PrepareContext(ctx, `UPDATE run_messages SET tokens = ? WHERE run_id = ? AND id = ?`)
	if err != nil {
		return err
	}
	defer msg.Close()
	for i, n := range met.msgTokens {
		if _, err := msg.ExecContext(ctx, n, rid, i); err != nil {
			return fmt.Errorf("message %d: %w", i, err)
		}
	}
	call, err := tx.PrepareContext(ctx, `UPDATE run_calls SET tokens_in = ?, tokens_out = ?, messages = ? WHERE run_id = ? AND idx = ?`)
	if err != nil {
		return err
	}
	defer call.Close()
	for i := range met.calls {
		c := &met.calls[i]
		if _, err := call.ExecContext(ctx, c.TokensIn, c.TokensOut, c.Messages, rid, i); err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
	}
	hook, err := tx.PrepareContext(ctx, `UPDATE run_hooks SET calls_seen = ?, copies_seen = ?, tokens_total = ?, tokens_per_call = ? WHERE run_id = ? AND idx = ?`)
	if err != nil {
		return err
	}
	defer hook.Close()
	for i := range met.hooks {
		h := &met.hooks[i]
		perCall, err := json.Marshal(h.TokensPerCall)
		if err != nil {
			return err
		}
		if _, err := hook.ExecContext(ctx, h.CallsSeen, h.CopiesSeen, h.TokensTotal, perCall, rid, i); err != nil {
			return fmt.Errorf("hook %d: %w", i, err)
		}
	}
	_, err = tx.ExecContext(ctx, `UPDATE runs SET tokens_in = ?, tokens_out = ?, max_prompt_tokens = ?, tokens_pending = ? WHERE id = ?`,
		met.tokensIn, met.tokensOut, met.maxPrompt, pending, rid)
	return err
}
