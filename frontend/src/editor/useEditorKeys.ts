// Editor shortcuts: Ctrl+S / Ctrl+Shift+S anywhere; Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y inside the editor
// (outside plain inputs, which keep their own text undo until they commit).
import { useEffect } from 'react';
import type { EditorStore } from './store';

export function editorKey(e: KeyboardEvent): 'save' | 'saveAll' | 'undo' | 'redo' | null {
  const ctrl = e.ctrlKey || e.metaKey;
  if (!ctrl || e.altKey) return null;
  const k = e.key.toLowerCase();
  if (k === 's') return e.shiftKey ? 'saveAll' : 'save';
  if (k === 'z') return e.shiftKey ? 'redo' : 'undo';
  if (k === 'y' && !e.shiftKey) return 'redo';
  return null;
}

export function useEditorKeys(store: EditorStore, active: boolean) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const what = editorKey(e);
      if (!what) return;
      if (what === 'save' || what === 'saveAll') {
        if (!active && store.dirtyFiles().length === 0) return;
        e.preventDefault();
        void (what === 'save' ? store.save() : store.saveAll());
        return;
      }
      const t = e.target as HTMLElement | null;
      if (!active || !t?.closest?.('.editor')) return;
      if (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') return;
      e.preventDefault();
      if (what === 'undo') store.undo(); else store.redo();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [store, active]);
}
