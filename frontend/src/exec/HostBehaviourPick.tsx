// Where a hosted program's code and its document disagree (PicoClaw, jcli), which one the
// simulation follows: the folder's setting (.hookstudio/settings.yaml), "code" by default.
// Each hook call whose outcome would differ notes what the other choice would do.
import { useEffect, useState } from 'react';
import * as api from '../lib/api';
import type { HostBehaviour, StudioState } from '../lib/api/types';

interface Props {
  /** the folder: the setting is read again when another folder opens */
  root: string;
  onState: (s: StudioState) => void;
  onError: (e: unknown) => void;
}

/** The hook systems whose host programs have a document and code that disagree (jcli's
 *  command hooks, PicoClaw's process hooks): the pick means nothing to a folder without them. */
const hostedPrograms = new Set(['command', 'process']);

/** Whether the pick applies to a folder with these executable hooks. */
export function hostsPrograms(hooks: readonly { system: string }[]): boolean {
  return hooks.some((h) => hostedPrograms.has(h.system));
}

export function HostBehaviourPick({ root, onState, onError }: Props) {
  const [mode, setMode] = useState<HostBehaviour | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let live = true;
    api.hostBehaviour().then((m) => { if (live) setMode(m); }, (e: unknown) => { if (live) onError(e); });
    return () => { live = false; };
  }, [root, onError]);
  if (mode === null) return null;
  const change = (m: HostBehaviour) => {
    const was = mode;
    setMode(m);
    setBusy(true);
    api.setHostBehaviour(m).then(onState, (e: unknown) => { setMode(was); onError(e); }).finally(() => setBusy(false));
  };
  return (
    <label className="host-pick small" title="Where PicoClaw's or jcli's code and their documents (seeds 001, 003) disagree, which one the simulation follows. Hook calls that would end otherwise say so. Kept in .hookstudio/settings.yaml.">
      hosts as
      <select value={mode} disabled={busy} onChange={(e) => change(e.currentTarget.value as HostBehaviour)} data-testid="host-behaviour" aria-label="Hosts behave as">
        <option value="code">their code</option>
        <option value="document">their documents</option>
      </select>
    </label>
  );
}
