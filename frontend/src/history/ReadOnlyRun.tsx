// A stored run shown read-only in the simulator's own components (flow, steps, message list,
// visibility matrix), with its own debugger state: stepping works, nothing is re-simulated and
// live updates do not touch it.
import { useEffect, useMemo, useState } from 'react';
import type { TraceView } from '../lib/api';
import type { RunSummary } from '../lib/api/history';
import { breakpointForStep, hasCursor, initialState, reducer } from '../debugger/machine';
import { DebuggerStore } from '../debugger/store';
import { useStore } from '../lib/store';
import { useApp } from '../app/context';
import { useAgentContextShown } from '../layout/useAgentContext';
import { FlowView } from '../components/FlowView';
import { StepList, RequestTabs } from '../components/StepList';
import { MessageList } from '../components/MessageList';
import { BottomPanel } from '../components/BottomPanel';
import { TokensPerCallChart } from './charts';
import { fmtDate, fmtMs } from './format';
import { SaveScenario } from '../capture/SaveScenario';

const NONE: ReadonlySet<number> = new Set();

interface Props {
  run: RunSummary;
  view: TraceView;
  /** open at this step, showing this message (a search's hit) */
  at?: { step: number; message: number | null };
  /** what the back button goes back to */
  backTo?: string;
  color: (skill?: string) => string;
  onBack: () => void; // to the runs list
  onLive: () => void; // to the live simulator
}

export function ReadOnlyRun({ run, view, at, backTo = 'Runs', color, onBack, onLive }: Props) {
  // its own debugger, which the stepping keys act on while it shows (HistoryStore.readOnlyDebugger)
  const { history } = useApp();
  const agentContext = useAgentContextShown();
  const [debug] = useState(() => new DebuggerStore(reducer(initialState, { type: 'load', view })));
  useEffect(() => { debug.dispatch({ type: 'load', view }); }, [debug, view]);
  // after each load: the run shown again as it is now keeps its place
  useEffect(() => { if (at) debug.dispatch({ type: 'jumpToStep', step: at.step }); }, [debug, view, at]);
  useEffect(() => history.showReadOnly(debug, onBack), [history, debug, onBack]);
  const dbg = useStore(debug);
  const dispatch = debug.dispatch;
  const cursor = hasCursor(dbg) ? dbg.cursor : -1;
  const step = cursor >= 0 ? view.steps[cursor] : undefined;
  const toggleBp = debug.toggleBreakpoint;

  const hookTotals = useMemo(() => view.matrix.hooks.map((h, i) => ({ hook: h, tokens: view.matrix.totals[i] ?? 0, calls: (view.matrix.copies[i] ?? []).filter((n) => n > 0).length }))
    .sort((a, b) => b.tokens - a.tokens), [view]);

  return (
    <div className="readonly">
      <div className="banner banner-readonly" role="status" data-testid="readonly-banner">
        <b>read-only: run #{run.id} from {fmtDate(run.started)}</b>
        <span className="muted"> · {run.scenario} · {run.source} · {run.backend} · {run.status}</span>
        <span className="spacer" />
        {(run.source === 'capture' || run.source === 'session') && <SaveScenario runId={run.id} suggest="" />}
        <button type="button" className="btn" onClick={onBack}>← {backTo}</button>
        <button type="button" className="btn primary" onClick={onLive}>Back to live</button>
      </div>
      <div className="main">
        <aside className="skills run-info" aria-label="Run">
          <div className="pane-head"><span className="title">Run #{run.id}</span></div>
          <div className="pane-body">
            <dl className="run-facts">
              <dt>scenario</dt><dd>{run.scenario} <span className="muted mono small">{run.scenario_file}</span></dd>
              <dt>started</dt><dd>{fmtDate(run.started)}</dd>
              <dt>wall time</dt><dd>{fmtMs(run.wall_ms)}</dd>
              <dt>LLM calls</dt><dd>{run.llm_calls}</dd>
              <dt>tokens in / out</dt><dd>{run.tokens_in.toLocaleString()} / {run.tokens_out.toLocaleString()}</dd>
              <dt>largest prompt</dt><dd>{run.max_prompt_tokens.toLocaleString()}</dd>
            </dl>
            <TokensPerCallChart view={view} onCall={(c) => dispatch({ type: 'jumpToCall', call: c })} />
            <h3 className="facts-title">Hooks by tokens</h3>
            <ul className="hook-costs">
              {hookTotals.map((h) => (
                <li key={h.hook}><span className="mono">{h.hook}</span><span className="spacer" /><span className="muted">{h.calls} calls</span> <b>{h.tokens.toLocaleString()}</b></li>
              ))}
              {hookTotals.length === 0 && <li className="muted">No hook ran.</li>}
            </ul>
          </div>
        </aside>
        <section className="centre" aria-label="Stored run">
          <div className="debugbar">
            <button type="button" className="iconbtn" title="Continue (F5)" aria-label="Continue" disabled={dbg.status !== 'paused'} onClick={() => dispatch({ type: 'continue' })}>▶</button>
            <button type="button" className="iconbtn" title="Step back (Shift+F10)" aria-label="Step back" disabled={!(dbg.status === 'paused' || dbg.status === 'ended') || cursor <= 0} onClick={() => dispatch({ type: 'stepBack' })}>↶</button>
            <button type="button" className="iconbtn" title="Step forward (F10)" aria-label="Step forward" disabled={dbg.status !== 'paused'} onClick={() => dispatch({ type: 'stepForward' })}>↷</button>
            <button type="button" className="iconbtn" title="Restart (Ctrl+Shift+F5)" aria-label="Restart" disabled={!hasCursor(dbg)} onClick={() => dispatch({ type: 'restart' })}>⟲</button>
            <span className="status status-readonly">read-only</span>
            <span className="spacer" />
            {step && <span className="muted small">{view.scenario} · step {cursor + 1}/{view.steps.length} · {view.calls.length} LLM calls</span>}
          </div>
          {view.status === 'invalid' || !step ? (
            <div className="empty-state big"><h2>Nothing to step through</h2><p>This run {view.status === 'invalid' ? 'had an invalid scenario' : 'has no steps'}{view.error ? `: ${view.error}` : ''}.</p></div>
          ) : (
            <>
              <FlowView view={view} cursor={cursor} breakpoints={dbg.breakpoints} onToggleCheckpoint={(cp) => toggleBp({ kind: 'checkpoint', key: cp })} onToggleEvent={(e) => toggleBp({ kind: 'event', key: e })} />
              <RequestTabs view={view} current={step.request} onSelect={(r) => dispatch({ type: 'selectRequest', request: r })} />
              <StepList view={view} cursor={cursor} breakpoints={dbg.breakpoints} changedCalls={NONE} onJump={(i) => dispatch({ type: 'jumpToStep', step: i })} onToggleBreakpoint={(s) => toggleBp(breakpointForStep(s))} />
            </>
          )}
        </section>
        <section className="right" aria-label="Messages at the cursor">
          {step ? <MessageList view={view} cursor={cursor} color={color} agentContext={agentContext} found={at && cursor === at.step ? at.message : null} /> : <div className="empty-state">No messages.</div>}
        </section>
        <BottomPanel
          view={view} problems={[]} currentCall={step?.call ?? null} changedCalls={NONE} everyCallArmed={dbg.breakpoints.includes('call:*')} color={color}
          onJumpToCall={(c) => dispatch({ type: 'jumpToCall', call: c })} onToggleEveryCall={() => toggleBp({ kind: 'call', key: '*' })}
        />
      </div>
    </div>
  );
}
