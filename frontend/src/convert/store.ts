// Whether the Export dialog is open, and for which agent it opened (the menu's choice; "" the
// dialog's own first choice).
import { Store } from '../lib/store';

export class ExportStore extends Store<{ open: boolean; to: string }> {
  constructor() { super({ open: false, to: '' }); }
  open = (to = '') => this.patch({ open: true, to });
  close = () => this.patch({ open: false });
}
