// The Expectations tab: every result of the scenario's expect: lists, failures first, green or
// red; a failing one shows what was expected, what the call saw and a diff, and jumps to its call.
import type { TraceView } from '../lib/api';
import { expectationCounts, expectationsOf, type ExpectationResult } from '../lib/api/expect';
import { cx } from '../components/util';
import { lineDiff } from './diff';
import './expect.css';

interface Props {
  view: TraceView;
  onJumpToCall: (call: number) => void;
}

export function ExpectationsPanel({ view, onJumpToCall }: Props) {
  const results = expectationsOf(view);
  if (results.length === 0) {
    return (
      <div className="empty-state">
        This scenario states no expectations. Add <code>expect:</code> to the scenario, a request, its planning or a round
        (e.g. <code>- {'{'}round: 1, sees: {'{'}hook: my-hook, copies: 1{'}'}{'}'}</code>), or pick a message and use
        <b> Add expectation</b>; <code>hookctl test</code> checks the same in CI.
      </div>
    );
  }
  const { passed, failed } = expectationCounts(results);
  const ordered = [...results.filter((r) => !r.pass), ...results.filter((r) => r.pass)];
  return (
    <div className="exp-panel" data-testid="expectations">
      <div className={cx('small', failed ? 'count-err' : 'muted')} data-testid="exp-summary">{passed} passed, {failed} failed</div>
      <ul>
        {ordered.map((r, i) => <ResultRow key={`${r.line}:${r.column}:${r.call ?? -1}:${i}`} r={r} onJumpToCall={onJumpToCall} />)}
      </ul>
    </div>
  );
}

function ResultRow({ r, onJumpToCall }: { r: ExpectationResult; onJumpToCall: (call: number) => void }) {
  const jump = !r.pass && r.call !== null ? () => onJumpToCall(r.call as number) : undefined;
  return (
    <li>
      <button type="button" className={cx('exp-row', r.pass ? 'is-pass' : 'is-fail')} onClick={jump} disabled={!jump && !r.pass}
        data-testid={r.pass ? 'exp-pass' : 'exp-fail'} title={r.pass ? r.title : `${r.title}\nexpected: ${r.expected}\nactual: ${r.actual}`}>
        <span className={r.pass ? 'exp-mark-pass' : 'exp-mark-fail'} aria-label={r.pass ? 'passed' : 'failed'}>{r.pass ? '✓' : '✗'}</span>
        <span>{r.title}</span>
        <span className="exp-where">{r.file}:{r.line}:{r.column}</span>
        {!r.pass && (
          <span className="exp-detail">
            <div>expected: {r.expected}</div>
            <div>actual: {r.actual}</div>
            {(r.want?.length || r.got?.length) ? (
              <pre>{lineDiff(r.want ?? [], r.got ?? []).map((l, k) => (
                <div key={k} className={l.op === '-' ? 'exp-minus' : l.op === '+' ? 'exp-plus' : undefined}>{l.op} {l.text}</div>
              ))}</pre>
            ) : null}
          </span>
        )}
      </button>
    </li>
  );
}
