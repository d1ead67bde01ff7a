import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { Store, Subscriptions, useStore } from './store';

class Counter extends Store<{ n: number; label: string }> {
  constructor() { super({ n: 0, label: 'a' }); }
  inc() { this.set((s) => ({ ...s, n: s.n + 1 })); }
  same() { this.set((s) => s); }
  label(l: string) { this.patch({ label: l }); }
}

describe('Store', () => {
  it('tells its listeners of a new snapshot, not of the same one, until they unsubscribe', () => {
    const c = new Counter();
    const l = vi.fn();
    const off = c.subscribe(l);
    c.inc();
    c.same();
    c.label('b');
    expect(l).toHaveBeenCalledTimes(2);
    expect(c.get()).toEqual({ n: 1, label: 'b' });
    off();
    c.inc();
    expect(l).toHaveBeenCalledTimes(2);
    expect(c.listening).toBe(0);
  });

  it('useStore re-renders on a change and unsubscribes on unmount', () => {
    const c = new Counter();
    const { result, unmount } = renderHook(() => useStore(c));
    expect(result.current.n).toBe(0);
    act(() => c.inc());
    expect(result.current.n).toBe(1);
    expect(c.listening).toBe(1);
    unmount();
    expect(c.listening).toBe(0);
  });
});

describe('Subscriptions', () => {
  it('undoes every subscription, last first, once', () => {
    const order: number[] = [];
    const s = new Subscriptions();
    s.add(() => order.push(1));
    s.add(() => order.push(2));
    s.undoAll();
    s.undoAll();
    expect(order).toEqual([2, 1]);
    expect(s.size).toBe(0);
  });
});
