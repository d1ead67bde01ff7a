// A run against a real model as one explicit state machine (a pure reducer), the sibling of the
// simulated debugger's machine in src/debugger/machine.ts:
//
//   idle → starting → running ⇄ paused (before call k, with the exact request)
//                        ⇅
//                  waitingForTool (the run asks for a tool result)
//   any active state → ended (ok | error | cancelled | max_rounds); cancel from any active state.
//
// Backend events (run:*) and user actions are both events; an event a state does not expect
// leaves the state as it is (same object), which the tests check for every pair.
import type { TraceView } from '../lib/api/types';
import type { RunDelta, RunEnded, RunEndStatus, RunOptions, RunPaused, RunRetry, RunTool } from '../lib/api/run';

interface Live {
  profile: string;
  /** the run's trace so far (null until the first run:trace / run:paused) */
  view: TraceView | null;
  /** the LLM call the stream text belongs to, and that text */
  call: number | null;
  text: string;
  /** the last retry notice, cleared when the call streams again */
  retry: RunRetry | null;
  /** an action the backend refused (e.g. "no run is waiting") */
  problem: string | null;
}
export type RunState =
  | { status: 'idle'; error: string | null }
  | (Live & { status: 'starting'; opts: RunOptions })
  | (Live & { status: 'running' })
  | (Live & { status: 'paused'; pausedCall: number; request: string })
  | (Live & { status: 'waitingForTool'; tool: RunTool })
  | { status: 'ended'; profile: string; end: RunEnd; view: TraceView | null; text: string; call: number | null; confirmed: boolean };
export type RunStatus = RunState['status'];
/** How a run ended; the view sits on the state (a local cancel has none of its own). */
export type RunEnd = Omit<RunEnded, 'view'>;

export type RunEvent =
  // user actions
  | { type: 'start'; opts: RunOptions }
  | { type: 'started' }
  | { type: 'startFailed'; error: string }
  | { type: 'resume'; step: boolean }
  | { type: 'answer' }
  | { type: 'cancel' }
  | { type: 'actionFailed'; error: string }
  | { type: 'reset' }
  // backend events
  | { type: 'paused'; payload: RunPaused }
  | { type: 'delta'; payload: RunDelta }
  | { type: 'tool'; payload: RunTool }
  | { type: 'retry'; payload: RunRetry }
  | { type: 'trace'; view: TraceView }
  | { type: 'ended'; payload: RunEnded };
export type RunEventType = RunEvent['type'];

export const initialRunState: RunState = { status: 'idle', error: null };

export const ACTIVE: readonly RunStatus[] = ['starting', 'running', 'paused', 'waitingForTool'];
export function isActive(s: RunState): s is Extract<RunState, { status: 'starting' | 'running' | 'paused' | 'waitingForTool' }> {
  return ACTIVE.includes(s.status);
}

/** Breakpoints of the simulated debugger ("call:3", "call:*") → the run's options. */
export function breakpointsToRun(ids: readonly string[]): { step: boolean; breakpoints: number[] } {
  let step = false;
  const calls: number[] = [];
  for (const id of ids) {
    if (!id.startsWith('call:')) continue;
    const k = id.slice(5);
    if (k === '*') step = true;
    else if (/^\d+$/.test(k)) calls.push(Number(k));
  }
  return { step, breakpoints: [...new Set(calls)].sort((a, b) => a - b) };
}

function live(s: Extract<RunState, Live>): Live {
  return { profile: s.profile, view: s.view, call: s.call, text: s.text, retry: s.retry, problem: s.problem };
}

function ended(s: Extract<RunState, Live>, end: RunEnd & { view?: TraceView }, confirmed: boolean): RunState {
  const { view, ...rest } = end;
  const v = view ?? s.view;
  return { status: 'ended', profile: s.profile, end: rest, view: v, ...finalAnswer(v, s.call, s.text), confirmed };
}

/**
 * The answer to show once a run is over: the last call's content as the trace recorded it
 * (streamed deltas may arrive after run:ended, or not at all), else what was streamed.
 */
function finalAnswer(v: TraceView | null, call: number | null, text: string): { call: number | null; text: string } {
  const last = v?.calls?.[v.calls.length - 1];
  return last && (last.content || last.index !== call) ? { call: last.index, text: last.content } : { call, text };
}

export function runReducer(state: RunState, ev: RunEvent): RunState {
  switch (state.status) {
    case 'idle':
      if (ev.type === 'start') return fresh(ev.opts);
      return state;
    case 'ended':
      if (ev.type === 'start') return fresh(ev.opts);
      if (ev.type === 'reset') return initialRunState;
      // the backend's word on a run the user cancelled (its status, run id and final trace)
      if (ev.type === 'ended' && !state.confirmed) {
        const { view, ...end } = ev.payload;
        const v = view ?? state.view;
        return { ...state, end, view: v, ...finalAnswer(v, state.call, state.text), confirmed: true };
      }
      return state;
  }
  // active states
  const l = live(state);
  switch (ev.type) {
    case 'cancel':
      return ended(state, { status: 'cancelled' }, false);
    case 'ended':
      return ended(state, ev.payload, true);
    case 'actionFailed':
      return { ...state, problem: ev.error };
    case 'trace':
      return { ...state, view: ev.view };
  }
  switch (state.status) {
    case 'starting':
      switch (ev.type) {
        case 'started': return { status: 'running', ...l };
        case 'startFailed': return { status: 'idle', error: ev.error };
      }
      break;
  }
  // running-like events: the backend may emit them before StartRun's promise resolves
  if (state.status === 'starting' || state.status === 'running') {
    switch (ev.type) {
      case 'paused':
        return { status: 'paused', ...l, view: ev.payload.view, pausedCall: ev.payload.call, request: ev.payload.request, retry: null, problem: null };
      case 'delta': {
        const same = state.call === ev.payload.call;
        return { status: 'running', ...l, call: ev.payload.call, text: (same ? state.text : '') + ev.payload.text, retry: null };
      }
      case 'tool':
        return { status: 'waitingForTool', ...l, tool: ev.payload, problem: null };
      case 'retry':
        return { status: 'running', ...l, retry: ev.payload };
    }
    return state;
  }
  if (state.status === 'paused' && ev.type === 'resume') {
    return { status: 'running', ...l, call: state.pausedCall, text: '', problem: null };
  }
  if (state.status === 'waitingForTool' && ev.type === 'answer') {
    return { status: 'running', ...l, problem: null };
  }
  return state;
}

function fresh(opts: RunOptions): RunState {
  return { status: 'starting', opts, profile: opts.profile, view: null, call: null, text: '', retry: null, problem: null };
}

export const END_LABELS: Record<RunEndStatus, string> = {
  ok: 'finished',
  error: 'failed',
  cancelled: 'cancelled',
  max_rounds: 'stopped: maximum rounds reached',
};
