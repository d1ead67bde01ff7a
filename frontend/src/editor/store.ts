// The editor's open files, their unsaved text, histories and conflicts: a small external store
// (React reads it with useSyncExternalStore). Every edit is a registered action (history.ts); the
// new text goes to the backend as a draft (debounced) so the simulator previews it while typing.
import * as api from '../lib/api';
import type { FileSnapshot, HooksEdit, MergeConflict, TraceView } from '../lib/api';
import { applyMerge, canRedo, canUndo, forget, redo as redoH, runAction, takeDisk, undo as undoH, type ActionSpec, type Histories } from './history';

export interface Conflict {
  /** conflict: the disk has other text; deleted: the file is gone from disk */
  kind: 'conflict' | 'deleted';
  theirs: string;
  theirsHash: string;
}
export interface OpenFile {
  file: string;
  /** the text on disk when opened / last saved (the merge base) */
  base: string;
  hash: string;
  exists: boolean;
  text: string;
  /** made by an action (a new hook's prompt): unsaved until written, even when empty */
  created?: boolean;
  conflict?: Conflict;
  /** conflicts a merge could not resolve (shown until the next edit) */
  mergeConflicts?: MergeConflict[];
}
export interface EditorSnapshot {
  files: Readonly<Record<string, OpenFile>>;
  order: readonly string[];
  current: string | null;
  histories: Histories;
  /** parsed hooks.json per open hooks.json file */
  hooks: Readonly<Record<string, HooksEdit>>;
  toast: { text: string; kind: 'ok' | 'err'; id: number } | null;
}

export type EditorApi = Pick<typeof api, 'openFile' | 'inspectHooks' | 'editHooks' | 'saveFile' | 'mergeFile' | 'setDraft' | 'discardDraft'>;

export const isDirty = (f: OpenFile | undefined): boolean => !!f && (f.text !== f.base || (!f.exists && (f.created === true || f.text !== '')));
export const isHooksFile = (file: string): boolean => file.endsWith('/hooks.json');

export const DRAFT_DEBOUNCE_MS = 150;
export const TOAST_MS = 2500;
export const TOAST_ERR_MS = 6000;
export const INSPECT_DEBOUNCE_MS = 250;

export class EditorStore {
  private snap: EditorSnapshot = { files: {}, order: [], current: null, histories: {}, hooks: {}, toast: null };
  private listeners = new Set<() => void>();
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private toastId = 0;
  private toastTimer: ReturnType<typeof setTimeout> | undefined;
  private checking = false;
  private saving = new Set<string>();
  /** Each file's backend calls, one after another: the backend runs calls concurrently, so a draft
   * sent before a save could otherwise land after it and leave the saved file as a draft. */
  private queues = new Map<string, Promise<unknown>>();

  constructor(private readonly be: EditorApi = api, private readonly onTrace: (v: TraceView) => void = () => {}) {}

  subscribe = (cb: () => void): (() => void) => { this.listeners.add(cb); return () => { this.listeners.delete(cb); }; };
  get = (): EditorSnapshot => this.snap;
  private set(patch: Partial<EditorSnapshot>) {
    this.snap = { ...this.snap, ...patch };
    this.listeners.forEach((l) => l());
  }
  private setFile(file: string, patch: Partial<OpenFile>) {
    const f = this.snap.files[file];
    if (f) this.set({ files: { ...this.snap.files, [file]: { ...f, ...patch } } });
  }
  /** A message at the bottom, gone after a while (an error stays longer). */
  toast(text: string, kind: 'ok' | 'err' = 'ok') {
    this.set({ toast: { text, kind, id: ++this.toastId } });
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => this.clearToast(), kind === 'err' ? TOAST_ERR_MS : TOAST_MS);
  }
  clearToast() { clearTimeout(this.toastTimer); if (this.snap.toast) this.set({ toast: null }); }

  dismissMergeConflicts(file: string) { this.setFile(file, { mergeConflicts: undefined }); }
  dirtyFiles(): string[] { return this.snap.order.filter((f) => isDirty(this.snap.files[f])); }
  canUndo(file = this.snap.current): boolean { return !!file && canUndo(this.snap.histories, file); }
  canRedo(file = this.snap.current): boolean { return !!file && canRedo(this.snap.histories, file); }
  setCurrent(file: string | null) { if (file !== this.snap.current) this.set({ current: file }); }

  /** Open a file (no-op when open); a missing file opens empty (it is created by the first save). */
  async open(file: string, makeCurrent = true, initial?: string): Promise<OpenFile> {
    const have = this.snap.files[file];
    if (have) { if (makeCurrent) this.setCurrent(file); return have; }
    const s: FileSnapshot = await this.be.openFile(file);
    const again = this.snap.files[file];
    if (again) return again;
    const f: OpenFile = { file, base: s.content, hash: s.hash, exists: s.exists, text: s.exists ? s.content : initial ?? '' };
    this.set({ files: { ...this.snap.files, [file]: f }, order: [...this.snap.order, file], current: makeCurrent ? file : this.snap.current });
    if (isHooksFile(file)) await this.inspect(file);
    if (isDirty(f)) this.scheduleDraft(file);
    return f;
  }

  /** Close a file: its draft is dropped (the caller asks first when it is dirty). */
  close(file: string) {
    const f = this.snap.files[file];
    if (!f) return;
    const files = { ...this.snap.files };
    delete files[file];
    const hooks = { ...this.snap.hooks };
    delete hooks[file];
    const order = this.snap.order.filter((x) => x !== file);
    this.set({ files, order, hooks, histories: forget(this.snap.histories, file), current: this.snap.current === file ? order[order.length - 1] ?? null : this.snap.current });
    this.cancel(`draft:${file}`);
    if (isDirty(f)) this.serial(file, () => this.be.discardDraft(file)).then(this.onTrace).catch(() => {});
  }

  private serial<T>(file: string, call: () => Promise<T>): Promise<T> {
    const next = (this.queues.get(file) ?? Promise.resolve()).catch(() => undefined).then(call);
    this.queues.set(file, next);
    const forget = () => { if (this.queues.get(file) === next) this.queues.delete(file); };
    next.then(forget, forget);
    return next;
  }

  /** Run a registered action on a file; the result is recorded, previewed and (hooks.json) inspected. */
  async run<P>(action: ActionSpec<P>, p: P, file = this.snap.current): Promise<void> {
    if (!file) return;
    const texts = Object.fromEntries(this.snap.order.map((f) => [f, this.snap.files[f]!.text]));
    if (!(file in texts)) { await this.open(file, false); texts[file] = this.snap.files[file]!.text; }
    let res;
    try {
      res = await runAction(action, p, { file, texts, api: this.be }, this.snap.histories);
    } catch (e) {
      this.toast(String(e instanceof Error ? e.message : e), 'err');
      throw e;
    }
    // files an action creates (a new hook's prompt) are opened, not on disk yet
    for (const f of res.changed) if (!this.snap.files[f]) { await this.open(f, false, ''); if (!this.snap.files[f]!.exists) this.setFile(f, { created: true }); }
    const files = { ...this.snap.files };
    for (const f of res.changed) files[f] = { ...files[f]!, text: res.texts[f]!, mergeConflicts: undefined };
    this.set({ files, histories: res.histories });
    for (const f of res.changed) this.afterChange(f, action.name !== 'text.type');
  }

  undo(file = this.snap.current) { this.step(file, undoH); }
  redo(file = this.snap.current) { this.step(file, redoH); }
  private step(file: string | null, fn: typeof undoH) {
    if (!file || !this.snap.files[file]) return;
    const r = fn(this.snap.histories, file);
    if (!r) return;
    this.set({ histories: r.histories, files: { ...this.snap.files, [file]: { ...this.snap.files[file]!, text: r.text } } });
    this.afterChange(file, true);
  }

  private afterChange(file: string, inspectNow: boolean) {
    this.scheduleDraft(file);
    if (isHooksFile(file)) {
      if (inspectNow) void this.inspect(file);
      else this.debounce(`inspect:${file}`, INSPECT_DEBOUNCE_MS, () => void this.inspect(file));
    }
  }

  private debounce(key: string, ms: number, fn: () => void) {
    this.cancel(key);
    this.timers.set(key, setTimeout(() => { this.timers.delete(key); fn(); }, ms));
  }
  private cancel(key: string) {
    const t = this.timers.get(key);
    if (t) { clearTimeout(t); this.timers.delete(key); }
  }
  scheduleDraft(file: string) { this.debounce(`draft:${file}`, DRAFT_DEBOUNCE_MS, () => void this.pushDraft(file)); }
  /** Send the file's unsaved text to the simulation now (or drop the draft when it matches the disk). */
  async pushDraft(file: string) {
    this.cancel(`draft:${file}`);
    if (!this.snap.files[file]) return;
    try {
      // the text as it is when the call goes out, after any save queued before it
      const v = await this.serial(file, () => {
        const f = this.snap.files[file];
        return f && isDirty(f) ? this.be.setDraft(file, f.text) : this.be.discardDraft(file);
      });
      this.onTrace(v);
    } catch (e) { this.toast(String(e), 'err'); }
  }
  /** Wait for pending drafts/inspections (tests, save). */
  async flush() {
    const keys = [...this.timers.keys()];
    for (const k of keys) this.cancel(k);
    for (const k of keys) {
      const [kind, file] = [k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)];
      if (kind === 'draft') await this.pushDraft(file);
      else await this.inspect(file);
    }
  }

  async inspect(file: string) {
    const f = this.snap.files[file];
    if (!f) return;
    try {
      const r = await this.be.inspectHooks(file, f.text);
      if (this.snap.files[file]?.text === f.text) this.set({ hooks: { ...this.snap.hooks, [file]: r } });
    } catch (e) { this.toast(String(e), 'err'); }
  }

  // ---- saving and conflicts ----

  /** Save a file if the disk still holds its base; a conflict or deletion is kept on the file. */
  async save(file = this.snap.current): Promise<'saved' | 'conflict' | 'deleted' | 'clean' | 'error'> {
    const f = file ? this.snap.files[file] : undefined;
    if (!f) return 'clean';
    if (!isDirty(f) && f.exists) return 'clean';
    this.cancel(`draft:${f.file}`);
    this.saving.add(f.file);
    try {
      const r = await this.serial(f.file, () => this.be.saveFile(f.file, f.text, f.hash));
      if (r.status === 'saved') {
        const now = this.snap.files[f.file];
        // typing may have continued during the save: keep it as unsaved text on the new base
        this.setFile(f.file, { base: f.text, hash: r.hash, exists: true, conflict: undefined, text: now?.text ?? f.text });
        if (now && now.text !== f.text) this.scheduleDraft(f.file);
        const errs = r.diagnostics.filter((d) => d.severity === 'error').length;
        this.toast(errs ? `Saved ${short(f.file)} — ${errs} ${errs === 1 ? 'error' : 'errors'} to fix` : `Saved ${short(f.file)}`, errs ? 'err' : 'ok');
        return 'saved';
      }
      if (r.status === 'conflict') {
        this.setFile(f.file, { conflict: { kind: 'conflict', theirs: r.theirs ?? '', theirsHash: r.hash } });
        return 'conflict';
      }
      this.setFile(f.file, { conflict: { kind: 'deleted', theirs: '', theirsHash: r.hash } });
      return 'deleted';
    } catch (e) {
      this.toast(`Save failed: ${String(e)}`, 'err');
      return 'error';
    } finally {
      this.saving.delete(f.file);
    }
  }
  async saveAll(): Promise<void> {
    // hooks.json last: its prompts exist on disk by then, so it validates without missing-file
    const dirty = this.dirtyFiles().sort((a, b) => Number(isHooksFile(a)) - Number(isHooksFile(b)));
    for (const f of dirty) await this.save(f);
  }

  /** Keep mine: overwrite the disk's version (or recreate a deleted file). */
  async keepMine(file: string) {
    const f = this.snap.files[file];
    if (!f?.conflict) return;
    this.setFile(file, { hash: f.conflict.kind === 'deleted' ? '' : f.conflict.theirsHash, base: f.conflict.theirs, conflict: undefined });
    await this.save(file);
  }
  /** Take the disk's version: the unsaved text is replaced (undoable) and the draft dropped. */
  async takeTheirs(file: string) {
    const f = this.snap.files[file];
    if (!f?.conflict) return;
    const c = f.conflict;
    if (c.kind === 'deleted') { this.close(file); return; }
    this.setFile(file, { base: c.theirs, hash: c.theirsHash, exists: true, conflict: undefined });
    await this.run(takeDisk, { text: c.theirs }, file);
    await this.pushDraft(file);
  }
  /** Merge: three-way merge of base, mine and the disk's; the result becomes the unsaved text. */
  async merge(file: string): Promise<MergeConflict[]> {
    const f = this.snap.files[file];
    if (!f?.conflict || f.conflict.kind !== 'conflict') return [];
    const c = f.conflict;
    const r = await this.be.mergeFile(file, f.base, f.text, c.theirs);
    this.setFile(file, { base: c.theirs, hash: c.theirsHash, conflict: undefined });
    await this.run(applyMerge, { text: r.text }, file);
    this.setFile(file, { mergeConflicts: r.conflicts.length ? r.conflicts : undefined });
    return r.conflicts;
  }

  /** A studio:state event: compare each open file with the disk (by hash). */
  async checkDisk() {
    if (this.checking) return;
    this.checking = true;
    try {
      for (const file of [...this.snap.order]) {
        const f = this.snap.files[file];
        if (!f || f.conflict || this.saving.has(file)) continue;
        let s: FileSnapshot;
        try { s = await this.be.openFile(file); } catch { continue; }
        const now = this.snap.files[file];
        if (!now || now.conflict || this.saving.has(file) || now.hash !== f.hash) continue;
        if (s.exists && s.hash === now.hash) continue;
        if (!s.exists && !now.exists) continue;
        if (!isDirty(now)) {
          // nothing unsaved: follow the disk silently
          if (!s.exists) { this.setFile(file, { conflict: { kind: 'deleted', theirs: '', theirsHash: s.hash } }); continue; }
          this.set({ files: { ...this.snap.files, [file]: { ...now, base: s.content, text: s.content, hash: s.hash, exists: true } }, histories: forget(this.snap.histories, file) });
          if (isHooksFile(file)) await this.inspect(file);
          continue;
        }
        this.setFile(file, { conflict: s.exists ? { kind: 'conflict', theirs: s.content, theirsHash: s.hash } : { kind: 'deleted', theirs: '', theirsHash: s.hash } });
      }
    } finally { this.checking = false; }
  }

  dispose() { for (const k of [...this.timers.keys()]) this.cancel(k); clearTimeout(this.toastTimer); this.listeners.clear(); }
}

/** A file's name for tabs and heads; an agent's file keeps its dot folder (.codex/hooks.json beside a skill's hooks.json). */
export const short = (file: string): string => {
  const parts = file.split('/');
  const name = parts[parts.length - 1] ?? file;
  const dir = parts[parts.length - 2];
  return dir?.startsWith('.') ? `${dir}/${name}` : name;
};
