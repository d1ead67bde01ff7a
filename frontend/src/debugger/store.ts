// The debugger's state machine (machine.ts) held for the app: every event goes through the one
// reducer; a `continue` settles at once when every step is at hand (a simulated trace), and the
// live simulation's traces arrive as traceUpdated. The history's read-only run has one of its own
// over the run's pages (PagedDebugger): there a continue's stop, a call's step are asked for.
import { Store } from '../lib/store';
import type { Step, TraceView } from '../lib/api';
import type { RunSource } from '../paged/source';
import { breakpointForStep, hasCursor, hasView, initialState, machine, traceNav, type Breakpoint, type DebuggerEvent, type DebuggerState, type Nav } from './machine';

/** What the stepping keys act on (appCommands): the live debugger or a read-only run's. */
export interface Stepper {
  stepForward(): void;
  stepBack(): void;
  continue(): void;
  restart(): void;
  toggleAtCursor(): void;
  first(): void;
  last(): void;
}

export class DebuggerStore<V = TraceView> extends Store<DebuggerState<V>> implements Stepper {
  protected readonly m: ReturnType<typeof machine<V>>;
  constructor(protected readonly nav: Nav<V> = traceNav as unknown as Nav<V>, state: DebuggerState<V> = initialState) {
    super(state);
    this.m = machine(nav);
  }

  dispatch = (ev: DebuggerEvent<V>) => {
    this.set((s) => {
      const next = this.m.reducer(s, ev);
      // a simulated run reaches its next breakpoint at once
      const to = next.status === 'running' ? this.m.reducer(next, { type: 'tick' }) : next;
      this.moving?.(s, to);
      return to;
    });
  };

  /** Called with each state change before its readers hear of it. */
  protected moving?: (from: DebuggerState<V>, to: DebuggerState<V>) => void;

  /** The view on screen, or null. */
  view(): V | null { const s = this.get(); return hasView(s) ? s.view : null; }
  /** The cursor's step index, or -1. */
  cursor(): number { const s = this.get(); return hasCursor(s) ? s.cursor : -1; }
  /** The step at the cursor. */
  step(): Step | undefined { const v = this.view(); const c = this.cursor(); return v && c >= 0 ? this.nav.step(v, c) : undefined; }

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
  last = () => { const v = this.view(); if (v) this.jumpToStep(this.nav.steps(v) - 1); };
  traceUpdated = (view: V) => this.dispatch({ type: 'traceUpdated', view });
  /** Show a view (a controlled run's) at a step (-1: where it starts). */
  show = (view: V, at: number) => {
    this.dispatch({ type: 'load', view });
    if (at >= 0) this.jumpToStep(at);
  };
}

/** A run read through a RunSource (a stored run's pages). */
export const sourceNav: Nav<RunSource> = {
  status: (v) => v.head().status,
  file: (v) => v.head().file,
  revision: (v) => v.head().revision,
  steps: (v) => v.head().steps,
  step: (v, i) => v.step(i),
  callStep: (v, c) => v.call(c)?.step,
  requestFirst: (v, r) => v.head().requests[r]?.first_step,
  remap: (_prev, cursor, next) => Math.max(0, Math.min(next.head().steps - 1, cursor)),
};

/**
 * The debugger of a stored run served in pages: a continue whose stop is not in the steps at hand
 * asks the source where it is, a jump to a call whose page is not at hand asks for its step.
 */
export class PagedDebugger extends DebuggerStore<RunSource> {
  constructor(source: RunSource) {
    super(sourceNav);
    this.dispatch({ type: 'load', view: source });
  }

  /**
   * The step the event moves to has its list asked for before the move renders: the round trip
   * runs while the page renders the rest of the move (the step list, the flowchart), not after.
   */
  protected override moving = (from: DebuggerState<RunSource>, to: DebuggerState<RunSource>) => {
    if (hasView(to) && hasCursor(to) && (!hasCursor(from) || from.cursor !== to.cursor)) to.view.list(to.cursor);
  };

  override continue = () => {
    this.dispatch({ type: 'continue' });
    const s = this.get();
    if (s.status !== 'running') return;
    const { view, cursor, breakpoints } = s;
    void view.nextStop(cursor, breakpoints).then((stop) => {
      const now = this.get();
      if (now.status === 'running' && now.view === view && now.cursor === cursor) this.dispatch({ type: 'arrive', step: stop.step, hit: stop.hit });
    }, () => this.dispatch({ type: 'pause' }));
  };

  override jumpToCall = (call: number) => {
    const v = this.view();
    if (!v) return;
    const at = v.call(call)?.step;
    if (at !== undefined) { this.jumpToStep(at); return; }
    void v.callStep(call).then((step) => { if (step !== undefined && this.view() === v) this.jumpToStep(step); });
  };
}
