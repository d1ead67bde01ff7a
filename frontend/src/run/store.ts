// A run against a real model, for the app: whether its drawer is open, the run's state machine
// (machine.ts) fed by the run:* events and the user's actions, and the step the drawer shows
// (null: the newest). The run goes on while the drawer is hidden.
import { Store, Subscriptions } from '../lib/store';
import * as run from '../lib/api/run';
import type { RunOptions } from '../lib/api/run';
import { initialRunState, isActive, runReducer, type RunEvent, type RunState } from './machine';

export type RunApi = Pick<typeof run, 'onRun' | 'startRun' | 'resumeRun' | 'answerTool' | 'cancelRun'>;

export interface RunStoreState {
  open: boolean;
  state: RunState;
  /** the step the drawer shows; null follows the newest */
  cursor: number | null;
}

const noop = () => {};

export class RunStore extends Store<RunStoreState> {
  private subs = new Subscriptions();
  constructor(private readonly be: RunApi = run) { super({ open: false, state: initialRunState, cursor: null }); }

  /** Follows the run's events; returns the undo. */
  connect(): () => void {
    const be = this.be;
    this.subs.add(be.onRun('run:paused', (p) => { this.dispatch({ type: 'paused', payload: p }); this.follow(); }));
    this.subs.add(be.onRun('run:delta', (p) => this.dispatch({ type: 'delta', payload: p })));
    this.subs.add(be.onRun('run:tool', (p) => this.dispatch({ type: 'tool', payload: p })));
    this.subs.add(be.onRun('run:retry', (p) => this.dispatch({ type: 'retry', payload: p })));
    this.subs.add(be.onRun('run:trace', (v) => this.dispatch({ type: 'trace', view: v })));
    // waiting for the user (an approval, a pause): the trace up to that step, which is its last;
    // the drawer goes there, even after the user looked at an earlier step
    this.subs.add(be.onRun('run:waiting', (w) => { this.dispatch({ type: 'trace', view: w.view }); this.follow(); }));
    this.subs.add(be.onRun('run:ended', (p) => this.dispatch({ type: 'ended', payload: p })));
    return () => this.subs.undoAll();
  }

  dispatch = (ev: RunEvent) => this.set((s) => {
    const state = runReducer(s.state, ev);
    return state === s.state ? s : { ...s, state };
  });

  openPanel = () => this.patch({ open: true });
  close = () => this.patch({ open: false });
  /** Show step i of the run (null: follow the newest). */
  setCursor = (cursor: number | null) => this.patch({ cursor });
  private follow() { this.setCursor(null); }

  active(): boolean { return isActive(this.get().state); }
  /** The drawer is open on a run paused before a call: F5 / F10 are its keys. */
  paused(): boolean { return this.get().open && this.get().state.status === 'paused'; }

  start = (opts: RunOptions) => {
    this.follow();
    this.dispatch({ type: 'start', opts });
    this.be.startRun(opts).then(() => this.dispatch({ type: 'started' })).catch((e: unknown) => this.dispatch({ type: 'startFailed', error: String(e) }));
  };
  /** Go on from a pause: to the next breakpoint, or (step) to the next call. */
  resume = (step: boolean) => {
    this.dispatch({ type: 'resume', step });
    this.follow();
    this.be.resumeRun(step).catch(this.failed);
  };
  answer = (text: string) => {
    this.dispatch({ type: 'answer' });
    this.be.answerTool(text).catch(this.failed);
  };
  cancel = () => {
    this.dispatch({ type: 'cancel' });
    this.be.cancelRun().catch(noop); // the run may have ended meanwhile; run:ended tells
  };
  private failed = (e: unknown) => this.dispatch({ type: 'actionFailed', error: String(e) });
}
