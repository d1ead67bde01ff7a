// Opening a folder never runs anything: before a folder's executable hooks run, the user reads
// exactly which commands would run and trusts the folder (design-hooks.md, "Running other
// people's programs"). A changed configuration asks again.
import { useState } from 'react';
import type { ExecState } from '../lib/api';
import { cx } from '../components/util';

interface Props {
  exec: ExecState | undefined;
  onTrust: () => Promise<unknown>;
  /** the trustKey of the banner the user has read: it opens as one line for those commands */
  readKey?: string;
  /** the user hid the commands: remember that this banner was read */
  onRead?: (key: string) => void;
}

/** What the banner asks about: the commands and files; a change to them asks again in full. */
export function trustKey(exec: ExecState): string {
  const text = JSON.stringify([exec.changed, exec.files, exec.commands.map((c) => [c.command, c.event, c.hook, c.skill, c.dir, c.source])]);
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${exec.commands.length}:${(h >>> 0).toString(16)}`;
}

/** Trusts the folder (its hooks run from the next simulation on); a refusal is shown beside it. */
export function TrustButton({ onTrust, testId = 'trust-folder' }: { onTrust: () => Promise<unknown>; testId?: string }) {
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState<string | null>(null);
  const trust = () => {
    setBusy(true);
    setErr(null);
    onTrust().catch((e) => setErr(String(e))).finally(() => setBusy(false));
  };
  return (
    <>
      <button type="button" className="btn sm primary" onClick={trust} disabled={busy} data-testid={testId}>{busy ? 'Trusting…' : 'Trust folder and run hooks'}</button>
      {err && <span className="count-err small trust-err" role="alert">{err}</span>}
    </>
  );
}

export function TrustBanner({ exec, onTrust, readKey, onRead }: Props) {
  // the user's show/hide for these commands; until then, in full unless read before
  const [toggled, setToggled] = useState<{ key: string; open: boolean } | null>(null);
  // a hook file without a command (a starter just created) has nothing to trust yet
  if (!exec?.present || exec.trusted || exec.commands.length === 0) return null;
  const key = trustKey(exec);
  const open = toggled?.key === key ? toggled.open : readKey !== key;
  const setOpen = (o: boolean) => {
    setToggled({ key, open: o });
    if (!o) onRead?.(key);
  };
  return (
    <div className={cx('banner', 'banner-trust', !open && 'is-collapsed')} role="region" aria-label="Trust this folder" data-testid="trust-banner">
      <div className="trust-head">
        <span className="trust-text"><b>{exec.changed ? 'The hook configuration changed since you trusted this folder.' : 'This folder has executable hooks.'}</b>{' '}
        They did not run: the simulation shows prompt hooks only. Trusting the folder lets {exec.commands.length === 1 ? 'this command' : `these ${exec.commands.length} commands`} run on your machine whenever a simulation reaches {exec.commands.length === 1 ? 'it' : 'them'}.</span>
        <span className="spacer" />
        <button type="button" className="linkbtn" onClick={() => setOpen(!open)} aria-expanded={open} aria-controls="trust-commands" data-testid="trust-toggle">{open ? 'hide commands' : 'show commands'}</button>
        <TrustButton onTrust={onTrust} />
      </div>
      {open && (
        <ul className="trust-commands" id="trust-commands" aria-label="Commands that would run">
          {exec.commands.map((c, i) => (
            <li key={i} title={`${c.command} · ${c.event} · ${c.hook}${c.skill ? ` (${c.skill})` : ''} · in ${c.dir || '.'} · ${c.source}`}>
              <code className="trust-cmd">{c.command}</code>
              <span className="muted small"> · {c.event} · {c.hook}{c.skill ? ` (${c.skill})` : ''} · in {c.dir || '.'} · {c.source}</span>
            </li>
          ))}
          {exec.commands.length === 0 && <li className="muted">No command lines: only the files {exec.files.join(', ')}.</li>}
        </ul>
      )}
      {exec.error && <div className="count-err small">{exec.error}</div>}
    </div>
  );
}
