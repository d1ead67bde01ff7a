// The form over a skill's hooks.json: the hooks (reorder, duplicate, rename, delete) and the
// selected hook's fields, each with the validator's diagnostics. Every change is a registered
// action (EditHooks on the text, then the draft goes to the simulation).
import { useId, useState, type DragEvent, type ReactNode } from 'react';
import type { Diagnostic, HookEntry, HooksEdit, Timing } from '../lib/api';
import { TIMINGS, TIMING_LABELS } from '../lib/api';
import { SevIcon } from '../components/Icons';
import { cx } from '../components/util';
import { deleteHook, duplicateHook, moveHook, renameHook, updateHook, type ActionSpec } from './history';
import { entryDiags, fieldDiags, placeDiagnostics } from './fields';
import type { EditorStore } from './store';

const svg = { width: 12, height: 12, viewBox: '0 0 16 16', 'aria-hidden': true } as const;
const CopyIcon = () => <svg {...svg}><rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" /><path d="M3 11V3a1 1 0 0 1 1-1h7" fill="none" stroke="currentColor" strokeWidth="1.5" /></svg>;
const TrashIcon = () => <svg {...svg}><path d="M2.5 4h11M6 4V2.5h4V4M4 4l.8 9.5h6.4L12 4" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" /></svg>;

export function FieldDiags({ items }: { items: readonly Diagnostic[] }) {
  if (!items.length) return null;
  return (
    <ul className="field-diags">
      {items.map((d, i) => (
        <li key={i} className={`sev-${d.severity}`} data-code={d.code}><SevIcon severity={d.severity} /> {d.message}</li>
      ))}
    </ul>
  );
}

function Field({ label, diags, children, hint }: { label: string; diags: readonly Diagnostic[]; children: (id: string) => ReactNode; hint?: ReactNode }) {
  const id = useId();
  const sev = diags.some((d) => d.severity === 'error') ? 'error' : diags.length ? 'warning' : '';
  return (
    <div className={cx('field', sev && `has-${sev}`)} data-field={label}>
      <label htmlFor={id}>{label}</label>
      <div className="field-input">{children(id)}{hint && <div className="muted small">{hint}</div>}<FieldDiags items={diags} /></div>
    </div>
  );
}

/** A text input that commits on Enter / blur (one undoable action per commit). */
function CommitInput({ id, value, onCommit, placeholder, label }: { id: string; value: string; onCommit: (v: string) => void; placeholder?: string; label: string }) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = () => { if (draft !== null && draft !== value) onCommit(draft); setDraft(null); };
  return (
    <input
      id={id} className="input" aria-label={label} value={draft ?? value} placeholder={placeholder}
      onChange={(e) => setDraft(e.currentTarget.value)} onBlur={commit}
      onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); commit(); } else if (e.key === 'Escape') setDraft(null); }}
    />
  );
}

function ToolFilter({ id, value, tools, onChange }: { id: string; value: string[] | null; tools: readonly string[]; onChange: (v: string[] | null) => void }) {
  const [text, setText] = useState('');
  const list = `${id}-tools`;
  const add = (t: string) => { const v = t.trim(); if (v && !(value ?? []).includes(v)) onChange([...(value ?? []), v]); setText(''); };
  return (
    <div className="chips-input">
      {(value ?? []).map((t) => (
        <span key={t} className="tchip">{t}<button type="button" aria-label={`remove ${t}`} onClick={() => { const n = (value ?? []).filter((x) => x !== t); onChange(n.length ? n : null); }}>×</button></span>
      ))}
      <input
        id={id} className="input chip-entry" list={list} value={text} aria-label="add a tool to tool_filter"
        placeholder={value?.length ? 'add…' : tools.length ? 'all tools — type or pick one' : 'all tools — type a tool name'}
        onChange={(e) => { const v = e.currentTarget.value; if (tools.includes(v)) add(v); else setText(v); }}
        onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ',') { e.preventDefault(); add(text); } else if (e.key === 'Backspace' && !text && value?.length) onChange(value.length > 1 ? value.slice(0, -1) : null); }}
        onBlur={() => text && add(text)}
      />
      <datalist id={list}>{tools.filter((t) => !(value ?? []).includes(t)).map((t) => <option key={t} value={t} />)}</datalist>
    </div>
  );
}

interface Props {
  store: EditorStore;
  file: string;
  parsed: HooksEdit | undefined;
  selected: number;
  onSelect: (i: number) => void;
  tools: readonly string[];
  color: string;
}

export function HookForm({ store, file, parsed, selected, onSelect, tools }: Props) {
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  if (!parsed) return <div className="empty-state">Reading hooks.json…</div>;
  const entries = parsed.entries;
  const placed = placeDiagnostics(entries, parsed.diagnostics);
  const run = <P,>(a: ActionSpec<P>, p: P) => { store.run(a, p, file).catch(() => { /* toasted */ }); };
  const e: HookEntry | undefined = entries.find((x) => x.index === selected) ?? entries[0];
  const move = (from: number, to: number) => { if (to >= 0 && to < entries.length && to !== from) { run(moveHook, { index: from, to }); onSelect(to); } };
  const drop = (ev: DragEvent, to: number) => { ev.preventDefault(); if (dragFrom !== null) move(dragFrom, to); setDragFrom(null); setDropAt(null); };

  return (
    <div className="hook-form">
      {placed.file.length > 0 && (
        <div className="file-diags"><FieldDiags items={placed.file} />{parsed.entries.length === 0 && parsed.diagnostics.some((d) => d.severity === 'error') && <p className="muted small">Fix this in the <b>Raw JSON</b> view; the form edits a file that parses.</p>}</div>
      )}
      <ol className="hook-rows" aria-label="Hooks of this skill">
        {entries.map((x) => {
          const ds = entryDiags(placed, x.index);
          const errs = ds.filter((d) => d.severity === 'error').length;
          return (
            <li
              key={`${x.index}-${x.name}`}
              className={cx('hook-row', x.index === e?.index && 'selected', !x.ok && 'not-ok', dropAt === x.index && 'drop-here')}
              draggable
              onDragStart={(ev) => { setDragFrom(x.index); ev.dataTransfer.effectAllowed = 'move'; ev.dataTransfer.setData('text/plain', String(x.index)); }}
              onDragOver={(ev) => { ev.preventDefault(); setDropAt(x.index); }}
              onDragLeave={() => setDropAt(null)}
              onDrop={(ev) => drop(ev, x.index)}
              onClick={() => onSelect(x.index)}
              data-testid={`hook-row-${x.name}`}
            >
              <span className="grip" aria-hidden title="Drag to reorder">⋮⋮</span>
              <span className={`chip cp cp${TIMINGS.indexOf(x.timing as Timing) + 1}`}>{TIMING_LABELS[x.timing as Timing]?.slice(0, 1) ?? '?'}</span>
              <button type="button" className="hook-row-name" onClick={() => onSelect(x.index)}>{x.name || <i className="muted">unnamed</i>}</button>
              {errs > 0 ? <span className="count-err" title={`${errs} errors`}><SevIcon severity="error" /> {errs}</span> : ds.length > 0 && <span className="count-warn"><SevIcon severity="warning" /> {ds.length}</span>}
              <span className="spacer" />
              <span className="row-actions">
                <button type="button" className="iconbtn sm" aria-label={`move ${x.name} up`} title="Move up" disabled={x.index === 0} onClick={(ev) => { ev.stopPropagation(); move(x.index, x.index - 1); }}>↑</button>
                <button type="button" className="iconbtn sm" aria-label={`move ${x.name} down`} title="Move down" disabled={x.index === entries.length - 1} onClick={(ev) => { ev.stopPropagation(); move(x.index, x.index + 1); }}>↓</button>
                <button type="button" className="iconbtn sm" aria-label={`duplicate ${x.name}`} title="Duplicate" onClick={(ev) => { ev.stopPropagation(); run(duplicateHook, { index: x.index }); onSelect(x.index + 1); }}><CopyIcon /></button>
                {confirmDelete === x.index ? (
                  <span className="confirm" role="group" aria-label="confirm delete">
                    <button type="button" className="btn danger sm" onClick={(ev) => { ev.stopPropagation(); setConfirmDelete(null); run(deleteHook, { index: x.index }); onSelect(Math.max(0, x.index - 1)); }}>Delete</button>
                    <button type="button" className="btn sm" onClick={(ev) => { ev.stopPropagation(); setConfirmDelete(null); }}>Keep</button>
                  </span>
                ) : (
                  <button type="button" className="iconbtn sm" aria-label={`delete ${x.name}`} title="Delete (asks first)" onClick={(ev) => { ev.stopPropagation(); setConfirmDelete(x.index); }}><TrashIcon /></button>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      {entries.length === 0 && placed.file.length === 0 && (
        <div className="empty-state">This skill has no hooks yet. Click <b>New hook</b> to add one: a prompt file injected at one of the checkpoints ①–⑤.</div>
      )}
      {e && (
        <div className="hook-fields" aria-label={`Fields of ${e.name}`} key={e.index}>
          <FieldDiags items={fieldDiags(placed, e.index, '')} />
          <Field label="name" diags={fieldDiags(placed, e.index, 'name')}>
            {(id) => <CommitInput id={id} label="name" value={e.name} onCommit={(v) => run(renameHook, { index: e.index, name: v })} />}
          </Field>
          <Field label="file" diags={fieldDiags(placed, e.index, 'file')} hint="relative to the skill's hooks/ folder">
            {(id) => <CommitInput id={id} label="file" value={e.file} placeholder="prompt.md" onCommit={(v) => run(updateHook, { index: e.index, fields: { file: v } })} />}
          </Field>
          <Field label="timing" diags={fieldDiags(placed, e.index, 'timing')}>
            {(id) => (
              <select id={id} className="input" aria-label="timing" value={e.timing} onChange={(ev) => run(updateHook, { index: e.index, fields: { timing: ev.currentTarget.value as Timing } })}>
                {!TIMINGS.includes(e.timing as Timing) && <option value={e.timing}>{e.timing || '(none)'}</option>}
                {TIMINGS.map((t) => <option key={t} value={t}>{TIMING_LABELS[t]}</option>)}
              </select>
            )}
          </Field>
          <Field label="role" diags={fieldDiags(placed, e.index, 'role')}>
            {(id) => (
              <select id={id} className="input" aria-label="role" value={e.role} onChange={(ev) => run(updateHook, { index: e.index, fields: { role: ev.currentTarget.value as 'system' | 'user' } })}>
                {e.role !== 'system' && e.role !== 'user' && <option value={e.role}>{e.role || '(none)'}</option>}
                <option value="system">system</option>
                <option value="user">user</option>
              </select>
            )}
          </Field>
          <Field label="persistent" diags={fieldDiags(placed, e.index, 'persistent')} hint="yielded to the frontend and carried into later requests' history">
            {(id) => <input id={id} type="checkbox" aria-label="persistent" checked={e.persistent} onChange={(ev) => run(updateHook, { index: e.index, fields: { persistent: ev.currentTarget.checked } })} />}
          </Field>
          <Field
            label="tool_filter"
            diags={fieldDiags(placed, e.index, 'tool_filter')}
            hint={e.timing === 'after_tool_call' ? 'only after calls of these tools; empty = every tool' : 'only used with ⑤ after_tool_call'}
          >
            {(id) => <ToolFilter id={id} value={e.tool_filter ?? null} tools={tools} onChange={(v) => run(updateHook, { index: e.index, fields: { tool_filter: v } })} />}
          </Field>
        </div>
      )}
    </div>
  );
}
