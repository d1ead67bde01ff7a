// A run served in pages (docs/trace-view.md, "Pages"): the History binding opens a stored run and
// answers for the steps, calls, list rows and matrix cells in view, never the whole run. The same
// pages are worked out here from a whole TraceView — the live simulation's, and the fallback
// history's when there is no Go backend — so both kinds of run are read through one shape.
import type { studio } from './models';
import type { FlowLoop, Hook, LLMCall, Message, Refine, RequestInfo, Step, TraceStatus, TraceView } from './types';
import { carriedIn, listAt, type MessageRow } from './messages';
import { hitAt, type BreakpointId } from './breakpoints';
import type { RunSummary } from './history';
import { hasBackend, History, on } from './wails';

export type { MessageRow } from './messages';
export type Carried = studio.Carried;
/** first: the first step at which the request reaches each node (by id); hooks: hook invocations per node */
export type Visits = studio.Visits;
/** the message list at a step without its rows; tokens counts the counted messages, pending the others */
export type ListHead = studio.ListHead;
/** a span of calls of the tokens-per-call chart: its largest prompt and which call it is */
export type Bar = studio.Bar;
export type Cells = studio.Cells;
export type MessageTokens = studio.Tokens;
/** a step with the index of its node in the run's loop (-1 none) and, for an LLM call, the call's warning */
export type PageStep = Step & { node: number; warning?: string };
export type PagedHead = Refine<studio.PagesHead, { run: RunSummary; status: TraceStatus; hooks: Hook[]; requests: RequestInfo[]; loop: FlowLoop }>;
export interface PagedRun { handle: number; head: PagedHead }

/** A stored run's count going on in the background (event history:tokens). */
export interface TokensProgress { run: number; counted: number; pending: number; done: boolean; error?: string }
export const TOKENS_EVENT = 'history:tokens';

/** What a run says of itself at once, read the same way for a whole view and for pages. */
export interface SourceHead {
  scenario: string;
  file: string;
  status: TraceStatus;
  error?: string;
  /** the live simulation's revision; 0 for a stored run */
  revision: number;
  steps: number;
  calls: number;
  messages: number;
  hooks: Hook[];
  requests: RequestInfo[];
  carried: Carried[];
  loop: FlowLoop;
  why: string;
  matrix: { hooks: string[]; systems: string[]; totals: number[]; seen: number[] };
  /** executable hook invocations, and those that changed what the model reads */
  hookCalls: number;
  changingHookCalls: number;
  /** executable hooks configured for the run (a live simulation's; 0 for a stored run) */
  execHooks: number;
  /** texts whose tokens are still being counted (a stored run kept before they were) */
  pending: number;
}

export function headOfPaged(h: PagedHead): SourceHead {
  return {
    scenario: h.scenario, file: h.file, status: h.status, error: h.error, revision: 0, steps: h.steps, calls: h.calls, messages: h.messages,
    hooks: h.hooks, requests: h.requests, carried: h.carried, loop: h.loop, why: h.why, matrix: h.matrix,
    hookCalls: h.hook_calls, changingHookCalls: h.changing_hook_calls, execHooks: 0, pending: h.tokens.pending,
  };
}

// ---- the pages of a whole view -----------------------------------------------------------------

interface ViewPages { head?: SourceHead; steps?: (PageStep | undefined)[]; visits?: Map<number, Visits> }
const viewCache = new WeakMap<TraceView, ViewPages>();
const cached = (view: TraceView): ViewPages => {
  let c = viewCache.get(view);
  if (!c) { c = {}; viewCache.set(view, c); }
  return c;
};

export function headOfView(view: TraceView): SourceHead {
  const c = cached(view);
  if (c.head) return c.head;
  const seen = view.matrix.copies.map((row) => row.reduce((n, x) => n + (x > 0 ? 1 : 0), 0));
  let hookCalls = 0, changing = 0;
  const counted = new Set<number>();
  for (const s of view.steps) {
    if (s.kind !== 'hook_call' || !s.hook_call) continue;
    const k = s.hook_call_index ?? s.index;
    if (!counted.has(k)) { counted.add(k); hookCalls++; }
    if ((s.hook_call.changes?.length ?? 0) > 0) changing++;
  }
  c.head = {
    scenario: view.scenario, file: view.file, status: view.status, error: view.error, revision: view.revision,
    steps: view.steps.length, calls: view.calls.length, messages: view.messages.length, hooks: view.hooks, requests: view.requests,
    carried: view.requests.map((r) => { const x = carriedIn(view, r.index); return { messages: x.messages, hook_copies: x.hookCopies }; }),
    loop: view.flow.loop, why: view.flow.why,
    matrix: { hooks: view.matrix.hooks, systems: view.matrix.systems, totals: view.matrix.totals, seen },
    hookCalls, changingHookCalls: changing, execHooks: view.exec?.hooks.length ?? 0, pending: 0,
  };
  return c.head;
}

export function stepOfView(view: TraceView, i: number): PageStep | undefined {
  const s = view.steps[i];
  if (!s) return undefined;
  const c = cached(view);
  c.steps ??= new Array<PageStep | undefined>(view.steps.length);
  let p = c.steps[i];
  if (!p) {
    const warning = s.kind === 'llm_call' && s.call !== null ? view.calls[s.call]?.warning : undefined;
    p = { ...s, node: view.flow.steps[i] ?? -1, ...(warning ? { warning } : {}) };
    c.steps[i] = p;
  }
  return p;
}

export function listOfView(view: TraceView, step: number): ListHead {
  const l = listAt(view, step);
  return { step, rows: l.rows.length, live: l.live, tokens: l.tokens, pending: 0, added: l.added, removed: l.removed, first_change: l.firstChange };
}

/** For one request: where it first reaches each node, and the hook invocations at each. */
export function visitsOfView(view: TraceView, request: number): Visits | undefined {
  const req = view.requests[request];
  if (!req) return undefined;
  const c = cached(view);
  c.visits ??= new Map();
  let v = c.visits.get(request);
  if (v) return v;
  v = { first: {}, hooks: {} };
  const calls = new Set<number>();
  for (let i = req.first_step; i <= req.last_step && i < view.steps.length; i++) {
    const n = view.flow.loop.nodes[view.flow.steps[i] ?? -1];
    if (!n) continue;
    if (v.first[n.id] === undefined) v.first[n.id] = i;
    const s = view.steps[i]!;
    const k = s.hook_call_index ?? s.index;
    if (s.kind === 'hook_call' && s.hook_call && !calls.has(k)) { calls.add(k); v.hooks[n.id] = (v.hooks[n.id] ?? 0) + 1; }
  }
  c.visits.set(request, v);
  return v;
}

/** The calls' prompt tokens in at most n bars, each the largest of a span of calls (studio.Pages.Bars). */
export function barsOf(calls: readonly Pick<LLMCall, 'tokens' | 'step' | 'pending'>[], n: number): Bar[] {
  if (n <= 0 || calls.length === 0) return [];
  const per = Math.ceil(calls.length / n);
  const out: Bar[] = [];
  for (let first = 0; first < calls.length; first += per) {
    const b: Bar = { first, last: Math.min(first + per, calls.length) - 1, max: -1, max_call: first, max_step: 0, pending: false };
    for (let c = first; c <= b.last; c++) {
      if (calls[c]!.tokens > b.max) { b.max = calls[c]!.tokens; b.max_call = c; }
      b.pending ||= !!calls[c]!.pending;
    }
    b.max_step = calls[b.max_call]!.step;
    out.push(b);
  }
  return out;
}

export function nextStopOfView(view: TraceView, from: number, breakpoints: readonly BreakpointId[]): { step: number; hit: BreakpointId | null } {
  for (let i = Math.max(from + 1, 0); i < view.steps.length; i++) {
    const hit = hitAt(view.steps[i], breakpoints);
    if (hit) return { step: i, hit };
  }
  return { step: -1, hit: null };
}

// ---- the binding --------------------------------------------------------------------------------

/** The History binding's pages, in the frontend's types: the bound service or the fallback's. */
export interface PagesBinding {
  Open(id: number): Promise<PagedRun>;
  Close(handle: number): Promise<void>;
  Head(handle: number): Promise<PagedRun>;
  Steps(handle: number, from: number, n: number): Promise<PageStep[]>;
  Calls(handle: number, from: number, n: number): Promise<LLMCall[]>;
  List(handle: number, step: number): Promise<ListHead>;
  Rows(handle: number, step: number, from: number, n: number): Promise<MessageRow[]>;
  RowOf(handle: number, step: number, id: number): Promise<number>;
  Tokens(handle: number, ids: number[]): Promise<MessageTokens[]>;
  Text(handle: number, id: number): Promise<string>;
  Cells(handle: number, hook: number, hooks: number, call: number, calls: number): Promise<Cells>;
  Bars(handle: number, n: number): Promise<Bar[]>;
  NextStop(handle: number, from: number, breakpoints: string[]): Promise<{ step: number; hit?: string }>;
}

/** The Go side's pages (history.ts pagesApi picks it, or the fallback history's). */
export const boundPages: PagesBinding = {
  Open: (id) => History.Open(id) as Promise<PagedRun>,
  Close: (h) => History.Close(h),
  Head: (h) => History.Head(h) as Promise<PagedRun>,
  Steps: (h, from, n) => History.Steps(h, from, n) as Promise<PageStep[]>,
  Calls: (h, from, n) => History.Calls(h, from, n) as Promise<LLMCall[]>,
  List: (h, step) => History.List(h, step),
  Rows: (h, step, from, n) => History.Rows(h, step, from, n).then((rows) =>
    rows.map((r) => ({ message: r.message as Message, injected: r.injected, removedHere: r.removed_here }))),
  RowOf: (h, step, id) => History.RowOf(h, step, id),
  Tokens: (h, ids) => History.Tokens(h, ids),
  Text: (h, id) => History.Text(h, id),
  Cells: (h, hook, hooks, call, calls) => History.Cells(h, hook, hooks, call, calls),
  Bars: (h, n) => History.Bars(h, n),
  NextStop: (h, from, bps) => History.NextStop(h, from, bps),
};

/**
 * The pages of whole views, as the Go side serves a stored run's: for the fallback history (no
 * Go backend), whose runs are TraceViews. open finds a run's view and summary.
 */
export function viewPagesBinding(open: (id: number) => Promise<{ summary: RunSummary; view: TraceView }>): PagesBinding {
  const handles = new Map<number, { summary: RunSummary; view: TraceView }>();
  let next = 0;
  const get = (h: number) => {
    const r = handles.get(h);
    return r ? Promise.resolve(r) : Promise.reject(new Error('the run is no longer open'));
  };
  const headOf = (h: number, r: { summary: RunSummary; view: TraceView }): PagedRun => {
    const x = headOfView(r.view);
    return {
      handle: h,
      head: {
        run: r.summary, scenario: x.scenario, file: x.file, status: x.status, error: x.error, steps: x.steps, calls: x.calls, messages: x.messages,
        hooks: x.hooks, requests: x.requests, carried: x.carried, matrix: x.matrix, loop: x.loop, why: x.why,
        visits: r.view.requests.map((q) => visitsOfView(r.view, q.index)!), hook_calls: x.hookCalls, changing_hook_calls: x.changingHookCalls, tokens: { pending: 0 },
      },
    };
  };
  const slice = <T>(xs: readonly T[], from: number, n: number): T[] => xs.slice(Math.max(from, 0), Math.max(from, 0) + Math.max(n, 0));
  return {
    Open: (id) => open(id).then((r) => { const h = ++next; handles.set(h, r); return headOf(h, r); }),
    Close: (h) => { handles.delete(h); return Promise.resolve(); },
    Head: (h) => get(h).then((r) => headOf(h, r)),
    Steps: (h, from, n) => get(h).then((r) => slice(r.view.steps, from, n).map((s) => stepOfView(r.view, s.index)!)),
    Calls: (h, from, n) => get(h).then((r) => slice(r.view.calls, from, n)),
    List: (h, step) => get(h).then((r) => listOfView(r.view, step)),
    Rows: (h, step, from, n) => get(h).then((r) => slice(listAt(r.view, step).rows, from, n)),
    RowOf: (h, step, id) => get(h).then((r) => listAt(r.view, step).rows.findIndex((row) => row.message.id === id)),
    Tokens: (h, ids) => get(h).then((r) => ids.map((id) => ({ id, tokens: r.view.messages[id]?.tokens ?? 0 }))),
    Text: (h, id) => get(h).then((r) => r.view.messages[id]?.content ?? ''),
    Cells: (h, hook, hooks, call, calls) => get(h).then((r) => {
      const rows = slice(r.view.matrix.hooks.map((_, i) => i), hook, hooks);
      const cols = slice(r.view.calls.map((c) => c.index), call, calls);
      return {
        hook: rows[0] ?? hook, call: cols[0] ?? call,
        copies: rows.map((i) => cols.map((c) => r.view.matrix.copies[i]?.[c] ?? 0)),
        tokens: rows.map((i) => cols.map((c) => r.view.matrix.tokens[i]?.[c] ?? 0)),
      };
    }),
    Bars: (h, n) => get(h).then((r) => barsOf(r.view.calls, n)),
    NextStop: (h, from, bps) => get(h).then((r) => { const s = nextStopOfView(r.view, from, bps); return s.hit ? { step: s.step, hit: s.hit } : { step: s.step }; }),
  };
}

const tokenListeners = new Set<(p: TokensProgress) => void>();
/** Listen to history:tokens; returns the function that stops listening. */
export function onTokens(cb: (p: TokensProgress) => void): () => void {
  if (hasBackend()) return on<TokensProgress>(TOKENS_EVENT, cb);
  tokenListeners.add(cb);
  return () => { tokenListeners.delete(cb); };
}
/** Test/dev hook: a count's progress through the fallback. */
export function emitMockTokens(p: TokensProgress): void {
  for (const l of [...tokenListeners]) l(p);
}
