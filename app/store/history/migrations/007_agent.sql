-- Version 7: the agent CLI version whose renderings of hook output a run
-- showed (a rendering profile, "claude-code@2.1.332") and why that one
-- (scenario, flag, installed, newest); '' for a run with no real agent's
-- hooks, and for every run stored before.
ALTER TABLE runs ADD COLUMN agent TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN agent_by TEXT NOT NULL DEFAULT '';
