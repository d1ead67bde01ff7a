// Editing history as registered, undoable actions (in the spirit of Excalidraw's action manager):
// every edit is an action with a name that `perform`s on the current texts and returns the new text
// of each file it changes. Each changed file gets an entry (before → after) on its own undo stack,
// so undo/redo is per file and the stacks survive switching between files. Pure: the backend calls
// an action needs come in through `ActionContext.api`.
import type { HookFields, HookOp, HooksEdit } from '../lib/api';

export interface Entry {
  action: string;
  label: string;
  before: string;
  after: string;
  /** actions that changed several files share a group id */
  group: number;
  at: number;
}
export interface FileHistory { undo: readonly Entry[]; redo: readonly Entry[] }
export type Histories = Readonly<Record<string, FileHistory>>;
/** new text by root-relative file */
export type FileTexts = Record<string, string>;

export const HISTORY_LIMIT = 200;
/** typing in one file within this many ms is one undo step */
export const COALESCE_MS = 1000;

const empty: FileHistory = { undo: [], redo: [] };
export const historyOf = (h: Histories, file: string): FileHistory => h[file] ?? empty;
export const canUndo = (h: Histories, file: string): boolean => historyOf(h, file).undo.length > 0;
export const canRedo = (h: Histories, file: string): boolean => historyOf(h, file).redo.length > 0;

/** Push an entry on a file's undo stack and clear its redo stack. Same-action typing coalesces. */
export function record(h: Histories, file: string, e: Entry, coalesce = false): Histories {
  if (e.before === e.after) return h;
  const cur = historyOf(h, file);
  const top = cur.undo[cur.undo.length - 1];
  if (coalesce && top && top.action === e.action && e.at - top.at < COALESCE_MS && cur.redo.length === 0) {
    return { ...h, [file]: { undo: [...cur.undo.slice(0, -1), { ...top, after: e.after, at: e.at }], redo: [] } };
  }
  const undo = [...cur.undo, e];
  return { ...h, [file]: { undo: undo.length > HISTORY_LIMIT ? undo.slice(undo.length - HISTORY_LIMIT) : undo, redo: [] } };
}

/** Undo the last entry of a file: the text to show and the new histories, or null. */
export function undo(h: Histories, file: string): { histories: Histories; text: string; entry: Entry } | null {
  const cur = historyOf(h, file);
  const entry = cur.undo[cur.undo.length - 1];
  if (!entry) return null;
  return { histories: { ...h, [file]: { undo: cur.undo.slice(0, -1), redo: [...cur.redo, entry] } }, text: entry.before, entry };
}

export function redo(h: Histories, file: string): { histories: Histories; text: string; entry: Entry } | null {
  const cur = historyOf(h, file);
  const entry = cur.redo[cur.redo.length - 1];
  if (!entry) return null;
  return { histories: { ...h, [file]: { undo: [...cur.undo, entry], redo: cur.redo.slice(0, -1) } }, text: entry.after, entry };
}

/** Forget a file's history (closed, or reloaded from disk). */
export function forget(h: Histories, file: string): Histories {
  if (!(file in h)) return h;
  const next = { ...h };
  delete next[file];
  return next;
}

// ---- the action registry ----

export interface EditApi {
  editHooks(file: string, text: string, op: HookOp): Promise<HooksEdit>;
}
export interface ActionContext {
  /** the file the action is run on */
  file: string;
  /** current text of every open file (the file itself included) */
  texts: Readonly<FileTexts>;
  api: EditApi;
}
export interface ActionSpec<P> {
  name: string;
  label: (p: P) => string;
  /** consecutive runs within COALESCE_MS are one undo step (typing) */
  coalesce?: boolean;
  perform: (ctx: ActionContext, p: P) => Promise<FileTexts> | FileTexts;
}

const registry = new Map<string, ActionSpec<never>>();
export function defineAction<P>(spec: ActionSpec<P>): ActionSpec<P> {
  registry.set(spec.name, spec as unknown as ActionSpec<never>);
  return spec;
}
export function getAction(name: string): ActionSpec<unknown> | undefined {
  return registry.get(name) as ActionSpec<unknown> | undefined;
}
export const actionNames = (): string[] => [...registry.keys()];

let groups = 0;
export interface RunResult { histories: Histories; texts: FileTexts; changed: string[]; hooks?: HooksEdit }

/** Run a registered action: perform it, then record one entry per changed file. */
export async function runAction<P>(
  action: ActionSpec<P> | string, p: P, ctx: ActionContext, histories: Histories, now = Date.now(),
): Promise<RunResult> {
  const spec = (typeof action === 'string' ? getAction(action) : action) as ActionSpec<P> | undefined;
  if (!spec) throw new Error(`unknown action ${String(action)}`);
  const out = await spec.perform(ctx, p);
  const group = ++groups;
  let h = histories;
  const changed: string[] = [];
  for (const [file, after] of Object.entries(out)) {
    const before = ctx.texts[file] ?? '';
    if (before === after && file in ctx.texts) continue; // a new file counts as changed even when empty
    changed.push(file);
    h = record(h, file, { action: spec.name, label: spec.label(p), before, after, group, at: now }, spec.coalesce);
  }
  return { histories: h, texts: { ...ctx.texts, ...out }, changed };
}

// ---- the editor's actions ----

async function hookOp(ctx: ActionContext, op: HookOp): Promise<FileTexts> {
  const r = await ctx.api.editHooks(ctx.file, ctx.texts[ctx.file] ?? '', op);
  return { [ctx.file]: r.text };
}
const promptFile = (hooksFile: string, md: string) => hooksFile.replace(/hooks\.json$/, md);

export const addHook = defineAction<{ hook: HookFields; prompt?: string }>({
  name: 'hooks.add',
  label: (p) => `Add hook ${p.hook.name}`,
  perform: async (ctx, p) => {
    const out = await hookOp(ctx, { kind: 'add', hook: p.hook });
    const md = promptFile(ctx.file, p.hook.file);
    if (p.prompt !== undefined && ctx.texts[md] === undefined) out[md] = p.prompt;
    return out;
  },
});
export const updateHook = defineAction<{ index: number; fields: Extract<HookOp, { kind: 'update' }>['fields'] }>({
  name: 'hooks.update',
  label: (p) => `Change ${Object.keys(p.fields).join(', ')}`,
  perform: (ctx, p) => hookOp(ctx, { kind: 'update', index: p.index, fields: p.fields }),
});
export const renameHook = defineAction<{ index: number; name: string }>({
  name: 'hooks.rename', label: (p) => `Rename to ${p.name}`, perform: (ctx, p) => hookOp(ctx, { kind: 'rename', index: p.index, name: p.name }),
});
export const duplicateHook = defineAction<{ index: number; name?: string }>({
  name: 'hooks.duplicate', label: () => 'Duplicate hook',
  perform: (ctx, p) => hookOp(ctx, p.name ? { kind: 'duplicate', index: p.index, name: p.name } : { kind: 'duplicate', index: p.index }),
});
export const moveHook = defineAction<{ index: number; to: number }>({
  name: 'hooks.move', label: (p) => `Move hook ${p.index + 1} to ${p.to + 1}`, perform: (ctx, p) => hookOp(ctx, { kind: 'move', index: p.index, to: p.to }),
});
export const deleteHook = defineAction<{ index: number }>({
  name: 'hooks.delete', label: () => 'Delete hook', perform: (ctx, p) => hookOp(ctx, { kind: 'delete', index: p.index }),
});
/** Typing in a CodeMirror editor (prompt or raw hooks.json). */
export const typeText = defineAction<{ text: string }>({
  name: 'text.type', label: () => 'Typing', coalesce: true, perform: (ctx, p) => ({ [ctx.file]: p.text }),
});
/** Conflict resolutions that replace the unsaved text (undoable like any edit). */
export const takeDisk = defineAction<{ text: string }>({
  name: 'conflict.takeDisk', label: () => "Take the disk's version", perform: (ctx, p) => ({ [ctx.file]: p.text }),
});
export const applyMerge = defineAction<{ text: string }>({
  name: 'conflict.merge', label: () => 'Merge with the disk', perform: (ctx, p) => ({ [ctx.file]: p.text }),
});
