// The bound Layout service: the user's pane sizes, kept in the backend's data folder. Without the
// Go backend (vite dev, the screenshots, tests) they live in localStorage.
import type { layout } from './models';
import { hasBackend, Layout } from './wails';

/** app/store/layout.Layout: a missing field is the default size. Widths in px (skills, editor,
 *  messages); heights as fractions of the main area's height (flow, bottom); trust_read: the key of
 *  the trust banner's commands the user has read. */
export type SavedLayout = layout.Layout;

const KEY = 'hookstudio.layout';

export async function getLayout(): Promise<SavedLayout> {
  if (hasBackend()) return Layout.Get();
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SavedLayout) : {};
  } catch {
    return {};
  }
}

export async function setLayout(l: SavedLayout): Promise<SavedLayout> {
  if (hasBackend()) return Layout.Set(l);
  try { localStorage.setItem(KEY, JSON.stringify(l)); } catch { /* private mode */ }
  return l;
}
