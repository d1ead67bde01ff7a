import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { StudioState } from '../lib/api';
import { cx } from './util';
import { ErrorIcon, FolderIcon, WarnIcon } from './Icons';
import { ScenarioPlaces } from './ScenarioPlaces';

/** A long path shortened at its start, keeping the folder names that matter. */
export function shortPath(p: string, max = 48): string {
  return p.length <= max ? p : `…${p.slice(p.length - max + 1)}`;
}

export type Theme = 'system' | 'light' | 'dark';

function Menu({ label, title, children, className, testid }: { label: ReactNode; title?: string; children: (close: () => void) => ReactNode; className?: string; testid?: string }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => { if (!ref.current?.contains(e.target as Node)) setOpen(false); };
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') setOpen(false); };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('mousedown', onDown); document.removeEventListener('keydown', onKey); };
  }, [open]);
  return (
    <div className={cx('menu', className)} ref={ref}>
      <button type="button" className="btn" aria-haspopup="menu" aria-expanded={open} title={title} onClick={() => setOpen((o) => !o)} data-testid={testid}>
        {label} <span className="caret">▾</span>
      </button>
      {open && <div className="menu-pop" role="menu">{children(() => setOpen(false))}</div>}
    </div>
  );
}

interface Props {
  state: StudioState | null;
  theme: Theme;
  onTheme: (t: Theme) => void;
  onChooseFolder: () => void;
  onOpenRecent: (path: string) => void;
  onSelectScenario: (file: string) => void;
  onHelp: () => void;
  /** files with unsaved edits (the editor's) */
  unsaved?: number;
}

export function TopBar({ state, theme, onTheme, onChooseFolder, onOpenRecent, onSelectScenario, onHelp, unsaved = 0 }: Props) {
  const sel = state?.scenarios.find((s) => s.file === state.selected);
  const nextTheme: Theme = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system';
  return (
    <header className="topbar">
      <div className="brand" title="Hook Studio"><span className="logo">◆</span> Hook Studio</div>
      <div className="folder" title={state?.root || 'no folder'}>
        <span className="folder-icon"><FolderIcon /></span>
        <span className={cx('path', !state?.root && 'muted')}>{state?.root ? shortPath(state.root) : 'No folder open'}</span>
        {state?.root_missing && <span className="badge badge-remove">missing</span>}
      </div>
      <button type="button" className="btn primary" onClick={onChooseFolder}>Open folder…</button>
      <Menu label="Recent" title="Recent folders">
        {(close) =>
          state?.recent.length ? (
            state.recent.map((r) => (
              <button key={r} type="button" role="menuitem" className={cx('menu-item', r === state.root && 'active')} onClick={() => { close(); onOpenRecent(r); }}>
                {r}
              </button>
            ))
          ) : (
            <div className="menu-empty">No recent folders yet.</div>
          )
        }
      </Menu>
      <div className="sep" />
      <Menu
        className="scenario-menu"
        testid="scenario-picker"
        title="Scenario"
        label={
          <>
            <span className="muted">Scenario:</span> <b>{sel ? sel.name : state?.scenarios.length ? 'choose…' : 'none'}</b>
            {sel && !sel.valid && <span className="count-err"> <ErrorIcon /> {sel.diagnostics.filter((d) => d.severity === 'error').length}</span>}
          </>
        }
      >
        {(close) =>
          state?.scenarios.length ? (
            state.scenarios.map((s) => {
              const errs = s.diagnostics.filter((d) => d.severity === 'error').length;
              return (
                <button key={s.file} type="button" role="menuitem" className={cx('menu-item', 'scenario-item', s.file === state.selected && 'active', !s.valid && 'is-invalid')} onClick={() => { close(); onSelectScenario(s.file); }}>
                  <span className="sc-name">{s.name}</span>
                  <span className="sc-file" title={s.file}>{s.file}</span>
                  {s.valid ? <span className="muted small">{s.requests} {s.requests === 1 ? 'request' : 'requests'}</span> : <span className="count-err"><ErrorIcon /> {errs} {errs === 1 ? 'error' : 'errors'}</span>}
                </button>
              );
            })
          ) : (
            <div className="menu-empty">No scenarios found — <ScenarioPlaces skills={state?.skills.length ?? 0} />.</div>
          )
        }
      </Menu>
      <div className="spacer" />
      {unsaved > 0 && <span className="badge badge-unsaved" title="Files with unsaved edits — Ctrl+Shift+S saves all" data-testid="topbar-unsaved">● {unsaved} unsaved</span>}
      {state && (
        <div className="counts" aria-label="problems">
          <span className={cx('count-err', state.errors === 0 && 'zero')} title="errors"><ErrorIcon /> {state.errors}</span>
          <span className={cx('count-warn', state.warnings === 0 && 'zero')} title="warnings"><WarnIcon /> {state.warnings}</span>
        </div>
      )}
      <button type="button" className="iconbtn" title={`Theme: ${theme} (click for ${nextTheme})`} aria-label="Toggle theme" onClick={() => onTheme(nextTheme)}>
        {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'}
      </button>
      <button type="button" className="iconbtn" title="Help and shortcuts (? or F1)" aria-label="Help" onClick={onHelp}>?</button>
    </header>
  );
}
