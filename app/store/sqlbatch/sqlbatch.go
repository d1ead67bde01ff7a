// Package sqlbatch inserts many rows with multi-row INSERT statements: one
// statement per row costs a cgo round trip each, which dominates saving a
// large run or indexing a large session.
package sqlbatch

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// Insert inserts n rows into table's cols, per rows a statement; row
// appends row i's values to args and returns them.
func Insert(ctx context.Context, tx *sql.Tx, table string, cols []string, n, per int, row func(i int, args []any) []any) error {
	return insert(ctx, tx, "INSERT INTO", table, cols, n, per, row)
}

// Replace is Insert where a row whose key is there already stands in for
// it (INSERT OR REPLACE).
func Replace(ctx context.Context, tx *sql.Tx, table string, cols []string, n, per int, row func(i int, args []any) []any) error {
	return insert(ctx, tx, "INSERT OR REPLACE INTO", table, cols, n, per, row)
}

func insert(ctx context.Context, tx *sql.Tx, verb, table string, cols []string, n, per int, row func(i int, args []any) []any) error {
	if n == 0 {
		return nil
	}
	stmtFor := func(rows int) string {
		one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
		return verb + " " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
			strings.TrimSuffix(strings.Repeat(one+",", rows), ",")
	}
	full := min(n, max(per, 1))
	stmt, err := tx.PrepareContext(ctx, stmtFor(full))
	if err != nil {
		return fmt.Errorf("prepare %s insert: %w", table, err)
	}
	defer stmt.Close()
	args := make([]any, 0, full*len(cols))
	for start := 0; start < n; start += full {
		end := min(start+full, n)
		args = args[:0]
		for i := start; i < end; i++ {
			args = row(i, args)
		}
		s := stmt
		if end-start != full {
			if s, err = tx.PrepareContext(ctx, stmtFor(end-start)); err != nil {
				return fmt.Errorf("prepare %s insert: %w", table, err)
			}
			defer s.Close()
		}
		if _, err := s.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("insert %s: %w", table, err)
		}
	}
	return nil
}

// InTx runs fn in a transaction of db: committed when fn returns nil,
// rolled back when it fails.
func InTx(ctx context.Context, db *sql.DB, fn func(tx *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
