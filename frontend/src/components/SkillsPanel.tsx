import { useState } from 'react';
import type { Diagnostic, HookInfo, StudioState } from '../lib/api';
import { checkpointOf } from '../lib/api';
import type { BreakpointId } from '../debugger/machine';
import { cx, glyph } from './util';
import { ErrorIcon, PinIcon, SevIcon, WarnIcon } from './Icons';
import { ExecHooksList } from '../exec/ExecHooksList';

export function DiagnosticList({ items }: { items: readonly Diagnostic[] }) {
  if (items.length === 0) return null;
  return (
    <ul className="diags">
      {items.map((d, i) => (
        <li key={i} className={cx('diag', `sev-${d.severity}`)}>
          <span className="sev" aria-label={d.severity} title={d.severity}><SevIcon severity={d.severity} /></span>
          <span className="loc">{d.file}:{d.line}:{d.column}</span>
          <span className="dmsg">{d.message}</span>
          {d.code && <span className="code">{d.code}</span>}
        </li>
      ))}
    </ul>
  );
}

interface Props {
  state: StudioState | null;
  breakpoints: readonly BreakpointId[];
  onToggleSkill: (skill: string, enabled: boolean) => void;
  onToggleHookBreakpoint: (hookId: string) => void;
  /** editing (optional: the panel stays read-only without them) */
  onEditSkill?: (skill: string) => void;
  onNewHook?: (skill: string) => void;
  onNewSkill?: (name: string) => Promise<unknown>;
  onImport?: () => void;
  /** root-relative files with unsaved edits */
  drafts?: readonly string[];
  /** executable hooks: why they did not run in the simulation shown ("folder not trusted"), and their breakpoints */
  execNotRun?: string;
  onToggleExecBreakpoint?: (key: string) => void;
  /** open an executable hook's config at its line in the editor */
  onOpenExecHook?: (h: HookInfo) => void;
}

function NewSkill({ onCreate }: { onCreate: (name: string) => Promise<unknown> }) {
  const [name, setName] = useState<string | null>(null);
  const [err, setErr] = useState<string | null>(null);
  if (name === null) return <button type="button" className="btn sm" onClick={() => { setName(''); setErr(null); }}>New skill…</button>;
  const submit = () => { if (name.trim()) onCreate(name.trim()).then(() => setName(null), (e) => setErr(String(e))); };
  return (
    <form className="new-skill" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <input className="input" autoFocus aria-label="new skill name" placeholder="skill-name" value={name} onChange={(e) => setName(e.currentTarget.value)} onKeyDown={(e) => { if (e.key === 'Escape') setName(null); }} />
      <button type="submit" className="btn sm primary" disabled={!name.trim()}>Create</button>
      <button type="button" className="btn sm" onClick={() => setName(null)}>Cancel</button>
      {err && <div className="count-err small">{err}</div>}
    </form>
  );
}

const NO_EXEC: readonly HookInfo[] = [];

export function SkillsPanel({ state, breakpoints, onToggleSkill, onToggleHookBreakpoint, onEditSkill, onNewHook, onNewSkill, onImport, drafts = [], execNotRun, onToggleExecBreakpoint = () => undefined, onOpenExecHook }: Props) {
  const execHooks = state?.exec?.hooks ?? NO_EXEC;
  const skillNames = new Set(state?.skills.map((s) => s.name));
  const folderHooks = execHooks.filter((h) => !h.skill || !skillNames.has(h.skill));
  return (
    <aside className="skills" aria-label="Skills">
      <header className="pane-head">
        <div className="title-row"><div className="title">Skills</div>{state && <div className="sub">{state.skills.length}</div>}</div>
        {state?.root && (onNewSkill || onImport) && (
          <div className="skills-actions">
            {onNewSkill && <NewSkill onCreate={onNewSkill} />}
            {onImport && <button type="button" className="btn sm" onClick={onImport} title="Import a skill from a .zip or a hooks.json">Import…</button>}
            {onEditSkill && <button type="button" className="btn sm" onClick={() => onEditSkill('')} title="Edit the folder's own hook configs: Claude Code's .claude/settings.json, .jcli/hooks.yaml, .picoclaw/hooks.json…">Folder hooks…</button>}
          </div>
        )}
      </header>
      <div className="pane-body">
        {state?.root_missing && (
          <div className="banner banner-warn" role="alert">
            <b>Folder disappeared</b> — showing the last good state; waiting for it to come back.
          </div>
        )}
        {!state || !state.root ? (
          <div className="empty-state">
            <p><b>No folder open.</b></p>
            <p>Use <b>Open folder…</b> to pick a skills folder: one sub-folder per skill, each with <code>hooks/hooks.json</code>.</p>
          </div>
        ) : state.skills.length === 0 ? (
          <div className="empty-state">
            <p><b>No skills in this folder.</b></p>
            <p>{onNewSkill ? <>Click <b>New skill…</b> above to create one, or <b>Import…</b> a .zip — or create </> : <>Create </>}<code>&lt;skill&gt;/hooks/hooks.json</code> under <code>{state.root}</code>.</p>
            {folderHooks.length > 0 && <p>This folder&apos;s own hooks (a Claude Code project&apos;s <code>.claude/settings.json</code>, …) are listed below.</p>}
          </div>
        ) : null}
        <DiagnosticList items={state?.diagnostics ?? []} />
        {folderHooks.length > 0 && (
          <section className="skill folder-hooks" data-testid="folder-hooks">
            <div className="skill-head"><span className="skill-name">Folder hooks</span><span className="spacer" /><span className="muted small">{folderHooks.length} executable</span></div>
            <ExecHooksList hooks={folderHooks} breakpoints={breakpoints} notRun={execNotRun} onToggleBreakpoint={onToggleExecBreakpoint} onOpen={onOpenExecHook} />
          </section>
        )}
        {state?.skills.map((s) => {
          const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
          const warnings = s.diagnostics.length - errors;
          const skillExec = execHooks.filter((h) => h.skill === s.name);
          return (
            <section key={s.name} className={cx('skill', s.broken && 'is-broken', !s.enabled && 'is-disabled')} data-testid={`skill-${s.name}`}>
              <div className="skill-head">
                <input
                  type="checkbox"
                  checked={s.enabled}
                  onChange={(e) => onToggleSkill(s.name, e.currentTarget.checked)}
                  aria-label={`enable skill ${s.name}`}
                  title={s.enabled ? 'Disable for the simulation' : 'Enable for the simulation'}
                />
                <span className="swatch" style={{ background: s.color }} />
                <span className="skill-name" style={{ color: s.color }} title={s.name}>{s.name}</span>
                {s.broken && <span className="badge badge-broken">broken</span>}
                <span className="spacer" />
                {errors > 0 && <span className="count-err" title="errors"><ErrorIcon /> {errors}</span>}
                {warnings > 0 && <span className="count-warn" title="warnings"><WarnIcon /> {warnings}</span>}
                <span className="muted small">{s.hooks.length} hooks{skillExec.length > 0 ? ` · ${skillExec.length} executable` : ''}</span>
                {drafts.some((f) => f.startsWith(`${s.dir}/`)) && <span className="dot-unsaved" title="unsaved edits">●</span>}
              </div>
              {(onEditSkill || onNewHook) && (
                <div className="skill-actions">
                  {onEditSkill && <button type="button" className="linkbtn" onClick={() => onEditSkill(s.name)} aria-label={`edit skill ${s.name}`}>Edit</button>}
                  {onNewHook && <button type="button" className="linkbtn" onClick={() => onNewHook(s.name)} aria-label={`new hook in ${s.name}`}>+ New hook</button>}
                </div>
              )}
              {s.hooks.length > 0 ? (
                <ul className="hooks-list">
                  {s.hooks.map((h) => {
                    const id = `${h.skill}/${h.name}`;
                    const armed = breakpoints.includes(`hook:${id}`);
                    return (
                      <li key={h.name} className="hook" title={h.content}>
                        <button type="button" className={cx('gutter', armed && 'armed')} aria-label={`breakpoint on hook ${id}`} title={armed ? 'Remove breakpoint' : 'Break where this hook is injected'} onClick={() => onToggleHookBreakpoint(id)}>
                          <span />
                        </button>
                        <span className={`chip cp cp${checkpointOf(h.timing)}`} title={h.timing}>{glyph(checkpointOf(h.timing))}</span>
                        <span className="hook-name" title={h.name}>{h.name}</span>
                        {h.persistent && <PinIcon title="persistent" />}
                        <span className="hook-tail">
                          {h.tool_filter && <span className="filter" title={`tool_filter: ${h.tool_filter.join(', ')}`}>⛃ {h.tool_filter.join(', ')}</span>}
                          <span className={cx('role-chip', `role-${h.role}`)}>{h.role}</span>
                        </span>
                      </li>
                    );
                  })}
                </ul>
              ) : (
                !s.broken && skillExec.length === 0 && (
                  <div className="muted small pad">
                    {s.has_hooks ? (onNewHook ? 'No hooks yet — click “+ New hook”.' : 'hooks.json lists no hooks.') : onNewHook ? <>No <code>hooks/</code> yet — “+ New hook” creates it.</> : <>No hooks — add <code>{s.dir}/hooks/hooks.json</code>.</>}
                  </div>
                )
              )}
              <ExecHooksList hooks={skillExec} breakpoints={breakpoints} notRun={execNotRun} onToggleBreakpoint={onToggleExecBreakpoint} onOpen={onOpenExecHook} />
              <DiagnosticList items={s.diagnostics} />
            </section>
          );
        })}
      </div>
    </aside>
  );
}
