-- Version 2: metrics computed when a run is saved. Runs stored before it
-- read as zero.
ALTER TABLE runs ADD COLUMN tokens_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN tokens_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN max_prompt_tokens INTEGER NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN wall_ms INTEGER NOT NULL DEFAULT 0;

ALTER TABLE run_messages ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;

ALTER TABLE run_calls ADD COLUMN tokens_in INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_calls ADD COLUMN tokens_out INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_calls ADD COLUMN messages INTEGER NOT NULL DEFAULT 0;

-- Per hook per run; executions..duration_ms are the per-hook metrics of
-- seed 001, so script hooks can report into the same columns later.
ALTER TABLE run_hooks ADD COLUMN injected INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN calls_seen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN copies_seen INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN tokens_total INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN tokens_per_call TEXT NOT NULL DEFAULT '[]';
ALTER TABLE run_hooks ADD COLUMN executions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN successes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN skipped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_hooks ADD COLUMN duration_ms INTEGER NOT NULL DEFAULT 0;

CREATE INDEX run_hooks_hook ON run_hooks(hook_id, run_id);
