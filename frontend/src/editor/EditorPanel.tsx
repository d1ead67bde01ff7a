// The editor of one skill, next to the simulator: the hook form with the selected hook's prompt,
// or the raw hooks.json; open files as tabs with unsaved dots; conflicts; export and copy.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useEditorSnapshot } from './useEditorSnapshot';
import * as api from '../lib/api';
import type { StudioState, TraceView } from '../lib/api';
import { hooksPath, promptPath, skillOfPath } from '../lib/api';
import { Markdown } from '../components/Markdown';
import { cx, fmt } from '../components/util';
import { CodeEditor } from './CodeEditor';
import { HookForm, FieldDiags } from './HookForm';
import { ConflictPanel, MergeConflicts } from './ConflictPanel';
import { addHook, typeText } from './history';
import { schemaCompletion, schemaInfo } from './schemaCompletion';
import { isDirty, isHooksFile, short, type EditorStore } from './store';
import { ConfigPane } from './ConfigPane';
import { configApi, configKind, type ConfigApi, type HookFile, type NewHookFile } from '../lib/api/configs';
import { NewFileMenu } from './NewFileMenu';

export { useEditorSnapshot };

/** The token count of a hook's message in the simulation (the real tokenizer's), or null. */
export function hookTokens(view: TraceView | null, skill: string, hook: string): number | null {
  const m = view?.messages.find((x) => x.origin === 'hook' && x.skill === skill && x.hook === hook);
  return m ? m.tokens : null;
}

function PromptPane({ store, file, view, skill, hook }: { store: EditorStore; file: string; view: TraceView | null; skill: string; hook: string }) {
  const snap = useEditorSnapshot(store);
  const [preview, setPreview] = useState(false);
  useEffect(() => { store.open(file, false).catch((e) => store.toast(String(e), 'err')); }, [store, file]);
  const f = snap.files[file];
  const tokens = hookTokens(view, skill, hook);
  const onChange = useCallback((text: string) => { store.run(typeText, { text }, file).catch(() => {}); }, [store, file]);
  const onFocus = useCallback(() => store.setCurrent(file), [store, file]);
  return (
    <section className="prompt-pane" aria-label={`Prompt ${short(file)}`}>
      <div className="prompt-head">
        <span className={cx('fname', isDirty(f) && 'dirty')}>{short(file)}</span>
        {isDirty(f) && <span className="badge badge-unsaved">unsaved</span>}
        {f && !f.exists && <span className="badge badge-new">new file</span>}
        <span className="spacer" />
        <span className="tokens" title="Tokens of this hook's message in the simulation (real tokenizer)" data-testid="prompt-tokens">
          {tokens === null ? '—' : fmt(tokens)} tokens
        </span>
        <div className="seg" role="group" aria-label="Prompt view">
          <button type="button" className={cx('segbtn', !preview && 'on')} aria-pressed={!preview} onClick={() => setPreview(false)}>Edit</button>
          <button type="button" className={cx('segbtn', preview && 'on')} aria-pressed={preview} onClick={() => setPreview(true)}>Preview</button>
        </div>
      </div>
      {!f ? (
        <div className="empty-state">Opening {short(file)}…</div>
      ) : preview ? (
        <div className="prompt-preview">{f.text.trim() ? <Markdown text={f.text} /> : <p className="muted">Nothing to preview: the prompt is empty.</p>}</div>
      ) : (
        <CodeEditor value={f.text} onChange={onChange} onFocus={onFocus} language="markdown" label={`prompt ${short(file)}`} placeholder="Write the message this hook injects (Markdown)…" testid="prompt-editor" />
      )}
    </section>
  );
}

interface Props {
  store: EditorStore;
  skill: string;
  state: StudioState | null;
  view: TraceView | null;
  onClose: () => void;
  /** changes (non-zero) when the skills panel asks for a new hook */
  newHookRequest?: number;
  /** open a hook config or script (a command/process hook's "file:line") */
  openConfig?: { file: string; line?: number };
  /** changes (non-zero) when the command registry asks for the offer of new hook files */
  newFileRequest?: number;
  api?: ConfigApi;
}

export function EditorPanel({ store, skill, state, view, onClose, newHookRequest, openConfig, newFileRequest, api: cfgApi = configApi }: Props) {
  const snap = useEditorSnapshot(store);
  // skill "": the folder's own configs (a Claude Code project may have no skill at all)
  const folder = skill === '';
  const file = hooksPath(skill);
  const [mode, setMode] = useState<'form' | 'raw'>('form');
  const [selected, setSelected] = useState(0);
  const [schema, setSchema] = useState<ReturnType<typeof schemaInfo> | null>(null);
  const sk = state?.skills.find((s) => s.name === skill);
  // a hook config or script shown instead of hooks.json (ConfigPane)
  const [config, setConfig] = useState<{ file: string; line?: number; raw?: boolean } | null>(openConfig ?? null);
  const [files, setFiles] = useState<HookFile[] | null>(null);
  const [newFiles, setNewFiles] = useState<NewHookFile[]>([]);
  const configs = useMemo(() => (files ?? []).filter((f) => f.kind !== 'hooks-json' && f.kind !== 'prompt'), [files]);
  useEffect(() => { if (openConfig) setConfig(openConfig); }, [openConfig]);
  useEffect(() => {
    let alive = true;
    cfgApi.hookFiles(skill).then((fs) => { if (alive) setFiles(fs); }).catch(() => { if (alive) setFiles((fs) => fs ?? []); });
    cfgApi.newHookFiles().then((nf) => { if (alive) setNewFiles(nf); }).catch(() => { /* nothing to offer */ });
    return () => { alive = false; };
  }, [cfgApi, skill, state]);
  // a new file the picker offers: the skill's hooks.yaml (the agents' root files: NewFileMenu)
  const offered = folder ? [] : [`${skill}/hooks/hooks.yaml`];
  const configChoices = [...configs.map((c) => c.file), ...offered.filter((o) => !configs.some((c) => c.file === o))];
  const kindOf = (f: string) => configs.find((c) => c.file === f)?.kind;
  // a hooks.json the backend gives another system's kind (a Claude Code plugin's or Gemini CLI extension's
  // hooks/hooks.json, a Copilot CLI plugin's hooks.json) is that system's file: its own pane, not seed 000's
  // form; a skill without seed 000's hooks.json that holds one is that system's plugin, and opens on it
  const foreign = (f: string) => isHooksFile(f) && (kindOf(f) ?? 'hooks-json') !== 'hooks-json';
  const pluginFile = files?.some((f) => f.file === file && f.kind === 'hooks-json') ? undefined : configs.find((c) => foreign(c.file))?.file;
  const pluginHooks = pluginFile !== undefined;
  const folderFile = (configs.find((c) => c.kind === 'claude-settings') ?? configs[0])?.file;
  const shown = config ?? (folder ? (folderFile ? { file: folderFile } : null) : pluginFile ? { file: pluginFile } : null);
  // an agent's starter file: created on disk with its starter text, then open raw
  const createFile = (f: string) => {
    cfgApi.createHookFile(f)
      .then(async () => {
        if (store.get().files[f]) await store.checkDisk();
        setConfig({ file: f, raw: true });
        store.toast(`Created ${f}`);
      })
      .catch((e) => store.toast(`Could not create ${f}: ${String(e)}`, 'err'));
  };

  // seed 000's hooks.json, once the list says it is the skill's (a Copilot CLI plugin has none to open)
  const seedHooks = !folder && files !== null && (pluginFile === undefined || pluginFile === file);
  useEffect(() => { if (seedHooks) store.open(file).catch((e) => store.toast(String(e), 'err')); }, [store, file, seedHooks]);
  useEffect(() => {
    let alive = true;
    api.hooksSchema().then((t) => { if (alive) setSchema(schemaInfo(t)); }).catch(() => { /* no completion */ });
    return () => { alive = false; };
  }, []);
  const completion = useMemo(() => (schema ? schemaCompletion(schema) : undefined), [schema]);

  const hf = snap.files[file];
  const parsed = snap.hooks[file];
  const entry = parsed?.entries.find((e) => e.index === selected) ?? parsed?.entries[0];
  const prompt = entry?.file ? promptPath(skill, entry.file) : null;
  const skillNames = new Set(state?.skills.map((s) => s.name));
  const skillFiles = snap.order.filter((f) => (folder ? !skillNames.has(skillOfPath(f)) : skillOfPath(f) === skill));
  const conflicted = skillFiles.map((f) => snap.files[f]!).filter((f) => f.conflict);
  const unsaved = snap.order.filter((f) => isDirty(snap.files[f])).length;
  const tools = view?.tools ?? [];

  const newHook = useCallback(async () => {
    await store.open(file);
    const cur = store.get().hooks[file];
    const taken = new Set(cur?.entries.map((e) => e.name));
    let n = (cur?.entries.length ?? 0) + 1;
    while (taken.has(`hook-${n}`)) n++;
    const name = `hook-${n}`;
    await store.run(addHook, { hook: { name, file: `${name}.md`, timing: 'after_user_input', role: 'system', persistent: false }, prompt: '' }, file);
    setMode('form');
    setSelected(store.get().hooks[file]?.entries.findIndex((e) => e.name === name) ?? 0);
  }, [store, file]);

  // the skills panel's "+ New hook": a new request token adds one hook
  useEffect(() => {
    if (newHookRequest) newHook().catch(() => {});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [newHookRequest]);

  const copy = () => {
    api.hooksJSONText(skill)
      .then((t) => navigator.clipboard.writeText(t))
      .then(() => store.toast('hooks.json copied to the clipboard'))
      .catch((e) => store.toast(`Copy failed: ${String(e)}`, 'err'));
  };
  const exportSkill = (zip: boolean) => {
    api.exportSkill(folder ? '.claude' : skill, zip)
      .then((p) => { if (p) store.toast(`Exported to ${p}`); })
      .catch((e) => store.toast(`Export failed: ${String(e)}`, 'err'));
  };

  return (
    <aside className="editor" aria-label="Editor" data-testid="editor">
      <header className="pane-head editor-head">
        <div className="editor-title">
          <button type="button" className="linkbtn" onClick={onClose} title="Back to the skills list">← Skills</button>
          {folder ? <b className="skill-name">Folder hooks</b> : <><span className="swatch" style={{ background: sk?.color }} />
            <b className="skill-name" style={{ color: sk?.color }}>{skill}</b></>}
          {unsaved > 0 && <span className="badge badge-unsaved" data-testid="unsaved-count">{unsaved} unsaved</span>}
          <span className="spacer" />
          {!folder && !pluginHooks && <button type="button" className="btn sm primary" onClick={() => { newHook().catch(() => {}); }}>+ New hook</button>}
        </div>
        <div className="editor-actions">
          <button type="button" className="btn sm" disabled={!store.canUndo()} title="Undo (Ctrl+Z)" onClick={() => store.undo()}>↶ Undo</button>
          <button type="button" className="btn sm" disabled={!store.canRedo()} title="Redo (Ctrl+Shift+Z / Ctrl+Y)" onClick={() => store.redo()}>↷ Redo</button>
          <button type="button" className="btn sm" disabled={!isDirty(snap.current ? snap.files[snap.current] : undefined)} title="Save the current file (Ctrl+S)" onClick={() => { store.save().catch(() => {}); }}>Save</button>
          <button type="button" className="btn sm" disabled={unsaved === 0} title="Save all (Ctrl+Shift+S)" onClick={() => { store.saveAll().catch(() => {}); }}>Save all</button>
          <span className="spacer" />
          {!folder && !pluginHooks && <button type="button" className="btn sm" onClick={copy} title="Copy the canonical hooks.json">Copy hooks.json</button>}
          {!folder && <button type="button" className="btn sm" onClick={() => exportSkill(true)} title="Export the skill as a .zip">Export .zip</button>}
          {!folder && <button type="button" className="btn sm" onClick={() => exportSkill(false)} title="Export the skill into a folder">Export to folder</button>}
          {folder && configs.some((c) => c.file.startsWith('.claude/')) && <button type="button" className="btn sm" onClick={() => exportSkill(true)} title="Export the project's .claude folder (settings.json, hooks and skills; not settings.local.json) as a .zip">Export .claude</button>}
        </div>
      </header>
      <nav className="file-tabs" aria-label="Open files">
        {skillFiles.map((f) => {
          const o = snap.files[f]!;
          return (
            <button key={f} type="button" className={cx('file-tab', f === snap.current && 'active', isDirty(o) && 'dirty', o.conflict && 'conflicted')}
              onClick={() => { store.setCurrent(f); if ((kindOf(f) ?? configKind(f)) !== 'prompt' && (!isHooksFile(f) || foreign(f))) { setConfig({ file: f }); return; } setConfig(null); if (isHooksFile(f)) setMode('form'); else { const i = parsed?.entries.findIndex((e) => promptPath(skill, e.file) === f) ?? -1; if (i >= 0) { setSelected(i); setMode('form'); } } }}
              title={isDirty(o) ? `${f} — unsaved` : f} data-testid={`tab-${short(f)}`}>
              {isDirty(o) && <span className="dot" aria-label="unsaved">●</span>}{short(f)}
            </button>
          );
        })}
        <span className="spacer" />
        <NewFileMenu files={newFiles} onCreate={createFile} openRequest={newFileRequest} />
        {configChoices.length > 0 && <select className="input sm config-pick" aria-label="Hook configs and scripts" value={shown?.file ?? ''} onChange={(e) => setConfig(e.currentTarget.value ? { file: e.currentTarget.value } : null)}>
          {!folder && !pluginHooks && <option value="">hooks.json</option>}
          {configChoices.map((c) => <option key={c} value={c}>{c.startsWith(`${skill}/`) ? c.slice(skill.length + 1) : c}{configs.some((x) => x.file === c) ? '' : ' (new)'}</option>)}
        </select>}
        {!folder && !pluginHooks && (
          <div className="seg" role="group" aria-label="hooks.json view">
            <button type="button" className={cx('segbtn', !config && mode === 'form' && 'on')} aria-pressed={!config && mode === 'form'} onClick={() => { setConfig(null); setMode('form'); }}>Form</button>
            <button type="button" className={cx('segbtn', !config && mode === 'raw' && 'on')} aria-pressed={!config && mode === 'raw'} onClick={() => { setConfig(null); setMode('raw'); store.setCurrent(file); }}>Raw JSON</button>
          </div>
        )}
      </nav>
      <div className="editor-body">
        {conflicted.map((f) => <ConflictPanel key={f.file} store={store} file={f} />)}
        {skillFiles.map((f) => snap.files[f]!).filter((f) => f.mergeConflicts).map((f) => (
          <MergeConflicts key={f.file} items={f.mergeConflicts!} onDismiss={() => store.dismissMergeConflicts(f.file)} />
        ))}
        {shown ? (
          <ConfigPane key={`${shown.file}:${kindOf(shown.file) ?? ''}`} store={store} file={shown.file} line={shown.line} kind={kindOf(shown.file)} raw={!!config?.raw} api={cfgApi} />
        ) : folder ? (
          <div className="empty-state" data-testid="no-folder-hooks">
            This folder has no hook file yet. <b>+ New file</b> creates one for an agent ({newFiles.map((n) => n.label).join(', ') || 'none left'}) with a small valid start.
          </div>
        ) : !hf ? (
          <div className="empty-state">Opening {file}…</div>
        ) : mode === 'raw' ? (
          <div className="raw-view">
            <CodeEditor
              value={hf.text} language="json" label="hooks.json" diagnostics={parsed?.diagnostics ?? []} completion={completion} testid="raw-editor"
              onChange={(text) => { store.run(typeText, { text }, file).catch(() => {}); }} onFocus={() => store.setCurrent(file)}
            />
            <FieldDiags items={parsed?.diagnostics ?? []} />
          </div>
        ) : (
          <div className="form-view" onFocus={(e) => { if (!(e.target as HTMLElement).closest('.prompt-pane')) store.setCurrent(file); }}>
            <HookForm store={store} file={file} parsed={parsed} selected={entry?.index ?? 0} onSelect={setSelected} tools={tools} color={sk?.color ?? ''} />
            {entry && prompt && <PromptPane key={prompt} store={store} file={prompt} view={view} skill={skill} hook={entry.name} />}
            {entry && !entry.file && <div className="empty-state">Give this hook a <b>file</b> to write its prompt.</div>}
          </div>
        )}
      </div>
    </aside>
  );
}
