// Package history keeps every simulation run in a SQLite database: the
// trace, the hooks it used (content-addressed), and metrics computed when
// the run is saved, so runs can be listed, reopened and compared later.
package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver

	"hookstudio/app/store/sqlbatch"
)

// FileName is the database's name inside the data folder.
const FileName = "history.db"

// DefaultPath is where the app and hookctl keep the history.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, FileName) }

// Store is the history database. It is safe for concurrent use; open one
// per process and keep it for the app's life.
type Store struct {
	db   *sql.DB
	path string

	// Recovered is set when Open found a damaged database and moved it
	// aside; the store is then a fresh, empty one.
	Recovered *Recovery

	// writeMu serialises writers inside the process: SQLite allows one
	// writer at a time anyway, and queueing here is cheaper than SQLite's
	// busy-wait sleeps.
	writeMu   sync.Mutex
	retention Retention
	// The captures' journal (KeepCaptureCalls, under writeMu): its own
	// connection and statement, and the last bodies kept of each capture.
	jconn   *sql.Conn
	jins    *sql.Stmt
	journal map[string][]keptBody
	now     func() time.Time
}

// Recovery says what Open did with a damaged database.
type Recovery struct {
	Path    string `json:"path"`     // the database that was damaged
	MovedTo string `json:"moved_to"` // where it went (its -wal/-shm beside it)
	Reason  string `json:"reason"`
}

// Message is the notice to show the user.
func (r *Recovery) Message() string {
	return fmt.Sprintf("the history database %s could not be used (%s); it was moved to %s and a new, empty history was started",
		r.Path, r.Reason, r.MovedTo)
}

// Option configures Open.
type Option func(*Store)

// WithRetention sets the retention applied after each save.
func WithRetention(r Retention) Option { return func(s *Store) { s.retention = r } }

// withClock replaces time.Now, for tests.
func withClock(now func() time.Time) Option { return func(s *Store) { s.now = now } }

// errDamaged marks a database that is moved aside rather than reported.
var errDamaged = errors.New("damaged database")

// Open opens (creating if needed) the database at path and brings its
// schema up to date. A database that is not one, fails its integrity
// check, or has a schema newer than this code is moved aside and replaced:
// Store.Recovered then says so. Other errors (a locked or unreachable
// file) are returned, since moving a healthy database aside would lose it.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create history folder: %w", err)
	}
	s := &Store{path: path, now: time.Now, retention: Retention{KeepLive: DefaultKeepLive, MaxBytes: DefaultMaxBytes}}
	for _, o := range opts {
		o(s)
	}
	db, err := openDB(ctx, path)
	if err == nil {
		s.db = db
		return s, nil
	}
	if !errors.Is(err, errDamaged) {
		return nil, err
	}
	moved, merr := moveAside(path, s.now())
	if merr != nil {
		return nil, fmt.Errorf("%w; moving it aside failed: %w", err, merr)
	}
	s.Recovered = &Recovery{Path: path, MovedTo: moved, Reason: err.Error()}
	db, err = openDB(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("start a new history after moving the old one to %s: %w", moved, err)
	}
	s.db = db
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error {
	s.writeMu.Lock()
	if s.jconn != nil {
		s.jins.Close()
		s.jconn.Close()
		s.jconn = nil
	}
	s.writeMu.Unlock()
	return s.db.Close()
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// maxConns: WAL lets readers run beside the one writer, so a few
// connections let the UI list runs while a run is saved; more buys nothing
// for a desktop app and each holds its own page cache.
const maxConns = 4

func dsn(path string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	// auto_vacuum must be chosen before the file has a table and outside
	// a transaction, and switching to WAL already writes the header, so
	// the driver sets it first thing on each connection: on a new file it
	// takes, on an existing one SQLite ignores it.
	q.Set("_auto_vacuum", "incremental")
	// Write transactions take the write lock when they begin: a deferred
	// one that reads first cannot upgrade once another connection has
	// committed (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out).
	// Reads that need a snapshot begin their own deferred transaction.
	q.Set("_txlock", "immediate")
	// NORMAL is durable across application crashes in WAL mode (a power
	// loss can lose the last commits, never corrupt the file).
	q.Set("_synchronous", "NORMAL")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// openDB opens, checks and migrates; a damage that moving aside fixes is
// wrapped in errDamaged.
func openDB(ctx context.Context, path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(0)
	if err := check(ctx, db, path); err != nil {
		db.Close()
		return nil, err
	}
	if err := migrate(ctx, db, len(migrations)); err != nil {
		db.Close()
		return nil, classify(fmt.Errorf("migrate history %s: %w", path, err), path)
	}
	return db, nil
}

// check runs the integrity check and refuses schemas from the future.
func check(ctx context.Context, db *sql.DB, path string) error {
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return classify(fmt.Errorf("check history %s: %w", path, err), path)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return classify(fmt.Errorf("check history %s: %w", path, err), path)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		rows.Close()
		return classify(fmt.Errorf("check history %s: %w", path, err), path)
	}
	rows.Close()
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], "...")
		}
		return fmt.Errorf("%w: integrity check failed: %v", errDamaged, problems)
	}
	v, err := schemaVersion(ctx, db)
	if err != nil {
		return classify(fmt.Errorf("read schema version of %s: %w", path, err), path)
	}
	if v > len(migrations) {
		return fmt.Errorf("%w: schema version %d is newer than this program knows (%d)", errDamaged, v, len(migrations))
	}
	return nil
}

// moveAside renames path and its -wal/-shm files to path.corrupt-<time>.
func moveAside(path string, now time.Time) (string, error) {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	target := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(target); errors.Is(err, os.ErrNotExist) {
			break
		}
		target = fmt.Sprintf("%s-%d", base, i)
	}
	if err := os.Rename(path, target); err != nil {
		return "", fmt.Errorf("move damaged history: %w", err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suffix, target+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return target, fmt.Errorf("move damaged history's %s file: %w", suffix, err)
		}
	}
	return target, nil
}

// write runs fn in a transaction, one writer at a time.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return sqlbatch.InTx(ctx, s.db, fn)
}
