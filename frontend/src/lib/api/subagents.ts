// A run's sub-agents (Claude Code's Agent tool): each is a request of the trace laid out after the
// run's own, saying which model call started it (RequestInfo.subagent). The views nest each under
// that call: the steps, the flowchart, the sessions list.
import type { RequestInfo } from './types';
import type { engine } from './models';

export type Subagent = engine.Subagent;

/** One sub-agent of a run: its request, what started it, how deep it nests (1: the session's call). */
export interface NestedRun { request: number; sub: Subagent; depth: number; firstStep: number }

type Requests = readonly RequestInfo[];

// by the run's list of requests (a view's, or a paged run's head): computed once per list
const cache = new WeakMap<Requests, { byRequest: Map<number, NestedRun>; byCall: Map<number, NestedRun[]> }>();

function index(requests: Requests) {
  let ix = cache.get(requests);
  if (ix) return ix;
  ix = { byRequest: new Map(), byCall: new Map() };
  requests.forEach((r, request) => {
    const sub = r.subagent;
    if (!sub) return;
    const parent = ix!.byRequest.get(sub.parent);
    const run = { request, sub, depth: (parent?.depth ?? 0) + 1, firstStep: r.first_step };
    ix!.byRequest.set(request, run);
    if (sub.call >= 0) ix!.byCall.set(sub.call, [...(ix!.byCall.get(sub.call) ?? []), run]);
  });
  cache.set(requests, ix);
  return ix;
}

/** The sub-agent request `request` is (null: the run's own). */
export function subagentOf(requests: Requests, request: number): NestedRun | null {
  return index(requests).byRequest.get(request) ?? null;
}

/** The sub-agents model call `call` started, in the order they ran. */
export function subagentsOfCall(requests: Requests, call: number | null | undefined): NestedRun[] {
  return call === null || call === undefined ? [] : index(requests).byCall.get(call) ?? [];
}

/** How a sub-agent is named: its kind and its task's short words. */
export function subagentLabel(sub: Subagent): string {
  return `${sub.type || 'sub-agent'}${sub.description ? ` · ${sub.description}` : ''}`;
}
