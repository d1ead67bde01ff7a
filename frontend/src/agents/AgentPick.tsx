// Beside "hosts as": which Claude Code version the simulation renders its hooks as (issue 27) —
// automatic (the installed CLI's version when a profile exists for it, else the newest bundled) or a
// known version. The run's own choice (a scenario's agent:) wins and is what the title says.
import { useEffect, useState } from 'react';
import { agentChoice, setAgentVersion, type AgentChoice } from '../lib/api/agents';
import type { StudioState, TraceView } from '../lib/api/types';
import './agents.css';

interface Props {
  /** the run shown: its agent is what it rendered as */
  view: TraceView | null;
  onState: (s: StudioState) => void;
  onError: (e: unknown) => void;
}

const BY: Record<string, string> = { scenario: "the scenario's agent:", flag: 'chosen here', installed: 'the installed CLI', newest: 'the newest bundled profile' };

export function AgentPick({ view, onState, onError }: Props) {
  const [choice, setChoice] = useState<AgentChoice | null>(null);
  const [busy, setBusy] = useState(false);
  const ranVersion = view?.agent?.version;
  useEffect(() => { // again when a run renders otherwise: a calibration may have added a version
    let live = true;
    agentChoice().then((c) => { if (live) setChoice(c); }, (e: unknown) => { if (live) onError(e); });
    return () => { live = false; };
  }, [onError, ranVersion]);
  if (!choice || choice.versions.length === 0) return null;
  const change = (version: string) => {
    const was = choice;
    setChoice({ ...choice, chosen: version });
    setBusy(true);
    setAgentVersion(version).then(onState, (e: unknown) => { setChoice(was); onError(e); }).finally(() => setBusy(false));
  };
  const ran = view?.agent;
  const installed = choice.installed.path ? `installed: ${choice.installed.version}` : 'no CLI installed';
  const title = `Claude Code's hooks render as this version does (a rendering profile; Settings ▸ Agents calibrates one).${ran ? ` This run: ${ran.agent}@${ran.version} (${BY[ran.by ?? ''] ?? ran.by}).` : ''} ${installed}.`;
  return (
    <label className="agent-pick small" title={title}>
      renders as
      <select value={choice.chosen} disabled={busy} onChange={(e) => change(e.currentTarget.value)} data-testid="agent-version" aria-label="Claude Code version the hooks render as">
        <option value="">{`automatic${ran && !choice.chosen ? ` (${ran.version})` : ''}`}</option>
        {choice.versions.map((v) => <option key={v.version} value={v.version}>{`Claude Code ${v.version}${v.origin === 'calibrated' ? ' (calibrated)' : ''}`}</option>)}
      </select>
    </label>
  );
}
