-- Version 6: a capture's calls as they are answered (app/capture). Each
-- call is one small transaction, committed before its answer ends, so a
-- capture killed outright keeps every call answered; the capture's run
-- (runs and the rest) is rebuilt from them off the agent's requests, and
-- once more by the next process that opens the history after a crash.
CREATE TABLE captures (
    id         TEXT    PRIMARY KEY, -- chosen by the capture when it starts
    started_ms INTEGER NOT NULL,
    run_id     INTEGER,             -- the run built from its calls (NULL: none yet)
    folded     INTEGER NOT NULL DEFAULT 0 -- how many of its calls that run holds
);
CREATE INDEX captures_run ON captures(run_id);

-- One row per call, in the order answered (id). call is the call's record
-- as JSON without the request body; answer is the bytes a forwarding
-- capture relayed (NULL for a scripted answer). An agent sends its whole
-- conversation each time, so the body is kept as what differs from an
-- earlier call's (base): its first pre and last suf bytes are base's,
-- body holds the middle. A commit then writes a page or two, not the
-- 50-150 KB a request of Claude Code or Codex weighs.
CREATE TABLE capture_calls (
    id      INTEGER PRIMARY KEY,
    capture TEXT    NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
    call    TEXT    NOT NULL,
    base    INTEGER, -- NULL: body is the whole body
    pre     INTEGER NOT NULL DEFAULT 0,
    suf     INTEGER NOT NULL DEFAULT 0,
    body    BLOB    NOT NULL,
    answer  BLOB
);
CREATE INDEX capture_calls_capture ON capture_calls(capture, id);
