// The bottom panel's "Hook calls" tab: every executable hook invocation of the run, each hook's
// lifetime as a lane beside the steps (process hooks: start, hello, requests, notifications, exit),
// per-hook counters, and breakpoints on a hook or an event.
import type { TraceView } from '../lib/api';
import type { BreakpointId } from '../debugger/machine';
import { cx } from '../components/util';
import { Duration, OutcomeBadge, SystemBadge } from './HookCallRow';
import { execHookKey, formatMs, hookCallsOf, isFailure, isSlow, lanesOf, metricsOf, outcomeTone } from './hookcalls';

interface Props {
  view: TraceView;
  cursor: number;
  breakpoints: readonly BreakpointId[];
  onJump: (step: number) => void;
  onToggleHook: (key: string) => void;
  onToggleEvent: (event: string) => void;
}

/** Each hook a lane, each invocation a mark at its step; the cursor is a line across the lanes. */
export function Timeline({ view, cursor, onJump }: Pick<Props, 'view' | 'cursor' | 'onJump'>) {
  const lanes = lanesOf(view);
  const n = Math.max(1, view.steps.length - 1);
  const x = (step: number) => `${(100 * step) / n}%`;
  return (
    <div className="timeline" aria-label="Hook lifetimes">
      {lanes.map((l) => (
        <div key={l.key} className="lane" data-testid={`lane-${l.key}`}>
          <div className="lane-head"><SystemBadge system={l.system} /> {l.hook}</div>
          <div className="lane-track">
            <span className="lane-cursor" style={{ left: x(cursor) }} />
            {l.entries.map((e) => (
              <button
                key={e.index}
                type="button"
                className={cx('mark', `tone-${outcomeTone(e.call.outcome)}`, e.call.notify && 'is-notify', e.step === cursor && 'is-cursor', isSlow(e.call) && 'is-slow')}
                style={{ left: x(e.step) }}
                title={`step ${e.step}: ${e.call.event} → ${e.call.outcome} (${formatMs(e.call.duration_ms)})`}
                aria-label={`${l.key} ${e.call.event} at step ${e.step}`}
                onClick={() => onJump(e.step)}
              />
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

export function HookCallsPanel({ view, cursor, breakpoints, onJump, onToggleHook, onToggleEvent }: Props) {
  const entries = hookCallsOf(view);
  const exec = view.exec;
  if (entries.length === 0) {
    return (
      <div className="empty-state">
        {exec?.not_run ? <>Executable hooks not run: <b>{exec.not_run}</b>. {exec.hooks.length} declared.</> :
          exec?.hooks.length ? 'No executable hook fired in this scenario.' :
          <>No executable hooks in this folder. Add a <code>hooks/hooks.yaml</code> (command hooks) or <code>hooks/picoclaw.json</code> (process hooks) to a skill.</>}
      </div>
    );
  }
  const failed = entries.filter((e) => isFailure(e.call)).length;
  const slow = entries.filter((e) => isSlow(e.call)).length;
  const metrics = metricsOf(view);
  return (
    <div className="hookcalls">
      <div className="muted small pad">
        {entries.length} invocations{failed > 0 && <span className="count-err"> · {failed} failed</span>}{slow > 0 && <span className="count-warn"> · {slow} slow (over 1 s)</span>}
        {exec && exec.duration_ms > 0 && <> · the run took {formatMs(exec.duration_ms)}</>}
      </div>
      <Timeline view={view} cursor={cursor} onJump={onJump} />
      <div className="hookcalls-tables">
        <div className="hc-scroll">
        <table className="hc-table" aria-label="Hook invocations">
          <thead><tr><th /><th>step</th><th>system</th><th>event</th><th>hook</th><th>outcome</th><th>time</th></tr></thead>
          <tbody>
            {entries.map((e) => {
              const key = execHookKey(e.call);
              const armed = breakpoints.includes(`exec:${key}`);
              const evArmed = breakpoints.includes(`event:${e.call.event}`);
              return (
                <tr key={e.index} className={cx(e.step === cursor && 'is-cursor', isFailure(e.call) && 'is-fail', isSlow(e.call) && 'is-slow')} onClick={() => onJump(e.step)} data-testid={`hc-${e.index}`}>
                  <td>
                    <button type="button" className={cx('gutter', armed && 'armed')} aria-label={`breakpoint on hook ${key}`} title={armed ? 'Remove breakpoint' : `Break at every invocation of ${key}`} onClick={(ev) => { ev.stopPropagation(); onToggleHook(key); }}><span /></button>
                  </td>
                  <td className="num">{e.step}</td>
                  <td><SystemBadge system={e.call.system} /></td>
                  <td>
                    <button type="button" className={cx('evchip', evArmed && 'armed')} title={evArmed ? 'Remove the breakpoint on this event' : `Break at every ${e.call.event}`} onClick={(ev) => { ev.stopPropagation(); onToggleEvent(e.call.event); }}>{e.call.event}</button>
                  </td>
                  <td>{e.call.hook}{e.call.reused && <span className="reused">reused</span>}</td>
                  <td><OutcomeBadge outcome={e.call.outcome} /></td>
                  <td className="num"><Duration ms={e.call.duration_ms} /></td>
                </tr>
              );
            })}
          </tbody>
        </table>
        </div>
        <div className="hc-scroll hc-metrics-wrap">
        <table className="hc-table hc-metrics" aria-label="Per-hook metrics">
          <thead><tr><th>hook</th><th>event</th><th>runs</th><th>ok</th><th>failed</th><th>skipped</th><th>total</th></tr></thead>
          <tbody>
            {metrics.map((m) => (
              <tr key={`${m.system}/${m.event}/${m.hook}`}>
                <td><SystemBadge system={m.system} /> {m.hook}</td>
                <td>{m.event}</td>
                <td className="num">{m.runs}</td>
                <td className="num">{m.successes}</td>
                <td className={cx('num', m.failures > 0 && 'count-err')}>{m.failures}</td>
                <td className="num">{m.skips}</td>
                <td className="num">{formatMs(m.total_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      </div>
    </div>
  );
}

