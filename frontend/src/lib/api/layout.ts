// Typed calls for window.go.bind.Layout: the user's pane sizes, kept in the backend's data
// folder. Without the Go backend (vite dev, the screenshots, tests) they live in localStorage.
import { binding } from './wails';

/** hookstudio/app/store/layout.Layout: a missing field is the default size. */
export interface SavedLayout {
  /** widths in px */
  skills_width?: number;
  editor_width?: number;
  messages_width?: number;
  /** heights as fractions of the main area's height */
  flow_height?: number;
  bottom_height?: number;
  flow_collapsed?: boolean;
  bottom_collapsed?: boolean;
  /** the key of the trust banner's commands the user has read */
  trust_read?: string;
}

interface LayoutBinding {
  Get(): Promise<SavedLayout>;
  Set(l: SavedLayout): Promise<SavedLayout>;
}

function realBinding(): LayoutBinding | undefined {
  // wails.ts types window.go.bind for Studio only; Layout sits next to it.
  if (!binding()) return undefined;
  return (window.go?.bind as { Layout?: LayoutBinding } | undefined)?.Layout;
}

const KEY = 'hookstudio.layout';

export async function getLayout(): Promise<SavedLayout> {
  const b = realBinding();
  if (b) return b.Get();
  try {
    const raw = localStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SavedLayout) : {};
  } catch {
    return {};
  }
}

export async function setLayout(l: SavedLayout): Promise<SavedLayout> {
  const b = realBinding();
  if (b) return b.Set(l);
  try { localStorage.setItem(KEY, JSON.stringify(l)); } catch { /* private mode */ }
  return l;
}
