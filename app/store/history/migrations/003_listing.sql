-- Version 3: what filtered listing and retention need to stay fast at
-- tens of thousands of runs.
CREATE TABLE run_skills (
    skill  TEXT    NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    PRIMARY KEY (skill, run_id)
) WITHOUT ROWID;
CREATE INDEX run_skills_run ON run_skills(run_id);
INSERT INTO run_skills (skill, run_id) SELECT DISTINCT skill, run_id FROM run_hooks;

CREATE INDEX runs_started ON runs(started_ms DESC, id DESC);
CREATE INDEX runs_scenario ON runs(scenario, started_ms DESC, id DESC);
CREATE INDEX runs_source ON runs(source, scenario, started_ms DESC, id DESC);
