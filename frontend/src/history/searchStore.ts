// The search across every run and session (History ▸ Search, Ctrl+K): what is asked, the hits
// found so far (a page at a time), how far the index is. It lives outside the view so that opening
// a hit and coming back finds the search as it was, and so that the index finishing a sync runs
// the search again (what it indexed meanwhile may be found now).
import { Store } from '../lib/store';
import { emptyQuery, findHits, onSearchProgress, PAGE, searchStatus, type SearchHit, type SearchProgress, type SearchQuery } from '../lib/api/search';

export type SearchForm = Omit<SearchQuery, 'limit' | 'offset'>;

export interface SearchState {
  form: SearchForm;
  /** null until a search ran */
  hits: SearchHit[] | null;
  total: number;
  /** more hits than counted: the best of the newest are shown */
  capped: boolean;
  loading: boolean;
  error: string | null;
  status: SearchProgress | null;
  /** the search is what the history shows (until closed) */
  visible: boolean;
  /** bumped to focus its box */
  focus: number;
  /** the hit the arrow keys are on */
  selected: number;
}

const emptyForm: SearchForm = {
  text: emptyQuery.text, agent: emptyQuery.agent, project: emptyQuery.project, hook: emptyQuery.hook, event: emptyQuery.event,
  outcome: emptyQuery.outcome, source: emptyQuery.source, kind: emptyQuery.kind, since: emptyQuery.since, until: emptyQuery.until,
};

/** Whether a form asks anything: words or a filter. */
export function asks(f: SearchForm): boolean {
  return Object.entries(f).some(([, v]) => typeof v === 'string' && v.trim() !== '');
}

export class SearchStore extends Store<SearchState> {
  private seq = 0;
  constructor() {
    super({ form: emptyForm, hits: null, total: 0, capped: false, loading: false, error: null, status: null, visible: false, focus: 0, selected: 0 });
  }

  /** Brings the search up with its box focused; asks how far the index is (which starts it). */
  open = () => {
    this.patch({ visible: true, focus: this.get().focus + 1 });
    this.refreshStatus();
  };

  /** Back to the runs (the search is kept for the next time). */
  close = () => this.patch({ visible: false });

  refreshStatus = () => {
    searchStatus().then((status) => this.patch({ status }), (e: unknown) => this.patch({ error: String(e) }));
  };

  /** Changes what is asked and searches again (nothing asked: no hits, no error). */
  setForm = (p: Partial<SearchForm>) => {
    this.patch({ form: { ...this.get().form, ...p } });
    this.run();
  };

  clearFilters = () => this.setForm({ ...emptyForm, text: this.get().form.text });

  select = (i: number) => {
    const n = this.get().hits?.length ?? 0;
    if (n > 0) this.patch({ selected: Math.max(0, Math.min(n - 1, i)) });
  };

  /** The first page of hits for the form. */
  run = (): Promise<void> => {
    const seq = ++this.seq;
    const form = this.get().form;
    if (!asks(form)) {
      this.patch({ hits: null, total: 0, capped: false, loading: false, error: null, selected: 0 });
      return Promise.resolve();
    }
    this.patch({ loading: true });
    return findHits({ ...form, limit: PAGE, offset: 0 }).then(
      (page) => {
        if (seq !== this.seq) return;
        const r = page.results;
        this.patch({ hits: r.hits, total: r.total, capped: r.more, loading: false, error: null, status: page.status, selected: 0 });
      },
      (e: unknown) => { if (seq === this.seq) this.patch({ hits: null, total: 0, capped: false, loading: false, error: String(e) }); },
    );
  };

  /** The next page, after the hits shown. */
  more = (): Promise<void> => {
    const { form, hits } = this.get();
    if (!hits || this.get().loading) return Promise.resolve();
    const seq = this.seq;
    this.patch({ loading: true });
    return findHits({ ...form, limit: PAGE, offset: hits.length }).then(
      (page) => {
        if (seq !== this.seq) return;
        this.patch({ hits: [...hits, ...page.results.hits], total: page.results.total, capped: page.results.more, loading: false, status: page.status });
      },
      (e: unknown) => { if (seq === this.seq) this.patch({ loading: false, error: String(e) }); },
    );
  };

  /** Follows the index's progress; when a sync ends, the search runs again. Returns the undo. */
  connect = (): (() => void) => onSearchProgress((status) => {
    const was = this.get().status;
    this.patch({ status });
    if (was?.running && !status.running && this.get().hits !== null) void this.run();
  });
}
