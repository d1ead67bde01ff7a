import { useCallback, type ReactNode } from 'react';
import type { Step, StepKind } from '../lib/api';
import { stepLabel } from '../lib/api';
import type { BreakpointId } from '../debugger/machine';
import { breakpointForStep, bpId, hitAt } from '../debugger/machine';
import type { RunSource } from '../paged/source';
import { useSource } from '../paged/source';
import { VirtualList } from './VirtualList';
import { cx, glyph } from './util';
import { HookCallRow } from '../exec/HookCallRow';

export const STEP_ICONS: Record<StepKind, string> = {
  build_messages: '▤', inject: '⊕', remove: '⊖', inject_prompt: '✚', remove_prompt: '✖', llm_call: '◆',
  append: '↳', tool_call: '⚙', yield: '⇪', reply: '✓', hook_call: 'ϟ', restore: '↺', compact: '⇊',
};
const ROW = 26;

interface Props {
  source: RunSource;
  cursor: number;
  breakpoints: readonly BreakpointId[];
  changedCalls: ReadonlySet<number>;
  onJump: (step: number) => void;
  onToggleBreakpoint: (step: Step) => void;
  /** what an LLM call's row shows of its expectations (the live simulation's) */
  callDot?: (call: number) => ReactNode;
}

export function StepList({ source, cursor, breakpoints, changedCalls, onJump, onToggleBreakpoint, callDot }: Props) {
  useSource(source, 'head', 'steps');
  const { steps, requests } = source.head();
  const est = useCallback(() => ROW, []);
  const key = useCallback((i: number) => i, []);
  return (
    <VirtualList
      className="steps"
      role="listbox"
      aria-label="Steps"
      count={steps}
      estimate={est}
      getKey={key}
      scrollToIndex={cursor}
      overscan={12}
      render={(i) => {
        const s = source.step(i);
        if (!s) {
          return (
            <div role="option" aria-selected={i === cursor} className={cx('step', 'is-loading', i === cursor && 'is-cursor')} onClick={() => onJump(i)} data-testid={`step-${i}`}>
              <span className="gutter" /><span className="idx">{i}</span><span className="label muted">…</span>
            </div>
          );
        }
        const own = breakpointForStep(s);
        const armed = own ? breakpoints.includes(bpId(own)) : false;
        const hit = hitAt(s, breakpoints);
        const changed = s.call !== null && changedCalls.has(s.call);
        const warning = s.warning;
        return (
          <div
            role="option"
            aria-selected={i === cursor}
            className={cx('step', `k-${s.kind}`, i === cursor && 'is-cursor', changed && 'is-changed', s.index === requests[s.request]?.first_step && s.request > 0 && 'req-start')}
            onClick={() => onJump(i)}
            data-testid={`step-${i}`}
          >
            <button
              type="button"
              className={cx('gutter', armed && 'armed', !armed && hit && 'hit')}
              title={own ? (armed ? 'Remove breakpoint' : `Breakpoint on ${own.kind} ${own.key}`) : 'No breakpoint possible here'}
              aria-label={`breakpoint step ${i}`}
              disabled={!own}
              onClick={(e) => { e.stopPropagation(); onToggleBreakpoint(s); }}
            >
              <span />
            </button>
            <span className="idx">{i}</span>
            <span className="icon" aria-hidden>{STEP_ICONS[s.kind]}</span>
            {s.kind === 'hook_call' && s.hook_call ? <HookCallRow call={s.hook_call} /> : <span className="label" title={stepLabel(s)}>{stepLabel(s)}</span>}
            {s.checkpoint ? <span className={`chip cp cp${s.checkpoint}`}>{glyph(s.checkpoint)}</span> : null}
            {s.hooks && s.kind !== 'yield' && <span className="hooks" title={s.hooks.join(', ')}>{s.hooks.map((h) => h.slice(h.indexOf('/') + 1)).join(', ')}</span>}
            <span className="spacer" />
            {s.round !== null && <span className="round">r{s.round}</span>}
            {changed && <span className="badge badge-changed">changed</span>}
            {warning && <span className="badge badge-warn" title={warning}>warning</span>}
            {s.kind === 'llm_call' && s.call !== null && callDot?.(s.call)}
            {s.added.length > 0 && <span className="plus">+{s.added.length}</span>}
            {s.removed.length > 0 && <span className="minus">−{s.removed.length}</span>}
          </div>
        );
      }}
    />
  );
}

interface TabsProps {
  source: RunSource;
  current: number;
  onSelect: (r: number) => void;
}

export function RequestTabs({ source, current, onSelect }: TabsProps) {
  useSource(source, 'head');
  const { requests, carried: carriedIn } = source.head();
  const req = requests[current];
  const carried = carriedIn[current]?.messages ?? 0, hookCopies = carriedIn[current]?.hook_copies ?? 0;
  return (
    <div className="reqs">
      <div className="tabs" role="tablist" aria-label="Requests">
        {requests.map((r) => (
          <button
            type="button"
            role="tab"
            key={r.index}
            aria-selected={r.index === current}
            className={cx('tab', r.index === current && 'active')}
            onClick={() => onSelect(r.index)}
            title={r.user}
          >
            <b>Request {r.index + 1}</b>
            <span className="tab-user">{r.user}</span>
          </button>
        ))}
      </div>
      {req && (
        <div className="carried">
          {carried === 0 ? (
            <span>No history carried in.</span>
          ) : (
            <span>
              History carried in: <b>{carried}</b> messages
              {hookCopies > 0 && <> (<b>{hookCopies}</b> persistent hook {hookCopies === 1 ? 'copy' : 'copies'})</>}
            </span>
          )}
          {req.enabled_skills && <span className="muted"> · skills: {req.enabled_skills.length ? req.enabled_skills.join(', ') : 'none'}</span>}
          {req.yielded.length > 0 && <span className="muted"> · yields {req.yielded.join(', ')}</span>}
          {req.status === 'stopped' && <span className="badge badge-stopped" data-testid="request-stopped">stopped by {req.stopped_by ?? 'a hook'}</span>}
        </div>
      )}
    </div>
  );
}
