// The remembered layout: loaded once from the backend, changed live while a splitter is
// dragged, saved as soon as the drag (or a key) ends — at once, not after a delay, so a window
// closed right after a drag keeps it; saves never overlap (one in flight, the latest next).
import { useCallback, useEffect, useRef, useState } from 'react';
import { getLayout, setLayout, type SavedLayout } from '../lib/api/layout';
import { sanitize } from './panes';

export interface LayoutStore {
  layout: SavedLayout;
  /** false until the remembered layout is read (the panes keep their defaults meanwhile) */
  loaded: boolean;
  /** change the layout now; save: remember it too */
  update: (patch: SavedLayout, save?: boolean) => void;
  /** remember the layout as it is */
  commit: () => void;
  /** collapse or open a pane, and remember it */
  toggle: (pane: 'flow_collapsed' | 'bottom_collapsed') => void;
}

export function useLayout(onError: (e: unknown) => void): LayoutStore {
  const [layout, setState] = useState<SavedLayout>({});
  const [loaded, setLoaded] = useState(false);
  const latest = useRef<SavedLayout>({});
  const touched = useRef(false); // changed before the load answered: the user's change wins
  const inFlight = useRef(false);
  const again = useRef(false); // changed while a save was in flight: save the latest after it
  const onErrorRef = useRef(onError);
  useEffect(() => { onErrorRef.current = onError; }, [onError]);

  const commit = useCallback(function save() {
    if (inFlight.current) { again.current = true; return; }
    inFlight.current = true;
    setLayout(latest.current)
      .catch((e: unknown) => onErrorRef.current(e))
      .finally(() => {
        inFlight.current = false;
        if (again.current) { again.current = false; save(); }
      });
  }, []);
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
    return () => { alive = false; };
  }, []);

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
