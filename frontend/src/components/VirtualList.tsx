// A small windowed list: items are laid out from estimated heights, replaced by measured
// heights (ResizeObserver) once rendered, so 10,000 rows cost only what is on screen.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';

export interface VirtualListProps {
  count: number;
  estimate: (index: number) => number;
  getKey: (index: number) => Key;
  render: (index: number) => ReactNode;
  /** keep this row in view when it changes */
  scrollToIndex?: number | null;
  overscan?: number;
  className?: string;
  role?: string;
  'aria-label'?: string;
  /** viewport height to assume when the element has none (jsdom, first paint) */
  fallbackHeight?: number;
}

export function VirtualList({ count, estimate, getKey, render, scrollToIndex, overscan = 6, className, role, 'aria-label': ariaLabel, fallbackHeight = 900 }: VirtualListProps) {
  const outer = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<string, number>());
  const [version, setVersion] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const pending = useRef(false);

  const offsets = useMemo(() => {
    void version;
    const o = new Float64Array(count + 1);
    const m = measured.current;
    if (m.size === 0) for (let i = 0; i < count; i++) o[i + 1] = o[i]! + estimate(i);
    else for (let i = 0; i < count; i++) o[i + 1] = o[i]! + (m.get(String(getKey(i))) ?? estimate(i));
    return o;
  }, [count, estimate, getKey, version]);

  const bump = useCallback(() => {
    if (pending.current) return;
    pending.current = true;
    requestAnimationFrame(() => { pending.current = false; setVersion((v) => v + 1); });
  }, []);

  const ro = useMemo(() => {
    if (typeof ResizeObserver === 'undefined') return null;
    return new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const el = e.target as HTMLElement;
        const key = el.dataset.vkey;
        if (key === undefined) continue;
        const h = el.offsetHeight;
        if (h > 0 && measured.current.get(key) !== h) { measured.current.set(key, h); changed = true; }
      }
      if (changed) bump();
    });
  }, [bump]);
  useEffect(() => () => ro?.disconnect(), [ro]);

  useLayoutEffect(() => {
    const el = outer.current;
    if (!el) return;
    setViewport(el.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const obs = new ResizeObserver(() => setViewport(el.clientHeight));
    obs.observe(el);
    return () => obs.disconnect();
  }, []);

  // keep the requested row visible
  useLayoutEffect(() => {
    const el = outer.current;
    if (!el || scrollToIndex == null || scrollToIndex < 0 || scrollToIndex >= count) return;
    const top = offsets[scrollToIndex]!, bottom = offsets[scrollToIndex + 1]!;
    const vh = el.clientHeight || fallbackHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (bottom > el.scrollTop + vh) el.scrollTop = Math.max(0, Math.min(top, bottom - vh));
    setScrollTop(el.scrollTop);
    // only when the target changes, not on every re-measure
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollToIndex, count]);

  const vh = viewport || fallbackHeight;
  // first row whose bottom is below scrollTop
  let lo = 0, hi = count;
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (offsets[mid + 1]! <= scrollTop) lo = mid + 1; else hi = mid; }
  const start = Math.max(0, lo - overscan);
  let end = lo;
  while (end < count && offsets[end]! < scrollTop + vh) end++;
  end = Math.min(count, end + overscan);

  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const key = getKey(i);
    rows.push(
      <div
        key={key}
        data-vkey={String(key)}
        data-index={i}
        className="vrow"
        style={{ position: 'absolute', top: offsets[i], left: 0, right: 0 }}
        ref={(el) => {
          if (!el) return;
          if (ro) { ro.observe(el); return () => ro.unobserve(el); }
          const h = el.offsetHeight;
          if (h > 0 && measured.current.get(String(key)) !== h) { measured.current.set(String(key), h); bump(); }
        }}
      >
        {render(i)}
      </div>,
    );
  }
  return (
    <div ref={outer} className={`vlist ${className ?? ''}`} role={role} aria-label={ariaLabel} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      <div style={{ position: 'relative', height: offsets[count], width: '100%' }}>{rows}</div>
    </div>
  );
}
