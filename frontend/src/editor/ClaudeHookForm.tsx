// The form over Claude Code's hooks (issue 19): a settings.json, settings.local.json, a plugin's
// hooks/hooks.json or a SKILL.md's frontmatter. Events → matcher groups → handlers (type,
// command/args, prompt, url, timeout, if, once), each added and removed in place. Every change is an
// undoable action: the form builds the new "hooks" object and EditClaudeHooks writes it into the text,
// the rest of the file as written (other settings, the skill's body); the validator's diagnostics show
// at the event, group or handler they are about. A text that does not parse opens raw only.
import { useEffect, useMemo, useState } from 'react';
import type { Diagnostic } from '../lib/api';
import { claudeApi, type ClaudeApi, type ClaudeEventInfo, type ClaudeGroup, type ClaudeHandler, type ClaudeHooks, type ClaudeHooksEdit } from '../lib/api/configs';
import { cx } from '../components/util';
import { defineAction } from './history';
import { FieldDiags } from './HookForm';
import { Choice, Input } from './CommandHookForm';
import { useEditorSnapshot } from './useEditorSnapshot';
import type { EditorStore } from './store';
import './commandHookForm.css';

export const HANDLER_TYPES = ['command', 'prompt', 'http', 'agent', 'mcp_tool'] as const;
/** What a new handler starts as: a command that reads its input and lets everything through. */
export const NEW_HANDLER: ClaudeHandler = { type: 'command', command: 'cat >/dev/null' };

/** One form edit of Claude Code hooks as an undoable action: the whole new "hooks" object. */
export const claudeEdit = defineAction<{ api: ClaudeApi; hooks: ClaudeHooks; label: string }>({
  name: 'claude.edit',
  label: (p) => p.label,
  perform: async (ctx, p) => ({ [ctx.file]: (await p.api.editClaudeHooks(ctx.file, ctx.texts[ctx.file] ?? '', p.hooks)).text }),
});

/** The diagnostics of the item written at `line`: up to the next item (event, group or handler) of the file. */
export function ownDiags(ds: readonly Diagnostic[], lines: Record<string, number>, line: number | undefined): Diagnostic[] {
  if (!line) return [];
  const next = Object.values(lines).filter((l) => l > line).reduce((a, b) => Math.min(a, b), Number.MAX_SAFE_INTEGER);
  return ds.filter((d) => d.line >= line && d.line < next);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const clone = (h: ClaudeHooks): ClaudeHooks => JSON.parse(JSON.stringify(h)) as ClaudeHooks;

interface Props {
  store: EditorStore;
  file: string;
  /** a SKILL.md: "once" is read there only */
  skill?: boolean;
  api?: ClaudeApi;
  /** the handler written at this line (a hook's "file:line") is shown selected */
  line?: number;
  onRaw?: () => void;
}

export function ClaudeHookForm({ store, file, skill = false, api = claudeApi, line, onRaw }: Props) {
  const snap = useEditorSnapshot(store);
  const text = snap.files[file]?.text;
  const [parsed, setParsed] = useState<ClaudeHooksEdit | null>(null);
  const [newEvent, setNewEvent] = useState('PreToolUse');

  useEffect(() => {
    if (text === undefined) return;
    let alive = true;
    api.inspectClaudeHooks(file, text).then((r) => { if (alive) setParsed(r); }).catch((e) => { if (alive) store.toast(String(e), 'err'); });
    return () => { alive = false; };
  }, [api, store, file, text]);

  const info = useMemo(() => new Map((parsed?.events ?? []).map((e) => [e.name, e])), [parsed]);
  if (!parsed) return <div className="empty-state">Reading {file}…</div>;
  if (!parsed.editable) {
    return (
      <div className="hook-form" data-testid="claude-form-broken">
        <div className="file-diags">
          <FieldDiags items={parsed.diagnostics.length ? parsed.diagnostics : [{ file, line: 0, column: 0, severity: 'error', code: '', message: parsed.error ?? 'cannot be read' }]} />
          <p className="muted small">{parsed.error ?? 'This file cannot be read.'} Fix it in the <button type="button" className="linkbtn" onClick={onRaw}>Raw</button> view; the form edits a file that parses.</p>
        </div>
      </div>
    );
  }
  // until the new text is parsed the form shows the old one: no edits in between
  const stale = parsed.text !== text;
  const hooks = parsed.hooks ?? {};
  const change = (label: string, fn: (h: ClaudeHooks) => void) => {
    if (stale) return;
    const next = clone(hooks);
    fn(next);
    store.run(claudeEdit, { api, hooks: next, label }, file).catch(() => {});
  };
  const events = Object.keys(hooks);
  const placed = new Set(Object.values(parsed.lines));
  const firstLine = Math.min(...Object.values(parsed.lines), Number.MAX_SAFE_INTEGER);
  // diagnostics before the first event, or on no line of the form's, show on top
  const fileDiags = parsed.diagnostics.filter((d) => d.line < firstLine || (!placed.size && d.line >= 0));
  const choices = parsed.events.filter((e) => !events.includes(e.name));

  return (
    <div className={cx('hook-form', 'cmd-hook-form', 'claude-form', stale && 'is-stale')} data-testid="claude-form" aria-busy={stale}>
      {fileDiags.length > 0 && <div className="file-diags"><FieldDiags items={fileDiags} /></div>}
      {events.map((ev) => (
        <EventSection key={ev} ev={ev} info={info.get(ev)} groups={hooks[ev]} parsed={parsed} skill={skill} line={line} change={change} />
      ))}
      <div className="cmd-add">
        <select className="input" aria-label="event to add" value={choices.some((c) => c.name === newEvent) ? newEvent : choices[0]?.name ?? ''} onChange={(e) => setNewEvent(e.currentTarget.value)}>
          {choices.map((e) => <option key={e.name} value={e.name}>{e.name}{e.fires ? '' : ' (not simulated)'}</option>)}
        </select>
        <button type="button" className="btn sm" disabled={choices.length === 0} onClick={() => {
          const name = choices.some((c) => c.name === newEvent) ? newEvent : choices[0]!.name;
          const group: ClaudeGroup = info.get(name)?.matcher ? { matcher: '', hooks: [{ ...NEW_HANDLER }] } : { hooks: [{ ...NEW_HANDLER }] };
          change(`Add ${name}`, (h) => { h[name] = [group]; });
        }}>+ Add event</button>
      </div>
      {events.length === 0 && <div className="empty-state">No Claude Code hooks yet: pick an event and add one.</div>}
    </div>
  );
}

interface SectionProps {
  ev: string;
  info: ClaudeEventInfo | undefined;
  /** as written: anything but a list of objects is shown as such, to fix in the raw view */
  groups: unknown;
  parsed: ClaudeHooksEdit;
  skill: boolean;
  line?: number;
  change: (label: string, fn: (h: ClaudeHooks) => void) => void;
}

function EventSection({ ev, info, groups, parsed, skill, line, change }: SectionProps) {
  const evDiags = ownDiags(parsed.diagnostics, parsed.lines, parsed.lines[ev]);
  const list = Array.isArray(groups) ? groups : [];
  const count = list.reduce((n: number, g) => n + (isObj(g) && Array.isArray(g.hooks) ? g.hooks.length : 0), 0);
  return (
    <section className="cmd-event claude-event" aria-label={`Event ${ev}`} data-testid={`claude-event-${ev}`}>
      <div className="cmd-event-head">
        <span className="filter exec-event">{ev}</span>
        <span className="muted small">{count} {count === 1 ? 'handler' : 'handlers'}</span>
        {info && !info.fires && <span className="badge badge-notrun" title="Claude Code runs it, the simulated agent never reaches it">not simulated</span>}
        <span className="spacer" />
        <button type="button" className="btn sm" onClick={() => change(`Add a ${ev} group`, (h) => { h[ev] = [...(h[ev] ?? []), info?.matcher ? { matcher: '', hooks: [{ ...NEW_HANDLER }] } : { hooks: [{ ...NEW_HANDLER }] }]; })}>+ Group</button>
        <button type="button" className="iconbtn sm" aria-label={`delete event ${ev}`} title={`Delete every ${ev} hook`} onClick={() => change(`Delete ${ev}`, (h) => { delete h[ev]; })}>×</button>
      </div>
      {evDiags.length > 0 && <div className="file-diags"><FieldDiags items={evDiags} /></div>}
      {!Array.isArray(groups) && <p className="muted small">{ev} is not a list of groups: fix it in the raw view.</p>}
      {list.map((g, gi) => (isObj(g)
        ? <GroupBox key={gi} ev={ev} gi={gi} g={g as ClaudeGroup} info={info} parsed={parsed} skill={skill} line={line} change={change} />
        : <p key={gi} className="muted small">Group {gi + 1} of {ev} is not an object: fix it in the raw view.</p>))}
    </section>
  );
}

function GroupBox({ ev, gi, g, info, parsed, skill, line, change }: { ev: string; gi: number; g: ClaudeGroup } & Omit<SectionProps, 'ev' | 'groups'>) {
  const key = `${ev}/${gi}`;
  const handlers = Array.isArray(g.hooks) ? g.hooks : [];
  const gLine = parsed.lines[key];
  const gDiags = ownDiags(parsed.diagnostics, parsed.lines, gLine);
  const showMatcher = info?.matcher !== false || g.matcher !== undefined;
  const other = Object.keys(g).filter((k) => k !== 'matcher' && k !== 'hooks');
  return (
    <div className="claude-group" aria-label={`${ev} group ${gi + 1}`} data-testid={`claude-group-${key}`}>
      <div className="claude-group-head">
        {showMatcher ? (
          <Input label="matcher" value={str(g.matcher)} placeholder={info?.matcher === false ? `${ev} has no matcher` : 'every tool (e.g. Bash or Edit|Write)'} diags={gDiags}
            onCommit={(v) => change('Change matcher', (h) => { const grp = h[ev]![gi]!; if (v === '') delete grp.matcher; else grp.matcher = v; })} />
        ) : <FieldDiags items={gDiags} />}
        <button type="button" className="iconbtn sm" aria-label={`delete ${ev} group ${gi + 1}`} title="Delete this group and its handlers"
          onClick={() => change('Delete group', (h) => { h[ev]!.splice(gi, 1); if (h[ev]!.length === 0) delete h[ev]; })}>×</button>
      </div>
      {other.length > 0 && <p className="muted small">Also in this group (kept as written): {other.join(', ')}</p>}
      <ol className="hook-rows">
        {handlers.map((hd, hi) => (isObj(hd)
          ? <HandlerFields key={hi} ev={ev} gi={gi} hi={hi} hd={hd} info={info} parsed={parsed} skill={skill} selected={!!line && parsed.lines[`${key}/${hi}`] === line} change={change} />
          : <li key={hi} className="muted small">Handler {hi + 1} is not an object: fix it in the raw view.</li>))}
      </ol>
      <button type="button" className="btn sm claude-add-handler" onClick={() => change('Add handler', (h) => { const grp = h[ev]![gi]!; grp.hooks = [...(Array.isArray(grp.hooks) ? grp.hooks : []), { ...NEW_HANDLER }]; })}>+ Handler</button>
    </div>
  );
}

const KNOWN = ['type', 'command', 'args', 'prompt', 'url', 'model', 'timeout', 'if', 'once'];
/** The field a diagnostic code is about (claudehook's codes); others by the "field" they quote. */
const FIELD_OF_CODE: Record<string, string> = {
  'claude-unknown-type': 'type', 'claude-not-run': 'type', 'claude-bad-if': 'if', 'claude-if-never-runs': 'if', 'claude-once-ignored': 'once',
  'claude-missing-script': 'command', 'claude-exit1-guard': 'command', 'claude-shell-syntax': 'command', 'claude-not-executable': 'command',
};

function HandlerFields({ ev, gi, hi, hd, info, parsed, skill, selected, change }: {
  ev: string; gi: number; hi: number; hd: ClaudeHandler; info?: ClaudeEventInfo; parsed: ClaudeHooksEdit; skill: boolean; selected: boolean;
  change: SectionProps['change'];
}) {
  const line = parsed.lines[`${ev}/${gi}/${hi}`];
  const ds = ownDiags(parsed.diagnostics, parsed.lines, line);
  const of = (f: string) => ds.filter((d) => FIELD_OF_CODE[d.code] === f || (!FIELD_OF_CODE[d.code] && d.message.includes(`"${f}"`)));
  const placed = new Set(KNOWN.flatMap((f) => of(f)));
  const rest = ds.filter((d) => !placed.has(d));
  const type = str(hd.type);
  const name = `${ev} handler ${gi + 1}.${hi + 1}`;
  const set = (key: string, v: unknown) => change(`Change ${key}`, (h) => {
    const t = h[ev]![gi]!.hooks[hi]!;
    if (v === '' || v === undefined || v === false || (Array.isArray(v) && v.length === 0)) delete t[key]; else t[key] = v;
  });
  const args = Array.isArray(hd.args) ? (hd.args as unknown[]).map(str).join('\n') : str(hd.args);
  return (
    <li className={cx('claude-handler', selected && 'selected')} aria-label={name} data-testid={`claude-handler-${ev}-${gi}-${hi}`} data-line={line}>
      <div className="hook-fields">
        <FieldDiags items={rest} />
        <Choice label="type" value={type} options={HANDLER_TYPES} diags={of('type')} onChange={(v) => set('type', v)} />
        {(type === 'command' || hd.command !== undefined) && (
          <Input label="command" value={str(hd.command)} placeholder='"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' diags={of('command')} onCommit={(v) => set('command', v)} />
        )}
        {(type === 'command' || hd.args !== undefined) && (
          <Input label="args" multiline value={args} placeholder="one argument a line (the command runs without a shell)" diags={of('args')}
            onCommit={(v) => set('args', v.split('\n').filter((a) => a !== ''))} />
        )}
        {(type === 'prompt' || type === 'agent' || hd.prompt !== undefined) && (
          <Input label="prompt" multiline value={str(hd.prompt)} placeholder="Decide whether… $ARGUMENTS is the hook's input" diags={of('prompt')} onCommit={(v) => set('prompt', v)} />
        )}
        {(type === 'http' || hd.url !== undefined) && (
          <Input label="url" value={str(hd.url)} placeholder="http://127.0.0.1:8080/hook" diags={of('url')} onCommit={(v) => set('url', v)} />
        )}
        <Input label="timeout" value={str(hd.timeout)} placeholder={type === 'command' ? 'seconds (600)' : 'seconds (30)'} diags={of('timeout')}
          onCommit={(v) => set('timeout', v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v)} />
        {(info?.if !== false || hd.if !== undefined) && (
          <Input label="if" value={str(hd.if)} placeholder={info?.if === false ? `never evaluated on ${ev}` : 'Bash(git push *)'} diags={of('if')} onCommit={(v) => set('if', v)} />
        )}
        {(skill || hd.once !== undefined) && (
          <div className="field" data-field="once">
            <label htmlFor={`once-${ev}-${gi}-${hi}`}>once</label>
            <div className="field-input">
              <label className="muted small"><input id={`once-${ev}-${gi}-${hi}`} type="checkbox" aria-label="once" checked={hd.once === true} onChange={(e) => set('once', e.currentTarget.checked)} /> run once per session, from the skill&apos;s first use</label>
              <FieldDiags items={of('once')} />
            </div>
          </div>
        )}
        {Object.keys(hd).some((k) => !KNOWN.includes(k)) && <p className="muted small">Also in this handler (kept as written): {Object.keys(hd).filter((k) => !KNOWN.includes(k)).join(', ')}</p>}
        <div className="mrun-actions">
          <button type="button" className="btn sm" aria-label={`delete ${name}`} onClick={() => change('Delete handler', (h) => {
            const grp = h[ev]![gi]!;
            grp.hooks.splice(hi, 1);
          })}>Delete handler</button>
        </div>
      </div>
    </li>
  );
}
