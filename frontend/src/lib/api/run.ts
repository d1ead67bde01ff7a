// Real models (issue 6, docs/trace-view.md "Real models"): endpoint profiles and runs against them,
// through the bound Studio service; without the Go backend an in-memory mock (createRunMock)
// scripts a short run.
import type { profiles, studio } from './models';
import type { Refine, TraceView } from './types';
import { emptyTrace } from './types';
import { hasBackend, on, Studio } from './wails';

export type Provider = 'openai' | 'anthropic';
export type KeySource = 'keyring' | 'env' | 'none';
/** app/store/profiles.Profile; timeout is a Go duration such as "30s" (profiles.Duration) */
export type Profile = Refine<profiles.Profile, { provider: Provider; timeout?: string }>;
export type ProfileInfo = Refine<studio.ProfileInfo, { provider: Provider; timeout?: string; key_source: KeySource }>;
/** latency in nanoseconds (Go time.Duration) */
export type ConnectionResult = Refine<profiles.Result, { key_source: KeySource }>;
export type RunOptions = studio.RunOptions;
// The run:* events' payloads (studio's run events; events are not bindings, so not generated).
export type RunEndStatus = 'ok' | 'error' | 'cancelled' | 'max_rounds';

export interface RunPaused { call: number; request: string; view: TraceView }
export interface RunDelta { call: number; text: string }
export interface RunTool { id: string; name: string; arguments?: Record<string, unknown> }
export interface RunRetry { attempt: number; wait_ms: number; error: string }
export interface RunEnded { status: RunEndStatus; error?: string; run_id?: number; view: TraceView }
/** studio.RunWaiting: the run waits for the user (paused at a checkpoint, an approval) at step, the last of view */
export interface RunWaiting { step: number; reason: 'paused' | 'approval'; view: TraceView }

export interface RunEvents {
  'run:paused': RunPaused;
  'run:delta': RunDelta;
  'run:tool': RunTool;
  'run:retry': RunRetry;
  'run:trace': TraceView;
  'run:waiting': RunWaiting;
  'run:ended': RunEnded;
}
export type RunEventName = keyof RunEvents;
export const RUN_EVENTS: readonly RunEventName[] = ['run:paused', 'run:delta', 'run:tool', 'run:retry', 'run:trace', 'run:waiting', 'run:ended'];

/** The Studio methods this module calls. */
export interface RunBinding {
  Profiles(): Promise<ProfileInfo[] | null>;
  SaveProfile(profile: Profile, key: string): Promise<void>;
  DeleteProfile(name: string): Promise<void>;
  TestConnection(name: string): Promise<ConnectionResult>;
  StartRun(opts: RunOptions): Promise<void>;
  Resume(step: boolean): Promise<void>;
  AnswerTool(result: string): Promise<void>;
  CancelRun(): Promise<void>;
  SaveRunAsScenario(): Promise<string>;
}

const bound: RunBinding = {
  Profiles: () => Studio.Profiles() as Promise<ProfileInfo[] | null>,
  SaveProfile: (profile, key) => Studio.SaveProfile(profile as profiles.Profile, key),
  DeleteProfile: (name) => Studio.DeleteProfile(name),
  TestConnection: (name) => Studio.TestConnection(name) as Promise<ConnectionResult>,
  StartRun: (opts) => Studio.StartRun(opts),
  Resume: (step) => Studio.Resume(step),
  AnswerTool: (result) => Studio.AnswerTool(result),
  CancelRun: () => Studio.CancelRun(),
  SaveRunAsScenario: () => Studio.SaveRunAsScenario(),
};

// ---------------------------------------------------------------------------------------------
// In-memory mock: profiles in a Map, a scripted run of two LLM calls with one tool call the user
// must answer. Deterministic and driven by the same calls the real backend takes.
type Listener = (p: unknown) => void;
export interface RunMock {
  binding: RunBinding;
  on(event: string, cb: Listener): () => void;
  emit<E extends RunEventName>(event: E, payload: RunEvents[E]): void;
  profiles: Map<string, Profile>;
  keys: Map<string, string>;
  calls: { method: string; args: unknown[] }[];
}

export function createRunMock(): RunMock {
  const listeners = new Map<string, Set<Listener>>();
  const profiles = new Map<string, Profile>();
  const keys = new Map<string, string>();
  const calls: { method: string; args: unknown[] }[] = [];
  let run: { opts: RunOptions; call: number; waiting: 'pause' | 'tool' | null; step: boolean } | null = null;
  let last = false;
  const emit = <E extends RunEventName>(event: E, payload: RunEvents[E]) => {
    for (const cb of [...(listeners.get(event) ?? [])]) cb(payload);
  };
  const view = (calls: number): TraceView => ({ ...emptyTrace(), scenario: 'mock', file: 'mock/scenarios/mock.yaml', status: 'ok', revision: calls });
  const TOTAL = 2;
  const later = (f: () => void) => setTimeout(f, 0);
  const request = (c: number) => JSON.stringify({ model: run?.opts.profile ?? 'mock', stream: true, messages: [{ role: 'system', content: 'You are a mock.' }, { role: 'user', content: `call ${c}` }] }, null, 0);
  const advance = () => {
    if (!run) return;
    const r = run;
    if (r.call >= TOTAL) {
      run = null; last = true;
      emit('run:ended', { status: 'ok', run_id: 1, view: view(TOTAL) });
      return;
    }
    if (r.step || r.opts.breakpoints.includes(r.call)) {
      r.waiting = 'pause';
      emit('run:paused', { call: r.call, request: request(r.call), view: view(r.call) });
      return;
    }
    send();
  };
  const send = () => {
    if (!run) return;
    const r = run;
    emit('run:delta', { call: r.call, text: r.call === 0 ? 'Reading the file' : 'Done.' });
    emit('run:trace', view(r.call + 1));
    if (r.call === 0) {
      r.waiting = 'tool';
      emit('run:tool', { id: 'call_1', name: 'read_file', arguments: { path: 'main.go' } });
      return;
    }
    r.call++;
    advance();
  };
  const rec = (method: string, ...args: unknown[]) => { calls.push({ method, args }); };
  const binding: RunBinding = {
    Profiles: async () => { rec('Profiles'); return [...profiles.values()].map((p) => ({ ...p, key_source: keys.has(p.name) ? 'keyring' : 'none' })); },
    SaveProfile: async (p, key) => {
      rec('SaveProfile', p, key);
      if (!p.name.trim()) throw 'profile name is empty';
      if (!/^https?:\/\//.test(p.base_url)) throw `base URL ${JSON.stringify(p.base_url)} is not an http(s) URL`;
      profiles.set(p.name, { ...p });
      if (key) keys.set(p.name, key);
    },
    DeleteProfile: async (name) => { rec('DeleteProfile', name); profiles.delete(name); keys.delete(name); },
    TestConnection: async (name) => {
      rec('TestConnection', name);
      if (!profiles.has(name)) throw `no profile ${JSON.stringify(name)}`;
      return keys.has(name)
        ? { ok: true, message: 'connected', key_source: 'keyring', latency: 42_000_000, reply: 'pong' }
        : { ok: false, message: 'no API key: set one in the profile or OPENAI_API_KEY', key_source: 'none', latency: 0 };
    },
    StartRun: async (opts) => {
      rec('StartRun', opts);
      if (run) throw 'a run is already in progress; cancel it first';
      if (!profiles.has(opts.profile)) throw `no profile ${JSON.stringify(opts.profile)}`;
      run = { opts, call: 0, waiting: null, step: opts.step };
      later(advance);
    },
    Resume: async (step) => {
      rec('Resume', step);
      if (!run || run.waiting !== 'pause') throw 'no run is waiting';
      run.waiting = null; run.step = step;
      later(send);
    },
    AnswerTool: async (result) => {
      rec('AnswerTool', result);
      if (!run || run.waiting !== 'tool') throw 'no run is waiting';
      run.waiting = null; run.call++;
      later(advance);
    },
    CancelRun: async () => {
      rec('CancelRun');
      if (!run) throw 'no run is waiting';
      const c = run.call;
      run = null; last = true;
      emit('run:ended', { status: 'cancelled', error: 'context canceled', run_id: 2, view: view(c) });
    },
    SaveRunAsScenario: async () => {
      rec('SaveRunAsScenario');
      if (!last) throw 'no finished real run to save';
      return 'mock/scenarios/mock-replay.yaml';
    },
  };
  return {
    binding, profiles, keys, calls, emit,
    on(event, cb) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(cb);
      return () => { set.delete(cb); };
    },
  };
}

let mock: RunMock | undefined;
function mockRun(): RunMock {
  mock ??= createRunMock();
  return mock;
}
/** The fallback backend (tests, plain `vite dev`). */
export function runMock(): RunMock { return mockRun(); }
/** Reset the fallback backend (tests). */
export function resetRunMock(): RunMock {
  mock = createRunMock();
  return mock;
}

function b(): RunBinding {
  return hasBackend() ? bound : mockRun().binding;
}

export const listProfiles = async (): Promise<ProfileInfo[]> => (await b().Profiles()) ?? [];
/** An empty key keeps the stored one. */
export const saveProfile = (p: Profile, key: string): Promise<void> => b().SaveProfile(p, key);
export const deleteProfile = (name: string): Promise<void> => b().DeleteProfile(name);
export const testConnection = (name: string): Promise<ConnectionResult> => b().TestConnection(name);
export const startRun = (opts: RunOptions): Promise<void> => b().StartRun(opts);
export const resumeRun = (step: boolean): Promise<void> => b().Resume(step);
export const answerTool = (result: string): Promise<void> => b().AnswerTool(result);
export const cancelRun = (): Promise<void> => b().CancelRun();
export const saveRunAsScenario = (): Promise<string> => b().SaveRunAsScenario();

/**
 * A run's view with every list present: a trace in progress can carry Go nil slices (JSON null),
 * e.g. `requests` before the first request is complete, which the simulator's components index.
 */
export function normalizeView(v: TraceView | null | undefined): TraceView {
  const e = emptyTrace();
  if (!v) return e;
  const m = v.matrix ?? e.matrix;
  return {
    ...v,
    diagnostics: v.diagnostics ?? [], hooks: v.hooks ?? [], messages: v.messages ?? [], calls: v.calls ?? [], requests: v.requests ?? [],
    changes: v.changes ?? [],
    steps: (v.steps ?? []).map((s) => (s.added && s.removed ? s : { ...s, added: s.added ?? [], removed: s.removed ?? [] })),
    matrix: { hooks: m.hooks ?? [], systems: m.systems ?? [], copies: m.copies ?? [], tokens: m.tokens ?? [], totals: m.totals ?? [] },
    flow: v.flow?.loop ? { ...v.flow, steps: v.flow.steps ?? [] } : e.flow,
  };
}

/** Normalises the views inside run events (see normalizeView). */
export function normalizeRunEvent<E extends RunEventName>(event: E, p: RunEvents[E]): RunEvents[E] {
  if (event === 'run:trace') return normalizeView(p as TraceView) as RunEvents[E];
  if (event === 'run:paused' || event === 'run:ended' || event === 'run:waiting') {
    const q = p as RunPaused | RunEnded | RunWaiting;
    return { ...q, view: normalizeView(q.view) } as RunEvents[E];
  }
  return p;
}

/** Listen to a run event; returns the function that stops listening. */
export function onRun<E extends RunEventName>(event: E, cb: (payload: RunEvents[E]) => void): () => void {
  if (hasBackend()) return on<RunEvents[E]>(event, (p) => cb(normalizeRunEvent(event, p)));
  return mockRun().on(event, cb as Listener);
}

/** A Go duration string ("1m30s", "250ms", "30s") in seconds; NaN if it is not one. */
export function durationSeconds(d: string | undefined): number {
  if (!d) return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  const unit: Record<string, number> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0, used = 0;
  for (const m of d.matchAll(re)) { total += Number(m[1]) * unit[m[2]!]!; used += m[0].length; }
  return used === d.length ? total : NaN;
}
