// The remembered layout: loaded once from the backend, changed live while a splitter is
// dragged, saved when the drag ends (a burst of key presses is saved once).
import { useCallback, useEffect, useRef, useState } from 'react';
import { getLayout, setLayout, type SavedLayout } from '../lib/api/layout';
import { sanitize } from './panes';

export const SAVE_DELAY = 250;

export interface LayoutStore {
  layout: SavedLayout;
  /** false until the remembered layout is read (the panes keep their defaults meanwhile) */
  loaded: boolean;
  /** change the layout now; save: remember it too (after SAVE_DELAY) */
  update: (patch: SavedLayout, save?: boolean) => void;
  /** remember the layout as it is (after SAVE_DELAY) */
  commit: () => void;
  /** collapse or open a pane, and remember it */
  toggle: (pane: 'flow_collapsed' | 'bottom_collapsed') => void;
}

export function useLayout(onError: (e: unknown) => void): LayoutStore {
  const [layout, setState] = useState<SavedLayout>({});
  const [loaded, setLoaded] = useState(false);
  const latest = useRef<SavedLayout>({});
  const touched = useRef(false); // changed before the load answered: the user's change wins
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onErrorRef = useRef(onError);
  useEffect(() => { onErrorRef.current = onError; }, [onError]);

  const save = useCallback(() => {
    timer.current = null;
    setLayout(latest.current).catch((e: unknown) => onErrorRef.current(e));
  }, []);
  const commit = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(save, SAVE_DELAY);
  }, [save]);
  const update = useCallback((patch: SavedLayout, persist = false) => {
    touched.current = true;
    latest.current = { ...latest.current, ...patch };
    setState(latest.current);
    if (persist) commit();
  }, [commit]);
  const toggle = useCallback((pane: 'flow_collapsed' | 'bottom_collapsed') => update({ [pane]: !latest.current[pane] }, true), [update]);

  useEffect(() => {
    let alive = true;
    getLayout()
      .then((l) => {
        if (!alive) return;
        const s = sanitize(l);
        latest.current = touched.current ? { ...s, ...latest.current } : s;
        setState(latest.current);
      })
      .catch((e: unknown) => { if (alive) onErrorRef.current(e); })
      .finally(() => { if (alive) setLoaded(true); });
    return () => {
      alive = false;
      // a save still waiting is done now, not lost
      if (timer.current) { clearTimeout(timer.current); save(); }
    };
  }, [save]);

  return { layout, loaded, update, commit, toggle };
}

/** The size of an element, followed with a ResizeObserver (0×0 where there is none, as in jsdom). */
export function useSize(el: HTMLElement | null): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      const r = el.getBoundingClientRect();
      setSize((s) => (s.width === r.width && s.height === r.height ? s : { width: r.width, height: r.height }));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return size;
}
