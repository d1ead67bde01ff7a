// The open folder as the backend reports it (StudioState: skills, scenarios, trust) and the
// progress of a simulation running in the background; the calls that change them. Answers and
// events both carry snapshots: the newest wins whichever arrives last (newer). The live trace goes
// to the debugger.
import { Store, Subscriptions } from '../lib/store';
import * as api from '../lib/api';
import type { SimProgress, StudioState, TraceView } from '../lib/api';
import type { DebuggerStore } from '../debugger/store';

export type StudioApi = Pick<typeof api, 'getState' | 'getTrace' | 'getProgress' | 'subscribe' | 'selectScenario' | 'chooseFolder' | 'openFolder'
  | 'setSkillEnabled' | 'createSkill' | 'importSkills' | 'trustFolder' | 'untrustFolder' | 'cancelSimulation'>;

export interface StudioSnapshot {
  state: StudioState | null;
  progress: SimProgress | null;
}

export class StudioStore extends Store<StudioSnapshot> {
  private subs = new Subscriptions();

  constructor(
    private readonly debug: DebuggerStore,
    private readonly fail: (e: unknown) => void,
    /** the folder changed on disk (studio:state): the editor looks for files changed under it */
    private readonly onDiskState: () => void = () => {},
    private readonly be: StudioApi = api,
  ) {
    super({ state: null, progress: null });
  }

  /** Loads the state, the trace and the progress and follows their events; returns the undo. */
  connect(): () => void {
    let alive = true;
    let evented = false; // a progress answer can arrive after the first event, which is newer
    this.debug.dispatch({ type: 'loadStart' });
    this.be.getState().then((s) => { if (alive) this.take(s); }).catch(this.fail);
    // answers of the live trace go through traceUpdated: a late one never replaces a newer simulation's event
    this.be.getTrace().then((v) => { if (alive) this.debug.traceUpdated(v); }).catch(this.fail);
    this.be.getProgress().then((p) => { if (alive && !evented) this.patch({ progress: p }); }).catch(() => undefined);
    this.subs.add(this.be.subscribe('studio:state', (s) => { this.take(s); this.onDiskState(); }));
    this.subs.add(this.be.subscribe('studio:trace', (v) => this.debug.traceUpdated(v)));
    this.subs.add(this.be.subscribe('studio:progress', (p) => { evented = true; this.patch({ progress: p }); }));
    this.subs.add(() => { alive = false; });
    return () => this.subs.undoAll();
  }

  /** A snapshot of the backend's state, kept unless an older one. */
  take = (s: StudioState) => this.patch({ state: api.newer(this.get().state, s) });

  private afterFolder = (s: StudioState) => {
    this.take(s);
    this.debug.dispatch({ type: 'loadStart' });
    return this.be.getTrace().then((v) => this.debug.traceUpdated(v));
  };

  selectScenario = (file: string) => {
    this.debug.dispatch({ type: 'loadStart' });
    this.be.selectScenario(file).then((v: TraceView) => {
      this.debug.traceUpdated(v);
      return this.be.getState().then(this.take); // the top bar names the scenario picked
    }).catch(this.fail);
  };
  chooseFolder = () => { this.be.chooseFolder().then(this.afterFolder).catch(this.fail); };
  openFolder = (path: string) => { this.be.openFolder(path).then(this.afterFolder).catch(this.fail); };
  setSkillEnabled = (skill: string, enabled: boolean) => {
    const s = this.get().state;
    if (s) this.patch({ state: { ...s, skills: s.skills.map((k) => (k.name === skill ? { ...k, enabled } : k)) } });
    this.be.setSkillEnabled(skill, enabled).then(this.debug.traceUpdated).catch(this.fail);
  };
  /** Creates a skill; rejects with the reason (the form shows it). */
  createSkill = (name: string): Promise<void> => this.be.createSkill(name).then(this.take);
  importSkills = (): Promise<void> => this.be.importSkills().then(this.take);
  /** Trusts the folder's executable hooks; rejects with the reason (the banner shows it). */
  trust = (): Promise<void> => this.be.trustFolder().then(this.take);
  untrust = () => { this.be.untrustFolder().then(this.take).catch(this.fail); };
  cancelSimulation = () => { this.be.cancelSimulation().catch(this.fail); };
}
