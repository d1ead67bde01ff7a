package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"hookstudio/app/store/sqlbatch"
)

// itemBits are the low bits of an item's id, its place in its doc: a doc
// indexes at most maxItems items (a session of gigabytes).
const (
	itemBits = 20
	maxItems = 1 << itemBits
)

// Put indexes d, standing in for what was indexed under its key, in one
// transaction.
func (ix *Index) Put(ctx context.Context, d Doc) error {
	items := Items(d.Record)
	if len(items) > maxItems {
		items = items[:maxItems]
		d.Note = strings.TrimSpace(d.Note + fmt.Sprintf(" only its first %d items are indexed", maxItems))
	}
	err := ix.write(ctx, func(tx *sql.Tx) error {
		if err := remove(ctx, tx, d.Key); err != nil {
			return err
		}
		base := max(msOf(d.Started), 0)
		for {
			var taken int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM docs WHERE base = ?`, base).Scan(&taken); err != nil {
				return err
			}
			if taken == 0 {
				break
			}
			base++
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO docs (key, source, run, file, agent, version, project, title, started_ms, sig, note, base)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.Key, d.Source, d.Run, d.File, d.Agent, d.Version, d.Project, d.Title, msOf(d.Started), d.Sig, d.Note, base)
		if err != nil {
			return fmt.Errorf("insert doc: %w", err)
		}
		doc, err := res.LastInsertId()
		if err != nil {
			return err
		}
		next := base << itemBits
		cols := []string{"id", "doc", "kind", "role", "origin", "call", "message", "step", "hook", "event", "outcome", "tool", "count"}
		err = sqlbatch.Insert(ctx, tx, "items", cols, len(items), 64, func(i int, a []any) []any {
			it := &items[i]
			return append(a, next+int64(i), doc, it.Kind, it.Role, it.Origin, it.Call, it.Message, it.Step, it.Hook, it.Event, it.Outcome, it.Tool, it.Count)
		})
		if err != nil {
			return err
		}
		var pk packer
		var perr error
		err = sqlbatch.Insert(ctx, tx, "texts", []string{"id", "body", "context"}, len(items), 16, func(i int, a []any) []any {
			body, err := pk.pack(items[i].Body)
			if err != nil {
				perr = err
			}
			ctxt, err := pk.pack(items[i].Context)
			if err != nil {
				perr = err
			}
			return append(a, next+int64(i), body, ctxt)
		})
		if err = errors.Join(perr, err); err != nil {
			return err
		}
		// the words go in small batches: one statement per item costs a
		// cgo round trip each, one of thousands of long texts a huge bind
		return sqlbatch.Insert(ctx, tx, "fts", []string{"rowid", "body", "context"}, len(items), 16, func(i int, a []any) []any {
			return append(a, next+int64(i), items[i].Body, items[i].Context)
		})
	})
	if err != nil {
		return fmt.Errorf("index %s: %w", d.Key, err)
	}
	return nil
}

// Remove drops what is indexed under key (nothing: no error).
func (ix *Index) Remove(ctx context.Context, key string) error {
	return ix.write(ctx, func(tx *sql.Tx) error { return remove(ctx, tx, key) })
}

func remove(ctx context.Context, tx *sql.Tx, key string) error {
	var doc int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM docs WHERE key = ?`, key).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM fts WHERE rowid IN (SELECT id FROM items WHERE doc = ?)`, doc); err != nil {
		return fmt.Errorf("remove %s: %w", key, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM texts WHERE id IN (SELECT id FROM items WHERE doc = ?)`, doc); err != nil {
		return fmt.Errorf("remove %s: %w", key, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM items WHERE doc = ?`, doc); err != nil {
		return fmt.Errorf("remove %s: %w", key, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM docs WHERE id = ?`, doc); err != nil {
		return fmt.Errorf("remove %s: %w", key, err)
	}
	return nil
}

// Indexed is every doc's key and signature.
func (ix *Index) Indexed(ctx context.Context) (map[string]string, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT key, sig FROM docs`)
	if err != nil {
		return nil, fmt.Errorf("read the search index: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, s string
		if err := rows.Scan(&k, &s); err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, rows.Err()
}
