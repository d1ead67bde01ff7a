// The remembered layout: loaded once from the backend, changed live while a splitter is dragged,
// saved as soon as the drag (or a key) ends — at once, not after a delay, so a window closed right
// after a drag keeps it; saves never overlap (one in flight, the latest next).
import { Store } from '../lib/store';
import { getLayout, setLayout, type SavedLayout } from '../lib/api/layout';
import { sanitize } from './panes';

export interface LayoutState {
  layout: SavedLayout;
  /** false until the remembered layout is read (the panes keep their defaults meanwhile) */
  loaded: boolean;
}

export type Collapsible = 'flow_collapsed' | 'bottom_collapsed';
export interface LayoutApi { getLayout: typeof getLayout; setLayout: typeof setLayout }

export class LayoutStore extends Store<LayoutState> {
  private touched = false; // changed before the load answered: the user's change wins
  private inFlight = false;
  private again = false; // changed while a save was in flight: save the latest after it
  private alive = false;

  constructor(private readonly onError: (e: unknown) => void, private readonly be: LayoutApi = { getLayout, setLayout }) {
    super({ layout: {}, loaded: false });
  }

  /** Reads the remembered layout; returns the undo (a late answer is then dropped). */
  load(): () => void {
    this.alive = true;
    this.be.getLayout()
      .then((l) => {
        if (!this.alive) return;
        const s = sanitize(l);
        this.patch({ layout: this.touched ? { ...s, ...this.get().layout } : s });
      })
      .catch((e: unknown) => { if (this.alive) this.onError(e); })
      .finally(() => { if (this.alive) this.patch({ loaded: true }); });
    return () => { this.alive = false; };
  }

  /** Change the layout now; save: remember it too. */
  update = (p: SavedLayout, save = false) => {
    this.touched = true;
    this.patch({ layout: { ...this.get().layout, ...p } });
    if (save) this.commit();
  };

  /** Remember the layout as it is. */
  commit = () => {
    if (this.inFlight) { this.again = true; return; }
    this.inFlight = true;
    this.be.setLayout(this.get().layout)
      .catch((e: unknown) => this.onError(e))
      .finally(() => {
        this.inFlight = false;
        if (this.again) { this.again = false; this.commit(); }
      });
  };

  /** Collapse or open a pane, and remember it. */
  toggle = (pane: Collapsible) => this.update({ [pane]: !this.get().layout[pane] }, true);
  /** Open the bottom panel if it is collapsed (something shows there). */
  openBottom = () => { if (this.get().layout.bottom_collapsed) this.toggle('bottom_collapsed'); };
}
