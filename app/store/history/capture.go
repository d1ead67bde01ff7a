package history

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// CaptureCall is one call of a capture as it was kept when answered
// (app/capture writes and reads what is inside).
type CaptureCall struct {
	Call   []byte // the call's record, JSON, without the request body
	Body   []byte // the request body as the agent sent it
	Answer []byte // the bytes a forwarding capture relayed (nil: none)
}

// CaptureFold links a run to the capture it is built from: SaveRun then
// stands in for the run the capture's last fold made (whatever Replaces
// says) and notes that it holds the capture's first Calls calls. A fold
// that holds no more calls than the one before it writes nothing.
type CaptureFold struct {
	ID    string
	Calls int
}

// CaptureState is a capture's journal against its run.
type CaptureState struct {
	ID      string
	Started time.Time
	Run     RunID // 0: no run yet
	Folded  int   // calls the run holds
	Calls   int   // calls kept
}

// KeepCaptureCalls appends calls to capture id's journal in one
// transaction: once it returns they survive the process being killed. It
// runs on an agent's request (before its answer ends), so it has a
// connection and a prepared statement of its own, and one call is one
// statement in autocommit: a few tens of microseconds.
func (s *Store) KeepCaptureCalls(ctx context.Context, id string, started time.Time, calls []CaptureCall) (err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	defer func() {
		if err != nil {
			delete(s.journal, id) // the rows it names may not be there
			err = fmt.Errorf("keep capture %s's calls: %w", id, err)
		}
	}()
	if s.jconn == nil {
		conn, err := s.db.Conn(ctx)
		if err != nil {
			return err
		}
		ins, err := conn.PrepareContext(ctx, `INSERT INTO capture_calls (capture, call, base, pre, suf, body, answer) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			conn.Close()
			return err
		}
		s.jconn, s.jins, s.journal = conn, ins, map[string][]keptBody{}
	}
	recent, ok := s.journal[id]
	if !ok {
		if _, err := s.jconn.ExecContext(ctx, `INSERT OR IGNORE INTO captures (id, started_ms) VALUES (?, ?)`, id, started.UnixMilli()); err != nil {
			return err
		}
		if len(s.journal) >= journalCaptures {
			clear(s.journal) // a capture seldom outlives the next few: it starts again from whole bodies
		}
	}
	if len(calls) > 1 {
		if _, err := s.jconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
			return err
		}
		defer func() {
			if err != nil {
				_, _ = s.jconn.ExecContext(context.Background(), "ROLLBACK")
			} else if _, err = s.jconn.ExecContext(ctx, "COMMIT"); err != nil {
				_, _ = s.jconn.ExecContext(context.Background(), "ROLLBACK")
			}
		}()
	}
	for _, c := range calls {
		var base any
		pre, suf, mid := 0, 0, orEmptyBytes(c.Body)
		if k, p, q := bestBase(recent, c.Body); p+q > 0 {
			base, pre, suf, mid = k.id, p, q, c.Body[p:len(c.Body)-q]
		}
		res, err := s.jins.ExecContext(ctx, id, c.Call, base, pre, suf, mid, c.Answer)
		if err != nil {
			return err
		}
		row, err := res.LastInsertId()
		if err != nil {
			return err
		}
		recent = append(recent, keptBody{id: row, body: c.Body})
		if len(recent) > journalBases {
			recent = recent[1:]
		}
	}
	s.journal[id] = recent
	return nil
}

// A call's body is kept as what differs from the most alike of the last
// journalBases bodies of its capture (an agent interleaves side requests
// with its conversation); the store remembers them for journalCaptures
// captures at a time.
const (
	journalBases    = 4
	journalCaptures = 4
)

type keptBody struct {
	id   int64
	body []byte
}

// bestBase is the kept body sharing the most with body at its start (pre)
// and end (suf), the two never overlapping.
func bestBase(recent []keptBody, body []byte) (best keptBody, pre, suf int) {
	for _, k := range recent {
		p := commonPrefix(k.body, body)
		q := commonSuffix(k.body[p:], body[p:])
		if p+q > pre+suf {
			best, pre, suf = k, p, q
		}
	}
	return best, pre, suf
}

// commonPrefix compares a block at a time (bytes.Equal is vectorised),
// then byte by byte in the block that differs.
func commonPrefix(a, b []byte) int {
	const block = 256
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[i:i+block], b[i:i+block]) {
		i += block
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	const block = 256
	n := min(len(a), len(b))
	i := 0
	for i+block <= n && bytes.Equal(a[len(a)-i-block:len(a)-i], b[len(b)-i-block:len(b)-i]) {
		i += block
	}
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// CaptureCalls are capture id's calls in the order they were kept.
func (s *Store) CaptureCalls(ctx context.Context, id string) ([]CaptureCall, error) {
	var out []CaptureCall
	bodies := map[int64][]byte{} // by row: a body's base is one of the rows before it
	err := eachRow(ctx, s.db, `SELECT id, call, base, pre, suf, body, answer FROM capture_calls WHERE capture = ? ORDER BY id`, []any{id}, func(sc scanner) error {
		var c CaptureCall
		var row int64
		var base sql.NullInt64
		var pre, suf int
		var mid []byte
		if err := sc.Scan(&row, &c.Call, &base, &pre, &suf, &mid, &c.Answer); err != nil {
			return err
		}
		c.Body = mid
		if base.Valid {
			b, ok := bodies[base.Int64]
			if !ok || pre+suf > len(b) {
				return fmt.Errorf("call %d: its body's base %d is not there", row, base.Int64)
			}
			c.Body = append(append(append(make([]byte, 0, pre+len(mid)+suf), b[:pre]...), mid...), b[len(b)-suf:]...)
		}
		bodies[row] = c.Body
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read capture %s's calls: %w", id, err)
	}
	return out, nil
}

// CaptureRecords are capture id's calls' records (CaptureCall.Call), in
// order, without their bodies: what a view reads of a capture cheaply.
func (s *Store) CaptureRecords(ctx context.Context, id string) ([][]byte, error) {
	var out [][]byte
	err := eachRow(ctx, s.db, `SELECT call FROM capture_calls WHERE capture = ? ORDER BY id`, []any{id}, func(sc scanner) error {
		var call []byte
		if err := sc.Scan(&call); err != nil {
			return err
		}
		out = append(out, call)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read capture %s's records: %w", id, err)
	}
	return out, nil
}

// CaptureOfRun is the capture run was built from ("" when it was not).
func (s *Store) CaptureOfRun(ctx context.Context, run RunID) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT id FROM captures WHERE run_id = ?`, int64(run)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find the capture of run %d: %w", run, err)
	}
	return id, nil
}

// UnfoldedCaptures are the captures whose run holds fewer calls than they
// kept: a capture whose process died between a call and the run's
// rebuild (or one running now in another process).
func (s *Store) UnfoldedCaptures(ctx context.Context) ([]CaptureState, error) {
	var out []CaptureState
	err := eachRow(ctx, s.db, `SELECT c.id, c.started_ms, coalesce(c.run_id, 0), c.folded, count(k.id)
		FROM captures c JOIN capture_calls k ON k.capture = c.id
		GROUP BY c.id HAVING count(k.id) > c.folded ORDER BY c.started_ms`, nil, func(sc scanner) error {
		var st CaptureState
		var ms int64
		if err := sc.Scan(&st.ID, &ms, &st.Run, &st.Folded, &st.Calls); err != nil {
			return err
		}
		st.Started = time.UnixMilli(ms)
		out = append(out, st)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("find captures to rebuild: %w", err)
	}
	return out, nil
}

// foldCapture is SaveRun's part for a run built from a capture, inside its
// transaction: the run to stand in for, and whether there is nothing to do.
func foldCapture(ctx context.Context, tx *sql.Tx, f *CaptureFold, started time.Time) (replaces RunID, stale bool, err error) {
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO captures (id, started_ms) VALUES (?, ?)`, f.ID, started.UnixMilli()); err != nil {
		return 0, false, err
	}
	var run sql.NullInt64
	var folded int
	if err := tx.QueryRowContext(ctx, `SELECT run_id, folded FROM captures WHERE id = ?`, f.ID).Scan(&run, &folded); err != nil {
		return 0, false, err
	}
	if run.Valid && folded >= f.Calls {
		return RunID(run.Int64), true, nil
	}
	return RunID(run.Int64), false, nil
}

func linkCapture(ctx context.Context, tx *sql.Tx, f *CaptureFold, run RunID) error {
	_, err := tx.ExecContext(ctx, `UPDATE captures SET run_id = ?, folded = ? WHERE id = ?`, int64(run), f.Calls, f.ID)
	return err
}

// orEmptyBytes: a NOT NULL blob column takes an empty slice, never nil (NULL)
func orEmptyBytes(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
