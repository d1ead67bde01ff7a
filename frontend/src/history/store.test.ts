import { describe, expect, it, vi } from 'vitest';
import { HistoryStore } from './store';
import { DebuggerStore } from '../debugger/store';

describe('HistoryStore', () => {
  it('switches between the simulator and the history', () => {
    const h = new HistoryStore();
    h.toggle();
    expect(h.get().mode).toBe('history');
    h.toggle();
    expect(h.get().mode).toBe('simulator');
  });

  it("holds the open read-only run's debugger while it shows, and only in the history", () => {
    const h = new HistoryStore();
    const d = new DebuggerStore();
    const back = vi.fn();
    const undo = h.showReadOnly(d, back);
    expect(h.readOnlyDebugger()).toBeNull();
    h.setMode('history');
    expect(h.readOnlyDebugger()).toBe(d);
    const d2 = new DebuggerStore();
    const undo2 = h.showReadOnly(d2, back);
    undo(); // an older run's undo leaves the newer one
    expect(h.readOnlyDebugger()).toBe(d2);
    undo2();
    expect(h.get().readOnly).toBeNull();
  });
});
