// History's "render with another version" (issue 27): the focused run's scenario played again, its
// Claude Code hooks rendered as another known version, kept as a run and compared with this one — what
// an upgrade of the CLI changes for the author's hooks.
import { useEffect, useState } from 'react';
import { agentChoice, CLAUDE_CODE, renderAs, versionOf, type AgentChoice } from '../lib/api/agents';
import type { RunSummary } from '../lib/api/history';
import './agents.css';

interface Props {
  run: RunSummary;
  onRendered: (run: number) => void;
  onError: (e: unknown) => void;
}

export function RenderAs({ run, onRendered, onError }: Props) {
  const [choice, setChoice] = useState<AgentChoice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    agentChoice().then((c) => { if (live) setChoice(c); }, (e: unknown) => { if (live) onError(e); });
    return () => { live = false; };
  }, [onError]);
  const mine = versionOf(run.agent);
  const others = choice?.versions.filter((v) => v.version !== mine) ?? [];
  if (others.length === 0) return null;
  const render = (version: string) => {
    setBusy(version);
    renderAs(run.scenario_file, `${CLAUDE_CODE}@${version}`).then(onRendered, onError).finally(() => setBusy(null));
  };
  return (
    <label className="agent-pick small" title={`Play ${run.scenario} again with its Claude Code hooks rendered as another version, and compare it with run #${run.id} (${run.agent})`}>
      {busy ? `rendering as ${busy}…` : 'render with'}
      <select value="" disabled={busy !== null} onChange={(e) => { if (e.currentTarget.value) render(e.currentTarget.value); }} data-testid="render-as" aria-label="Render with another Claude Code version">
        <option value="">another version…</option>
        {others.map((v) => <option key={v.version} value={v.version}>{`Claude Code ${v.version}`}</option>)}
      </select>
    </label>
  );
}
