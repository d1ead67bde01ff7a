// Which view the app shows — the live simulator or the run history — and, while the history shows
// a stored run read-only, that run's own debugger (the stepping keys act on it there).
import { Store } from '../lib/store';
import type { Stepper } from '../debugger/store';
import type { AppView } from './ViewToggle';

export interface HistoryState {
  mode: AppView;
  /** the stored run open read-only, and the way back to the runs */
  readOnly: { debug: Stepper; back: () => void } | null;
}

export class HistoryStore extends Store<HistoryState> {
  constructor() { super({ mode: 'simulator', readOnly: null }); }

  setMode = (mode: AppView) => this.patch({ mode });
  toggle = () => this.setMode(this.get().mode === 'history' ? 'simulator' : 'history');
  /** A stored run is open read-only (until the undo). */
  showReadOnly(debug: Stepper, back: () => void): () => void {
    const ro = { debug, back };
    this.patch({ readOnly: ro });
    return () => { if (this.get().readOnly === ro) this.patch({ readOnly: null }); };
  }
  /** The debugger the stepping keys act on: the read-only run's in the history, else none. */
  readOnlyDebugger(): Stepper | null {
    const s = this.get();
    return s.mode === 'history' ? s.readOnly?.debug ?? null : null;
  }
}
