import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { LayoutStore } from './store';
import type { SavedLayout } from '../lib/api/layout';

afterEach(() => localStorage.clear());
const stored = () => JSON.parse(localStorage.getItem('hookstudio.layout') ?? '{}');

describe('LayoutStore (the browser fallback of the Layout binding)', () => {
  it('loads what was saved, changes live, and saves when a change ends', async () => {
    localStorage.setItem('hookstudio.layout', JSON.stringify({ skills_width: 300, flow_height: 5 }));
    const s = new LayoutStore(() => {});
    s.load();
    await waitFor(() => expect(s.get().loaded).toBe(true));
    expect(s.get().layout).toEqual({ skills_width: 300 }); // the bad height dropped
    s.update({ messages_width: 400 }); // while dragging: not saved
    expect(stored()).toEqual({ skills_width: 300, flow_height: 5 });
    s.update({ messages_width: 420 }, true); // the drag ends: saved at once
    s.toggle('bottom_collapsed'); // while that save is in flight: saved after it
    expect(s.get().layout).toEqual({ skills_width: 300, messages_width: 420, bottom_collapsed: true });
    await waitFor(() => expect(stored()).toEqual({ skills_width: 300, messages_width: 420, bottom_collapsed: true }));
    s.openBottom();
    expect(s.get().layout.bottom_collapsed).toBe(false);
  });

  it('a change made before the load answers wins; a load undone is dropped', async () => {
    let answer!: (l: SavedLayout) => void;
    const setLayout = vi.fn(async (l: SavedLayout) => l);
    const s = new LayoutStore(() => {}, { getLayout: () => new Promise((r) => { answer = r; }), setLayout });
    s.load();
    s.update({ skills_width: 250 }, true);
    answer({ skills_width: 300, messages_width: 500 });
    await waitFor(() => expect(s.get().loaded).toBe(true));
    expect(s.get().layout).toEqual({ skills_width: 250, messages_width: 500 });
    expect(setLayout).toHaveBeenCalledWith({ skills_width: 250 });

    const late = new LayoutStore(() => {}, { getLayout: () => new Promise((r) => { answer = r; }), setLayout });
    late.load()();
    answer({ skills_width: 300 });
    await Promise.resolve();
    expect(late.get()).toEqual({ layout: {}, loaded: false });
  });

  it('reports a failing save', async () => {
    const onError = vi.fn();
    const s = new LayoutStore(onError, { getLayout: async () => ({}), setLayout: () => Promise.reject('disk full') });
    s.update({ skills_width: 250 }, true);
    await waitFor(() => expect(onError).toHaveBeenCalledWith('disk full'));
  });
});
