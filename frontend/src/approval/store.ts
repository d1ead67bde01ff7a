// The controlled run (seed 002) for the app: its dock's state — open or not, the event timeline,
// the approval waiting for the user, pause/cancel state, how it ended — fed by the run:* events of
// the Ops service, and the user's actions. A run that waits for the user (a pause, an approval) or
// ends is shown in the simulator at its step (show).
import { Store, Subscriptions } from '../lib/store';
import * as ops from '../lib/api/ops';
import type { OpsRunEnded, PendingApproval, RunControl, RunEvent } from '../lib/api/ops';
import type { TraceView } from '../lib/api/types';
import { mergeEvents } from '../events/timeline';

/** What the store needs from the backend; tests pass a fake. */
export type OpsApi = Pick<typeof ops, 'startControlledRun' | 'pauseRun' | 'resumeRun' | 'cancelControlledRun' | 'decideApproval' | 'onOpsEvent' | 'hasOps'>;

export interface OpsState {
  open: boolean;
  events: RunEvent[];
  pending: PendingApproval | null;
  control: RunControl;
  ended: OpsRunEnded | null;
  error: string | null;
}

const idle: RunControl = { running: false, paused: false, cancelled: false };

export class OpsStore extends Store<OpsState> {
  private subs = new Subscriptions();
  /** the run's newest view: an event of the timeline shows it at its step */
  private view: TraceView | null = null;

  constructor(
    /** show a view in the simulator at a step (-1: where it starts) */
    private readonly show: (view: TraceView, step: number) => void,
    /** the dock opened (the app makes room for it) */
    private readonly onOpen: () => void = () => {},
    readonly be: OpsApi = ops,
  ) {
    super({ open: false, events: [], pending: null, control: idle, ended: null, error: null });
  }

  connect(): () => void {
    const be = this.be;
    this.subs.add(be.onOpsEvent('run:events', (batch) => this.set((s) => ({ ...s, events: mergeEvents(s.events, batch) }))));
    this.subs.add(be.onOpsEvent('run:approval', (p) => { this.patch({ pending: p }); this.setOpen(true); }));
    this.subs.add(be.onOpsEvent('run:approval-done', (d) => { if (this.get().pending?.id === d.id) this.patch({ pending: null }); }));
    this.subs.add(be.onOpsEvent('run:control', (control) => this.patch({ control })));
    this.subs.add(be.onOpsEvent('run:trace', (v) => { this.view = v; }));
    // the run waits for the user (paused, an approval): the views follow it there
    this.subs.add(be.onOpsEvent('run:waiting', (w) => { this.view = w.view; this.show(w.view, w.step); }));
    this.subs.add(be.onOpsEvent('run:ended', (e) => { this.view = e.view; this.patch({ ended: e, pending: null }); this.show(e.view, -1); }));
    return () => this.subs.undoAll();
  }

  available(): boolean { return this.be.hasOps(); }

  setOpen = (open: boolean) => {
    const was = this.get().open;
    this.patch({ open });
    if (open && !was) this.onOpen();
  };
  toggle = () => this.setOpen(!this.get().open);

  private fail = (e: unknown) => this.patch({ error: String(e instanceof Error ? e.message : e) });

  /** Run the selected scenario, asking for its approvals (not while one runs). */
  start = () => {
    if (this.get().control.running) return;
    this.patch({ events: [], ended: null, error: null });
    this.setOpen(true);
    this.be.startControlledRun().catch(this.fail);
  };
  pauseOrResume = () => {
    const c = this.get().control;
    if (!c.running) return;
    (c.paused ? this.be.resumeRun() : this.be.pauseRun()).catch(this.fail);
  };
  cancel = () => { if (this.get().control.running) this.be.cancelControlledRun().catch(this.fail); };
  decide = (approve: boolean, feedback: string) => { this.be.decideApproval(approve, feedback).catch(this.fail); };
  /** An event of the timeline: the run at its step. */
  showStep = (step: number) => { if (this.view) this.show(this.view, step); };
}
