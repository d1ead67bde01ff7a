// The form over a hooks.yaml (jcli command hooks, seed 001): hooks per event (add, delete, reorder
// within the event) and the selected hook's fields with the validator's diagnostics inline. Every
// change is an undoable action: EditCommandHooks on the text (yaml.v3 nodes, so order, comments and
// unknown keys survive), then the draft goes to the simulation. A file that does not parse opens
// raw only, with its diagnostics.
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { Diagnostic } from '../lib/api';
import { configApi, type CommandEvent, type CommandHook, type CommandHookOp, type CommandHooksEdit, type ConfigApi } from '../lib/api/configs';
import { cx } from '../components/util';
import { SevIcon } from '../components/Icons';
import { defineAction } from './history';
import { FieldDiags } from './HookForm';
import { useEditorSnapshot } from './useEditorSnapshot';
import type { EditorStore } from './store';
import './commandHookForm.css';

export const EVENTS = ['session_start', 'pre_send_message', 'post_send_message', 'pre_llm_request', 'post_llm_response', 'pre_tool_execution',
  'post_tool_execution', 'post_tool_execution_failure', 'stop', 'pre_micro_compact', 'post_micro_compact', 'pre_auto_compact', 'post_auto_compact', 'session_end'] as const;
const FIELDS = ['name', 'type', 'command', 'prompt', 'model', 'timeout', 'on_error'] as const;
const FILTERS = ['tool_name', 'tool_matcher', 'model_prefix'] as const;

/** One form edit of a hooks.yaml as an undoable action. */
export const yamlEdit = defineAction<{ api: ConfigApi; op: CommandHookOp }>({
  name: 'hooksyaml.edit',
  label: (p) => (p.op.kind === 'set' ? `Change ${p.op.key}` : `${p.op.kind[0]!.toUpperCase()}${p.op.kind.slice(1)} hook`),
  perform: async (ctx, p) => ({ [ctx.file]: (await p.api.editCommandHooks(ctx.file, ctx.texts[ctx.file] ?? '', p.op)).text }),
});

/** The diagnostics on a hook's lines ([line, end)), and of those, the ones about one field. */
export function hookDiags(ds: readonly Diagnostic[], line: number, end: number): Diagnostic[] {
  return ds.filter((d) => d.line >= line && d.line < end);
}
export function fieldOf(d: Diagnostic): string {
  for (const f of [...FILTERS, ...FIELDS]) if (new RegExp(`[.\\s"']${f}\\b`).test(d.message)) return FILTERS.includes(f as (typeof FILTERS)[number]) ? `filter.${f}` : f;
  return '';
}

export function Input({ label, value, onCommit, multiline, diags, placeholder }: { label: string; value: string; onCommit: (v: string) => void; multiline?: boolean; diags: readonly Diagnostic[]; placeholder?: string }) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => { if (draft !== null && draft !== value) onCommit(draft); setDraft(null); };
  const sev = diags.some((d) => d.severity === 'error') ? 'error' : diags.length ? 'warning' : '';
  const common = { id, className: 'input', 'aria-label': label, value: draft ?? value, placeholder, onBlur: commit };
  return (
    <div className={cx('field', sev && `has-${sev}`)} data-field={label}>
      <label htmlFor={id}>{label}</label>
      <div className="field-input">
        {multiline ? (
          <textarea {...common} rows={5} onChange={(e) => setDraft(e.currentTarget.value)} onKeyDown={(e) => { if (e.key === 'Escape') setDraft(null); }} />
        ) : (
          <input {...common} onChange={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); commit(); } else if (e.key === 'Escape') setDraft(null); }} />
        )}
        <FieldDiags items={diags} />
      </div>
    </div>
  );
}

export function Choice({ label, value, options, onChange, diags }: { label: string; value: string; options: readonly string[]; onChange: (v: string) => void; diags: readonly Diagnostic[] }) {
  const id = useId();
  return (
    <div className={cx('field', diags.length > 0 && 'has-error')} data-field={label}>
      <label htmlFor={id}>{label}</label>
      <div className="field-input">
        <select id={id} className="input" aria-label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">(default)</option>
          {value && !options.includes(value) && <option value={value}>{value}</option>}
          {options.map((o) => <option key={o} value={o}>{o}</option>)}
        </select>
        <FieldDiags items={diags} />
      </div>
    </div>
  );
}

interface Props {
  store: EditorStore;
  file: string;
  api?: ConfigApi;
  /** select the hook written at this line (the skills panel's "file:line") */
  line?: number;
  /** the file cannot be edited in the form: show the raw view */
  onRaw?: () => void;
}

export function CommandHookForm({ store, file, api = configApi, line, onRaw }: Props) {
  const snap = useEditorSnapshot(store);
  const text = snap.files[file]?.text;
  const [parsed, setParsed] = useState<CommandHooksEdit | null>(null);
  const [sel, setSel] = useState<{ event: string; index: number } | null>(null);
  const [newEvent, setNewEvent] = useState<string>('pre_tool_execution');

  useEffect(() => {
    if (text === undefined) return;
    let alive = true;
    // the text changes only through the form's own edits and undo here: parse at once
    api.inspectCommandHooks(file, text).then((r) => { if (alive) setParsed(r); }).catch((e) => { if (alive) store.toast(String(e), 'err'); });
    return () => { alive = false; };
  }, [api, store, file, text]);

  // the hook at `line`, once parsed
  useEffect(() => {
    if (!parsed || !line) return;
    for (const ev of parsed.events) for (const h of ev.hooks) if (h.line === line) setSel({ event: ev.event, index: h.index });
  }, [parsed, line]);

  const ends = useMemo(() => {
    // each hook's lines end where the next hook (of any event) starts
    const starts = (parsed?.events ?? []).flatMap((ev) => [ev.line, ...ev.hooks.map((h) => h.line)]).sort((a, b) => a - b);
    return (l: number) => starts.find((s) => s > l) ?? Number.MAX_SAFE_INTEGER;
  }, [parsed]);

  if (!parsed) return <div className="empty-state">Reading {file}…</div>;
  // until the new text is parsed, indexes are the old text's: no edits in between
  const stale = parsed.text !== text;
  const run = (op: CommandHookOp) => { if (!stale) store.run(yamlEdit, { api, op }, file).catch(() => {}); };
  if (!parsed.editable) {
    return (
      <div className="hook-form" data-testid="yaml-form-broken">
        <div className="file-diags">
          <FieldDiags items={parsed.diagnostics.length ? parsed.diagnostics : [{ file, line: 0, column: 0, severity: 'error', code: '', message: parsed.error ?? 'cannot be read' }]} />
          <p className="muted small">This file does not parse as a mapping of events to lists of hooks: fix it in the <button type="button" className="linkbtn" onClick={onRaw}>Raw</button> view; the form edits a file that parses.</p>
        </div>
      </div>
    );
  }
  const all = parsed.events.flatMap((ev) => ev.hooks.map((h) => ({ ev, h })));
  const cur = all.find((x) => sel && x.ev.event === sel.event && x.h.index === sel.index) ?? all[0];
  const firstLine = parsed.events[0]?.line ?? Number.MAX_SAFE_INTEGER;
  const fileDiags = parsed.diagnostics.filter((d) => d.line < firstLine || !all.some((x) => d.line >= x.h.line && d.line < ends(x.h.line)));
  const label = (h: CommandHook, ev: CommandEvent) => h.fields.name || `${ev.event}[${h.index}]`;

  return (
    <div className={cx('hook-form', 'cmd-hook-form', stale && 'is-stale')} data-testid="yaml-form" aria-busy={stale}>
      {fileDiags.length > 0 && <div className="file-diags"><FieldDiags items={fileDiags} /></div>}
      {parsed.events.map((ev) => (
        <section key={ev.event} className="cmd-event" aria-label={`Event ${ev.event}`}>
          <div className="cmd-event-head"><span className="filter exec-event">{ev.event}</span><span className="muted small">{ev.hooks.length} {ev.hooks.length === 1 ? 'hook' : 'hooks'}</span></div>
          <ol className="hook-rows">
            {ev.hooks.map((h) => {
              const ds = hookDiags(parsed.diagnostics, h.line, ends(h.line));
              const errs = ds.filter((d) => d.severity === 'error').length;
              const name = label(h, ev);
              const selected = cur?.h === h;
              return [
                <li key={`${h.index}-${h.line}`} className={cx('hook-row', selected && 'selected')} onClick={() => setSel({ event: ev.event, index: h.index })} data-testid={`yaml-row-${name}`}>
                  <span className="chip">{h.fields.type === 'llm' ? 'LLM' : 'CMD'}</span>
                  <button type="button" className="hook-row-name" onClick={() => setSel({ event: ev.event, index: h.index })}>{name}</button>
                  {errs > 0 ? <span className="count-err" title={`${errs} errors`}><SevIcon severity="error" /> {errs}</span> : ds.length > 0 && <span className="count-warn"><SevIcon severity="warning" /> {ds.length}</span>}
                  <span className="spacer" />
                  <span className="row-actions">
                    <button type="button" className="iconbtn sm" aria-label={`move ${name} up`} title="Move up" disabled={h.index === 0} onClick={(e) => { e.stopPropagation(); run({ kind: 'move', event: ev.event, index: h.index, to: h.index - 1 }); setSel({ event: ev.event, index: h.index - 1 }); }}>↑</button>
                    <button type="button" className="iconbtn sm" aria-label={`move ${name} down`} title="Move down" disabled={h.index === ev.hooks.length - 1} onClick={(e) => { e.stopPropagation(); run({ kind: 'move', event: ev.event, index: h.index, to: h.index + 1 }); setSel({ event: ev.event, index: h.index + 1 }); }}>↓</button>
                    <button type="button" className="iconbtn sm" aria-label={`delete ${name}`} title="Delete" onClick={(e) => { e.stopPropagation(); run({ kind: 'delete', event: ev.event, index: h.index }); setSel(null); }}>×</button>
                  </span>
                </li>,
                selected && (
                  <li key="fields" className="cmd-fields-row">
                    <HookFields key={`${ev.event}/${h.index}`} ev={ev} h={h} diags={ds} run={run} />
                  </li>
                ),
              ];
            })}
          </ol>
        </section>
      ))}
      <div className="cmd-add">
        <select className="input" aria-label="event of the new hook" value={newEvent} onChange={(e) => setNewEvent(e.currentTarget.value)}>
          {EVENTS.map((e) => <option key={e} value={e}>{e}</option>)}
        </select>
        <button type="button" className="btn sm" onClick={() => {
          const n = parsed.events.find((e) => e.event === newEvent)?.hooks.length ?? 0;
          run({ kind: 'add', event: newEvent, fields: { name: `${newEvent.replace(/_/g, '-')}-${n + 1}`, command: 'cat >/dev/null' } });
          setSel({ event: newEvent, index: n });
        }}>+ Add hook</button>
      </div>
      {all.length === 0 && <div className="empty-state">No command hooks yet: pick an event and add one.</div>}
    </div>
  );
}

function HookFields({ ev, h, diags, run }: { ev: CommandEvent; h: CommandHook; diags: Diagnostic[]; run: (op: CommandHookOp) => void }) {
  const of = (f: string) => diags.filter((d) => fieldOf(d) === f);
  const set = (key: string) => (v: string) => run({ kind: 'set', event: ev.event, index: h.index, key, value: v, delete: v === '' });
  const llm = h.fields.type === 'llm';
  const field = (f: string, extra: { multiline?: boolean; placeholder?: string } = {}): ReactNode => (
    <Input key={f} label={f} value={h.fields[f] ?? ''} onCommit={set(f)} diags={of(f)} {...extra} />
  );
  return (
    <div className="hook-fields" aria-label={`Fields of ${h.fields.name || `${ev.event}[${h.index}]`}`}>
      <FieldDiags items={of('')} />
      {field('name', { placeholder: `${ev.event}[${h.index}]` })}
      <Choice label="type" value={h.fields.type ?? ''} options={['bash', 'llm']} onChange={set('type')} diags={of('type')} />
      {llm ? field('prompt', { multiline: true }) : field('command', { placeholder: 'sh "$JCLI_HOOK_DIR/script.sh"' })}
      {llm && field('model')}
      {!llm && h.fields.prompt !== undefined && field('prompt', { multiline: true })}
      {field('timeout', { placeholder: 'seconds' })}
      <Choice label="on_error" value={h.fields.on_error ?? ''} options={['skip', 'abort']} onChange={set('on_error')} diags={of('on_error')} />
      {FILTERS.map((f) => <Input key={f} label={`filter.${f}`} value={h.filter[f] ?? ''} onCommit={set(`filter.${f}`)} diags={of(`filter.${f}`)} />)}
      {h.unknown.length > 0 && <p className="muted small">Also in this hook (kept as written): {h.unknown.join(', ')}</p>}
    </div>
  );
}
