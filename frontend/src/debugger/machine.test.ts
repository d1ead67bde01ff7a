import { describe, expect, it } from 'vitest';
import seed from '../fixtures/seed-diagrams.json';
import invalidFixture from '../fixtures/invalid-trace.json';
import execFixture from '../fixtures/exec-trace.json';
import type { TraceView } from '../lib/api';
import { emptyTrace } from '../lib/api';
import {
  breakpointForStep, bpId, hitAt, initialState, mapCursor, parseBpId, reducer, settle,
  type Breakpoint, type DebuggerEvent, type DebuggerState,
} from './machine';

const view = seed as TraceView;
const invalid = invalidFixture as TraceView;
const last = view.steps.length - 1;
const run = (s: DebuggerState, ...evs: DebuggerEvent[]) => evs.reduce(reducer, s);
const loaded = run(initialState, { type: 'load', view });
const at = (cursor: number, bps: string[] = []): DebuggerState => ({ status: 'paused', view, cursor, hit: null, breakpoints: bps });
const cont = (s: DebuggerState) => settle(reducer(s, { type: 'continue' }));
const bp = (b: Breakpoint) => ({ type: 'toggleBreakpoint', breakpoint: b }) as const;
const stepOfCall = (c: number) => view.calls[c]!.step;

// one of every state
const states: Record<DebuggerState['status'], DebuggerState> = {
  empty: initialState,
  loading: { status: 'loading', breakpoints: [] },
  invalid: { status: 'invalid', view: invalid, breakpoints: [] },
  paused: at(5),
  running: { status: 'running', view, cursor: 5, breakpoints: ['call:*'] }, // tick stops at the next LLM call
  ended: { status: 'ended', view, cursor: last, breakpoints: [] },
};
// one of every event
const events: Record<DebuggerEvent['type'], DebuggerEvent> = {
  loadStart: { type: 'loadStart' },
  load: { type: 'load', view },
  stepForward: { type: 'stepForward' },
  stepBack: { type: 'stepBack' },
  continue: { type: 'continue' },
  tick: { type: 'tick' },
  arrive: { type: 'arrive', step: 7, hit: null },
  pause: { type: 'pause' },
  restart: { type: 'restart' },
  toggleBreakpoint: bp({ kind: 'checkpoint', key: 5 }),
  jumpToCall: { type: 'jumpToCall', call: 2 },
  jumpToStep: { type: 'jumpToStep', step: 10 },
  traceUpdated: { type: 'traceUpdated', view },
  selectRequest: { type: 'selectRequest', request: 1 },
};

// expected status after each event in each state (the transition table)
const table: Record<DebuggerState['status'], Record<DebuggerEvent['type'], DebuggerState['status']>> = {
  empty: { loadStart: 'loading', load: 'paused', stepForward: 'empty', stepBack: 'empty', continue: 'empty', arrive: 'empty', tick: 'empty', pause: 'empty', restart: 'empty', toggleBreakpoint: 'empty', jumpToCall: 'empty', jumpToStep: 'empty', traceUpdated: 'paused', selectRequest: 'empty' },
  loading: { loadStart: 'loading', load: 'paused', stepForward: 'loading', stepBack: 'loading', continue: 'loading', arrive: 'loading', tick: 'loading', pause: 'loading', restart: 'loading', toggleBreakpoint: 'loading', jumpToCall: 'loading', jumpToStep: 'loading', traceUpdated: 'paused', selectRequest: 'loading' },
  invalid: { loadStart: 'loading', load: 'paused', stepForward: 'invalid', stepBack: 'invalid', continue: 'invalid', arrive: 'invalid', tick: 'invalid', pause: 'invalid', restart: 'invalid', toggleBreakpoint: 'invalid', jumpToCall: 'invalid', jumpToStep: 'invalid', traceUpdated: 'paused', selectRequest: 'invalid' },
  paused: { loadStart: 'loading', load: 'paused', stepForward: 'paused', stepBack: 'paused', continue: 'running', arrive: 'paused', tick: 'paused', pause: 'paused', restart: 'paused', toggleBreakpoint: 'paused', jumpToCall: 'paused', jumpToStep: 'paused', traceUpdated: 'paused', selectRequest: 'paused' },
  running: { loadStart: 'loading', load: 'paused', stepForward: 'running', stepBack: 'running', continue: 'running', arrive: 'paused', tick: 'paused', pause: 'paused', restart: 'paused', toggleBreakpoint: 'running', jumpToCall: 'paused', jumpToStep: 'paused', traceUpdated: 'running', selectRequest: 'paused' },
  ended: { loadStart: 'loading', load: 'paused', stepForward: 'ended', stepBack: 'paused', continue: 'ended', arrive: 'ended', tick: 'ended', pause: 'ended', restart: 'paused', toggleBreakpoint: 'ended', jumpToCall: 'paused', jumpToStep: 'paused', traceUpdated: 'ended', selectRequest: 'paused' },
};

describe('transition table: every event in every state', () => {
  for (const [st, state] of Object.entries(states)) {
    for (const [ev, event] of Object.entries(events)) {
      const want = table[st as DebuggerState['status']][ev as DebuggerEvent['type']];
      it(`${st} --${ev}--> ${want}`, () => {
        const next = reducer(state, event);
        expect(next.status).toBe(want);
        if ('cursor' in next) {
          expect(next.cursor).toBeGreaterThanOrEqual(0);
          expect(next.cursor).toBeLessThanOrEqual(next.view.steps.length - 1);
        }
        if (ev !== 'toggleBreakpoint') expect(next.breakpoints).toEqual(state.breakpoints);
      });
    }
  }
});

describe('loading', () => {
  it('loads a view paused at the first step', () => {
    expect(loaded).toMatchObject({ status: 'paused', cursor: 0, hit: null });
  });
  it('loads an invalid scenario into invalid', () => {
    expect(run(initialState, { type: 'load', view: invalid }).status).toBe('invalid');
  });
  it('loads an empty trace (no scenario) into empty', () => {
    expect(run(loaded, { type: 'load', view: emptyTrace() }).status).toBe('empty');
  });
  it('keeps breakpoints across loads', () => {
    const s = run(initialState, bp({ kind: 'call', key: '*' }), { type: 'loadStart' }, { type: 'load', view });
    expect(s.breakpoints).toEqual(['call:*']);
  });
});

describe('stepping', () => {
  it('steps forward and back', () => {
    expect(run(loaded, { type: 'stepForward' }, { type: 'stepForward' })).toMatchObject({ status: 'paused', cursor: 2 });
    expect(run(at(3), { type: 'stepBack' })).toMatchObject({ cursor: 2 });
  });
  it('stays on step 0 when stepping back from it', () => {
    expect(run(loaded, { type: 'stepBack' })).toBe(loaded);
  });
  it('ends after the last step and steps back into it', () => {
    const ended = run(at(last), { type: 'stepForward' });
    expect(ended).toMatchObject({ status: 'ended', cursor: last });
    expect(run(ended, { type: 'stepBack' })).toMatchObject({ status: 'paused', cursor: last });
  });
  it('restarts at step 0 from paused, running and ended', () => {
    for (const s of [at(20), states.running, states.ended]) expect(run(s, { type: 'restart' })).toMatchObject({ status: 'paused', cursor: 0 });
  });
  it('jumps to a step (clamped) and to an LLM call', () => {
    expect(run(loaded, { type: 'jumpToStep', step: 9999 })).toMatchObject({ cursor: last });
    expect(run(loaded, { type: 'jumpToStep', step: -4 })).toMatchObject({ cursor: 0 });
    expect(run(loaded, { type: 'jumpToStep', step: Number.NaN })).toBe(loaded);
    expect(run(loaded, { type: 'jumpToCall', call: 3 })).toMatchObject({ cursor: stepOfCall(3) });
    expect(run(loaded, { type: 'jumpToCall', call: 99 })).toBe(loaded);
  });
  it('selects a request at its first step', () => {
    expect(run(loaded, { type: 'selectRequest', request: 2 })).toMatchObject({ cursor: view.requests[2]!.first_step });
    expect(run(loaded, { type: 'selectRequest', request: 7 })).toBe(loaded);
  });
  it('pauses a running run where it is', () => {
    expect(run(states.running, { type: 'pause' })).toMatchObject({ status: 'paused', cursor: 5 });
  });
});

describe('breakpoints', () => {
  it('continue without breakpoints runs to the end', () => {
    const s = reducer(loaded, { type: 'continue' });
    expect(s.status).toBe('running');
    expect(settle(s)).toMatchObject({ status: 'ended', cursor: last });
  });
  it('a checkpoint breakpoint stops at inject steps of that checkpoint, in order', () => {
    const injects = view.steps.filter((s) => s.kind === 'inject' && s.checkpoint === 5).map((s) => s.index);
    expect(injects.length).toBe(2);
    let s = run(loaded, bp({ kind: 'checkpoint', key: 5 }));
    s = cont(s);
    expect(s).toMatchObject({ status: 'paused', cursor: injects[0], hit: 'checkpoint:5' });
    s = cont(s);
    expect(s).toMatchObject({ status: 'paused', cursor: injects[1] });
    expect(cont(s).status).toBe('ended');
  });
  it('a hook breakpoint stops where that hook is injected', () => {
    const s = cont(run(loaded, bp({ kind: 'hook', key: 'demo/truncated-content-hint' })));
    const step = view.steps[(s as { cursor: number }).cursor]!;
    expect(step.kind).toBe('inject');
    expect(step.hooks).toContain('demo/truncated-content-hint');
    expect(cont(s).status).toBe('ended');
    // a persistent hook injected in every request stops three times... but not in request 3 (skill off)
    let m = run(loaded, bp({ kind: 'hook', key: 'demo/memory' }));
    const stops: number[] = [];
    for (m = cont(m); m.status === 'paused'; m = cont(m)) stops.push(view.steps[m.cursor]!.request);
    expect(stops).toEqual([0, 1]);
  });
  it('a call breakpoint stops at that LLM call only; "*" at every call', () => {
    expect(cont(run(loaded, bp({ kind: 'call', key: 3 })))).toMatchObject({ cursor: stepOfCall(3), hit: 'call:3' });
    let s = run(loaded, bp({ kind: 'call', key: '*' }));
    const calls: number[] = [];
    for (s = cont(s); s.status === 'paused'; s = cont(s)) calls.push(view.steps[s.cursor]!.call!);
    expect(calls).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it('toggling twice removes the breakpoint', () => {
    const b = bp({ kind: 'call', key: 1 });
    expect(run(loaded, b, b).breakpoints).toEqual([]);
  });
  it('hitAt / breakpointForStep / ids', () => {
    const call = view.steps[stepOfCall(1)]!;
    expect(hitAt(call, ['call:*'])).toBe('call:*');
    expect(hitAt(call, ['call:2'])).toBeNull();
    expect(hitAt(undefined, ['call:*'])).toBeNull();
    expect(breakpointForStep(call)).toEqual({ kind: 'call', key: 1 });
    expect(breakpointForStep(view.steps[1])).toEqual({ kind: 'checkpoint', key: 1 });
    expect(breakpointForStep(view.steps[0])).toBeNull();
    const yieldStep = view.steps.find((s) => s.kind === 'yield');
    expect(breakpointForStep(yieldStep)).toEqual({ kind: 'hook', key: 'demo/memory' });
    for (const b of [{ kind: 'checkpoint', key: 3 }, { kind: 'hook', key: 'a/b' }, { kind: 'call', key: '*' }, { kind: 'call', key: 4 }] as Breakpoint[]) {
      expect(parseBpId(bpId(b))).toEqual(b);
    }
    expect(parseBpId('nonsense:1')).toBeNull();
  });
});

describe('traceUpdated keeps the cursor on the same logical step', () => {
  // a new revision where an extra hook message appears before call #2: every later step shifts by one
  function shifted(): TraceView {
    const v: TraceView = structuredClone(view);
    const k = v.calls[2]!.step - 1;
    const extra = { ...v.steps[k]!, index: k + 1, kind: 'inject' as const, timing: 'before_each_agent' as const, checkpoint: 3, added: [], removed: [] };
    v.steps.splice(k + 1, 0, extra);
    v.steps.forEach((s, i) => { s.index = i; });
    for (const c of v.calls) if (c.step > k) c.step++;
    for (const r of v.requests) { if (r.first_step > k) r.first_step++; if (r.last_step >= k) r.last_step++; }
    v.revision++;
    return v;
  }
  it('drops an older revision of the same scenario (a late answer after a newer event)', () => {
    const next = shifted();
    const s = run(at(stepOfCall(3)), { type: 'traceUpdated', view: next });
    const late = run(s, { type: 'traceUpdated', view });
    expect(late).toBe(s);
    expect(late.status === 'paused' && late.view.revision).toBe(next.revision);
  });
  it('drops the answer to a scenario pick that arrives after its finished simulation (CI: stuck loading)', () => {
    const done = shifted();
    const pending: TraceView = { ...emptyTrace(), status: 'running', file: done.file, pending: true, revision: done.revision - 1 };
    const s = run(loaded, { type: 'loadStart' }, { type: 'traceUpdated', view: done }, { type: 'traceUpdated', view: pending });
    expect(s).toMatchObject({ status: 'paused', cursor: 0 });
    expect(s.status === 'paused' && s.view).toBe(done);
    // also when the finished run has nothing to step through
    const failed: TraceView = { ...emptyTrace(), status: 'error', file: done.file, revision: done.revision };
    expect(run(initialState, { type: 'loadStart' }, { type: 'traceUpdated', view: failed }, { type: 'traceUpdated', view: pending }).status).toBe('empty');
    // the revisions are the backend's, whatever the scenario: the previous scenario's late event is stale too
    const other: TraceView = { ...done, file: 'other/scenarios/x.yaml', revision: done.revision - 1 };
    expect(run(s, { type: 'traceUpdated', view: other })).toBe(s);
    const next: TraceView = { ...pending, file: 'other/scenarios/x.yaml', revision: done.revision + 1 };
    expect(run(s, { type: 'traceUpdated', view: next }).status).toBe('loading');
  });
  it('follows an LLM call to its new step', () => {
    const next = shifted();
    const s = run(at(stepOfCall(3)), { type: 'traceUpdated', view: next });
    expect(s).toMatchObject({ status: 'paused', cursor: next.calls[3]!.step });
    expect(s.status === 'paused' && s.view).toBe(next);
  });
  it('follows any other step by kind, place and occurrence', () => {
    const next = shifted();
    const reply = view.requests[1]!.last_step;
    const s = run(at(reply), { type: 'traceUpdated', view: next });
    expect((s as { cursor: number }).cursor).toBe(next.requests[1]!.last_step);
    expect(mapCursor(view, 3, next)).toBe(3);
  });
  it('falls back to the same offset inside the request, then clamps', () => {
    const fewer: TraceView = { ...view, steps: view.steps.slice(0, 10), calls: view.calls.slice(0, 1), requests: [{ ...view.requests[0]!, last_step: 9 }] };
    expect(mapCursor(view, 30, fewer)).toBe(9);
    expect(mapCursor(view, 30, { ...fewer, requests: [] })).toBe(9);
  });
  it('keeps running and ended states', () => {
    expect(run(states.running, { type: 'traceUpdated', view }).status).toBe('running');
    expect(run(states.ended, { type: 'traceUpdated', view })).toMatchObject({ status: 'ended', cursor: last });
  });
  it('goes invalid, and back to paused when fixed', () => {
    const bad = { ...invalid, file: view.file, revision: view.revision + 1 };
    const s = run(at(12), { type: 'traceUpdated', view: bad });
    expect(s.status).toBe('invalid');
    expect(run(s, { type: 'traceUpdated', view: { ...view, revision: view.revision + 2 } }).status).toBe('paused');
  });
  it('a trace of another scenario is a fresh load', () => {
    const other = { ...view, file: 'x/scenarios/other.yaml' };
    expect(run(at(12), { type: 'traceUpdated', view: other })).toMatchObject({ cursor: 0 });
  });
});

describe('executable hooks', () => {
  const exec = execFixture as unknown as TraceView;
  const guard = exec.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.hook === 'guard')!;
  const branch = exec.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.hook === 'branch')!;
  const loadedExec = run(initialState, { type: 'load', view: exec });

  it('breaks on an event: an engine point or a native event name', () => {
    expect(hitAt(guard, ['event:before_tool'])).toBe('event:before_tool');
    expect(hitAt(guard, ['event:pre_tool_execution'])).toBe('event:pre_tool_execution');
    expect(hitAt(guard, ['event:before_llm'])).toBeNull();
    const s = cont(run(loadedExec, bp({ kind: 'event', key: 'pre_tool_execution' })));
    expect(s).toMatchObject({ status: 'paused', cursor: guard.index, hit: 'event:pre_tool_execution' });
  });
  it('breaks on one hook by system and name', () => {
    expect(hitAt(branch, ['exec:command/branch'])).toBe('exec:command/branch');
    expect(hitAt(branch, ['exec:process/branch'])).toBeNull();
    const s = cont(run(loadedExec, bp({ kind: 'exec', key: 'command/guard' })));
    expect(s).toMatchObject({ status: 'paused', cursor: guard.index, hit: 'exec:command/guard' });
    // the next continue runs to the end: the guard fires once
    expect(cont(s).status).toBe('ended');
  });
  it('breaks on a Claude Code handler by its command, and on its native event with or without the tool', () => {
    const cc = { ...guard, hook_call: { ...guard.hook_call!, system: 'claude-code', event: 'PreToolUse:Bash', hook: 'sh .claude/hooks/guard.sh', outcome: 'blocked' as const } };
    expect(hitAt(cc, ['exec:claude-code/sh .claude/hooks/guard.sh'])).toBe('exec:claude-code/sh .claude/hooks/guard.sh');
    expect(hitAt(cc, ['exec:command/sh .claude/hooks/guard.sh'])).toBeNull();
    expect(hitAt(cc, ['event:PreToolUse'])).toBe('event:PreToolUse');
    expect(hitAt(cc, ['event:PreToolUse:Bash'])).toBe('event:PreToolUse:Bash');
    expect(hitAt(cc, ['event:PreToolUse:Read'])).toBeNull();
    expect(hitAt(cc, ['event:PreTool'])).toBeNull();
    expect(breakpointForStep(cc)).toEqual({ kind: 'exec', key: 'claude-code/sh .claude/hooks/guard.sh' });
  });
  it('F9 on a hook_call step toggles a breakpoint on that hook', () => {
    expect(breakpointForStep(guard)).toEqual({ kind: 'exec', key: 'command/guard' });
    for (const b of [{ kind: 'event', key: 'hook.before_llm' }, { kind: 'exec', key: 'process/audit' }] as Breakpoint[]) {
      expect(parseBpId(bpId(b))).toEqual(b);
    }
    expect(parseBpId('exec:')).toBeNull();
  });
  it('a pending view of a run still going on is loading, its result a load', () => {
    const pending: TraceView = { ...emptyTrace(), status: 'running', file: exec.file, pending: true };
    expect(run(initialState, { type: 'load', view: pending }).status).toBe('loading');
    expect(run(at(3), { type: 'traceUpdated', view: pending }).status).toBe('loading');
    const s = run(initialState, { type: 'load', view: pending }, { type: 'traceUpdated', view: exec });
    expect(s).toMatchObject({ status: 'paused', cursor: 0 });
  });
  it('keeps the cursor on the same hook call when the trace is re-simulated', () => {
    const next: TraceView = structuredClone(exec);
    next.revision++;
    expect(mapCursor(exec, guard.index, next)).toBe(guard.index);
  });
});
