// The bound History service (issue 5): stored runs, their comparison and the figures behind the
// charts. Without the Go backend an in-memory mock answers, built from the fixture trace, so the
// view can be looked at and tested in a plain browser.
import seed from '../../fixtures/seed-diagrams.json';
import type { history } from './models';
import type { Phase, Refine, TraceView } from './types';
import { hasBackend, History, on } from './wails';
import { boundPages, viewPagesBinding, type PagesBinding } from './pages';

export type RunSource = 'live' | 'app' | 'cli' | 'capture' | 'session';
export type RunStatus = TraceView['status'];

/** app/store/history.RunSummary; started and ended are RFC 3339 */
export type RunSummary = Refine<history.RunSummary, { source: RunSource; status: RunStatus; started: string; ended: string }>;

/** app/store/history.Filter; since/until are RFC 3339 strings, empty fields do not filter. */
export type RunFilter = Partial<Refine<history.Filter, { since: string; until: string; source: RunSource | '' }>>;

export type CallStatus = 'same' | 'changed' | 'added' | 'removed';
export type MessageOp = 'added' | 'removed' | 'changed';
/** a, b: the message ids in run A and B (null where it has none) */
export type MessageDiff = Refine<history.MessageDiff, { op: MessageOp; a: number | null; b: number | null }>;
/** a, b: the call's index in run A and B (null where it has none) */
export type CallDiff = Refine<history.CallDiff, { phase: Phase; round: number | null; a: number | null; b: number | null; status: CallStatus; messages: MessageDiff[] }>;
export type Comparison = Refine<history.Comparison, { a: RunSummary; b: RunSummary; calls: CallDiff[] }>;
export type HookPoint = Refine<history.HookPoint, { started: string; source: RunSource }>;
export type PromptPoint = Refine<history.PromptPoint, { started: string; source: RunSource }>;

export interface HistoryBinding {
  Runs(filter: RunFilter): Promise<RunSummary[]>;
  Compare(a: number, b: number): Promise<Comparison>;
  HookCost(hook: string, limit: number): Promise<HookPoint[]>;
  PromptSizes(scenario: string, limit: number): Promise<PromptPoint[]>;
}

// Go reads a filter's missing fields as zero values: no filtering.
const bound: HistoryBinding = {
  Runs: (f) => History.Runs(f as history.Filter) as Promise<RunSummary[]>,
  Compare: (a, b) => History.Compare(a, b) as Promise<Comparison>,
  HookCost: (hook, limit) => History.HookCost(hook, limit) as Promise<HookPoint[]>,
  PromptSizes: (scenario, limit) => History.PromptSizes(scenario, limit) as Promise<PromptPoint[]>,
};

export const RUN_EVENT = 'history:run';

function historyApi(): HistoryBinding {
  return hasBackend() ? bound : mockHistory().binding;
}

/** Strips empty fields so the Go side sees zero values (no filtering). */
export function cleanFilter(f: RunFilter): RunFilter {
  const out: RunFilter = {};
  for (const [k, v] of Object.entries(f) as [keyof RunFilter, RunFilter[keyof RunFilter]][]) {
    if (v !== undefined && v !== '' && v !== null) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

export const listRuns = (filter: RunFilter = {}): Promise<RunSummary[]> => historyApi().Runs(cleanFilter(filter));
/** A stored run's pages: the History binding's, or the fallback history's worked out from its views. */
export function pagesApi(): PagesBinding {
  return hasBackend() ? boundPages : mockHistory().pages;
}
export const compareRuns = (a: number, b: number): Promise<Comparison> => historyApi().Compare(a, b);
export const hookCost = (hook: string, limit = 50): Promise<HookPoint[]> => historyApi().HookCost(hook, limit);
export const promptSizes = (scenario: string, limit = 50): Promise<PromptPoint[]> => historyApi().PromptSizes(scenario, limit);

/** Listen to `history:run` (payload: the new run id); returns the function that stops listening. */
export function onRunRecorded(cb: (id: number) => void): () => void {
  if (hasBackend()) return on<number>(RUN_EVENT, (id) => cb(Number(id)));
  const m = mockHistory();
  m.listeners.add(cb);
  return () => { m.listeners.delete(cb); };
}

// ---------------------------------------------------------------------------------------------
// In-memory mock: runs are stored TraceViews; Compare aligns calls and messages like the Go side
// (by request/phase/round, then messages by tag+role with an LCS).

interface MockRun { summary: RunSummary; view: TraceView; skills: string[]; hashes: Record<string, string> }

export interface MockHistory {
  binding: HistoryBinding;
  pages: PagesBinding;
  runs: MockRun[];
  listeners: Set<(id: number) => void>;
  /** store a run (as the backend does after each simulation) and emit history:run */
  record: (view: TraceView, opts?: { source?: RunSource; started?: Date; wallMs?: number }) => RunSummary;
}

let mock: MockHistory | undefined;
function mockHistory(): MockHistory {
  mock ??= createMockHistory(typeof location === 'undefined' ? '' : location.search);
  return mock;
}

/** Reset the fallback history; `seeded: false` starts empty (tests). */
export function resetMockHistory(opts: { seeded?: boolean } = {}): MockHistory {
  mock = createMockHistory(opts.seeded === false ? '?nohistory' : '');
  return mock;
}

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
  return (h >>> 0).toString(16).padStart(8, '0');
}

export function messageTag(m: TraceView['messages'][number]): string {
  switch (m.origin) {
    case 'hook': return `hook:${m.hook ?? ''}`;
    case 'prompt': return `prompt:${m.prompt ?? ''}`;
    case 'tool': return `tool:${m.tool ?? ''}`;
    case 'history': return `h.${m.history_of === 'hook' ? `hook:${m.hook ?? ''}` : m.history_of === 'user_input' ? 'user' : m.history_of ?? ''}`;
    case 'user_input': return 'user';
    default: return m.origin;
  }
}

const idsAt = (v: TraceView, step: number, request: number): number[] =>
  v.messages.filter((m) => m.request === request && m.created <= step && (m.removed === null || m.removed > step)).map((m) => m.id);

function diffLists(va: TraceView, vb: TraceView, ia: number[], ib: number[]): { messages: MessageDiff[]; same: number } {
  const key = (v: TraceView, id: number) => { const m = v.messages[id]!; return `${messageTag(m)}\0${m.skill ?? ''}\0${m.role}`; };
  const ka = ia.map((id) => key(va, id)), kb = ib.map((id) => key(vb, id));
  const w = kb.length + 1;
  const lcs = new Int32Array((ka.length + 1) * w);
  for (let i = ka.length - 1; i >= 0; i--) for (let j = kb.length - 1; j >= 0; j--) {
    lcs[i * w + j] = ka[i] === kb[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  }
  const out: MessageDiff[] = [];
  let same = 0, i = 0, j = 0;
  const removed = (x: number) => { const m = va.messages[x]!; out.push({ op: 'removed', tag: messageTag(m), role: m.role, a: x, b: null, content_a: m.content, tokens_a: m.tokens, tokens_b: 0, token_delta: -m.tokens }); };
  const added = (y: number) => { const m = vb.messages[y]!; out.push({ op: 'added', tag: messageTag(m), role: m.role, a: null, b: y, content_b: m.content, tokens_a: 0, tokens_b: m.tokens, token_delta: m.tokens }); };
  while (i < ka.length && j < kb.length) {
    if (ka[i] === kb[j]) {
      const x = va.messages[ia[i]!]!, y = vb.messages[ib[j]!]!;
      if (x.content === y.content) same++;
      else out.push({ op: 'changed', tag: messageTag(y), role: y.role, a: x.id, b: y.id, content_a: x.content, content_b: y.content, tokens_a: x.tokens, tokens_b: y.tokens, token_delta: y.tokens - x.tokens });
      i++; j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) removed(ia[i++]!);
    else added(ib[j++]!);
  }
  while (i < ka.length) removed(ia[i++]!);
  while (j < kb.length) added(ib[j++]!);
  return { messages: out, same };
}

// an agent's side call (Gemini CLI's router) comes before the request's first agent call
const phaseRank = { direct: 0, planning: 1, side: 1.5, agent: 2 } as const;

export function compareViews(ra: { summary: RunSummary; view: TraceView }, rb: { summary: RunSummary; view: TraceView }): Comparison {
  const keyOf = (c: TraceView['calls'][number]) => `${c.request}|${phaseRank[c.phase]}|${c.round ?? -1}`;
  const ca = new Map(ra.view.calls.map((c) => [keyOf(c), c]));
  const cb = new Map(rb.view.calls.map((c) => [keyOf(c), c]));
  const keys = [...new Set([...ca.keys(), ...cb.keys()])].sort((x, y) => {
    const [a1, a2, a3] = x.split('|').map(Number), [b1, b2, b3] = y.split('|').map(Number);
    return a1! - b1! || a2! - b2! || a3! - b3!;
  });
  const calls: CallDiff[] = keys.map((k) => {
    const x = ca.get(k), y = cb.get(k);
    const c = (y ?? x)!;
    const { messages, same } = diffLists(ra.view, rb.view, x ? idsAt(ra.view, x.step, x.request) : [], y ? idsAt(rb.view, y.step, y.request) : []);
    const ta = x?.tokens ?? 0, tb = y?.tokens ?? 0;
    const status: CallStatus = !x ? 'added' : !y ? 'removed' : messages.length > 0 || ta !== tb ? 'changed' : 'same';
    return { request: c.request, phase: c.phase, round: c.round, a: x?.index ?? null, b: y?.index ?? null, status, tokens_a: ta, tokens_b: tb, token_delta: tb - ta, same, messages };
  });
  const tokensA = calls.reduce((s, c) => s + c.tokens_a, 0), tokensB = calls.reduce((s, c) => s + c.tokens_b, 0);
  return { a: ra.summary, b: rb.summary, calls, tokens_a: tokensA, tokens_b: tokensB, token_delta: tokensB - tokensA, changed_calls: calls.filter((c) => c.status !== 'same').length };
}

/** The fixture trace with one hook's text replaced (token count scaled by length). */
function withHookText(v: TraceView, hookId: string, text: string): TraceView {
  const messages = v.messages.map((m) => {
    if ((m.origin === 'hook' || m.history_of === 'hook') && `${m.skill}/${m.hook}` === hookId) {
      const tokens = Math.max(4, Math.round(m.tokens * (text.length / Math.max(1, m.content.length))));
      return { ...m, content: text, tokens };
    }
    return m;
  });
  const calls = v.calls.map((c) => {
    const ids = idsAt({ ...v, messages }, c.step, c.request);
    return { ...c, tokens: ids.reduce((s, id) => s + messages[id]!.tokens, 0) };
  });
  const hooks = v.hooks.map((h) => (`${h.skill}/${h.name}` === hookId ? { ...h, content: text } : h));
  return { ...v, messages, calls, hooks };
}

function createMockHistory(search: string): MockHistory {
  const runs: MockRun[] = [];
  const listeners = new Set<(id: number) => void>();
  let nextId = 1;
  const record: MockHistory['record'] = (view, opts = {}) => {
    const started = opts.started ?? new Date();
    const wall = opts.wallMs ?? 3 + (view.steps.length % 7);
    const tokensIn = view.calls.reduce((s, c) => s + c.tokens, 0);
    const summary: RunSummary = {
      id: nextId++, scenario: view.scenario, scenario_file: view.file, scenario_hash: hash(view.file + view.scenario),
      backend: 'mock', source: opts.source ?? 'live', status: view.status, ...(view.error ? { error: view.error } : {}),
      started: started.toISOString(), ended: new Date(started.getTime() + wall).toISOString(), wall_ms: wall,
      steps: view.steps.length, llm_calls: view.calls.length, tokens_in: tokensIn,
      tokens_out: view.calls.reduce((s, c) => s + Math.ceil(c.content.length / 4), 0),
      max_prompt_tokens: view.calls.reduce((s, c) => Math.max(s, c.tokens), 0),
    };
    const hashes: Record<string, string> = {};
    for (const h of view.hooks) hashes[`${h.skill}/${h.name}`] = hash(h.content);
    const skills = [...new Set([view.file.split('/')[0] ?? '', ...view.hooks.map((h) => h.skill)])];
    runs.push({ summary, view: structuredClone(view), skills, hashes });
    for (const l of [...listeners]) l(summary.id);
    return summary;
  };

  if (!new URLSearchParams(search).has('nohistory')) {
    // a few days of edits to one hook, so the charts have something to show
    const base = seed as TraceView;
    const mem = base.hooks.find((h) => h.name === 'memory');
    const memId = mem ? `${mem.skill}/${mem.name}` : '';
    const day = 24 * 3600 * 1000;
    const t0 = Date.now() - 4 * day;
    const texts = mem ? [mem.content, mem.content, `${mem.content}\nKeep answers short.`, `${mem.content}\nKeep answers short.`, mem.content.slice(0, Math.ceil(mem.content.length / 2))] : [];
    texts.forEach((t, i) => {
      const v = memId ? withHookText(base, memId, t) : base;
      record(v, { source: i === 1 ? 'cli' : i === 3 ? 'app' : 'live', started: new Date(t0 + i * day * 0.8), wallMs: 4 + i });
    });
  }

  const find = (id: number) => {
    const r = runs.find((x) => x.summary.id === id);
    return r ? Promise.resolve(r) : Promise.reject(`load run ${id}: no such run`);
  };
  const newestFirst = (list: MockRun[]) => [...list].sort((x, y) => y.summary.started.localeCompare(x.summary.started) || y.summary.id - x.summary.id);
  const b: HistoryBinding = {
    Runs: (f) => {
      const since = f.since ? Date.parse(f.since) : -Infinity, until = f.until ? Date.parse(f.until) : Infinity;
      const list = newestFirst(runs).filter((r) => {
        const t = Date.parse(r.summary.started);
        return (!f.scenario || r.summary.scenario === f.scenario) && (!f.skill || r.skills.includes(f.skill)) &&
          (!f.source || r.summary.source === f.source) && t >= since && t < until;
      });
      const off = Math.max(0, f.offset ?? 0);
      return Promise.resolve(list.slice(off, f.limit && f.limit > 0 ? off + f.limit : undefined).map((r) => ({ ...r.summary })));
    },
    Compare: (a, c) => Promise.all([find(a), find(c)]).then(([x, y]) => compareViews(x, y)),
    HookCost: (hook, limit) => {
      const list = newestFirst(runs).filter((r) => r.hashes[hook] !== undefined).slice(0, limit > 0 ? limit : undefined).reverse();
      return Promise.resolve(list.map((r) => {
        const row = r.view.matrix.hooks.indexOf(hook);
        const total = row >= 0 ? r.view.calls.reduce((s, c) => s + (idsAt(r.view, c.step, c.request).reduce((t, id) => {
          const m = r.view.messages[id]!;
          return t + ((m.origin === 'hook' || m.history_of === 'hook') && `${m.skill}/${m.hook}` === hook ? m.tokens : 0);
        }, 0)), 0) : 0;
        const copies = row >= 0 ? (r.view.matrix.copies[row] ?? []) : [];
        return {
          run: r.summary.id, started: r.summary.started, scenario: r.summary.scenario, source: r.summary.source, content_hash: r.hashes[hook]!,
          injected: r.view.steps.filter((s) => s.kind === 'inject' && s.hooks?.includes(hook)).length,
          calls_seen: copies.filter((n) => n > 0).length, copies_seen: copies.reduce((s, n) => s + n, 0), tokens_total: total,
        };
      }));
    },
    PromptSizes: (scenario, limit) => {
      const list = newestFirst(runs).filter((r) => r.summary.scenario === scenario).slice(0, limit > 0 ? limit : undefined).reverse();
      return Promise.resolve(list.map((r) => ({ run: r.summary.id, started: r.summary.started, source: r.summary.source, llm_calls: r.summary.llm_calls, tokens_in: r.summary.tokens_in, max_prompt_tokens: r.summary.max_prompt_tokens })));
    },
  };
  const pages = viewPagesBinding((id) => find(id).then((r) => ({ summary: { ...r.summary }, view: { ...r.view, changes: [] } })));
  return { binding: b, pages, runs, listeners, record };
}
