-- Version 5: executable hooks (issue 9) and request hooks (seed 004).
-- Runs stored before it have no rows here: they had no executable hooks.

-- The trace's executable-hook data, as one JSON document per run (only
-- for runs that have some): hook invocations, call-only hidden spans,
-- restore steps, in-place replacements, and the message and call fields
-- a hook wrote (edit, pos, model, added tools, original answer).
CREATE TABLE run_exec (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    data   TEXT    NOT NULL
);

-- Seed 001's per-hook metrics for executable hooks, from the run's hook
-- calls by (system, hook): runs, successes, failures, skips, total time.
CREATE TABLE run_exec_hooks (
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    system      TEXT    NOT NULL, -- command | process | request
    hook        TEXT    NOT NULL,
    executions  INTEGER NOT NULL, -- invocations that ran (successes + failures)
    successes   INTEGER NOT NULL,
    failures    INTEGER NOT NULL, -- error or timeout
    skipped     INTEGER NOT NULL,
    duration_ms REAL    NOT NULL,
    PRIMARY KEY (run_id, system, hook)
) WITHOUT ROWID;
CREATE INDEX run_exec_hooks_hook ON run_exec_hooks(system, hook, run_id);

-- Seed 004's usage statistics per model per run, from the RequestContext
-- each request_end hook received (one per request).
CREATE TABLE run_request_usage (
    run_id            INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    model             TEXT    NOT NULL,
    requests          INTEGER NOT NULL,
    successes         INTEGER NOT NULL,
    failures          INTEGER NOT NULL,
    attempts          INTEGER NOT NULL,
    prompt_tokens     INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    thinking_tokens   INTEGER NOT NULL,
    cached_tokens     INTEGER NOT NULL,
    PRIMARY KEY (run_id, model)
) WITHOUT ROWID;
