package history

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one schema step; version n is migrations[n-1].
type migration struct {
	version int
	name    string
	sql     string
}

// migrations are read once from the embedded files. They are immutable
// after init, so sharing them is not mutable package state.
var migrations = mustLoadMigrations(migrationFiles)

// mustLoadMigrations orders migrations/NNN_name.sql by NNN and insists on
// 1, 2, 3...: a gap or duplicate is a build mistake, caught by any test.
func mustLoadMigrations(fsys fs.FS) []migration {
	names, err := fs.Glob(fsys, "migrations/*.sql")
	if err != nil {
		panic(err)
	}
	var out []migration
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			panic(fmt.Sprintf("history: migration %s is not named NNN_name.sql", base))
		}
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			panic(err)
		}
		out = append(out, migration{version: v, name: base, sql: string(data)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i, m := range out {
		if m.version != i+1 {
			panic(fmt.Sprintf("history: migration %s should be version %d", m.name, i+1))
		}
	}
	return out
}

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT    NOT NULL,
    applied_at TEXT    NOT NULL
)`

// schemaVersion is the highest applied migration, 0 for a new database.
func schemaVersion(ctx context.Context, q interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).Scan(&n); err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// migrate applies the migrations after the current version up to target,
// each in its own transaction with its schema_migrations row, so a crash
// leaves the database at a version it records.
func migrate(ctx context.Context, db *sql.DB, target int) error {
	for {
		done, err := migrateOne(ctx, db, target)
		if err != nil || done {
			return err
		}
	}
}

func migrateOne(ctx context.Context, db *sql.DB, target int) (done bool, err error) {
	// A dedicated connection, because the transaction must start with a
	// write (BEGIN IMMEDIATE) so two processes opening the same new
	// database cannot both apply version 1.
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return false, err
	}
	rollback := func(err error) (bool, error) {
		conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return false, err
	}
	v, err := schemaVersion(ctx, conn)
	if err != nil {
		return rollback(err)
	}
	if v >= target {
		conn.ExecContext(ctx, "ROLLBACK")
		return true, nil
	}
	m := migrations[v]
	// The migration runs before schema_migrations exists on a new
	// database: version 1 switches auto_vacuum on, which only works while
	// the file has no tables.
	if _, err := conn.ExecContext(ctx, m.sql); err != nil {
		return rollback(fmt.Errorf("migration %s: %w", m.name, err))
	}
	if _, err := conn.ExecContext(ctx, createMigrationsTable); err != nil {
		return rollback(fmt.Errorf("migration %s: %w", m.name, err))
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
		m.version, m.name, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return rollback(fmt.Errorf("record migration %s: %w", m.name, err))
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		return rollback(fmt.Errorf("commit migration %s: %w", m.name, err))
	}
	return m.version >= target, nil
}
