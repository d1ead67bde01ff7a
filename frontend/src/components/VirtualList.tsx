// A small windowed list: only the rows in view (plus `overscan`) are in the DOM. Rows are laid
// out from estimated heights, replaced by measured ones as they are rendered; the measured heights
// are cached by key, so a row keeps its height when the list around it changes.
//
// Cost model, so 10,000 rows cost only what is on screen:
// - heights live in typed arrays; a measurement re-sums offsets from the changed row on only;
// - scrolling re-renders only when the rendered window no longer covers the viewport, and rows
//   are memoised, so moving the window mounts the new rows and leaves the others alone;
// - rows are placed with a transform; new rows are measured in one read pass right after commit
//   (before paint) and corrected in the same frame; a ResizeObserver catches later size changes
//   (expanding a card, a narrower pane);
// - when rows above the viewport change height the scroll position follows, so what is on
//   screen does not jump.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type Key, type ReactNode, type UIEvent } from 'react';
import { flushSync } from 'react-dom';

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
  /** measured heights are forgotten when this changes (e.g. a new trace whose keys mean other rows) */
  resetKey?: unknown;
}

/** Row heights and their running offsets. Exported for tests. */
export class Layout {
  readonly count: number;
  readonly heights: Float64Array;
  /** offsets[i] = top of row i; offsets[count] = total height */
  readonly offsets: Float64Array;
  readonly keys: Key[];
  private readonly measured: Map<Key, number>;

  constructor(count: number, estimate: (i: number) => number, getKey: (i: number) => Key, measured: Map<Key, number>) {
    this.count = count;
    this.measured = measured;
    this.heights = new Float64Array(count);
    this.offsets = new Float64Array(count + 1);
    this.keys = new Array<Key>(count);
    for (let i = 0; i < count; i++) {
      const k = getKey(i);
      this.keys[i] = k;
      this.heights[i] = measured.get(k) ?? estimate(i);
    }
    this.resum(0);
  }

  private resum(from: number): void {
    const { heights, offsets, count } = this;
    for (let i = from; i < count; i++) offsets[i + 1] = offsets[i]! + heights[i]!;
  }

  get total(): number { return this.offsets[this.count]!; }

  /** Record measured heights; returns the lowest index that changed, or -1. */
  measure(entries: Iterable<readonly [number, number]>): number {
    let low = -1;
    for (const [i, h] of entries) {
      if (i < 0 || i >= this.count || !(h > 0)) continue;
      this.measured.set(this.keys[i]!, h);
      if (this.heights[i] === h) continue;
      this.heights[i] = h;
      if (low < 0 || i < low) low = i;
    }
    if (low >= 0) this.resum(low);
    return low;
  }

  /** The first row whose bottom is below y. */
  indexAt(y: number): number {
    const { offsets } = this;
    let lo = 0, hi = this.count;
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (offsets[mid + 1]! <= y) lo = mid + 1; else hi = mid; }
    return lo;
  }

  /** Rows [first, last) that intersect [top, top + height). */
  visible(top: number, height: number): [number, number] {
    const first = this.indexAt(top);
    let last = first;
    while (last < this.count && this.offsets[last]! < top + height) last++;
    return [first, Math.max(last, Math.min(first + 1, this.count))];
  }
}

/** Whether a rendered window [start, end) still serves the visible rows [first, last). */
export function windowCovers(start: number, end: number, first: number, last: number, overscan: number, count: number): boolean {
  if (first < start || last > end) return false; // a visible row is missing
  if (start === 0 && end === count) return true; // everything is rendered anyway
  // not too many rows kept beyond the viewport on either side, else re-centre
  return first - start <= 2 * overscan + 1 && end - last <= 2 * overscan + 1;
}

interface RowProps {
  index: number;
  top: number;
  rowKey: Key;
  render: (index: number) => ReactNode;
  observer: ResizeObserver | null;
}

const Row = memo(function Row({ index, top, rowKey, render, observer }: RowProps) {
  const ref = useCallback((el: HTMLDivElement | null) => {
    if (!el || !observer) return;
    observer.observe(el);
    return () => observer.unobserve(el);
  }, [observer]);
  return (
    <div
      ref={ref}
      data-vkey={String(rowKey)}
      data-index={index}
      className="vrow"
      style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${top}px)` }}
    >
      {render(index)}
    </div>
  );
});

export function VirtualList({ count, estimate, getKey, render, scrollToIndex, overscan = 6, className, role, 'aria-label': ariaLabel, fallbackHeight = 900, resetKey }: VirtualListProps) {
  const outer = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  // measured heights by key, across changes of the rows (a new cursor), until resetKey changes;
  // losing them is harmless: rows are measured again when rendered
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const measured = useMemo(() => new Map<Key, number>(), [resetKey]);
  const layout = useMemo(() => new Layout(count, estimate, getKey, measured), [count, estimate, getKey, measured]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [viewport, setViewport] = useState(0);
  const scrollTop = useRef(0);
  /** the window of the last render */
  const win = useRef<[number, number]>([0, 0]);
  const vh = viewport || fallbackHeight;
  const [first, last] = layout.visible(scrollTop.current, vh);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, last + overscan);

  /** Apply measurements; keep the first visible row where it is on screen. */
  const apply = useCallback((entries: [number, number][]): boolean => {
    if (entries.length === 0) return false;
    const anchor = layout.indexAt(scrollTop.current);
    const before = layout.offsets[anchor]!;
    if (layout.measure(entries) < 0) return false;
    const shift = layout.offsets[anchor]! - before;
    const el = outer.current;
    if (shift !== 0 && el && scrollTop.current > 0) {
      el.scrollTop = scrollTop.current + shift;
      scrollTop.current = el.scrollTop;
    }
    return true;
  }, [layout]);

  // later size changes of rendered rows (expanding a card, the pane getting narrower, fonts)
  const applyRef = useRef(apply);
  useLayoutEffect(() => { applyRef.current = apply; }, [apply]);
  const [observer] = useState(() => typeof ResizeObserver === 'undefined' ? null : new ResizeObserver((list) => {
    const entries: [number, number][] = [];
    for (const e of list) {
      const el = e.target as HTMLElement;
      const i = Number(el.dataset.index);
      entries.push([i, e.borderBoxSize?.[0]?.blockSize ?? el.getBoundingClientRect().height]);
    }
    if (applyRef.current(entries)) rerender();
  }));
  useEffect(() => () => observer?.disconnect(), [observer]);

  useLayoutEffect(() => {
    const el = outer.current;
    if (!el) return;
    setViewport(el.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const obs = new ResizeObserver(() => setViewport(el.clientHeight));
    obs.observe(el);
    return () => obs.disconnect();
  }, []);

  // after every commit: note the window, measure the rendered rows (all reads in one pass, one
  // layout), and if a height differs from what was assumed re-render before the frame is painted
  useLayoutEffect(() => {
    win.current = [start, end];
    const box = inner.current;
    if (!box) return;
    const entries: [number, number][] = [];
    for (const child of box.children) {
      const el = child as HTMLElement;
      entries.push([Number(el.dataset.index), el.getBoundingClientRect().height]);
    }
    if (apply(entries)) rerender();
  });

  // keep the requested row visible
  useLayoutEffect(() => {
    const el = outer.current;
    if (!el || scrollToIndex == null || scrollToIndex < 0 || scrollToIndex >= count) return;
    const top = layout.offsets[scrollToIndex]!, bottom = layout.offsets[scrollToIndex + 1]!;
    const st = scrollTop.current;
    const h = el.clientHeight || fallbackHeight; // layout is clean: the effect above measured
    let next = st;
    if (top < st) next = top;
    else if (bottom > st + h) next = Math.max(0, Math.min(top, bottom - h));
    if (next !== st) {
      el.scrollTop = next;
      scrollTop.current = el.scrollTop;
      rerender();
    }
    // only when the target changes, not on every re-measure
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scrollToIndex, count]);

  const onScroll = useCallback((e: UIEvent<HTMLDivElement>) => {
    scrollTop.current = e.currentTarget.scrollTop;
    const [first, last] = layout.visible(scrollTop.current, vh);
    const [start, end] = win.current;
    // render the new rows in this very frame: a scroll update left to the scheduler can be
    // painted first, showing blank space where the rows will be
    if (!windowCovers(start, end, first, last, overscan, count)) flushSync(rerender);
  }, [layout, vh, overscan, count]);

  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) {
    const key = layout.keys[i]!;
    rows.push(<Row key={key} index={i} top={layout.offsets[i]!} rowKey={key} render={render} observer={observer} />);
  }
  return (
    <div ref={outer} className={`vlist ${className ?? ''}`} role={role} aria-label={ariaLabel} onScroll={onScroll}>
      <div ref={inner} style={{ position: 'relative', height: layout.total, width: '100%' }}>{rows}</div>
    </div>
  );
}
