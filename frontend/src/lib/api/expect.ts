// Expectations (issue 12): the results of a scenario's expect: lists, as the backend puts them
// on TraceView.expectations, and the binding that writes a new one from a message.
import { binding } from './wails';
import type { SaveResult, TraceView } from './types';

/** hookstudio/app/agent/expect.Result: one check of one expectation on one call (or request, or run). */
export interface ExpectationResult {
  kind: string;
  /** what was checked where, for people */
  title: string;
  /** 0-based; null when the result is not about one request / call */
  request: number | null;
  call: number | null;
  expected: string;
  actual: string;
  pass: boolean;
  /** the expected and actual sides as lines, for a diff */
  want?: string[];
  got?: string[];
  /** positions (0-based) in the call's message list the result is about */
  at?: number[];
  /** the call's message list in tag notation, on failures */
  messages?: string[];
  /** where the expectation is written in the scenario file */
  file: string;
  line: number;
  column: number;
  path: string;
}

/** The view's expectation results; older backends send none. */
export function expectationsOf(view: TraceView | null | undefined): ExpectationResult[] {
  return (view as (TraceView & { expectations?: ExpectationResult[] }) | null | undefined)?.expectations ?? [];
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

interface ExpectBinding {
  AddExpectation?(call: number, message: number): Promise<SaveResult>;
}

/** True when the backend can write expectations. */
export function canAddExpectation(): boolean {
  return typeof (binding() as ExpectBinding | undefined)?.AddExpectation === 'function';
}

/**
 * Writes an expectation about message `message` (an id of the view) as LLM call `call` (0-based)
 * receives it into the selected scenario's file; the reload that follows shows its result.
 */
export function addExpectation(call: number, message: number): Promise<SaveResult> {
  const b = binding() as ExpectBinding | undefined;
  if (typeof b?.AddExpectation !== 'function') {
    return Promise.reject('adding expectations needs the Hook Studio backend');
  }
  return b.AddExpectation(call, message);
}
