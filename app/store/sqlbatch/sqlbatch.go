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
	if n == 0 {
		return nil
	}
	stmtFor := func(rows int) string {
		one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
		return "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " +
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
