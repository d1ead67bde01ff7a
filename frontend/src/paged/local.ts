// A whole TraceView read as a RunSource: the live simulation's (it is in the page already, so
// every answer is at hand and nothing ever arrives later).
import { listAt, type LLMCall, type TraceView } from '../lib/api';
import { barsOf, headOfView, listOfView, nextStopOfView, stepOfView, visitsOfView, type Bar } from '../lib/api/pages';
import type { BreakpointId } from '../lib/api/breakpoints';
import type { Cell, RunSource, StopAt } from './source';

const sources = new WeakMap<TraceView, LocalSource>();

/** The source of a view, one per view (so components that memoise on it see it change with the view). */
export function sourceOf(view: TraceView): LocalSource {
  let s = sources.get(view);
  if (!s) { s = new LocalSource(view); sources.set(view, s); }
  return s;
}

export class LocalSource implements RunSource {
  readonly kind = 'view';
  private barsFor = new Map<number, Bar[]>();
  constructor(readonly view: TraceView) {}

  head = () => headOfView(this.view);
  version = () => 0;
  versionOf = () => 0;
  subscribe = () => () => {};
  step = (i: number) => stepOfView(this.view, i);
  call = (c: number): LLMCall | undefined => this.view.calls[c];
  list = (step: number) => (this.view.steps[step] ? listOfView(this.view, step) : undefined);
  row = (step: number, k: number) => listAt(this.view, step).rows[k];
  cell = (h: number, c: number): Cell | undefined => {
    const copies = this.view.matrix.copies[h]?.[c];
    return copies === undefined ? undefined : { copies, tokens: this.view.matrix.tokens[h]?.[c] ?? 0 };
  };
  text = (id: number) => this.view.messages[id]?.content;
  visits = (request: number) => visitsOfView(this.view, request);
  bars = (n: number): Bar[] => {
    let b = this.barsFor.get(n);
    if (!b) {
      b = barsOf(this.view.calls, n);
      this.barsFor.set(n, b);
    }
    return b;
  };
  nextStop = (from: number, breakpoints: readonly BreakpointId[]): Promise<StopAt> => Promise.resolve(nextStopOfView(this.view, from, breakpoints));
  callStep = (c: number) => Promise.resolve(this.view.calls[c]?.step);
  rowOf = (step: number, id: number) => Promise.resolve(listAt(this.view, step).rows.findIndex((r) => r.message.id === id));
}
