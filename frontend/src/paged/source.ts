// What the run's views (steps, flow, message list, visibility matrix, tokens chart) read a run
// through: a RunSource answers at once with what it holds and undefined for what it is still
// fetching, and tells its subscribers when more has arrived. The live simulation's source holds
// the whole TraceView (local.ts); a stored run's asks the Go side for the pages in view (remote.ts,
// docs/trace-view.md "Pages"), so nothing sends a whole run to the page.
import { useSyncExternalStore } from 'react';
import type { Bar, ListHead, MessageRow, PageStep, SourceHead, Visits } from '../lib/api/pages';
import type { LLMCall } from '../lib/api';
import type { BreakpointId } from '../lib/api/breakpoints';

export type { SourceHead };

/** One cell of the visibility matrix: the copies of a hook's words a call receives, and their tokens. */
export interface Cell { copies: number; tokens: number }

/** Where a continue stops: the step a breakpoint hits, or -1 (the run ends). */
export interface StopAt { step: number; hit: BreakpointId | null }

/** What a source holds, by kind: a reader re-renders when the kinds it reads change. */
export type Part = 'head' | 'steps' | 'calls' | 'lists' | 'rows' | 'cells' | 'bars' | 'texts';

export interface RunSource {
  readonly kind: 'view' | 'pages';
  head(): SourceHead;
  /** grows whenever something read through the source may read differently */
  version(): number;
  /** grows whenever what the source holds of that part changes */
  versionOf(part: Part): number;
  subscribe(listener: () => void): () => void;
  step(i: number): PageStep | undefined;
  call(c: number): LLMCall | undefined;
  list(step: number): ListHead | undefined;
  /** row k of the list at step; fetch false only looks (a list's layout reads every row's key) */
  row(step: number, k: number, fetch?: boolean): MessageRow | undefined;
  cell(hook: number, call: number): Cell | undefined;
  /** a message's whole text (a row carries the start of a long one: Message.size) */
  text(message: number): string | undefined;
  visits(request: number): Visits | undefined;
  /** the prompt tokens per call in at most n bars, each the largest of its span of calls */
  bars(n: number): Bar[] | undefined;
  nextStop(from: number, breakpoints: readonly BreakpointId[]): Promise<StopAt>;
  callStep(call: number): Promise<number | undefined>;
  /** The row of message id in the list at step (-1: not there): where a search's hit is. */
  rowOf(step: number, id: number): Promise<number>;
}

/**
 * Re-render with the source: the component reads the parts it names during render, and renders
 * again when one of them changed (a cell that arrived does not re-render the step list). Returns a
 * value that changes with them, for memos.
 */
export function useSource(source: RunSource | null, ...parts: Part[]): string {
  const snapshot = () => (source ? parts.map((p) => source.versionOf(p)).join(':') : '');
  return useSyncExternalStore(source?.subscribe ?? noSubscribe, snapshot, snapshot);
}
const noSubscribe = () => () => {};
