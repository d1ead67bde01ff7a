// One hook config or script in the editor, beside hooks.json: hooks.yaml (form or raw, with the
// schema's completion), Claude Code's settings (form or raw), and any other file a hook system
// registers (picoclaw.json, request-hooks.yaml, Gemini CLI's settings.json, Copilot CLI's hooks…)
// raw, with completion from the registry's JSON Schema of its kind, and the scripts. The raw text is
// linted as you type by the backend's validators (LintFile); every edit is a draft the simulation
// picks up, saved with Ctrl+S like any open file.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Diagnostic } from '../lib/api';
import { claudeApi, configApi, configKind, hasSchema, type ClaudeApi, type ConfigApi, type ConfigKind } from '../lib/api/configs';
import { cx } from '../components/util';
import { CodeEditor } from './CodeEditor';
import { CommandHookForm } from './CommandHookForm';
import { ClaudeHookForm } from './ClaudeHookForm';
import { FieldDiags } from './HookForm';
import { typeText } from './history';
import { jsonSchemaCompletion, yamlCompletion, yamlSchemaInfo } from './schemaCompletion';
import { isDirty, short, type EditorStore } from './store';
import { useEditorSnapshot } from './useEditorSnapshot';

export const LINT_MS = 250;

interface Props {
  store: EditorStore;
  file: string;
  /** the line to show (a hook's "file:line") */
  line?: number;
  api?: ConfigApi;
  claude?: ClaudeApi;
  /** the backend's kind of the file (HookFile.kind): a plugin's hooks/hooks.json is Claude Code's only the folder tells */
  kind?: ConfigKind;
  /** open on the raw text even where a form exists (a file just created from its starter) */
  raw?: boolean;
}

const isClaude = (k: ConfigKind) => k === 'claude-settings' || k === 'claude-skill';
/** How the raw view reads a file: by its extension, whichever system it is for. */
const languageOf = (file: string): 'json' | 'markdown' | 'text' => (file.endsWith('.json') ? 'json' : file.endsWith('.md') ? 'markdown' : 'text');

export function ConfigPane({ store, file, line, api = configApi, claude = claudeApi, kind: given, raw = false }: Props) {
  const snap = useEditorSnapshot(store);
  const kind = given ?? configKind(file);
  const formable = kind === 'hooks-yaml' || isClaude(kind);
  const [mode, setMode] = useState<'form' | 'raw'>(formable && !raw ? 'form' : 'raw');
  const [diags, setDiags] = useState<Diagnostic[]>([]);
  const [schema, setSchema] = useState<string | null>(null);
  const f = snap.files[file];
  const language = languageOf(file);

  useEffect(() => { store.open(file).catch((e) => store.toast(String(e), 'err')); }, [store, file]);
  useEffect(() => {
    if (f?.text === undefined) return;
    let alive = true;
    const t = setTimeout(() => { api.lintFile(file, f.text).then((d) => { if (alive) setDiags(d); }).catch(() => { /* lint is a help, not a must */ }); }, LINT_MS);
    return () => { alive = false; clearTimeout(t); };
  }, [api, file, f?.text]);
  useEffect(() => {
    // hooks.yaml's completion knows its shape; any JSON file with a schema is completed by path in it
    if (!hasSchema(kind) || (kind !== 'hooks-yaml' && language !== 'json')) return;
    let alive = true;
    api.configSchema(kind).then((s) => { if (alive) setSchema(s); }).catch(() => { /* no completion */ });
    return () => { alive = false; };
  }, [api, kind, language]);
  const completion = useMemo(() => {
    if (!schema) return undefined;
    try { return kind === 'hooks-yaml' ? yamlCompletion(yamlSchemaInfo(schema)) : jsonSchemaCompletion(schema); } catch { return undefined; }
  }, [schema, kind]);
  const onChange = useCallback((text: string) => { store.run(typeText, { text }, file).catch(() => {}); }, [store, file]);
  const onFocus = useCallback(() => store.setCurrent(file), [store, file]);

  return (
    <section className="config-pane" aria-label={`Config ${file}`} data-testid="config-pane">
      <div className="prompt-head">
        <span className={cx('fname', isDirty(f) && 'dirty')} title={file}>{file.startsWith('.') ? file : short(file)}</span>
        {isDirty(f) && <span className="badge badge-unsaved">unsaved</span>}
        {f && !f.exists && <span className="badge badge-new">new file</span>}
        <span className="spacer" />
        {formable && (
          <div className="seg" role="group" aria-label={kind === 'hooks-yaml' ? 'hooks.yaml view' : 'Claude Code hooks view'}>
            <button type="button" className={cx('segbtn', mode === 'form' && 'on')} aria-pressed={mode === 'form'} onClick={() => setMode('form')}>Form</button>
            <button type="button" className={cx('segbtn', mode === 'raw' && 'on')} aria-pressed={mode === 'raw'} onClick={() => setMode('raw')}>{kind === 'hooks-yaml' ? 'Raw YAML' : kind === 'claude-skill' ? 'Raw' : 'Raw JSON'}</button>
          </div>
        )}
      </div>
      {!f ? (
        <div className="empty-state">Opening {file}…</div>
      ) : mode === 'form' && kind === 'hooks-yaml' ? (
        <div className="form-view" onFocus={onFocus}><CommandHookForm store={store} file={file} api={api} line={line} onRaw={() => setMode('raw')} /></div>
      ) : mode === 'form' && isClaude(kind) ? (
        <div className="form-view" onFocus={onFocus}><ClaudeHookForm store={store} file={file} skill={kind === 'claude-skill'} api={claude} line={line} onRaw={() => setMode('raw')} /></div>
      ) : (
        <div className="raw-view">
          <CodeEditor value={f.text} onChange={onChange} onFocus={onFocus} language={language} label={file}
            diagnostics={diags} completion={completion} testid="config-editor" />
          <FieldDiags items={diags} />
        </div>
      )}
    </section>
  );
}
