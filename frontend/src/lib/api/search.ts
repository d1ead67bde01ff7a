// The bound Search service: full-text search across every run of the history and every session on
// disk (app/store/search, docs/search.md). Without the Go backend an in-memory mock searches the
// hits tests give it, so the view can be tried and tested.
import type { bind, search } from './models';
import type { Refine } from './types';
import { hasBackend, on, Search } from './wails';

export type HitKind = 'message' | 'answer' | 'tool_call' | 'hook';
export type HitSource = 'cli' | 'app' | 'live' | 'capture' | 'session' | 'disk';
/** search.Segment: a piece of a snippet; hit marks the matched words */
export type Segment = search.Segment;
/** search.Hit: where a hit is (run or file, call, message, step), what it is, its snippet; started is RFC 3339 */
export type SearchHit = Refine<search.Hit, { kind: HitKind; source: HitSource; started: string }>;
/** search.Query without its dates: since/until go as YYYY-MM-DD days (the local day; until includes it) */
export type SearchQuery = Refine<search.Query, { kind: HitKind | ''; source: HitSource | ''; since: string; until: string }>;
export type SearchResults = Refine<search.Results, { hits: SearchHit[] }>;
/** how far the index is: while it runs, what is not indexed yet is not found */
export type SearchProgress = search.Progress;
export type SearchPage = Refine<bind.SearchPage, { results: SearchResults }>;

export const PAGE = 50;
export const PROGRESS_EVENT = 'search:progress';

export const emptyQuery: SearchQuery = { text: '', agent: '', project: '', hook: '', event: '', outcome: '', source: '', kind: '', since: '', until: '', limit: PAGE, offset: 0 };

interface SearchBinding {
  Find(q: SearchQuery): Promise<SearchPage>;
  Status(): Promise<SearchProgress>;
}

/** A day as the Go side's time: the local midnight it starts at (until: the next one). */
export function dayTime(day: string, next = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + (next ? 1 : 0)).toISOString();
}

const bound: SearchBinding = {
  // an empty date is Go's zero time: left out, not ""
  Find: (q) => {
    const { since, until, ...rest } = q;
    const g: Partial<search.Query> = { ...rest };
    const s = dayTime(since), u = dayTime(until, true);
    if (s) g.since = s;
    if (u) g.until = u;
    return Search.Find(g as search.Query) as Promise<SearchPage>;
  },
  Status: () => Search.Status(),
};

type Listener = (p: SearchProgress) => void;

/** The mock: the hits tests set, matched by the words of the query in their snippets and by the filters. */
export function createSearchMock() {
  const listeners = new Set<Listener>();
  let hits: SearchHit[] = [];
  let status: SearchProgress = { done: 0, total: 0, indexed: 0, running: false };
  let fail: string | null = null;
  const queries: SearchQuery[] = [];
  const text = (h: SearchHit) => h.snippet.map((s) => s.text).join('').toLowerCase();
  const api: SearchBinding = {
    Find: async (q) => {
      queries.push(q);
      if (fail) throw fail;
      const words = q.text.toLowerCase().split(/\s+/).filter((w) => w && !w.includes(':'));
      const filters = Object.fromEntries(q.text.split(/\s+/).filter((w) => /^(outcome|event|agent|kind|source):/.test(w)).map((w) => w.split(':', 2) as [string, string]));
      const want = (field: string, v: string) => !v || field.toLowerCase() === v.toLowerCase() || field.toLowerCase().startsWith(`${v.toLowerCase()}:`);
      const found = hits.filter((h) => words.every((w) => text(h).includes(w)) &&
        want(h.outcome, q.outcome || filters.outcome || '') && want(h.event, q.event || filters.event || '') && want(h.agent, q.agent || filters.agent || '') &&
        want(h.kind, q.kind || filters.kind || '') && want(h.source, q.source || filters.source || '') &&
        (!q.hook || h.hook.toLowerCase().includes(q.hook.toLowerCase())) && (!q.project || h.project === q.project || h.project.startsWith(`${q.project}/`)));
      if (words.length === 0 && Object.keys(filters).length === 0 && !q.outcome && !q.event && !q.agent && !q.kind && !q.source && !q.hook && !q.project) {
        throw 'bad search: type words to find, or a filter (outcome:blocked)';
      }
      const page = found.slice(q.offset, q.offset + q.limit);
      return { results: { hits: page, total: found.length, more: false, offset: q.offset, limit: q.limit }, status };
    },
    Status: async () => status,
  };
  return {
    api,
    queries,
    setHits: (h: SearchHit[]) => { hits = h; },
    setStatus: (s: SearchProgress) => { status = s; },
    setError: (e: string | null) => { fail = e; },
    emit: (p: SearchProgress) => { status = p; for (const l of [...listeners]) l(p); },
    on: (l: Listener) => { listeners.add(l); return () => { listeners.delete(l); }; },
    listeners,
  };
}

let mock: ReturnType<typeof createSearchMock> | null = null;
/** The mock backend (tests reset it). */
export function searchMock() { return (mock ??= createSearchMock()); }
export function resetSearchMock() { mock = createSearchMock(); return mock; }

const api = (): SearchBinding => (hasBackend() ? bound : searchMock().api);
/** A page of hits for q and how far the index is; starts indexing on the first call. */
export const findHits = (q: SearchQuery): Promise<SearchPage> => api().Find(q);
/** How far the index is; starts indexing on the first call. */
export const searchStatus = (): Promise<SearchProgress> => api().Status();

/** Listens to the index's progress; returns the function that stops listening. */
export function onSearchProgress(cb: (p: SearchProgress) => void): () => void {
  return hasBackend() ? on<SearchProgress>(PROGRESS_EVENT, cb) : searchMock().on(cb);
}
