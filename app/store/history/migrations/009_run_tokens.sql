-- Version 9: token counts kept with the texts they count (issue 35), so a
-- text is counted once however many runs hold it and however often a run
-- is opened or kept again; and runs kept before their texts are counted
-- (a session is usable at once, its counts arrive in the background).

-- A text's o200k_base tokens, by its blob (content-addressed by hash). A
-- table of its own rather than a column of blobs: writing a count must not
-- rewrite the text's pages. It goes with its blob.
CREATE TABLE blob_tokens (
    blob_id INTEGER PRIMARY KEY REFERENCES blobs(id) ON DELETE CASCADE,
    o200k   INTEGER NOT NULL
);

-- The run's distinct texts not counted yet: while it is not 0 the run's
-- token figures count only what is counted (runs stored before: 0).
ALTER TABLE runs ADD COLUMN tokens_pending INTEGER NOT NULL DEFAULT 0;
