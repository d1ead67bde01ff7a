// A stored run read as a RunSource, a page at a time (docs/trace-view.md, "Pages"): what is asked
// for and not held yet is fetched from the History binding, in pages, once; the source tells its
// readers when it arrives. Pages are kept in small LRU caches, so what the page holds stays the
// size of what was looked at lately, never the run. While the run's tokens are counted in the
// background (history:tokens) the figures held are fetched again and the rows' counts updated in
// place.
import type { LLMCall } from '../lib/api';
import type { BreakpointId } from '../lib/api/breakpoints';
import { pagesApi } from '../lib/api/history';
import { headOfPaged, onTokens, type Bar, type Cells, type ListHead, type MessageRow, type PagedRun, type PagesBinding, type PageStep, type SourceHead } from '../lib/api/pages';
import type { Cell, Part, RunSource, StopAt } from './source';

export const STEP_PAGE = 100;
export const CALL_PAGE = 50;
export const ROW_PAGE = 20;
export const CELL_HOOKS = 16;
export const CELL_CALLS = 50;
/**
 * A row page's key is step × ROW_PAGES + page: a number, since the message list's layout looks up
 * every row of a list (thousands) each time rows arrive.
 */
const ROW_PAGES = 2 ** 24;

/** Pages of one kind: held (least recently used first), being fetched, or failed. */
class PageCache<K, V> {
  private held = new Map<K, V>();
  private fetching = new Set<K>();
  private failed = new Set<K>();
  constructor(private readonly max: number, private readonly load: (k: K) => Promise<V>, private readonly arrived: () => void) {}

  /** The page, or undefined while it is fetched (asked for now if it is not). */
  get(k: K): V | undefined {
    const v = this.held.get(k);
    if (v !== undefined) {
      this.held.delete(k);
      this.held.set(k, v);
      return v;
    }
    this.fetch(k);
    return undefined;
  }

  /** The page if held, without asking for it. */
  peek(k: K): V | undefined { return this.held.get(k); }
  keys(): K[] { return [...this.held.keys()]; }
  put(k: K, v: V): void { this.held.set(k, v); }

  fetch(k: K, again = false): void {
    if (this.fetching.has(k) || (!again && this.failed.has(k))) return;
    this.fetching.add(k);
    let loading: Promise<V>;
    try { loading = this.load(k); } catch (e) { loading = Promise.reject(e); }
    loading.then((v) => {
      this.failed.delete(k);
      this.held.delete(k);
      this.held.set(k, v);
      while (this.held.size > this.max) this.held.delete(this.held.keys().next().value as K);
      this.arrived();
    }, () => { this.failed.add(k); }).finally(() => { this.fetching.delete(k); });
  }

  /** Fetch every held page again, showing the held one until the new one arrives. */
  refresh(): void { for (const k of this.keys()) this.fetch(k, true); }
}

/** Runs fn before the next paint (at once where there is no painting: tests). */
const nextFrame = (fn: () => void) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : queueMicrotask(fn));

export class PagedSource implements RunSource {
  readonly kind = 'pages';
  readonly handle: number;
  readonly run: PagedRun['head']['run'];
  private h: SourceHead;
  private v = 0;
  private parts: Record<Part, number> = { head: 0, steps: 0, calls: 0, lists: 0, rows: 0, cells: 0, bars: 0, texts: 0 };
  private listeners = new Set<() => void>();
  private queued = false;
  private closed = false;
  private readonly visitsOf: PagedRun['head']['visits'];
  private steps: PageCache<number, PageStep[]>;
  private calls: PageCache<number, LLMCall[]>;
  private lists: PageCache<number, ListHead>;
  private rows: PageCache<number, MessageRow[]>;
  private cells: PageCache<string, Cells>;
  private barsFor: PageCache<number, Bar[]>;
  private texts: PageCache<number, string>;
  private stopTokens: () => void;
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(private readonly api: PagesBinding, opened: PagedRun) {
    this.handle = opened.handle;
    this.run = opened.head.run;
    this.h = headOfPaged(opened.head);
    this.visitsOf = opened.head.visits;
    const arrived = (part: Part) => () => this.changed(part);
    const h = this.handle;
    this.steps = new PageCache(30, (p) => api.Steps(h, p * STEP_PAGE, STEP_PAGE), arrived('steps'));
    this.calls = new PageCache(30, (p) => api.Calls(h, p * CALL_PAGE, CALL_PAGE), arrived('calls'));
    this.lists = new PageCache(64, (s) => api.List(h, s), arrived('lists'));
    // a page asked for while the last counts were being stored can come after them, its rows still
    // pending: once the run says nothing is, their counts are asked for again
    this.rows = new PageCache(24, (k) => api.Rows(h, Math.floor(k / ROW_PAGES), (k % ROW_PAGES) * ROW_PAGE, ROW_PAGE), () => {
      this.changed('rows');
      if (this.h.pending === 0 && this.rows.keys().some((key) => this.rows.peek(key)!.some((r) => r.message.pending))) this.countsArrived();
    });
    this.cells = new PageCache(64, (k) => { const [r, c] = k.split(':').map(Number); return api.Cells(h, r! * CELL_HOOKS, CELL_HOOKS, c! * CELL_CALLS, CELL_CALLS); }, arrived('cells'));
    this.barsFor = new PageCache(4, (n) => api.Bars(h, n), arrived('bars'));
    this.texts = new PageCache(8, (id) => api.Text(h, id), arrived('texts'));
    this.stopTokens = this.h.pending > 0 ? onTokens((p) => { if (p.run === this.run.id) this.countsArrived(); }) : () => {};
    // what the first screen shows, asked for at once rather than as each part renders
    this.step(0);
    this.list(0);
    this.call(0);
  }

  head = () => this.h;
  version = () => this.v;
  versionOf = (part: Part) => this.parts[part];
  subscribe = (l: () => void) => { this.listeners.add(l); return () => { this.listeners.delete(l); }; };

  /** Tell the readers once per frame, however many pages arrived in it: a jump brings a dozen. */
  private changed(...parts: Part[]): void {
    this.v++;
    for (const p of parts) this.parts[p]++;
    if (this.queued) return;
    this.queued = true;
    nextFrame(() => {
      this.queued = false;
      for (const l of [...this.listeners]) l();
    });
  }

  step = (i: number): PageStep | undefined => (i < 0 || i >= this.h.steps ? undefined : this.steps.get(Math.floor(i / STEP_PAGE))?.[i % STEP_PAGE]);
  call = (c: number): LLMCall | undefined => (c < 0 || c >= this.h.calls ? undefined : this.calls.get(Math.floor(c / CALL_PAGE))?.[c % CALL_PAGE]);
  list = (step: number): ListHead | undefined => {
    if (step < 0 || step >= this.h.steps) return undefined;
    const held = this.lists.get(step);
    // its first rows are asked for with it, not once it has come: a list's first screen is one round trip
    if (!held) this.rows.get(step * ROW_PAGES);
    return held;
  };
  row = (step: number, k: number, fetch = true): MessageRow | undefined => {
    if (k < 0) return undefined;
    const key = step * ROW_PAGES + Math.floor(k / ROW_PAGE);
    return (fetch ? this.rows.get(key) : this.rows.peek(key))?.[k % ROW_PAGE];
  };
  cell = (hook: number, call: number): Cell | undefined => {
    const block = this.cells.get(`${Math.floor(hook / CELL_HOOKS)}:${Math.floor(call / CELL_CALLS)}`);
    const copies = block?.copies[hook % CELL_HOOKS]?.[call % CELL_CALLS];
    return copies === undefined ? undefined : { copies, tokens: block!.tokens[hook % CELL_HOOKS]![call % CELL_CALLS]! };
  };
  text = (id: number) => this.texts.get(id);
  visits = (request: number) => this.visitsOf[request];
  bars = (n: number) => this.barsFor.get(n);

  nextStop = (from: number, breakpoints: readonly BreakpointId[]): Promise<StopAt> =>
    this.api.NextStop(this.handle, from, [...breakpoints]).then((s) => ({ step: s.step, hit: s.hit ?? null }));

  callStep = (c: number): Promise<number | undefined> => {
    const held = this.calls.peek(Math.floor(c / CALL_PAGE))?.[c % CALL_PAGE];
    if (held) return Promise.resolve(held.step);
    // the chart's bars know the steps of their largest calls: a click on one goes there at once
    for (const n of this.barsFor.keys()) {
      const bar = this.barsFor.peek(n)!.find((b) => b.max_call === c);
      if (bar) return Promise.resolve(bar.max_step);
    }
    return this.api.Calls(this.handle, c, 1).then((cs) => cs[0]?.step);
  };

  rowOf = (step: number, id: number): Promise<number> => this.api.RowOf(this.handle, step, id);

  /** Lets the run go on the Go side; the source answers nothing new after. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTokens();
    void this.api.Close(this.handle).catch(() => {});
  }

  /** Counts arrived: the head, the figures held and the rows' counts again, one refresh at a time. */
  private countsArrived(): void {
    if (this.closed) return;
    if (this.refreshing) { this.again = true; return; }
    this.refreshing = this.refresh().finally(() => {
      this.refreshing = null;
      if (this.again) { this.again = false; this.countsArrived(); }
    });
  }

  private async refresh(): Promise<void> {
    const opened = await this.api.Head(this.handle).catch(() => null);
    if (!opened || this.closed) return;
    this.h = headOfPaged(opened.head);
    this.lists.refresh();
    this.calls.refresh();
    this.cells.refresh();
    this.barsFor.refresh();
    // the rows' texts stay: only their counts are asked for, and put in place
    const ids = new Set<number>();
    for (const k of this.rows.keys()) for (const r of this.rows.peek(k)!) if (r.message.pending) ids.add(r.message.id);
    if (ids.size > 0) {
      const counts = await this.api.Tokens(this.handle, [...ids]).catch(() => []);
      const byId = new Map(counts.map((t) => [t.id, t]));
      for (const k of this.rows.keys()) {
        const page = this.rows.peek(k)!;
        if (!page.some((r) => byId.has(r.message.id))) continue;
        this.rows.put(k, page.map((r) => {
          const t = byId.get(r.message.id);
          return t ? { ...r, message: { ...r.message, tokens: t.tokens, pending: !!t.pending } } : r;
        }));
      }
    }
    if (this.h.pending === 0) this.stopTokens();
    this.changed('head', 'rows');
  }
}

/** Opens stored run id in pages. */
export async function openPaged(id: number, api: PagesBinding = pagesApi()): Promise<PagedSource> {
  return new PagedSource(api, await api.Open(id));
}
