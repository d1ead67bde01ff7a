// Export for… (issue 30): a folder's hooks written in another agent's format. The dialog converts as
// you choose (nothing is written), lists what cannot carry over at its source file:line:col, the
// files a write creates, merges or replaces and the hooks file as it will read, and writes only when
// you confirm — never over a file in the way unless you ask it to replace them.
import { useEffect, useRef, useState } from 'react';
import { convertChoices, planConversion, writeConversion, type ConvertChoices, type ConvertPlan, type ConvertRequest } from '../lib/api/convert';
import type { Diagnostic } from '../lib/api';
import { cx } from '../components/util';
import { ErrorIcon, WarnIcon } from '../components/Icons';
import './convert.css';

interface Props {
  /** the agent chosen in the menu ("" the first other than the source's) */
  to: string;
  /** the scenario open in the simulator: its folder is the source offered first */
  prefer?: string;
  onClose: () => void;
  /** after a write: the plan as written and the agent's name */
  onWritten: (plan: ConvertPlan, title: string) => void;
}

const ACTION: Record<string, string> = { create: 'create', merge: 'merge', replace: 'replace', unchanged: 'unchanged' };

function DiagRow({ d }: { d: Diagnostic }) {
  const at = d.line > 0 ? `${d.file}:${d.line}:${d.column}` : d.file;
  return (
    <li className={cx('conv-diag', d.severity === 'error' ? 'is-err' : 'is-warn')}>
      <span className="conv-sev">{d.severity === 'error' ? <ErrorIcon /> : <WarnIcon />}</span>
      <span><code className="conv-at">{at}</code>{d.code && <span className="muted small"> [{d.code}]</span>}</span>
      <span className="conv-msg">{d.message}</span>
    </li>
  );
}

export function ExportDialog({ to, prefer, onClose, onWritten }: Props) {
  const [choices, setChoices] = useState<ConvertChoices | null>(null);
  const [req, setReq] = useState<ConvertRequest | null>(null);
  const [plan, setPlan] = useState<ConvertPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  // the scenario open when the dialog opened: a later selection does not undo the choices made here
  const preferred = useRef(prefer);
  useEffect(() => {
    let live = true;
    convertChoices().then((c) => {
      if (!live) return;
      setChoices(c);
      const folder = preferred.current?.split('/')[0];
      const src = c?.sources.find((s) => s.folder === folder) ?? c?.sources[0];
      if (!c || !src) return;
      const target = to || c.targets.find((t) => t.agent !== src.agent)?.agent || '';
      setReq({ source: src.folder, to: target, layout: '', dir: '', force: false });
    }, (e: unknown) => { if (live) setError(String(e)); });
    return () => { live = false; };
  }, [to]);

  useEffect(() => {
    if (!req) return;
    let live = true;
    setError(null);
    planConversion(req).then((p) => { if (live) setPlan(p); }, (e: unknown) => { if (live) { setPlan(null); setError(String(e)); } });
    return () => { live = false; };
  }, [req]);

  const update = (patch: Partial<ConvertRequest>) => setReq((r) => (r ? { ...r, ...patch } : r));
  const write = () => {
    if (!req) return;
    setBusy(true);
    writeConversion(req).then((p) => {
      setPlan(p);
      if (p.wrote) onWritten(p, target?.title ?? p.to);
    }, (e: unknown) => setError(String(e))).finally(() => setBusy(false));
  };
  const target = choices?.targets.find((t) => t.agent === req?.to);
  const changes = plan?.files.filter((f) => f.action !== 'unchanged').length ?? 0;
  const preview = plan?.files.find((f) => f.path === shown) ?? plan?.files.find((f) => f.role === 'hooks');
  // a hook that would not do there what it does in the source: nothing is written
  const wontWork = plan?.diagnostics.filter((d) => d.severity === 'error').length ?? 0;
  const source = choices?.sources.find((s) => s.folder === plan?.source);

  return (
    <div className="overlay" onClick={onClose}>
      <div className="dialog export-dialog" role="dialog" aria-modal="true" aria-label="Export hooks for another agent" onClick={(e) => e.stopPropagation()}
        data-testid="export-dialog">
        <header>
          <h2>Export hooks for {target?.title ?? 'another agent'}</h2>
          <button type="button" className="iconbtn" onClick={onClose} aria-label="Close">✕</button>
        </header>
        {choices && choices.sources.length === 0 && (
          <p className="empty-state">No folder here holds hooks Hook Studio can convert (Claude Code's: <code>.claude/settings.json</code>, a plugin's <code>hooks/hooks.json</code>, a skill's <code>SKILL.md</code>).</p>
        )}
        {req && choices && (
          <div className="conv-form">
            <label>From <select value={req.source} onChange={(e) => update({ source: e.currentTarget.value, dir: '' })} aria-label="Folder to convert">
              {choices.sources.map((s) => <option key={s.folder} value={s.folder}>{s.folder === '.' ? 'the open folder' : s.folder} — {s.title}</option>)}
            </select></label>
            <label>For <select value={req.to} onChange={(e) => update({ to: e.currentTarget.value, dir: '' })} aria-label="Agent to write for" data-testid="export-to">
              {choices.targets.map((t) => <option key={t.agent} value={t.agent}>{t.title}</option>)}
            </select></label>
            <label>As <select value={req.layout} onChange={(e) => update({ layout: e.currentTarget.value })} aria-label="Layout">
              <option value="">the source's kind</option>
              <option value="project">project settings</option>
              <option value="package">a package (plugin, extension)</option>
            </select></label>
            <label className="conv-dir">Into <input type="text" value={req.dir} placeholder={plan?.dir_rel || plan?.dir || ''} onChange={(e) => update({ dir: e.currentTarget.value })}
              aria-label="Folder to write into" title="Relative to the open folder, or absolute" /></label>
          </div>
        )}
        {error && <div className="banner banner-err" role="alert">{error}</div>}
        {plan && (
          <>
            <p className="conv-summary" data-testid="export-summary">
              <b>{plan.written}</b> hook(s) carried over, <b>{plan.left}</b> left out ·{' '}
              {wontWork > 0 ? <span className="count-err">{wontWork} hook(s) would not do in {target?.title} what they do in {source?.title ?? plan.from}: see below</span>
                : !plan.hosted ? <span className="muted">not checked: Hook Studio has no {target?.title} hook system in this build</span>
                : plan.checked.some((d) => d.severity === 'error') ? <span className="count-err">{target?.title}'s validator refuses the result (a bug in convert: please report it)</span>
                : <span>{target?.title}'s validator accepts it</span>}
              {plan.unsaved && <span className="badge badge-unsaved">unsaved edits included</span>}
            </p>
            {plan.diagnostics.length > 0 && (
              <>
                <h3>What cannot carry over</h3>
                <ul className="conv-diags" data-testid="export-diagnostics">{plan.diagnostics.map((d, i) => <DiagRow key={i} d={d} />)}</ul>
              </>
            )}
            {plan.conflicts.length > 0 && (
              <>
                <h3>In the way</h3>
                <ul className="conv-diags" data-testid="export-conflicts">{plan.conflicts.map((d, i) => <DiagRow key={i} d={d} />)}</ul>
              </>
            )}
            {plan.checked.length > 0 && (
              <>
                <h3>{target?.title}'s validator on the written files</h3>
                <ul className="conv-diags" data-testid="export-checked">{plan.checked.map((d, i) => <DiagRow key={i} d={d} />)}</ul>
              </>
            )}
            <h3>Files in <code title={plan.dir}>{plan.dir_rel || plan.dir}</code></h3>
            <table className="conv-files" data-testid="export-files">
              <tbody>
                {plan.files.map((f) => (
                  <tr key={f.path} className={cx(f.path === preview?.path && 'active')} onClick={() => { if (f.text) setShown(f.path); }}>
                    <td className={cx('conv-action', `is-${f.action}`)}>{ACTION[f.action] ?? f.action}</td>
                    <td><code>{f.path}</code></td>
                    <td className="muted small">{f.role}{f.from ? ` from ${f.from}` : ''}</td>
                    <td className="muted small num">{f.mode}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {preview?.text && <pre className="conv-preview" aria-label={`${preview.path} as written`} data-testid="export-preview">{preview.text}</pre>}
          </>
        )}
        <footer className="conv-actions">
          {(req?.force || (plan && plan.conflicts.length > 0)) && (
            <label className="small"><input type="checkbox" checked={req?.force ?? false} onChange={(e) => update({ force: e.currentTarget.checked })} data-testid="export-force" /> replace the files in the way</label>
          )}
          <span className="spacer" />
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="button" className="btn primary" disabled={!plan?.can_write || busy || changes === 0} onClick={write} data-testid="export-write">
            {busy ? 'Writing…' : changes === 0 && plan ? 'Nothing to write' : `Write ${changes} file(s)`}
          </button>
        </footer>
      </div>
    </div>
  );
}
