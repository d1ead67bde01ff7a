// The debugger flow as one explicit state machine: a pure reducer over typed states and events.
// A simulated trace "runs" instantly, but `running` is kept as a real state (continue → running,
// then `tick` settles at the next breakpoint or the end) so a streamed real-model run fits later.
import type { Step, TraceView } from '../lib/api';

export type Breakpoint =
  | { kind: 'checkpoint'; key: number } // 1..5 = ①..⑤: stops at inject steps of that checkpoint
  | { kind: 'hook'; key: string } // "skill/name": stops where that hook's message is injected
  | { kind: 'call'; key: number | '*' } // an LLM call index, or every LLM call
  // executable hooks: an event (an engine point like "before_tool", or a native event or method
  // like "pre_tool_execution" / "hook.before_llm"), or one hook ("system/name", e.g. "command/guard")
  | { kind: 'event'; key: string }
  | { kind: 'exec'; key: string };

export type BreakpointId = string;
export const bpId = (b: Breakpoint): BreakpointId => `${b.kind}:${b.key}`;

export function parseBpId(id: BreakpointId): Breakpoint | null {
  const i = id.indexOf(':');
  const kind = id.slice(0, i), key = id.slice(i + 1);
  if (kind === 'checkpoint') return { kind, key: Number(key) };
  if (kind === 'hook') return { kind, key };
  if (kind === 'call') return { kind, key: key === '*' ? '*' : Number(key) };
  if (kind === 'event' || kind === 'exec') return key ? { kind, key } : null;
  return null;
}

// live: the revision of the newest live trace seen so far (traceUpdated), kept across every state:
// a call's answer can arrive after the event of a newer simulation, even after loadStart. The
// backend gives every view it hands out a higher revision, whatever its scenario.
interface Base { breakpoints: readonly BreakpointId[]; live?: number }
export type DebuggerState =
  | (Base & { status: 'empty' })
  | (Base & { status: 'loading' })
  | (Base & { status: 'invalid'; view: TraceView })
  | (Base & { status: 'paused'; view: TraceView; cursor: number; hit: BreakpointId | null })
  | (Base & { status: 'running'; view: TraceView; cursor: number })
  | (Base & { status: 'ended'; view: TraceView; cursor: number });
export type Status = DebuggerState['status'];

export type DebuggerEvent =
  | { type: 'loadStart' }
  | { type: 'load'; view: TraceView }
  | { type: 'stepForward' }
  | { type: 'stepBack' }
  | { type: 'continue' }
  | { type: 'tick' }
  | { type: 'pause' }
  | { type: 'restart' }
  | { type: 'toggleBreakpoint'; breakpoint: Breakpoint }
  | { type: 'jumpToCall'; call: number }
  | { type: 'jumpToStep'; step: number }
  | { type: 'traceUpdated'; view: TraceView }
  | { type: 'selectRequest'; request: number };
export type EventType = DebuggerEvent['type'];

export const initialState: DebuggerState = { status: 'empty', breakpoints: [] };

/** The breakpoint that stops at step s, or null. */
export function hitAt(step: Step | undefined, breakpoints: readonly BreakpointId[]): BreakpointId | null {
  if (!step || breakpoints.length === 0) return null;
  for (const id of breakpoints) {
    const b = parseBpId(id);
    if (!b) continue;
    switch (b.kind) {
      case 'checkpoint':
        if (step.kind === 'inject' && step.checkpoint === b.key) return id;
        break;
      case 'hook':
        if (step.kind === 'inject' && step.hooks?.includes(b.key)) return id;
        break;
      case 'call':
        if (step.kind === 'llm_call' && (b.key === '*' || step.call === b.key)) return id;
        break;
      case 'event':
        // Claude Code names a tool event with the tool ("PreToolUse:Bash"): the bare event breaks on every tool
        if (step.kind === 'hook_call' && step.hook_call && (step.hook_call.point === b.key || step.hook_call.event === b.key || step.hook_call.event.startsWith(`${b.key}:`))) return id;
        break;
      case 'exec':
        if (step.kind === 'hook_call' && step.hook_call && `${step.hook_call.system}/${step.hook_call.hook}` === b.key) return id;
        break;
    }
  }
  return null;
}

/** The breakpoint F9 / the gutter toggles for a step: its LLM call, checkpoint, first hook, or executable hook. */
export function breakpointForStep(step: Step | undefined): Breakpoint | null {
  if (!step) return null;
  if (step.kind === 'hook_call') return step.hook_call ? { kind: 'exec', key: `${step.hook_call.system}/${step.hook_call.hook}` } : null;
  if (step.kind === 'llm_call' && step.call !== null) return { kind: 'call', key: step.call };
  if (step.checkpoint) return { kind: 'checkpoint', key: step.checkpoint };
  const h = step.hooks?.[0];
  return h ? { kind: 'hook', key: h } : null;
}

export function hasView(s: DebuggerState): s is Extract<DebuggerState, { view: TraceView }> {
  return 'view' in s;
}
export function hasCursor(s: DebuggerState): s is Extract<DebuggerState, { cursor: number }> {
  return 'cursor' in s;
}

const lastStep = (v: TraceView) => v.steps.length - 1;
const clamp = (i: number, v: TraceView) => Math.max(0, Math.min(lastStep(v), Math.trunc(i)));

function fromView(view: TraceView, breakpoints: readonly BreakpointId[], cursor = 0): DebuggerState {
  if (view.status === 'invalid') return { status: 'invalid', view, breakpoints };
  // a simulation with executable hooks still running, with nothing to show yet: its result follows
  if (view.status === 'running' && view.steps.length === 0) return { status: 'loading', breakpoints };
  if (view.steps.length === 0) return { status: 'empty', breakpoints };
  return { status: 'paused', view, cursor: clamp(cursor, view), hit: null, breakpoints };
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
  return clamp(cursor, next);
}

function toggle(list: readonly BreakpointId[], id: BreakpointId): BreakpointId[] {
  return list.includes(id) ? list.filter((b) => b !== id) : [...list, id];
}

/** A live view older than one already seen: a late answer, dropped. */
function isStale(state: DebuggerState, view: TraceView): boolean {
  return state.live !== undefined && view.revision < state.live;
}

export function reducer(state: DebuggerState, ev: DebuggerEvent): DebuggerState {
  if (ev.type === 'traceUpdated' && isStale(state, ev.view)) return state;
  const next = transition(state, ev);
  const live = ev.type === 'traceUpdated' ? ev.view.revision : state.live;
  if (next === state && live === state.live) return state;
  return live === undefined ? next : { ...next, live };
}

function transition(state: DebuggerState, ev: DebuggerEvent): DebuggerState {
  const breakpoints = state.breakpoints;
  switch (ev.type) {
    case 'loadStart':
      return { status: 'loading', breakpoints };
    case 'load':
      return fromView(ev.view, breakpoints);
    case 'toggleBreakpoint':
      return { ...state, breakpoints: toggle(breakpoints, bpId(ev.breakpoint)) };
    case 'traceUpdated': {
      if (!hasCursor(state) || state.view.file !== ev.view.file) return fromView(ev.view, breakpoints);
      const next = fromView(ev.view, breakpoints);
      if (next.status !== 'paused') return next;
      const cursor = mapCursor(state.view, state.cursor, ev.view);
      if (state.status === 'running') return { status: 'running', view: ev.view, cursor, breakpoints };
      if (state.status === 'ended' && cursor === lastStep(ev.view)) return { status: 'ended', view: ev.view, cursor, breakpoints };
      return { status: 'paused', view: ev.view, cursor, hit: null, breakpoints };
    }
  }
  if (!hasCursor(state)) return state; // empty, loading, invalid: nothing to step through
  const { view, cursor } = state;
  const paused = (i: number, hit: BreakpointId | null = null): DebuggerState => ({ status: 'paused', view, cursor: clamp(i, view), hit, breakpoints });
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
      for (let i = cursor + 1; i < view.steps.length; i++) {
        const hit = hitAt(view.steps[i], breakpoints);
        if (hit) return paused(i, hit);
      }
      return { status: 'ended', view, cursor: lastStep(view), breakpoints };
    }
    case 'pause':
      return state.status === 'running' ? paused(cursor) : state;
    case 'restart':
      return paused(0);
    case 'jumpToStep':
      return Number.isFinite(ev.step) ? paused(ev.step) : state;
    case 'jumpToCall': {
      const c = view.calls[ev.call];
      return c ? paused(c.step) : state;
    }
    case 'selectRequest': {
      const r = view.requests[ev.request];
      return r ? paused(r.first_step) : state;
    }
  }
}

/** Drive `running` to rest (what the UI does right after continue with a simulated trace). */
export function settle(state: DebuggerState): DebuggerState {
  let s = state;
  while (s.status === 'running') s = reducer(s, { type: 'tick' });
  return s;
}
