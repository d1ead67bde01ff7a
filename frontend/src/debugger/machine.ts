// The debugger flow as one explicit state machine: a pure reducer over typed states and events.
// A simulated trace "runs" instantly, but `running` is kept as a real state (continue → running,
// then `tick` settles at the next breakpoint or the end) so a streamed real-model run fits later.
import type { Step, TraceView } from '../lib/api';
import { bpId, hitAt, type Breakpoint, type BreakpointId } from '../lib/api/breakpoints';

export type { Breakpoint, BreakpointId } from '../lib/api/breakpoints';
export { bpId, hitAt, parseBpId } from '../lib/api/breakpoints';

// live: the revision of the newest live trace seen so far (traceUpdated), kept across every state:
// a call's answer can arrive after the event of a newer simulation, even after loadStart. The
// backend gives every view it hands out a higher revision, whatever its scenario.
interface Base { breakpoints: readonly BreakpointId[]; live?: number }
/** V is what is stepped through: the live simulation's TraceView, or a stored run's pages (Nav). */
export type DebuggerState<V = TraceView> =
  | (Base & { status: 'empty' })
  | (Base & { status: 'loading' })
  | (Base & { status: 'invalid'; view: V })
  | (Base & { status: 'paused'; view: V; cursor: number; hit: BreakpointId | null })
  | (Base & { status: 'running'; view: V; cursor: number })
  | (Base & { status: 'ended'; view: V; cursor: number });
export type Status = DebuggerState['status'];

export type DebuggerEvent<V = TraceView> =
  | { type: 'loadStart' }
  | { type: 'load'; view: V }
  | { type: 'stepForward' }
  | { type: 'stepBack' }
  | { type: 'continue' }
  | { type: 'tick' }
  // a continue's stop found elsewhere (a stored run's next breakpoint, asked of the Go side): step -1 ends
  | { type: 'arrive'; step: number; hit: BreakpointId | null }
  | { type: 'pause' }
  | { type: 'restart' }
  | { type: 'toggleBreakpoint'; breakpoint: Breakpoint }
  | { type: 'jumpToCall'; call: number }
  | { type: 'jumpToStep'; step: number }
  | { type: 'traceUpdated'; view: V }
  | { type: 'selectRequest'; request: number };
export type EventType = DebuggerEvent['type'];

export const initialState: DebuggerState<never> = { status: 'empty', breakpoints: [] };

/** The breakpoint F9 / the gutter toggles for a step: its LLM call, checkpoint, first hook, or executable hook. */
export function breakpointForStep(step: Step | undefined): Breakpoint | null {
  if (!step) return null;
  if (step.kind === 'hook_call') return step.hook_call ? { kind: 'exec', key: `${step.hook_call.system}/${step.hook_call.hook}` } : null;
  if (step.kind === 'llm_call' && step.call !== null) return { kind: 'call', key: step.call };
  if (step.checkpoint) return { kind: 'checkpoint', key: step.checkpoint };
  const h = step.hooks?.[0];
  return h ? { kind: 'hook', key: h } : null;
}

export function hasView<V>(s: DebuggerState<V>): s is Extract<DebuggerState<V>, { view: V }> {
  return 'view' in s;
}
export function hasCursor<V>(s: DebuggerState<V>): s is Extract<DebuggerState<V>, { cursor: number }> {
  return 'cursor' in s;
}

/** What the machine reads of what it steps through. A step, call or request it cannot tell yet
 *  (a stored run's page not fetched) is undefined: the machine stays where it is. */
export interface Nav<V> {
  status(v: V): string;
  file(v: V): string;
  revision(v: V): number;
  steps(v: V): number;
  step(v: V, i: number): Step | undefined;
  callStep(v: V, call: number): number | undefined;
  requestFirst(v: V, request: number): number | undefined;
  /** where step cursor of prev is in next (a live trace updated) */
  remap(prev: V, cursor: number, next: V): number;
}

function signature(s: Step): string {
  const hc = s.hook_call ? `${s.hook_call.system}/${s.hook_call.event}/${s.hook_call.hook}` : '';
  return [s.kind, s.request, s.phase ?? '', s.round ?? '', s.timing ?? '', s.prompt ?? '', s.tool ?? '', hc].join('|');
}

/** Where step `cursor` of `prev` is in `next`: same LLM call, else same kind of step at the same place, else nearby. */
export function mapCursor(prev: TraceView, cursor: number, next: TraceView): number {
  const old = prev.steps[cursor];
  if (!old || next.steps.length === 0) return 0;
  if (old.kind === 'llm_call' && old.call !== null) {
    const c = next.calls[old.call];
    if (c && c.request === old.request && c.phase === old.phase && c.round === old.round) return c.step;
  }
  const sig = signature(old);
  let occurrence = 0;
  for (let i = 0; i < cursor; i++) if (signature(prev.steps[i]!) === sig) occurrence++;
  for (const s of next.steps) {
    if (signature(s) === sig && occurrence-- === 0) return s.index;
  }
  const oldReq = prev.requests[old.request];
  const newReq = next.requests[old.request];
  if (oldReq && newReq) return Math.min(newReq.last_step, newReq.first_step + (cursor - oldReq.first_step));
  return Math.max(0, Math.min(next.steps.length - 1, cursor));
}

/** The live simulation's whole trace. */
export const traceNav: Nav<TraceView> = {
  status: (v) => v.status,
  file: (v) => v.file,
  revision: (v) => v.revision,
  steps: (v) => v.steps.length,
  step: (v, i) => v.steps[i],
  callStep: (v, c) => v.calls[c]?.step,
  requestFirst: (v, r) => v.requests[r]?.first_step,
  remap: mapCursor,
};

function toggle(list: readonly BreakpointId[], id: BreakpointId): BreakpointId[] {
  return list.includes(id) ? list.filter((b) => b !== id) : [...list, id];
}

/** The machine over what nav reads: its reducer, and settle for a run with nothing to wait for. */
export function machine<V>(nav: Nav<V>) {
  const lastStep = (v: V) => nav.steps(v) - 1;
  const clamp = (i: number, v: V) => Math.max(0, Math.min(lastStep(v), Math.trunc(i)));

  function fromView(view: V, breakpoints: readonly BreakpointId[], cursor = 0): DebuggerState<V> {
    if (nav.status(view) === 'invalid') return { status: 'invalid', view, breakpoints };
    // a simulation with executable hooks still running, with nothing to show yet: its result follows
    if (nav.status(view) === 'running' && nav.steps(view) === 0) return { status: 'loading', breakpoints };
    if (nav.steps(view) === 0) return { status: 'empty', breakpoints };
    return { status: 'paused', view, cursor: clamp(cursor, view), hit: null, breakpoints };
  }

  /** A live view older than one already seen: a late answer, dropped. */
  const isStale = (state: DebuggerState<V>, view: V) => state.live !== undefined && nav.revision(view) < state.live;

  function reducer(state: DebuggerState<V>, ev: DebuggerEvent<V>): DebuggerState<V> {
    if (ev.type === 'traceUpdated' && isStale(state, ev.view)) return state;
    const next = transition(state, ev);
    const live = ev.type === 'traceUpdated' ? nav.revision(ev.view) : state.live;
    if (next === state && live === state.live) return state;
    return live === undefined ? next : { ...next, live };
  }

  function transition(state: DebuggerState<V>, ev: DebuggerEvent<V>): DebuggerState<V> {
    const breakpoints = state.breakpoints;
    switch (ev.type) {
      case 'loadStart':
        return { status: 'loading', breakpoints };
      case 'load':
        return fromView(ev.view, breakpoints);
      case 'toggleBreakpoint':
        return { ...state, breakpoints: toggle(breakpoints, bpId(ev.breakpoint)) };
      case 'traceUpdated': {
        if (!hasCursor(state) || nav.file(state.view) !== nav.file(ev.view)) return fromView(ev.view, breakpoints);
        const next = fromView(ev.view, breakpoints);
        if (next.status !== 'paused') return next;
        const cursor = nav.remap(state.view, state.cursor, ev.view);
        if (state.status === 'running') return { status: 'running', view: ev.view, cursor, breakpoints };
        if (state.status === 'ended' && cursor === lastStep(ev.view)) return { status: 'ended', view: ev.view, cursor, breakpoints };
        return { status: 'paused', view: ev.view, cursor, hit: null, breakpoints };
      }
    }
    if (!hasCursor(state)) return state; // empty, loading, invalid: nothing to step through
    const { view, cursor } = state;
    const paused = (i: number, hit: BreakpointId | null = null): DebuggerState<V> => ({ status: 'paused', view, cursor: clamp(i, view), hit, breakpoints });
    switch (ev.type) {
      case 'stepForward':
        if (state.status !== 'paused') return state;
        return cursor >= lastStep(view) ? { status: 'ended', view, cursor, breakpoints } : paused(cursor + 1);
      case 'stepBack':
        if (state.status === 'ended') return paused(cursor);
        if (state.status !== 'paused') return state;
        return cursor > 0 ? paused(cursor - 1) : state;
      case 'continue':
        return state.status === 'paused' ? { status: 'running', view, cursor, breakpoints } : state;
      case 'tick': {
        if (state.status !== 'running') return state;
        for (let i = cursor + 1; i < nav.steps(view); i++) {
          const s = nav.step(view, i);
          if (!s) return state; // not known yet: the stop is asked for elsewhere (arrive)
          const hit = hitAt(s, breakpoints);
          if (hit) return paused(i, hit);
        }
        return { status: 'ended', view, cursor: lastStep(view), breakpoints };
      }
      case 'arrive':
        if (state.status !== 'running') return state;
        return ev.step < 0 ? { status: 'ended', view, cursor: lastStep(view), breakpoints } : paused(ev.step, ev.hit);
      case 'pause':
        return state.status === 'running' ? paused(cursor) : state;
      case 'restart':
        return paused(0);
      case 'jumpToStep':
        return Number.isFinite(ev.step) ? paused(ev.step) : state;
      case 'jumpToCall': {
        const s = nav.callStep(view, ev.call);
        return s === undefined ? state : paused(s);
      }
      case 'selectRequest': {
        const s = nav.requestFirst(view, ev.request);
        return s === undefined ? state : paused(s);
      }
    }
  }

  /** Drive `running` to rest (what the UI does right after continue with a simulated trace). */
  function settle(state: DebuggerState<V>): DebuggerState<V> {
    let s = state;
    while (s.status === 'running') {
      const next = reducer(s, { type: 'tick' });
      if (next === s) return s; // waits for an arrive
      s = next;
    }
    return s;
  }

  return { reducer, settle };
}

export const { reducer, settle } = machine(traceNav);
