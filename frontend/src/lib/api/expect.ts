// Expectations (issue 12): the results of a scenario's expect: lists, as the backend puts them
// on TraceView.expectations, and the binding that writes a new one from a message.
import type { ExpectationResult, SaveResult, TraceView } from './types';
import { hasBackend, Studio } from './wails';

export type { ExpectationResult };

/** The view's expectation results; older backends send none. */
export function expectationsOf(view: TraceView | null | undefined): ExpectationResult[] {
  return view?.expectations ?? [];
}

/** Results about one LLM call (0-based). */
export function resultsForCall(view: TraceView | null | undefined, call: number): ExpectationResult[] {
  return expectationsOf(view).filter((r) => r.call === call);
}

/** How many passed and failed. */
export function expectationCounts(rs: readonly ExpectationResult[]): { passed: number; failed: number } {
  let passed = 0;
  for (const r of rs) if (r.pass) passed++;
  return { passed, failed: rs.length - passed };
}

/** The worst state of a call: 'fail' when any of its results failed, 'pass' when all passed, null with none. */
export function callState(view: TraceView | null | undefined, call: number): 'pass' | 'fail' | null {
  const rs = resultsForCall(view, call);
  if (rs.length === 0) return null;
  return rs.some((r) => !r.pass) ? 'fail' : 'pass';
}

/** True when the backend can write expectations (the mock cannot). */
export function canAddExpectation(): boolean {
  return hasBackend();
}

/**
 * Writes an expectation about message `message` (an id of the view) as LLM call `call` (0-based)
 * receives it into the selected scenario's file; the reload that follows shows its result.
 */
export function addExpectation(call: number, message: number): Promise<SaveResult> {
  if (!hasBackend()) return Promise.reject('adding expectations needs the Hook Studio backend');
  return Studio.AddExpectation(call, message) as Promise<SaveResult>;
}
