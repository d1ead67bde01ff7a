// The app's frame: the help overlay, the error banner and the colour theme (remembered in the web
// view's localStorage).
import { Store } from '../lib/store';
import type { Theme } from '../components/TopBar';

export interface ShellState {
  help: boolean;
  error: string | null;
  theme: Theme;
}

const THEME_KEY = 'hookstudio.theme';

function readTheme(): Theme {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch { return 'system'; }
}

export class ShellStore extends Store<ShellState> {
  constructor() { super({ help: false, error: null, theme: readTheme() }); }

  openHelp = () => this.patch({ help: true });
  closeHelp = () => this.patch({ help: false });
  /** A failed backend call, for the banner. */
  fail = (e: unknown) => this.patch({ error: String(e) });
  dismissError = () => this.patch({ error: null });

  setTheme = (theme: Theme) => {
    this.patch({ theme });
    this.applyTheme();
    try { localStorage.setItem(THEME_KEY, theme); } catch { /* private mode */ }
  };
  /** The document follows the theme ("system": the stylesheet's media query). */
  applyTheme() {
    const root = document.documentElement;
    const t = this.get().theme;
    if (t === 'system') root.removeAttribute('data-theme'); else root.setAttribute('data-theme', t);
  }
}
