import { useState, type ReactNode } from 'react';
import { TrustButton } from '../exec/TrustBanner';
import type { Diagnostic, LLMCall, TraceView } from '../lib/api';
import { DiagnosticList } from './SkillsPanel';
import { cx, fmt } from './util';
import { ExpectationsPanel } from '../expect/ExpectationsPanel';
import { CallDot } from '../expect/CallExpectations';
import { expectationCounts, expectationsOf } from '../lib/api/expect';
import { SystemBadge } from '../exec/HookCallRow';
import { splitText } from '../lib/api/agentRequest';
import { TokenSplitBar } from './AgentRequest';

export const callLabel = (c: LLMCall) =>
  `request ${c.request + 1} · ${c.phase}${c.round !== null ? ` round ${c.round}` : ''}`;

/** A call's hover text: where it is, and in an agent's run whose its tokens are. */
export const callTitle = (c: LLMCall) =>
  c.split ? `LLM call #${c.index + 1} · ${callLabel(c)}\n${fmt(c.tokens)} tokens in the whole request:\n${splitText(c.split)}` : callLabel(c);

interface MatrixProps {
  view: TraceView;
  currentCall: number | null;
  changedCalls: ReadonlySet<number>;
  everyCallArmed: boolean;
  color: (skill?: string) => string;
  onJumpToCall: (call: number) => void;
  onToggleEveryCall: () => void;
  /** the folder's executable hooks that wait for its trust (they did not run), and the way to trust it */
  untrusted?: { hooks: number; onTrust: () => Promise<unknown> };
}

export function VisibilityMatrix({ view, currentCall, changedCalls, everyCallArmed, color, onJumpToCall, onToggleEveryCall, untrusted }: MatrixProps) {
  const { matrix, calls } = view;
  if (matrix.hooks.length === 0) {
    // executable hooks can change what the model reads without adding a message (a blocked tool's
    // result, rewritten arguments): then "no hook reached any call" would be untrue
    const changing = view.steps.filter((s) => (s.hook_call?.changes?.length ?? 0) > 0).length;
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
  let max = 1;
  for (const row of matrix.copies) for (const v of row) if (v > max) max = v;
  const grand = matrix.totals.reduce((a, b) => a + b, 0);
  return (
    <div className="matrix-wrap">
      <div className="matrix-tools">
        <label className="check">
          <input type="checkbox" checked={everyCallArmed} onChange={onToggleEveryCall} /> break on every LLM call
        </label>
        <span className="muted">copies each call sees (history included) · hover: tokens · click: jump</span>
      </div>
      <table className="matrix" aria-label="Visibility matrix">
        <thead>
          <tr>
            <th className="corner">hook \ LLM call</th>
            {calls.map((c) => (
              <th key={c.index} className={cx(c.index === currentCall && 'is-current', changedCalls.has(c.index) && 'is-changed')} title={callTitle(c)}>
                <div>#{c.index + 1}<CallDot view={view} call={c.index} /></div>
                <div className="thsub">R{c.request + 1} {c.phase === 'agent' ? `a${c.round}` : c.phase.slice(0, 4)}</div>
              </th>
            ))}
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
                    <SystemBadge system={system} /> {name}
                  </th>
                ) : (
                  <th className="rowhead" title={hid}>
                    <span className="dot" style={{ background: color(skill) }} />
                    {name}
                    <span className="muted small"> {skill}</span>
                  </th>
                )}
                {calls.map((c) => {
                  const n = matrix.copies[h]?.[c.index] ?? 0;
                  const t = matrix.tokens[h]?.[c.index] ?? 0;
                  const pct = n === 0 ? 0 : Math.round(18 + (82 * n) / max);
                  return (
                    <td
                      key={c.index}
                      className={cx('cell', n === 0 && 'zero', c.index === currentCall && 'is-current', changedCalls.has(c.index) && 'is-changed')}
                      style={n ? { background: `color-mix(in srgb, var(--heat) ${pct}%, transparent)` } : undefined}
                      title={`${hid} in LLM call #${c.index + 1} (${callLabel(c)}): ${n} ${n === 1 ? 'copy' : 'copies'}, ${fmt(t)} tokens`}
                      onClick={() => onJumpToCall(c.index)}
                      data-testid={`cell-${h}-${c.index}`}
                    >
                      {n || '·'}
                    </td>
                  );
                })}
                <td className="total">{fmt(matrix.totals[h] ?? 0)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th className="rowhead" title={calls.some((c) => c.split) ? 'the whole request: messages and tool definitions; the bar: whose they are (the agent\'s own, tools, hooks, conversation)' : undefined}>prompt tokens</th>
            {calls.map((c) => (
              <td key={c.index} className="foot" title={c.split ? callTitle(c) : `prompt tokens of call #${c.index + 1}`} data-testid={`call-tokens-${c.index}`}>
                {fmt(c.tokens)}
                {c.split && <TokenSplitBar split={c.split} compact />}
              </td>
            ))}
            <td className="total">{fmt(grand)}</td>
          </tr>
        </tfoot>
      </table>
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

interface PanelProps extends Omit<MatrixProps, 'view'> {
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
  const extra = props.extraTabs?.find((t) => t.id === tab);
  const tabs: [Tab | string, string, number | null][] = [
    ['matrix', 'Visibility matrix', null],
    ['changes', 'Changes', view?.changes.length ?? 0],
    ['expectations', 'Expectations', expectationCounts(expectationsOf(view)).failed],
    ...(props.extraTabs ?? []).map((t): [string, string, number | null] => [t.id, t.label, t.count ?? null]),
    ['problems', 'Problems', problems.length],
  ];
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
        ) : !view || view.steps.length === 0 ? (
          <div className="empty-state">Pick a valid scenario to see which hooks each LLM call sees.</div>
        ) : extra ? (
          extra.render(view)
        ) : tab === 'expectations' ? (
          <ExpectationsPanel view={view} onJumpToCall={props.onJumpToCall} />
        ) : tab === 'matrix' ? (
          <VisibilityMatrix {...props} view={view} />
        ) : (
          <ChangesView view={view} onJumpToCall={props.onJumpToCall} />
        )}
      </div>}
    </section>
  );
}
