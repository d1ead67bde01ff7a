package history

import (
	"context"
	"database/sql"
	"fmt"
)

// Retention keeps the database small. Live re-simulations (one per save
// in the editor) pile up fast, so only the last KeepLive per scenario are
// kept; runs started on purpose (hookctl, the run button) are kept until
// the database outgrows MaxBytes, and then the oldest go, live runs first.
type Retention struct {
	KeepLive int   `json:"keep_live"` // 0 keeps every live run
	MaxBytes int64 `json:"max_bytes"` // 0 means no size cap
}

// Defaults for a new store.
const (
	DefaultKeepLive       = 50
	DefaultMaxBytes int64 = 512 << 20
)

// SetRetention replaces the policy; it applies from the next save.
func (s *Store) SetRetention(r Retention) {
	s.writeMu.Lock()
	s.retention = r
	s.writeMu.Unlock()
}

// applyRetention runs inside the save's transaction (writeMu held), so a
// save and the deletions it causes commit together. keep is the run just
// saved, never deleted.
func (s *Store) applyRetention(ctx context.Context, tx *sql.Tx, keep RunID, scenario string, src Source) (int, error) {
	r := s.retention
	deleted := 0
	if src == SourceLive && r.KeepLive > 0 {
		ids, err := queryIDs(ctx, tx, `SELECT id FROM runs WHERE source = 'live' AND scenario = ?
			ORDER BY started_ms DESC, id DESC LIMIT -1 OFFSET ?`, scenario, r.KeepLive)
		if err != nil {
			return 0, fmt.Errorf("retention: %w", err)
		}
		ids = without(ids, keep)
		if err := deleteRuns(ctx, tx, ids); err != nil {
			return 0, fmt.Errorf("retention: %w", err)
		}
		deleted += len(ids)
	}
	if r.MaxBytes <= 0 {
		return deleted, nil
	}
	for {
		used, err := usedBytes(ctx, tx)
		if err != nil {
			return deleted, fmt.Errorf("retention: %w", err)
		}
		if used <= r.MaxBytes {
			return deleted, nil
		}
		// Oldest live run first, then the oldest of any kind.
		ids, err := queryIDs(ctx, tx, `SELECT id FROM runs WHERE id != ?
			ORDER BY source = 'live' DESC, started_ms, id LIMIT 1`, int64(keep))
		if err != nil {
			return deleted, fmt.Errorf("retention: %w", err)
		}
		if len(ids) == 0 {
			return deleted, nil // only the new run is left; keep it however big
		}
		if err := deleteRuns(ctx, tx, ids); err != nil {
			return deleted, fmt.Errorf("retention: %w", err)
		}
		deleted++
	}
}

func without(ids []RunID, id RunID) []RunID {
	out := ids[:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func queryIDs(ctx context.Context, q querier, query string, args ...any) ([]RunID, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []RunID
	for rows.Next() {
		var id RunID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// usedBytes is the database's size without its free pages: what the file
// shrinks to after an incremental vacuum.
func usedBytes(ctx context.Context, q querier) (int64, error) {
	var pages, free, size int64
	if err := q.QueryRowContext(ctx, `SELECT * FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()`).Scan(&pages, &free, &size); err != nil {
		return 0, err
	}
	return (pages - free) * size, nil
}

// deleteRuns deletes runs (their rows go by cascade), the journals of the
// captures they were built from, and then the blobs only they used.
func deleteRuns(ctx context.Context, tx *sql.Tx, ids []RunID) error {
	for _, id := range ids {
		if _, err := tx.ExecContext(ctx, `DELETE FROM captures WHERE run_id = ?`, int64(id)); err != nil {
			return fmt.Errorf("delete run %d's capture: %w", id, err)
		}
		blobs, err := queryIDs(ctx, tx, `SELECT blob_id FROM run_blobs WHERE run_id = ?`, int64(id))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, int64(id)); err != nil {
			return fmt.Errorf("delete run %d: %w", id, err)
		}
		for _, b := range blobs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM blobs WHERE id = ?1
				AND NOT EXISTS (SELECT 1 FROM run_blobs WHERE blob_id = ?1)`, int64(b)); err != nil {
				return fmt.Errorf("collect blob %d: %w", b, err)
			}
		}
	}
	return nil
}

// DeleteRun deletes one run and the blobs no other run uses.
func (s *Store) DeleteRun(ctx context.Context, id RunID) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM runs WHERE id = ?`, int64(id)).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("%w: %d", ErrNotFound, id)
		}
		return deleteRuns(ctx, tx, []RunID{id})
	})
	if err != nil {
		return fmt.Errorf("delete run: %w", err)
	}
	return s.vacuum(ctx)
}

// vacuum hands free pages back to the file system; with auto_vacuum =
// INCREMENTAL this is cheap, unlike VACUUM which rewrites the database.
func (s *Store) vacuum(ctx context.Context) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	// Stepped to the end through Query: the pragma frees one page per
	// step, and an Exec may stop after the first.
	rows, err := s.db.QueryContext(ctx, `PRAGMA incremental_vacuum`)
	if err != nil {
		return fmt.Errorf("incremental vacuum: %w", err)
	}
	for rows.Next() {
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("incremental vacuum: %w", err)
	}
	return nil
}

// Size is the database's used size in bytes (free pages excluded).
func (s *Store) Size(ctx context.Context) (int64, error) {
	return usedBytes(ctx, s.db)
}
