// Opening a folder never runs anything: before a folder's executable hooks run, the user reads
// exactly which commands would run and trusts the folder (design-hooks.md, "Running other
// people's programs"). A changed configuration asks again.
import { useState } from 'react';
import type { ExecState } from '../lib/api';

interface Props {
  exec: ExecState | undefined;
  onTrust: () => Promise<unknown>;
}

export function TrustBanner({ exec, onTrust }: Props) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const [open, setOpen] = useState(true);
  if (!exec?.present || exec.trusted) return null;
  const trust = () => {
    setBusy(true);
    setErr(null);
    onTrust().catch((e) => setErr(String(e))).finally(() => setBusy(false));
  };
  return (
    <div className="banner banner-trust" role="region" aria-label="Trust this folder" data-testid="trust-banner">
      <div className="trust-head">
        <b>{exec.changed ? 'The hook configuration changed since you trusted this folder.' : 'This folder has executable hooks.'}</b>{' '}
        They did not run: the simulation shows prompt hooks only. Trusting the folder runs {exec.commands.length === 1 ? 'this command' : `these ${exec.commands.length} commands`} on your machine at each simulation.
        <span className="spacer" />
        <button type="button" className="linkbtn" onClick={() => setOpen((o) => !o)} aria-expanded={open}>{open ? 'hide commands' : 'show commands'}</button>
        <button type="button" className="btn sm primary" onClick={trust} disabled={busy} data-testid="trust-folder">{busy ? 'Trusting…' : 'Trust folder and run hooks'}</button>
      </div>
      {open && (
        <ul className="trust-commands" aria-label="Commands that would run">
          {exec.commands.map((c, i) => (
            <li key={i}>
              <code className="trust-cmd">{c.command}</code>
              <span className="muted small"> · {c.event} · {c.hook}{c.skill ? ` (${c.skill})` : ''} · in {c.dir || '.'} · {c.source}</span>
            </li>
          ))}
          {exec.commands.length === 0 && <li className="muted">No command lines: only the files {exec.files.join(', ')}.</li>}
        </ul>
      )}
      {exec.error && <div className="count-err small">{exec.error}</div>}
      {err && <div className="count-err small" role="alert">{err}</div>}
    </div>
  );
}
