import { describe, expect, it, vi } from 'vitest';
import { EditorStore, short, TOAST_ERR_MS, TOAST_MS } from './store';
import { typeText } from './history';
import { fakeApi } from './testApi';
import { emptyTrace, type TraceView } from '../lib/api';

const MD = 'demo/hooks/alpha.md';

describe('EditorStore', () => {
  it('a save waits for the draft sent before it: the backend never gets the draft after the save', async () => {
    const disk: Record<string, string> = { [MD]: 'old\n' };
    const api = fakeApi(disk);
    const calls: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => { release = r; });
    api.setDraft.mockImplementation(async (_file: string, text: string): Promise<TraceView> => {
      calls.push(`draft start ${text.trim()}`);
      await slow; // the draft's round trip is slow (a busy machine)
      calls.push('draft end');
      return { ...emptyTrace(), draft: true };
    });
    api.saveFile.mockImplementation(async (file: string, text: string) => {
      calls.push(`save ${text.trim()}`);
      disk[file] = text;
      return { status: 'saved' as const, hash: 'h', diagnostics: [] };
    });
    const store = new EditorStore(api);
    await store.open(MD);
    await store.run(typeText, { text: 'new\n' }, MD);
    const drafted = store.pushDraft(MD); // goes out now, answers late
    const saved = store.save(MD);
    await vi.waitFor(() => expect(calls).toEqual(['draft start new']));
    release();
    expect(await saved).toBe('saved');
    await drafted;
    expect(calls).toEqual(['draft start new', 'draft end', 'save new']);
    // nothing unsaved now: the next push drops the draft instead of sending one
    await store.pushDraft(MD);
    expect(api.discardDraft).toHaveBeenCalledWith(MD);
    expect(api.setDraft).toHaveBeenCalledTimes(1);
  });

  it('a toast goes after a while (an error stays longer), and none is left after dispose', () => {
    vi.useFakeTimers();
    try {
      const store = new EditorStore(fakeApi({}));
      store.toast('Saved');
      vi.advanceTimersByTime(TOAST_MS - 1);
      expect(store.get().toast?.text).toBe('Saved');
      vi.advanceTimersByTime(1);
      expect(store.get().toast).toBeNull();
      store.toast('Save failed', 'err');
      vi.advanceTimersByTime(TOAST_MS);
      expect(store.get().toast?.kind).toBe('err');
      vi.advanceTimersByTime(TOAST_ERR_MS - TOAST_MS);
      expect(store.get().toast).toBeNull();
      store.toast('later');
      store.dispose();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('short', () => {
  it("names a file by its name, an agent's file with its dot folder", () => {
    expect(short('demo/hooks/hooks.json')).toBe('hooks.json');
    expect(short('codex-guard/.codex/hooks.json')).toBe('.codex/hooks.json');
    expect(short('qwen-guard/.qwen/settings.json')).toBe('.qwen/settings.json');
    expect(short('hooks.json')).toBe('hooks.json');
  });
});
