-- Version 5: the event stream of each run (seed 002, app/events), without
-- the ephemeral kinds (LLM_PARTIAL, heartbeats), which are never stored.
CREATE TABLE run_events (
    run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL, -- the per-run sequence number (gaps: ephemeral events)
    type     TEXT    NOT NULL,
    agent_id TEXT    NOT NULL,
    message  TEXT    NOT NULL,
    ts_ms    INTEGER NOT NULL, -- unix milliseconds
    step     INTEGER NOT NULL, -- trace step, -1 none
    payload  TEXT    NOT NULL, -- JSON object
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE INDEX run_events_type ON run_events(type, run_id);
