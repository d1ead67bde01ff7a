// A fake EditorApi over an in-memory disk (the mock backend's editing rules), every call a vi.fn.
import { vi } from 'vitest';
import { emptyTrace, type TraceView } from '../lib/api';
import { applyOp, inspect, merge, mockHash } from '../lib/api/mockEdit';
import type { EditorApi } from './store';

export function fakeApi(disk: Record<string, string>) {
  const exists = (f: string) => disk[f];
  const trace = (): TraceView => ({ ...emptyTrace(), draft: true });
  const api = {
    openFile: vi.fn(async (file: string) => ({ file, content: disk[file] ?? '', hash: mockHash(disk[file] ?? ''), exists: file in disk })),
    inspectHooks: vi.fn(async (file: string, text: string) => inspect(file, text, (md) => exists(file.replace(/hooks\.json$/, md)))),
    editHooks: vi.fn(async (file: string, text: string, op: Parameters<EditorApi['editHooks']>[2]) => {
      let out: string;
      try { out = applyOp(text, op); } catch (e) { throw (e as Error).message; }
      return inspect(file, out, (md) => exists(file.replace(/hooks\.json$/, md)));
    }),
    saveFile: vi.fn(async (file: string, text: string, base: string) => {
      const d = disk[file];
      if (d === undefined && base !== '' && base !== mockHash('')) return { status: 'deleted' as const, hash: '', diagnostics: [] };
      if (d !== undefined && mockHash(d) !== base) return { status: 'conflict' as const, hash: mockHash(d), theirs: d, diagnostics: [] };
      disk[file] = text;
      return { status: 'saved' as const, hash: mockHash(text), diagnostics: [] };
    }),
    mergeFile: vi.fn(async (_f: string, base: string, mine: string, theirs: string) => merge(base, mine, theirs)),
    setDraft: vi.fn<(file: string, text: string) => Promise<TraceView>>(async () => trace()),
    discardDraft: vi.fn(async () => ({ ...emptyTrace(), draft: false })),
  };
  return api as typeof api & EditorApi;
}

export const HOOKS = 'demo/hooks/hooks.json';
export const sampleDisk = (): Record<string, string> => ({
  [HOOKS]: JSON.stringify({ hooks: [
    { name: 'alpha', file: 'alpha.md', timing: 'after_user_input', role: 'system', persistent: false },
    { name: 'beta', file: 'beta.md', timing: 'before_each_agent', role: 'user', persistent: true },
    { name: 'gamma', file: 'missing.md', timing: 'after_tool_call', role: 'system', persistent: false, tool_filter: ['read_file'] },
  ] }, null, 2) + '\n',
  'demo/hooks/alpha.md': 'Alpha prompt.\n',
  'demo/hooks/beta.md': 'Beta prompt.\n',
});
