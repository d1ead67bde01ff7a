// Package search is the full-text index over every run and session: what
// reached the model (each message of the calls' lists, the answers), the
// hooks' words (their output, stderr, reasons, what they added), the tool
// calls and their results — of the runs kept in the history (simulations,
// captures, imported sessions) and of the agents' transcripts on disk not
// imported yet. SQLite FTS5 ranks the hits by bm25, gives each a snippet
// with the matched words marked, pages them, and filters them by agent,
// project, hook, event, outcome, source and date; each hit says the run or
// transcript, the model call and the message it is in, so it opens there
// (docs/search.md).
//
// The index is a cache in its own file (search.db beside history.db): it
// is rebuilt from the history and the transcripts (Sync), never the only
// copy of anything, and not counted in the history's size cap. A file that
// is damaged, or of another schema, is deleted and built again.
package search

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

	"github.com/mattn/go-sqlite3"

	"hookstudio/app/store/sqlbatch"
)

// FileName is the index's name inside the data folder.
const FileName = "search.db"

// DefaultPath is where the app and hookctl keep the index.
func DefaultPath(dataDir string) string { return filepath.Join(dataDir, FileName) }

// ErrNoFullText is what every use of an index says when this program's
// SQLite was built without FTS5: the Go build lacked the sqlite_fts5 tag
// (the Makefile, wails.json and the scripts pass it).
var ErrNoFullText = errors.New("this build has no full-text search: SQLite was compiled without FTS5 (build with -tags sqlite_fts5, as make does)")

// schemaVersion is PRAGMA user_version of an index this code writes; an
// index of another version is a cache of another program and is rebuilt.
const schemaVersion = 2

const schema = `
-- One run of the history (key run:<id>) or one transcript on disk not
-- imported (file:<path>). sig tells whether it changed since indexed.
CREATE TABLE docs (
    id         INTEGER PRIMARY KEY,
    key        TEXT    NOT NULL UNIQUE,
    source     TEXT    NOT NULL, -- the history's source (cli, app, live, capture, session) or disk
    run        INTEGER NOT NULL, -- 0: a transcript not imported
    file       TEXT    NOT NULL, -- the transcript ('' for a simulation or capture)
    agent      TEXT    NOT NULL, -- claude-code, codex, …; '' for seed-000 simulations
    version    TEXT    NOT NULL,
    project    TEXT    NOT NULL, -- the folder the agent ran in
    title      TEXT    NOT NULL, -- the first prompt, or the scenario
    started_ms INTEGER NOT NULL,
    sig        TEXT    NOT NULL,
    note       TEXT    NOT NULL, -- why nothing of it is indexed, when nothing is
    -- its items' ids are base << 20 + 0, 1, …: base is started_ms (moved on
    -- by a millisecond when another doc has it), so ids go with time and
    -- the newest matches are the index's last rows, read first
    base       INTEGER NOT NULL UNIQUE
);
CREATE INDEX docs_started ON docs(started_ms);

-- Each distinct thing said in a doc: its first place (call, message, step)
-- and how often it recurs (count). The words are fts's row of the same id.
CREATE TABLE items (
    id      INTEGER PRIMARY KEY,
    doc     INTEGER NOT NULL REFERENCES docs(id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL, -- message, answer, tool_call, hook
    role    TEXT    NOT NULL,
    origin  TEXT    NOT NULL,
    call    INTEGER NOT NULL, -- -1: no model call
    message INTEGER NOT NULL, -- -1: no message
    step    INTEGER NOT NULL,
    hook    TEXT    NOT NULL,
    event   TEXT    NOT NULL,
    outcome TEXT    NOT NULL,
    tool    TEXT    NOT NULL,
    count   INTEGER NOT NULL
);
CREATE INDEX items_doc ON items(doc);
-- filters without words (outcome:blocked) read the hooks' items only
CREATE INDEX items_hooks ON items(outcome, event) WHERE hook != '';

-- The words of each item (same id), compressed: the index below keeps no
-- copy of them, only where each word stands.
CREATE TABLE texts (
    id      INTEGER PRIMARY KEY,
    body    BLOB NOT NULL,
    context BLOB NOT NULL
);

-- body: the words; context: what they were about (a tool result's call, a
-- hook's command and input), weighed less. Contentless: the texts are
-- kept compressed above, a third of their size.
CREATE VIRTUAL TABLE fts USING fts5(body, context, content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2');
`

// Index is the search index. It is safe for concurrent use: searches read
// beside the one writer (WAL).
type Index struct {
	db      *sql.DB
	path    string
	writeMu sync.Mutex
	// Rebuilt says the file was damaged or of another schema and was
	// started again (a cache: nothing is lost but the time to index).
	Rebuilt string
	rankCap int // RankCap; smaller in tests
}

func dsn(path string) string {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", "5000")
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens the index at path, creating it, and rebuilding one that is
// damaged or of another schema. ErrNoFullText when SQLite has no FTS5.
func Open(ctx context.Context, path string) (*Index, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create search index folder: %w", err)
	}
	ix, err := open(ctx, path)
	if err == nil || errors.Is(err, ErrNoFullText) || !errors.Is(err, errStale) {
		return ix, err
	}
	// a cache: start it again
	why := err.Error()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if rerr := os.Remove(path + suffix); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			return nil, fmt.Errorf("%w; removing it failed: %w", err, rerr)
		}
	}
	ix, err = open(ctx, path)
	if err != nil {
		return nil, err
	}
	ix.Rebuilt = why
	return ix, nil
}

// errStale marks an index file to delete and build again.
var errStale = errors.New("stale search index")

func open(ctx context.Context, path string) (*Index, error) {
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("open search index %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	db.SetMaxIdleConns(4)
	db.SetConnMaxIdleTime(0)
	ix := &Index{db: db, path: path, rankCap: RankCap}
	if err := ix.init(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

func (ix *Index) init(ctx context.Context) error {
	var fts5 int
	if err := ix.db.QueryRowContext(ctx, `SELECT sqlite_compileoption_used('ENABLE_FTS5')`).Scan(&fts5); err != nil {
		return stale(fmt.Errorf("open search index %s: %w", ix.path, err))
	}
	if fts5 == 0 {
		return ErrNoFullText
	}
	var v int
	if err := ix.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return stale(fmt.Errorf("open search index %s: %w", ix.path, err))
	}
	if v == schemaVersion {
		// no integrity check: it reads the whole file, and a damaged
		// page shows as an error of the search that reads it
		return nil
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return stale(fmt.Errorf("open search index %s: %w", ix.path, err))
	}
	defer tx.Rollback()
	// another process may have made it meanwhile
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		return stale(err)
	}
	if v == schemaVersion {
		return nil
	}
	var tables int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
		return stale(err)
	}
	if tables > 0 {
		return fmt.Errorf("%w: %s is an index of schema %d, this program writes %d", errStale, ix.path, v, schemaVersion)
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("create search index %s: %w", ix.path, err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return err
	}
	return tx.Commit()
}

// stale marks errors that say the file is not a usable database.
func stale(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
		return fmt.Errorf("%w: %w", errStale, err)
	}
	return err
}

// Close closes the index.
func (ix *Index) Close() error { return ix.db.Close() }

// Path is the index's file.
func (ix *Index) Path() string { return ix.path }

// Size is the index's size on disk in bytes (its -wal included).
func (ix *Index) Size() int64 {
	var n int64
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(ix.path + suffix); err == nil {
			n += st.Size()
		}
	}
	return n
}

// write runs fn in a transaction, one writer at a time.
func (ix *Index) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	return sqlbatch.InTx(ctx, ix.db, fn)
}

// Optimize merges the index's segments into one, which makes searches of
// a large index faster; Sync calls it after indexing much.
func (ix *Index) Optimize(ctx context.Context) error {
	err := ix.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO fts(fts) VALUES ('optimize')`)
		return err
	})
	if err != nil {
		return fmt.Errorf("optimize the search index: %w", err)
	}
	// the write-ahead log grew by as much as was indexed: give it back
	if _, err := ix.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return fmt.Errorf("optimize the search index: %w", err)
	}
	return nil
}

func msOf(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}
