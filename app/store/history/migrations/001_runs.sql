-- Version 1: runs, content-addressed blobs and the trace of every run.
-- The connection sets auto_vacuum = INCREMENTAL before this runs (SQLite
-- ignores the pragma inside a transaction, and once WAL is on), so deleted
-- runs give their pages back with PRAGMA incremental_vacuum instead of a
-- full VACUUM; TestMigrationsFromEmpty checks it took.

-- Every text a run stores (message contents, hook prompts, answers, tool
-- results) lives here once, keyed by its sha256.
CREATE TABLE blobs (
    id   INTEGER PRIMARY KEY,
    hash BLOB    NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    data TEXT    NOT NULL
);

CREATE TABLE runs (
    id            INTEGER PRIMARY KEY,
    scenario      TEXT    NOT NULL,
    scenario_file TEXT    NOT NULL,
    scenario_hash TEXT    NOT NULL, -- hex sha256 of the scenario file
    backend       TEXT    NOT NULL,
    source        TEXT    NOT NULL, -- cli, app, live
    status        TEXT    NOT NULL,
    error         TEXT    NOT NULL DEFAULT '',
    started_ms    INTEGER NOT NULL, -- unix milliseconds
    ended_ms      INTEGER NOT NULL,
    steps         INTEGER NOT NULL,
    llm_calls     INTEGER NOT NULL
);

-- The blobs each run uses: the only reference blobs are counted by, so
-- garbage collection looks at one small indexed table.
CREATE TABLE run_blobs (
    run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    blob_id INTEGER NOT NULL REFERENCES blobs(id),
    PRIMARY KEY (run_id, blob_id)
) WITHOUT ROWID;
CREATE INDEX run_blobs_blob ON run_blobs(blob_id);

-- The hooks a run used, in trace order (engine.Record.Hooks).
CREATE TABLE run_hooks (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    hook_id     TEXT    NOT NULL, -- skill/name
    skill       TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    file        TEXT    NOT NULL,
    timing      TEXT    NOT NULL,
    role        TEXT    NOT NULL,
    persistent  INTEGER NOT NULL,
    tool_filter TEXT, -- JSON array; NULL means every tool
    content_id  INTEGER NOT NULL,
    line        INTEGER NOT NULL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- The trace's message table (engine.MessageRecord), content by blob.
CREATE TABLE run_messages (
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    id         INTEGER NOT NULL,
    content_id INTEGER NOT NULL,
    role       TEXT    NOT NULL,
    origin     TEXT    NOT NULL,
    history_of TEXT    NOT NULL,
    ref        INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    request    INTEGER NOT NULL,
    created    INTEGER NOT NULL,
    removed    INTEGER NOT NULL,
    PRIMARY KEY (run_id, id)
) WITHOUT ROWID;

-- Every LLM call (engine.LLMCall), answer by blob.
CREATE TABLE run_calls (
    run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    request    INTEGER NOT NULL,
    phase      TEXT    NOT NULL,
    round      INTEGER, -- NULL outside the agent loop
    step       INTEGER NOT NULL,
    content_id INTEGER NOT NULL,
    need_tool  INTEGER, -- NULL unless a planning call
    error      TEXT    NOT NULL,
    tool_calls TEXT    NOT NULL, -- JSON, results by blob id
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- The rest of the trace, compact: steps and removed ids as varint-encoded
-- blobs, requests and tool calls as JSON.
CREATE TABLE run_traces (
    run_id      INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    requests    TEXT NOT NULL,
    tool_calls  TEXT NOT NULL,
    steps       BLOB NOT NULL,
    removed_ids BLOB NOT NULL
);
