import { describe, expect, it } from 'vitest';
import { emptyTrace, type TraceView } from '../lib/api/types';
import { breakpointsToRun, initialRunState, isActive, runReducer, type RunEvent, type RunEventType, type RunState, type RunStatus } from './machine';

const view = (revision: number): TraceView => ({ ...emptyTrace(), revision, file: 'a/scenarios/x.yaml', scenario: 'x', status: 'ok' });
const opts = { profile: 'local', step: false, breakpoints: [1], max_rounds: 0 };
const liveBase = { profile: 'local', view: view(1), call: 0, text: 'Hel', retry: null, problem: null };

const STATES: Record<RunStatus, RunState> = {
  idle: initialRunState,
  starting: { status: 'starting', opts, profile: 'local', view: null, call: null, text: '', retry: null, problem: null },
  running: { status: 'running', ...liveBase },
  paused: { status: 'paused', ...liveBase, pausedCall: 1, request: '{"messages":[]}' },
  waitingForTool: { status: 'waitingForTool', ...liveBase, tool: { id: 't1', name: 'read_file', arguments: { path: 'a' } } },
  ended: { status: 'ended', profile: 'local', end: { status: 'ok', run_id: 3 }, view: view(2), text: '', call: 1, confirmed: true },
};

const EVENTS: Record<RunEventType, RunEvent> = {
  start: { type: 'start', opts },
  started: { type: 'started' },
  startFailed: { type: 'startFailed', error: 'no profile "x"' },
  resume: { type: 'resume', step: true },
  answer: { type: 'answer' },
  cancel: { type: 'cancel' },
  actionFailed: { type: 'actionFailed', error: 'no run is waiting' },
  reset: { type: 'reset' },
  paused: { type: 'paused', payload: { call: 1, request: '{"model":"m"}', view: view(5) } },
  delta: { type: 'delta', payload: { call: 0, text: 'lo' } },
  tool: { type: 'tool', payload: { id: 't2', name: 'list_dir', arguments: { path: '.' } } },
  retry: { type: 'retry', payload: { attempt: 1, wait_ms: 500, error: '429 Too Many Requests' } },
  trace: { type: 'trace', view: view(7) },
  ended: { type: 'ended', payload: { status: 'error', error: 'key rejected', run_id: 9, view: view(8) } },
};

// expected status after each event in each state; 'same' = the very same state object
const S = 'same' as const;
type Row = Record<RunEventType, RunStatus | typeof S>;
const TABLE: Record<RunStatus, Row> = {
  idle:           { start: 'starting', started: S, startFailed: S, resume: S, answer: S, cancel: S, actionFailed: S, reset: S, paused: S, delta: S, tool: S, retry: S, trace: S, ended: S },
  starting:       { start: S, started: 'running', startFailed: 'idle', resume: S, answer: S, cancel: 'ended', actionFailed: 'starting', reset: S, paused: 'paused', delta: 'running', tool: 'waitingForTool', retry: 'running', trace: 'starting', ended: 'ended' },
  running:        { start: S, started: S, startFailed: S, resume: S, answer: S, cancel: 'ended', actionFailed: 'running', reset: S, paused: 'paused', delta: 'running', tool: 'waitingForTool', retry: 'running', trace: 'running', ended: 'ended' },
  paused:         { start: S, started: S, startFailed: S, resume: 'running', answer: S, cancel: 'ended', actionFailed: 'paused', reset: S, paused: S, delta: S, tool: S, retry: S, trace: 'paused', ended: 'ended' },
  waitingForTool: { start: S, started: S, startFailed: S, resume: S, answer: 'running', cancel: 'ended', actionFailed: 'waitingForTool', reset: S, paused: S, delta: S, tool: S, retry: S, trace: 'waitingForTool', ended: 'ended' },
  ended:          { start: 'starting', started: S, startFailed: S, resume: S, answer: S, cancel: S, actionFailed: S, reset: 'idle', paused: S, delta: S, tool: S, retry: S, trace: S, ended: S },
};

describe('run machine: every event in every state', () => {
  for (const [status, row] of Object.entries(TABLE) as [RunStatus, Row][]) {
    for (const [type, want] of Object.entries(row) as [RunEventType, RunStatus | typeof S][]) {
      it(`${status} + ${type} → ${want}`, () => {
        const before = STATES[status];
        const after = runReducer(before, EVENTS[type]);
        if (want === S) expect(after).toBe(before);
        else expect(after.status).toBe(want);
      });
    }
  }
  it('covers every state and every event', () => {
    expect(Object.keys(TABLE).sort()).toEqual(Object.keys(STATES).sort());
    for (const row of Object.values(TABLE)) expect(Object.keys(row).sort()).toEqual(Object.keys(EVENTS).sort());
  });
});

describe('run machine: payloads', () => {
  it('a full run: start → paused before call 1 → step → tool → answer → ended ok', () => {
    let s = runReducer(initialRunState, EVENTS.start);
    expect(s).toMatchObject({ status: 'starting', profile: 'local', view: null });
    s = runReducer(s, EVENTS.started);
    s = runReducer(s, { type: 'delta', payload: { call: 0, text: '{"need_' } });
    s = runReducer(s, { type: 'delta', payload: { call: 0, text: 'tool": true}' } });
    expect(s).toMatchObject({ status: 'running', call: 0, text: '{"need_tool": true}' });
    s = runReducer(s, EVENTS.trace);
    expect(isActive(s) && s.view?.revision).toBe(7);
    s = runReducer(s, EVENTS.paused);
    expect(s).toMatchObject({ status: 'paused', pausedCall: 1, request: '{"model":"m"}' });
    expect(s.status === 'paused' && s.view?.revision).toBe(5);
    s = runReducer(s, { type: 'resume', step: true });
    expect(s).toMatchObject({ status: 'running', call: 1, text: '' });
    s = runReducer(s, EVENTS.tool);
    expect(s).toMatchObject({ status: 'waitingForTool', tool: { name: 'list_dir' } });
    s = runReducer(s, EVENTS.answer);
    expect(s.status).toBe('running');
    s = runReducer(s, { type: 'ended', payload: { status: 'ok', run_id: 4, view: view(9) } });
    expect(s).toMatchObject({ status: 'ended', end: { status: 'ok', run_id: 4 }, confirmed: true });
    expect(s.status === 'ended' && s.view?.revision).toBe(9);
  });
  it('a new call resets the streamed text; the same call appends', () => {
    let s = runReducer(STATES.running, { type: 'delta', payload: { call: 0, text: 'lo' } });
    expect(s).toMatchObject({ text: 'Hello' });
    s = runReducer(s, { type: 'delta', payload: { call: 1, text: 'Next' } });
    expect(s).toMatchObject({ call: 1, text: 'Next' });
  });
  it('a retry is shown until the call streams again', () => {
    let s = runReducer(STATES.running, EVENTS.retry);
    expect(s).toMatchObject({ retry: { attempt: 1, wait_ms: 500 } });
    s = runReducer(s, EVENTS.delta);
    expect(s).toMatchObject({ retry: null });
  });
  it('cancel ends locally at once and the backend\'s run:ended then fills in the details', () => {
    let s = runReducer(STATES.paused, EVENTS.cancel);
    expect(s).toMatchObject({ status: 'ended', end: { status: 'cancelled' }, confirmed: false });
    expect(s.status === 'ended' && s.view?.revision).toBe(1);
    s = runReducer(s, { type: 'ended', payload: { status: 'cancelled', run_id: 11, view: view(3) } });
    expect(s).toMatchObject({ end: { status: 'cancelled', run_id: 11 }, confirmed: true });
    expect(runReducer(s, EVENTS.ended)).toBe(s); // a confirmed end is final
  });
  it('a failed start goes back to idle with the error', () => {
    expect(runReducer(STATES.starting, EVENTS.startFailed)).toEqual({ status: 'idle', error: 'no profile "x"' });
  });
  it('a refused action is kept as a problem and cleared by the next move', () => {
    let s = runReducer(STATES.paused, EVENTS.actionFailed);
    expect(s).toMatchObject({ status: 'paused', problem: 'no run is waiting' });
    s = runReducer(s, EVENTS.resume);
    expect(s).toMatchObject({ status: 'running', problem: null });
  });
});

describe('breakpointsToRun', () => {
  it('takes the LLM-call breakpoints of the debugger', () => {
    expect(breakpointsToRun(['checkpoint:3', 'call:2', 'hook:a/b', 'call:0', 'call:2'])).toEqual({ step: false, breakpoints: [0, 2] });
    expect(breakpointsToRun(['call:*'])).toEqual({ step: true, breakpoints: [] });
  });
});

describe('normalizeView', () => {
  it('turns the nil lists of a trace in progress into empty ones', async () => {
    const { normalizeView, normalizeRunEvent } = await import('../lib/api/run');
    const raw = { ...view(1), requests: null, changes: null, steps: [{ index: 0, kind: 'build_messages', request: 0, round: null, call: null, added: null, removed: null }] } as unknown as TraceView;
    const v = normalizeView(raw);
    expect(v.requests).toEqual([]);
    expect(v.changes).toEqual([]);
    expect(v.steps[0]).toMatchObject({ added: [], removed: [] });
    expect(normalizeRunEvent('run:paused', { call: 0, request: '{}', view: raw }).view.requests).toEqual([]);
    expect(normalizeView(null).steps).toEqual([]);
  });
});

describe('the answer shown at the end', () => {
  it('is the last call\'s content from the final trace, even if deltas were lost', () => {
    const v = { ...view(4), calls: [{ index: 0, request: 0, phase: 'planning' as const, round: null, step: 3, content: 'plan', tokens: 1 }, { index: 1, request: 0, phase: 'agent' as const, round: 0, step: 9, content: 'The full answer.', tokens: 1 }] };
    const s = runReducer({ status: 'running', ...liveBase, call: 1, text: 'The fu' }, { type: 'ended', payload: { status: 'ok', view: v } });
    expect(s).toMatchObject({ call: 1, text: 'The full answer.' });
  });
  it('keeps the streamed text when the trace has no calls', () => {
    const s = runReducer(STATES.running, { type: 'ended', payload: { status: 'error', error: 'x', view: view(4) } });
    expect(s).toMatchObject({ call: 0, text: 'Hel' });
  });
});
