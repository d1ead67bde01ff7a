// Executable hooks in the skills panel, beside the prompt hooks: system, native event, name,
// command, a breakpoint gutter, and whether they run (an untrusted folder's do not).
import type { HookInfo } from '../lib/api';
import type { BreakpointId } from '../debugger/machine';
import { cx } from '../components/util';
import { SystemBadge } from './HookCallRow';

interface Props {
  hooks: readonly HookInfo[];
  breakpoints: readonly BreakpointId[];
  notRun?: string;
  onToggleBreakpoint: (key: string) => void;
  /** open the hook's config at its line (Source "file:line") in the editor */
  onOpen?: (h: HookInfo) => void;
}

/** What the hook runs, whole (its detail: the command line, a prompt, a URL), or its name. */
const whole = (h: HookInfo) => h.detail || h.hook;

export function ExecHooksList({ hooks, breakpoints, notRun, onToggleBreakpoint, onOpen }: Props) {
  if (hooks.length === 0) return null;
  return (
    <ul className="hooks-list exec-hooks" aria-label="Executable hooks">
      {hooks.map((h) => {
        const key = `${h.system}/${h.hook}`;
        const armed = breakpoints.includes(`exec:${key}`);
        return (
          <li key={`${h.source}/${h.event}/${h.hook}`} className={cx('hook', 'exec-hook', notRun && 'is-notrun')} title={`${h.source}${h.detail ? `\n${h.detail}` : ''}${notRun ? `\nnot run (${notRun})` : ''}`} data-testid={`exec-hook-${h.hook}`}>
            {/* the hook's line: its name cut there if need be, what follows wraps under it */}
            <span className="exec-head">
              <button type="button" className={cx('gutter', armed && 'armed')} aria-label={`breakpoint on ${key}`} title={armed ? 'Remove breakpoint' : 'Break at every invocation of this hook'} onClick={() => onToggleBreakpoint(key)}>
                <span />
              </button>
              <SystemBadge system={h.system} />
              {onOpen ? (
                <button type="button" className="linkbtn hook-name" title={`${whole(h)}\nedit ${h.source}`} onClick={() => onOpen(h)}>{h.hook}</button>
              ) : <span className="hook-name" title={whole(h)}>{h.hook}</span>}
            </span>
            <span className="hook-tail">
              <span className="filter exec-event" title={h.event}>{h.event}</span>
              {notRun && <span className="badge badge-notrun">not run</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
