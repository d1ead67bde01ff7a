import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import type { Key } from 'react';
import { Layout, VirtualList, windowCovers } from './VirtualList';

const keyOf = (i: number): Key => `k${i}`;

describe('Layout', () => {
  it('lays rows out from estimates and measured heights, by key', () => {
    const measured = new Map<Key, number>([['k1', 50]]);
    const l = new Layout(4, () => 10, keyOf, measured);
    expect([...l.offsets]).toEqual([0, 10, 60, 70, 80]);
    expect(l.total).toBe(80);
  });

  it('re-sums offsets from the lowest changed row and remembers the heights by key', () => {
    const measured = new Map<Key, number>();
    const l = new Layout(5, () => 10, keyOf, measured);
    expect(l.measure([[3, 30], [1, 20], [4, 10]])).toBe(1); // row 4 did not change
    expect([...l.offsets]).toEqual([0, 10, 30, 40, 70, 80]);
    expect(l.measure([[1, 20]])).toBe(-1); // nothing new
    expect(l.measure([[9, 5], [-1, 5], [2, 0]])).toBe(-1); // out of range or unmeasurable
    expect(measured.get('k3')).toBe(30);
    // a new layout (the list changed) keeps the measured heights of keys it still has
    const shifted = new Layout(3, () => 10, (i) => keyOf(i + 2), measured);
    expect([...shifted.heights]).toEqual([10, 30, 10]);
  });

  it('finds the rows in view', () => {
    const l = new Layout(100, () => 20, keyOf, new Map());
    expect(l.indexAt(0)).toBe(0);
    expect(l.indexAt(19.9)).toBe(0);
    expect(l.indexAt(20)).toBe(1);
    expect(l.indexAt(1e9)).toBe(100);
    expect(l.visible(30, 50)).toEqual([1, 4]); // rows 1..3 intersect [30, 80)
    expect(l.visible(1990, 100)).toEqual([99, 100]);
    expect(new Layout(0, () => 20, keyOf, new Map()).visible(0, 100)).toEqual([0, 0]);
  });
});

describe('windowCovers', () => {
  it('keeps a window while the visible rows stay inside it and it is not far off', () => {
    expect(windowCovers(10, 30, 13, 27, 3, 1000)).toBe(true);
    expect(windowCovers(10, 30, 9, 20, 3, 1000)).toBe(false); // a row above is missing
    expect(windowCovers(10, 30, 20, 31, 3, 1000)).toBe(false); // a row below is missing
    expect(windowCovers(10, 30, 20, 28, 3, 1000)).toBe(false); // 10 rows kept above: re-centre
    expect(windowCovers(0, 12, 8, 10, 3, 12)).toBe(true); // everything is rendered
  });
});

describe('VirtualList', () => {
  it('renders only the window of a long list, rows placed by transform', () => {
    const { container } = render(
      <VirtualList count={10_000} estimate={() => 30} getKey={(i) => i} fallbackHeight={300} overscan={2} render={(i) => <span>row {i}</span>} />,
    );
    const rows = container.querySelectorAll('.vrow');
    expect(rows.length).toBe(12); // 10 in view + 2 overscan below
    expect((rows[3] as HTMLElement).style.transform).toBe('translateY(90px)');
    expect((container.firstChild!.firstChild as HTMLElement).style.height).toBe('300000px');
  });

  it('does not re-render rows whose content and place are unchanged', () => {
    let calls = 0;
    const renderRow = (i: number) => { calls++; return <span>row {i}</span>; };
    const props = { count: 100, estimate: () => 30, getKey: (i: number) => i, fallbackHeight: 300, overscan: 2, render: renderRow };
    const { rerender } = render(<VirtualList {...props} />);
    const first = calls;
    rerender(<VirtualList {...props} className="x" />);
    expect(calls).toBe(first);
  });
});
