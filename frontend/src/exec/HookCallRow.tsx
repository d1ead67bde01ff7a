import type { HookCall } from '../lib/api';
import './exec.css';
import { cx } from '../components/util';
import { systemAgent, systemLabel } from '../lib/api';
import { formatMs, isSlow, outcomeTone } from './hookcalls';

/** The system of a hook as a small badge: cmd / proc / req, an agent CLI by its name (Gemini CLI). */
export function SystemBadge({ system }: { system: string }) {
  return <span className={cx('sysbadge', `sys-${system}`, systemAgent(system) && 'sys-agent')} title={`${system} hook`}>{systemLabel(system)}</span>;
}

/** The outcome of an invocation as a coloured badge (red: failed, amber: blocked the flow, blue: changed something). */
export function OutcomeBadge({ outcome }: { outcome: HookCall['outcome'] }) {
  return <span className={cx('outcome', `tone-${outcomeTone(outcome)}`)} data-outcome={outcome}>{outcome}</span>;
}

/** A duration, flagged when slow. */
export function Duration({ ms }: { ms: number }) {
  const slow = isSlow({ duration_ms: ms });
  return <span className={cx('dur', slow && 'is-slow')} title={slow ? 'slow: over 1 s' : 'duration'}>{slow && 'slow '}{formatMs(ms)}</span>;
}

/** A hook_call step in the step list: system, native event, hook, outcome, duration, reused. */
export function HookCallRow({ call }: { call: HookCall }) {
  const tone = outcomeTone(call.outcome);
  return (
    <span className={cx('hc-row', `tone-${tone}`, isSlow(call) && 'is-slow')} data-testid="hook-call-row" title={`${call.system} hook ${call.hook} at ${call.event}: ${call.outcome}, ${formatMs(call.duration_ms)}`}>
      <SystemBadge system={call.system} />
      <span className="hc-event">{call.event}</span>
      <span className="hc-hook">{call.hook}</span>
      {call.notify && <span className="muted small" title="a notification: nothing was awaited">notify</span>}
      <OutcomeBadge outcome={call.outcome} />
      {call.warnings && call.warnings.length > 0 && <span className="hc-warn" title={call.warnings.join('\n')}>⚠ {call.warnings.length}</span>}
      {call.other && <span className="hc-other" data-testid="hook-call-other" title={`Under the other host behaviour: ${call.other}`}>⇄ {call.other}</span>}
      {call.reused && <span className="reused" title="result reused from the previous run: same input, same files">reused</span>}
      <Duration ms={call.duration_ms} />
    </span>
  );
}
