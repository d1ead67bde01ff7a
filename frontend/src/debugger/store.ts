// The debugger's state machine (machine.ts) held for the app: every event goes through the one
// reducer; a `continue` settles at once (a simulated trace has nothing to wait for), and the live
// simulation's traces arrive as traceUpdated. The history's read-only run has one of its own.
import { Store } from '../lib/store';
import type { Step, TraceView } from '../lib/api';
import { breakpointForStep, hasCursor, hasView, initialState, reducer, type Breakpoint, type DebuggerEvent, type DebuggerState } from './machine';

export class DebuggerStore extends Store<DebuggerState> {
  constructor(state: DebuggerState = initialState) { super(state); }

  dispatch = (ev: DebuggerEvent) => {
    this.set((s) => {
      const next = reducer(s, ev);
      // a simulated run reaches its next breakpoint at once
      return next.status === 'running' ? reducer(next, { type: 'tick' }) : next;
    });
  };

  /** The view on screen, or null. */
  view(): TraceView | null { const s = this.get(); return hasView(s) ? s.view : null; }
  /** The cursor's step index, or -1. */
  cursor(): number { const s = this.get(); return hasCursor(s) ? s.cursor : -1; }
  /** The step at the cursor. */
  step(): Step | undefined { const v = this.view(); const c = this.cursor(); return v && c >= 0 ? v.steps[c] : undefined; }

  toggleBreakpoint = (b: Breakpoint | null) => { if (b) this.dispatch({ type: 'toggleBreakpoint', breakpoint: b }); };
  /** F9: the breakpoint of the step at the cursor. */
  toggleAtCursor = () => this.toggleBreakpoint(breakpointForStep(this.step()));
  stepForward = () => this.dispatch({ type: 'stepForward' });
  stepBack = () => this.dispatch({ type: 'stepBack' });
  continue = () => this.dispatch({ type: 'continue' });
  restart = () => this.dispatch({ type: 'restart' });
  jumpToStep = (step: number) => this.dispatch({ type: 'jumpToStep', step });
  jumpToCall = (call: number) => this.dispatch({ type: 'jumpToCall', call });
  first = () => { if (this.view()) this.jumpToStep(0); };
  last = () => { const v = this.view(); if (v) this.jumpToStep(v.steps.length - 1); };
  traceUpdated = (view: TraceView) => this.dispatch({ type: 'traceUpdated', view });
  /** Show a view (a controlled run's) at a step (-1: where it starts). */
  show = (view: TraceView, at: number) => {
    this.dispatch({ type: 'load', view });
    if (at >= 0) this.jumpToStep(at);
  };
}
