import { useLayoutEffect, useRef, useState, type ReactNode, type UIEvent } from 'react';
import { TrustButton } from '../exec/TrustBanner';
import type { Diagnostic, LLMCall, TraceView } from '../lib/api';
import type { RunSource } from '../paged/source';
import { useSource } from '../paged/source';
import { DiagnosticList } from './SkillsPanel';
import { cx, fmt, fmtShort } from './util';
import { ExpectationsPanel } from '../expect/ExpectationsPanel';
import { expectationCounts, expectationsOf } from '../lib/api/expect';
import { SystemBadge } from '../exec/HookCallRow';
import { CallDot } from '../expect/CallExpectations';
import { sourceOf } from '../paged/local';
import { splitText } from '../lib/api/agentRequest';
import { TokenSplitBar } from './AgentRequest';

export const callLabel = (c: Pick<LLMCall, 'request' | 'phase' | 'round'>) =>
  `request ${c.request + 1} · ${c.phase}${c.round !== null ? ` round ${c.round}` : ''}`;

/** A call's column: a cell's width and the spacing between cells (styles.css .matrix). */
export const MATRIX_PITCH = 44;
/** Columns rendered beyond each side of the visible ones. */
const COL_OVERSCAN = 6;
/** A call's hover text: where it is, and in an agent's run whose its tokens are. */
export const callTitle = (c: LLMCall) =>
  c.split ? `LLM call #${c.index + 1} · ${callLabel(c)}\n${fmt(c.tokens)} tokens in the whole request:\n${splitText(c.split)}` : callLabel(c);

interface MatrixProps {
  source: RunSource;
  currentCall: number | null;
  changedCalls: ReadonlySet<number>;
  everyCallArmed: boolean;
  color: (skill?: string) => string;
  onJumpToCall: (call: number) => void;
  onToggleEveryCall: () => void;
  /** the folder's executable hooks that wait for its trust (they did not run), and the way to trust it */
  untrusted?: { hooks: number; onTrust: () => Promise<unknown> };
  /** what a call's column head shows of its expectations (the live simulation's) */
  callDot?: (call: number) => ReactNode;
}

/** The calls [start, end) whose columns a scroller of width `width` at `left` shows, with overscan. */
export function visibleCalls(left: number, width: number, headWidth: number, calls: number): [number, number] {
  const first = Math.floor(Math.max(0, left) / MATRIX_PITCH);
  const last = Math.ceil((Math.max(0, left) + Math.max(0, width - headWidth)) / MATRIX_PITCH);
  return [Math.max(0, first - COL_OVERSCAN), Math.min(calls, last + COL_OVERSCAN)];
}

/**
 * Hooks × LLM calls, with only the calls' columns in view in the page (and a few beside them):
 * a 2,000-call session's matrix costs what one screen of it does, and its cells are asked of the
 * source as they scroll in.
 */
export function VisibilityMatrix({ source, currentCall, changedCalls, everyCallArmed, color, onJumpToCall, onToggleEveryCall, untrusted, callDot }: MatrixProps) {
  useSource(source, 'head', 'calls', 'cells');
  const head = source.head();
  const { matrix, calls } = head;
  const scroller = useRef<HTMLDivElement>(null);
  const corner = useRef<HTMLTableCellElement>(null);
  const [view, setView] = useState({ left: 0, width: 1200, headWidth: 180 });
  const measure = () => {
    const el = scroller.current;
    if (!el) return;
    const next = { left: el.scrollLeft, width: el.clientWidth || 1200, headWidth: corner.current?.offsetWidth || 180 };
    setView((v) => (v.left === next.left && v.width === next.width && v.headWidth === next.headWidth ? v : next));
  };
  useLayoutEffect(() => {
    measure();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const obs = new ResizeObserver(measure);
    obs.observe(el);
    return () => obs.disconnect();
  }, [matrix.hooks.length]);
  // the current call's column is brought into view when it is elsewhere
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || currentCall === null) return;
    const x = currentCall * MATRIX_PITCH, w = el.clientWidth - (corner.current?.offsetWidth ?? 0);
    if (w > 0 && (x < el.scrollLeft || x + MATRIX_PITCH > el.scrollLeft + w)) {
      el.scrollLeft = Math.max(0, x - w / 2);
      measure();
    }
  }, [currentCall]);

  if (matrix.hooks.length === 0) {
    // executable hooks can change what the model reads without adding a message (a blocked tool's
    // result, rewritten arguments): then "no hook reached any call" would be untrue
    const changing = head.changingHookCalls;
    if (changing > 0) {
      return <div className="empty-state" data-testid="matrix-exec-only">No hook added a message to an LLM call's list, but {changing} executable hook call{changing === 1 ? '' : 's'} changed what the model reads (a tool result, the arguments, the flow): see the <b>Hook calls</b> tab.</div>;
    }
    if (untrusted && untrusted.hooks > 0) {
      const n = untrusted.hooks;
      return (
        <div className="empty-state matrix-untrusted" data-testid="matrix-untrusted">
          <p>{n} executable hook{n === 1 ? '' : 's'} did not run: this folder is not trusted, so the simulation shows prompt hooks only, and none reached an LLM call.</p>
          <TrustButton onTrust={untrusted.onTrust} testId="matrix-trust" />
        </div>
      );
    }
    return <div className="empty-state">No hook reached any LLM call in this scenario. Enable a skill with hooks, or add hooks to <code>hooks/hooks.json</code>.</div>;
  }
  const [start, end] = visibleCalls(view.left, view.width, view.headWidth, calls);
  const shown: number[] = [];
  for (let c = start; c < end; c++) shown.push(c);
  // the heat of a cell is relative to the most copies in view
  let max = 1;
  for (let h = 0; h < matrix.hooks.length; h++) for (const c of shown) max = Math.max(max, source.cell(h, c)?.copies ?? 0);
  const grand = matrix.totals.reduce((a, b) => a + b, 0);
  // a spacer cell stands for the columns left out: their widths and spacings less its own spacing
  const before = start * MATRIX_PITCH - 2, after = (calls - end) * MATRIX_PITCH - 2;
  const spacer = (w: number, key: string) => (w > 0 ? <td key={key} className="matrix-spacer" style={{ minWidth: w, width: w }} aria-hidden /> : null);
  const thSpacer = (w: number, key: string) => (w > 0 ? <th key={key} className="matrix-spacer" style={{ minWidth: w, width: w }} aria-hidden /> : null);
  return (
    <div className="matrix-wrap">
      <div className="matrix-tools">
        <label className="check">
          <input type="checkbox" checked={everyCallArmed} onChange={onToggleEveryCall} /> break on every LLM call
        </label>
        <span className="muted">copies each call sees (history included) · hover: tokens · click: jump{head.pending > 0 ? ' · tokens being counted…' : ''}</span>
      </div>
      <div className="matrix-scroll" ref={scroller} onScroll={(e: UIEvent<HTMLDivElement>) => { if (e.currentTarget === scroller.current) measure(); }} data-testid="matrix-scroll">
        <table className="matrix" aria-label="Visibility matrix" data-calls={calls} data-shown={`${start}-${end}`}>
          <thead>
            <tr>
              <th className="corner" ref={corner}>hook \ LLM call</th>
              {thSpacer(before, 'before')}
              {shown.map((c) => {
                const lc = source.call(c);
                return (
                  <th key={c} className={cx('col', c === currentCall && 'is-current', changedCalls.has(c) && 'is-changed')} title={lc ? callTitle(lc) : `LLM call #${c + 1}`}>
                    <div>#{c + 1}{callDot?.(c)}</div>
                    <div className="thsub">{lc ? `R${lc.request + 1} ${lc.phase === 'agent' ? `a${lc.round}` : lc.phase.slice(0, 4)}` : '…'}</div>
                  </th>
                );
              })}
              {thSpacer(after, 'after')}
              <th className="total">tokens</th>
            </tr>
          </thead>
          <tbody>
            {matrix.hooks.map((hid, h) => {
              // the name after the first '/' (a Claude Code hook's command may hold more)
              const cut = hid.indexOf('/');
              const [skill, name] = [hid.slice(0, cut), hid.slice(cut + 1)];
              const system = matrix.systems?.[h];
              return (
                <tr key={hid}>
                  {system ? (
                    <th className="rowhead" title={`${system} hook ${name}: the messages it added and the tool results it wrote`}>
                      <div className="rowhead-in"><SystemBadge system={system} /> <span className="rowhead-name">{name}</span></div>
                    </th>
                  ) : (
                    <th className="rowhead" title={hid}>
                      <div className="rowhead-in">
                        <span className="dot" style={{ background: color(skill) }} />
                        <span className="rowhead-name">{name}</span>
                        <span className="muted small"> {skill}</span>
                      </div>
                    </th>
                  )}
                  {spacer(before, 'before')}
                  {shown.map((c) => {
                    const cell = source.cell(h, c);
                    const lc = source.call(c);
                    const n = cell?.copies ?? 0, t = cell?.tokens ?? 0;
                    const pct = n === 0 ? 0 : Math.round(18 + (82 * n) / max);
                    return (
                      <td
                        key={c}
                        className={cx('cell', n === 0 && 'zero', c === currentCall && 'is-current', changedCalls.has(c) && 'is-changed')}
                        style={n ? { background: `color-mix(in srgb, var(--heat) ${pct}%, transparent)` } : undefined}
                        title={`${hid} in LLM call #${c + 1}${lc ? ` (${callLabel(lc)})` : ''}${cell ? `: ${n} ${n === 1 ? 'copy' : 'copies'}, ${fmt(t)} tokens` : ''}`}
                        onClick={() => onJumpToCall(c)}
                        data-testid={`cell-${h}-${c}`}
                      >
                        {cell ? n || '·' : '…'}
                      </td>
                    );
                  })}
                  {spacer(after, 'after')}
                  <td className="total">{fmt(matrix.totals[h] ?? 0)}</td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th className="rowhead" title={shown.some((c) => source.call(c)?.split) ? 'the whole request: messages and tool definitions; the bar: whose they are (the agent\'s own, tools, hooks, conversation)' : undefined}>prompt tokens</th>
              {spacer(before, 'before')}
              {shown.map((c) => {
                const lc = source.call(c);
                return (
                  <td key={c} className="foot" title={lc?.split ? callTitle(lc) : `prompt tokens of call #${c + 1}${lc ? `: ${fmt(lc.tokens)}` : ''}${lc?.pending ? ' (some messages still being counted)' : ''}`} data-testid={`call-tokens-${c}`}>
                    {lc ? `${fmtShort(lc.tokens)}${lc.pending ? '…' : ''}` : '…'}
                    {lc?.split && <TokenSplitBar split={lc.split} compact />}
                  </td>
                );
              })}
              {spacer(after, 'after')}
              <td className="total">{fmt(grand)}{head.pending > 0 ? '…' : ''}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}

export function ChangesView({ view, onJumpToCall }: { view: TraceView; onJumpToCall: (call: number) => void }) {
  if (view.changes.length === 0) {
    return (
      <div className="empty-state">
        No changes in revision {view.revision}. Save a hook's <code>.md</code> or <code>hooks.json</code> in any editor — the LLM calls whose message lists change are listed here and highlighted until the next change.
      </div>
    );
  }
  return (
    <div className="changes">
      <div className="muted small pad">Revision {view.revision}: {view.changes.length} LLM {view.changes.length === 1 ? 'call' : 'calls'} changed</div>
      <ul>
        {view.changes.map((ch) => {
          const c = view.calls[ch.call];
          return (
            <li key={ch.call}>
              <button type="button" className="change" onClick={() => onJumpToCall(ch.call)}>
                <b>LLM call #{ch.call + 1}</b>
                {c && <span className="muted"> {callLabel(c)}</span>}
                <span className="plus">+{ch.added}</span>
                <span className="minus">−{ch.removed}</span>
                <span className="tilde">~{ch.changed}</span>
                <span className="summary">{ch.summary}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

type Tab = 'matrix' | 'changes' | 'expectations' | 'problems';

/** A tab another feature adds to the panel (executable hooks' "Hook calls"), shown before Problems. */
export interface PanelTab { id: string; label: string; count?: number | null; render: (view: TraceView) => ReactNode }

interface PanelProps extends Omit<MatrixProps, 'source'> {
  /** the run the matrix shows (absent: the view's) */
  source?: RunSource | null;
  /** the live simulation's view: its changes and expectations (absent for a stored run) */
  view: TraceView | null;
  problems: readonly Diagnostic[];
  extraTabs?: readonly PanelTab[];
  /** collapsed to its tab bar: a tab or the toggle opens it again */
  collapsed?: boolean;
  onToggleCollapsed?: () => void;
}

export function BottomPanel(props: PanelProps) {
  const [tab, setTab] = useState<Tab | string>('matrix');
  const { view, problems } = props;
  const source = props.source ?? (view ? sourceOf(view) : null);
  // a live call's expectations beside its number
  const callDot = props.callDot ?? (view ? (c: number) => <CallDot view={view} call={c} /> : undefined);
  const extra = props.extraTabs?.find((t) => t.id === tab);
  const tabs: [Tab | string, string, number | null][] = [
    ['matrix', 'Visibility matrix', null],
    ...(view ? [['changes', 'Changes', view.changes.length] as [Tab, string, number], ['expectations', 'Expectations', expectationCounts(expectationsOf(view)).failed] as [Tab, string, number]] : []),
    ...(props.extraTabs ?? []).map((t): [string, string, number | null] => [t.id, t.label, t.count ?? null]),
    ['problems', 'Problems', problems.length],
  ];
  const steps = source?.head().steps ?? 0;
  return (
    <section className="bottom" aria-label="Panel">
      <div className="tabs panel-tabs" role="tablist">
        {tabs.map(([id, label, n]) => (
          <button key={id} type="button" role="tab" aria-selected={tab === id} className={cx('tab', tab === id && 'active')} onClick={() => { setTab(id); if (props.collapsed) props.onToggleCollapsed?.(); }}>
            {label}
            {n ? <span className={cx('count', id === 'changes' && 'count-changed', id === 'expectations' && 'count-err')}>{n}</span> : null}
          </button>
        ))}
        {props.onToggleCollapsed && (
          <button type="button" className="iconbtn sm pane-collapse" onClick={props.onToggleCollapsed} aria-expanded={!props.collapsed} aria-label={props.collapsed ? 'Open the panel' : 'Collapse the panel'}
            title={`${props.collapsed ? 'Open' : 'Collapse'} the panel (Ctrl+J)`} data-testid="bottom-toggle">{props.collapsed ? '▴' : '▾'}</button>
        )}
      </div>
      {!props.collapsed && <div className="panel-body">
        {tab === 'problems' ? (
          problems.length ? <DiagnosticList items={problems} /> : <div className="empty-state">No problems in this folder.</div>
        ) : !source || steps === 0 ? (
          <div className="empty-state">Pick a valid scenario to see which hooks each LLM call sees.</div>
        ) : extra && view ? (
          extra.render(view)
        ) : tab === 'expectations' && view ? (
          <ExpectationsPanel view={view} onJumpToCall={props.onJumpToCall} />
        ) : tab === 'changes' && view ? (
          <ChangesView view={view} onJumpToCall={props.onJumpToCall} />
        ) : (
          <VisibilityMatrix {...props} source={source} callDot={callDot} />
        )}
      </div>}
    </section>
  );
}
