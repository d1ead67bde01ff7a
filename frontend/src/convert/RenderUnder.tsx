// History's "run under another agent" (issue 30): the focused run's scenario played again with its
// project's hooks converted for another agent — Codex, Gemini CLI, … — kept as a run and compared with
// this one, so an author sees where each agent puts the hook's words. Agents whose hook system this
// build lacks are listed, disabled.
import { useEffect, useState } from 'react';
import { convertChoices, renderUnder, type ConvertTarget } from '../lib/api/convert';
import type { RunSummary } from '../lib/api/history';
import './convert.css';

interface Props {
  run: RunSummary;
  onRendered: (run: number) => void;
  onError: (e: unknown) => void;
}

export function RenderUnder({ run, onRendered, onError }: Props) {
  const [targets, setTargets] = useState<ConvertTarget[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    convertChoices().then((c) => { if (live) setTargets(c?.targets ?? null); }, (e: unknown) => { if (live) onError(e); });
    return () => { live = false; };
  }, [onError]);
  const mine = (run.agent ?? '').split('@')[0];
  const others = targets?.filter((t) => t.agent !== mine) ?? [];
  if (others.length === 0) return null;
  const go = (t: ConvertTarget) => {
    setBusy(t.title);
    renderUnder(run.scenario_file, t.agent).then(onRendered, onError).finally(() => setBusy(null));
  };
  return (
    <label className="agent-pick small" title={`Play ${run.scenario} again with its hooks converted for another agent, and compare it with run #${run.id}: where each agent puts the hooks' words`}>
      {busy ? `running under ${busy}…` : 'run under'}
      <select value="" disabled={busy !== null} aria-label="Run under another agent" data-testid="render-under"
        onChange={(e) => { const t = others.find((o) => o.agent === e.currentTarget.value); if (t) go(t); }}>
        <option value="">another agent…</option>
        {others.map((t) => <option key={t.agent} value={t.agent} disabled={!t.hosted}>{t.hosted ? t.title : `${t.title} (no hook system in this build)`}</option>)}
      </select>
    </label>
  );
}
