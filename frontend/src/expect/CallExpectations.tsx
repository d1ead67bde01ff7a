// Beside an LLM call: its expectations as green/red badges, and "add expectation from this
// message" for any message the call receives (written to the scenario file by the backend).
import { useState } from 'react';
import { messagesAt, tag, type TraceView } from '../lib/api';
import { addExpectation, canAddExpectation, resultsForCall } from '../lib/api/expect';
import { cx } from '../components/util';
import './expect.css';

interface Props {
  view: TraceView;
  call: number;
  /** the panel tab shows the details of a clicked badge */
  onShowDetails?: () => void;
  /** reports what adding did ("added", or why not) */
  onAdded?: (message: string, ok: boolean) => void;
  /** for tests: whether the backend can write expectations */
  canAdd?: boolean;
}

/** Adds an expectation about message `id` of call `call` and reports the outcome in words. */
export function addAndReport(call: number, id: number, onAdded?: (message: string, ok: boolean) => void): Promise<void> {
  return addExpectation(call, id)
    .then((res) => onAdded?.(res.status === 'saved' ? 'Expectation added to the scenario' : `Not added: the scenario file changed on disk (${res.status})`, res.status === 'saved'))
    .catch((e) => onAdded?.(`Not added: ${String(e)}`, false));
}

export function CallExpectations({ view, call, onShowDetails, onAdded, canAdd = canAddExpectation() }: Props) {
  const results = resultsForCall(view, call);
  const lc = view.calls[call];
  if (!lc) return null;
  return (
    <div className="exp-strip" data-testid="call-expectations">
      <span className="muted">LLM call #{call + 1} expectations:</span>
      {results.length === 0 && <span className="muted">none</span>}
      {results.map((r, i) => (
        <button key={i} type="button" className={cx('exp-badge', r.pass ? 'exp-pass' : 'exp-fail')} onClick={onShowDetails}
          title={`${r.file}:${r.line}:${r.column}\nexpected: ${r.expected}\nactual: ${r.actual}`} data-testid={r.pass ? 'badge-pass' : 'badge-fail'}>
          {r.pass ? '✓' : '✗'} {r.expected}
        </button>
      ))}
      {canAdd && <MessagePicker key={call} view={view} call={call} step={lc.step} onAdded={onAdded} />}
    </div>
  );
}

/** "Add expectation from a message…": the list of the call's messages is built only when asked
 *  for — a call can receive 10,000 messages, and the strip sits above every call. */
function MessagePicker({ view, call, step, onAdded }: { view: TraceView; call: number; step: number; onAdded?: (message: string, ok: boolean) => void }) {
  const [open, setOpen] = useState(false);
  const [pick, setPick] = useState('');
  const [busy, setBusy] = useState(false);
  if (!open) {
    return (
      <span className="exp-add">
        <button type="button" className="linkbtn" onClick={() => setOpen(true)} data-testid="exp-pick-open">add expectation from a message…</button>
      </span>
    );
  }
  const msgs = messagesAt(view, step);
  const add = () => {
    const id = Number(pick);
    if (pick === '' || Number.isNaN(id)) return;
    setBusy(true);
    void addAndReport(call, id, onAdded).finally(() => { setBusy(false); setPick(''); setOpen(false); });
  };
  return (
    <span className="exp-add">
      <select autoFocus aria-label="Message to add an expectation about" value={pick} onChange={(e) => setPick(e.target.value)}>
        <option value="">pick a message…</option>
        {msgs.map((m, i) => (
          <option key={m.id} value={m.id}>#{i + 1} {tag(m)}{m.hook ? '' : ` — ${m.content.slice(0, 40)}`}</option>
        ))}
      </select>
      <button type="button" className="btn" disabled={pick === '' || busy} onClick={add}>Add</button>
      <button type="button" className="linkbtn" onClick={() => setOpen(false)} aria-label="close the message list">✕</button>
    </span>
  );
}

/** A green or red dot for a call with expectations (nothing without). */
export function CallDot({ view, call }: { view: TraceView; call: number }) {
  const rs = resultsForCall(view, call);
  if (rs.length === 0) return null;
  const failed = rs.filter((r) => !r.pass).length;
  return (
    <span className={cx('exp-dot', failed ? 'exp-fail' : 'exp-pass')} data-testid={`exp-dot-${call}`}
      title={failed ? `${failed} of ${rs.length} expectations fail` : `${rs.length} expectations pass`} />
  );
}
