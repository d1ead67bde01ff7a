-- Version 8: agent sessions imported from their transcripts (issue 29).
-- A run of source 'session' has one row: which agent and version wrote the
-- transcript, where it is, and the importer's account of it (each call
-- exact or rebuilt, its parameters, what is missing and where, the record
-- types not shown) as one JSON document.
CREATE TABLE run_sessions (
    run_id     INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    agent      TEXT    NOT NULL,
    version    TEXT    NOT NULL,
    file       TEXT    NOT NULL,
    session_id TEXT    NOT NULL,
    data       TEXT    NOT NULL
);
-- a session imported again replaces its run: found by its file
CREATE INDEX run_sessions_file ON run_sessions(file);
