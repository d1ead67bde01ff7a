// Whether the Capture panel (the app as a real agent's model endpoint) is open; the capture
// itself runs in the backend and goes on while the panel is closed.
import { Store } from '../lib/store';

export class CaptureStore extends Store<{ open: boolean }> {
  constructor() { super({ open: false }); }
  open = () => this.patch({ open: true });
  close = () => this.patch({ open: false });
}
