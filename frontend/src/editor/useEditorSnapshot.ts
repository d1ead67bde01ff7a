import { useSyncExternalStore } from 'react';
import type { EditorStore } from './store';

/** The editor store's current snapshot, re-rendering on every change. */
export function useEditorSnapshot(store: EditorStore) {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
