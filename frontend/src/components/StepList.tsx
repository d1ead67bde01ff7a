import { useCallback, type ReactNode } from 'react';
import type { RequestInfo, Step, StepKind } from '../lib/api';
import { stepLabel, subagentLabel, subagentOf, subagentsOfCall } from '../lib/api';
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
        // a sub-agent's steps are indented under the call that started it, which links to them
        const nested = subagentOf(requests, s.request);
        const started = s.kind === 'llm_call' ? subagentsOfCall(requests, s.call) : [];
        const first = s.index === requests[s.request]?.first_step;
        return (
          <div
            role="option"
            aria-selected={i === cursor}
            className={cx('step', `k-${s.kind}`, i === cursor && 'is-cursor', changed && 'is-changed', first && s.request > 0 && 'req-start', nested && 'in-subagent')}
            style={nested ? { paddingLeft: nested.depth * 14 } : undefined}
            onClick={() => onJump(i)}
            data-testid={`step-${i}`}
            data-subagent={nested ? nested.sub.agent_id ?? nested.request : undefined}
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
            {nested && first && (
              <span className="chip subagent-of" data-testid="step-subagent-head"
                title={`sub-agent ${subagentLabel(nested.sub)} (${nested.sub.agent_id ?? ''}): started by LLM call #${nested.sub.call + 1}${nested.sub.tool_use_id ? ` (tool call ${nested.sub.tool_use_id})` : ''}`}>
                ↳ sub-agent {nested.sub.type || ''}
              </span>
            )}
            {s.kind === 'hook_call' && s.hook_call ? <HookCallRow call={s.hook_call} /> : <span className="label" title={stepLabel(s)}>{stepLabel(s)}</span>}
            {s.checkpoint ? <span className={`chip cp cp${s.checkpoint}`}>{glyph(s.checkpoint)}</span> : null}
            {s.hooks && s.kind !== 'yield' && <span className="hooks" title={s.hooks.join(', ')}>{s.hooks.map((h) => h.slice(h.indexOf('/') + 1)).join(', ')}</span>}
            {started.map((n) => (
              <button key={n.request} type="button" className="chip subagent-link" data-testid="step-subagent-link"
                title={`the sub-agent this call started: ${subagentLabel(n.sub)} — jump to its steps`}
                onClick={(e) => { e.stopPropagation(); onJump(n.firstStep); }}>
                ↘ {n.sub.type || 'sub-agent'}
              </button>
            ))}
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

/** The requests in the order the tabs show them: each sub-agent's right after the request whose call started it. */
function nestedOrder(requests: readonly RequestInfo[]): RequestInfo[] {
  const children = new Map<number, number[]>();
  const top: number[] = [];
  for (const r of requests) {
    const n = subagentOf(requests, r.index);
    if (n && requests[n.sub.parent]) children.set(n.sub.parent, [...(children.get(n.sub.parent) ?? []), r.index]);
    else top.push(r.index);
  }
  const out: RequestInfo[] = [];
  const visit = (i: number) => { out.push(requests[i]!); for (const c of children.get(i) ?? []) visit(c); };
  top.forEach(visit);
  return out;
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
  const nested = subagentOf(requests, current);
  const carried = carriedIn[current]?.messages ?? 0, hookCopies = carriedIn[current]?.hook_copies ?? 0;
  return (
    <div className="reqs">
      <div className="tabs" role="tablist" aria-label="Requests">
        {nestedOrder(requests).map((r) => {
          const nested = subagentOf(requests, r.index);
          return (
            <button
              type="button"
              role="tab"
              key={r.index}
              aria-selected={r.index === current}
              className={cx('tab', r.index === current && 'active', nested && 'tab-subagent')}
              onClick={() => onSelect(r.index)}
              title={nested ? `sub-agent ${nested.sub.agent_id ?? ''} started by LLM call #${nested.sub.call + 1}: ${r.user}` : r.user}
              data-testid={nested ? 'request-tab-subagent' : undefined}
            >
              <b>{nested ? `${'↳'.repeat(nested.depth)} ${nested.sub.type || 'sub-agent'}` : `Request ${r.index + 1}`}</b>
              <span className="tab-user">{nested?.sub.description || r.user}</span>
            </button>
          );
        })}
      </div>
      {req && nested && (
        <div className="carried" data-testid="request-subagent">
          sub-agent <b>{subagentLabel(nested.sub)}</b>, started by LLM call #{nested.sub.call + 1}: its task <i>{req.user}</i>
        </div>
      )}
      {req && !nested && (
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
