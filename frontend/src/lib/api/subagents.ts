// A run's sub-agents (Claude Code's Agent tool): each is a request of the trace laid out after the
// run's own, saying which model call started it (RequestInfo.subagent). The views nest each under
// that call: the steps, the flowchart, the sessions list.
import type { TraceView } from './types';
import type { engine } from './models';

export type Subagent = engine.Subagent;

/** One sub-agent of a run: its request, what started it, how deep it nests (1: the session's call). */
export interface NestedRun { request: number; sub: Subagent; depth: number; firstStep: number }

const cache = new WeakMap<TraceView, { byRequest: Map<number, NestedRun>; byCall: Map<number, NestedRun[]> }>();

function index(view: TraceView) {
  let ix = cache.get(view);
  if (ix) return ix;
  ix = { byRequest: new Map(), byCall: new Map() };
  view.requests.forEach((r, request) => {
    const sub = r.subagent;
    if (!sub) return;
    const parent = ix!.byRequest.get(sub.parent);
    const run = { request, sub, depth: (parent?.depth ?? 0) + 1, firstStep: r.first_step };
    ix!.byRequest.set(request, run);
    if (sub.call >= 0) ix!.byCall.set(sub.call, [...(ix!.byCall.get(sub.call) ?? []), run]);
  });
  cache.set(view, ix);
  return ix;
}

/** The sub-agent request `request` is (null: the run's own). */
export function subagentOf(view: TraceView, request: number): NestedRun | null {
  return index(view).byRequest.get(request) ?? null;
}

/** The sub-agents model call `call` started, in the order they ran. */
export function subagentsOfCall(view: TraceView, call: number | null | undefined): NestedRun[] {
  return call === null || call === undefined ? [] : index(view).byCall.get(call) ?? [];
}

/** How a sub-agent is named: its kind and its task's short words. */
export function subagentLabel(sub: Subagent): string {
  return `${sub.type || 'sub-agent'}${sub.description ? ` · ${sub.description}` : ''}`;
}
