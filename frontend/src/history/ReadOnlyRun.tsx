// A stored run shown read-only in the simulator's own components (flow, steps, message list,
// visibility matrix), with its own debugger state: stepping works, nothing is re-simulated and
// live updates do not touch it.
import { useCallback, useEffect, useMemo, useReducer } from 'react';
import type { TraceView } from '../lib/api';
import type { RunSummary } from '../lib/api/history';
import { breakpointForStep, hasCursor, initialState, reducer, type Breakpoint } from '../debugger/machine';
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
  color: (skill?: string) => string;
  onBack: () => void; // to the runs list
  onLive: () => void; // to the live simulator
}

export function ReadOnlyRun({ run, view, color, onBack, onLive }: Props) {
  const [dbg, dispatch] = useReducer(reducer, view, (v) => reducer(initialState, { type: 'load', view: v }));
  useEffect(() => { dispatch({ type: 'load', view }); }, [view]);
  useEffect(() => { if (dbg.status === 'running') dispatch({ type: 'tick' }); }, [dbg]);
  const cursor = hasCursor(dbg) ? dbg.cursor : -1;
  const step = cursor >= 0 ? view.steps[cursor] : undefined;
  const toggleBp = useCallback((b: Breakpoint | null) => { if (b) dispatch({ type: 'toggleBreakpoint', breakpoint: b }); }, []);

  // the simulator's stepping keys, for this run (App leaves them alone in the history view)
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable)) return;
      const ctrl = e.ctrlKey || e.metaKey;
      if (e.key === 'F10') { e.preventDefault(); dispatch({ type: e.shiftKey ? 'stepBack' : 'stepForward' }); }
      else if (e.key === 'F5' && ctrl && e.shiftKey) { e.preventDefault(); dispatch({ type: 'restart' }); }
      else if (e.key === 'F5' && !ctrl) { e.preventDefault(); dispatch({ type: 'continue' }); }
      else if (e.key === 'Home' && !ctrl) { e.preventDefault(); dispatch({ type: 'jumpToStep', step: 0 }); }
      else if (e.key === 'End' && !ctrl) { e.preventDefault(); dispatch({ type: 'jumpToStep', step: view.steps.length - 1 }); }
      else if (e.key === 'Escape') { e.preventDefault(); onBack(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [view, onBack]);

  const hookTotals = useMemo(() => view.matrix.hooks.map((h, i) => ({ hook: h, tokens: view.matrix.totals[i] ?? 0, calls: (view.matrix.copies[i] ?? []).filter((n) => n > 0).length }))
    .sort((a, b) => b.tokens - a.tokens), [view]);

  return (
    <div className="readonly">
      <div className="banner banner-readonly" role="status" data-testid="readonly-banner">
        <b>read-only: run #{run.id} from {fmtDate(run.started)}</b>
        <span className="muted"> · {run.scenario} · {run.source} · {run.backend} · {run.status}</span>
        <span className="spacer" />
        {run.source === 'capture' && <SaveScenario runId={run.id} suggest="" />}
        <button type="button" className="btn" onClick={onBack}>← Runs</button>
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
              <FlowView view={view} cursor={cursor} breakpoints={dbg.breakpoints} onToggleCheckpoint={(cp) => toggleBp({ kind: 'checkpoint', key: cp })} />
              <RequestTabs view={view} current={step.request} onSelect={(r) => dispatch({ type: 'selectRequest', request: r })} />
              <StepList view={view} cursor={cursor} breakpoints={dbg.breakpoints} changedCalls={NONE} onJump={(i) => dispatch({ type: 'jumpToStep', step: i })} onToggleBreakpoint={(s) => toggleBp(breakpointForStep(s))} />
            </>
          )}
        </section>
        <section className="right" aria-label="Messages at the cursor">
          {step ? <MessageList view={view} cursor={cursor} color={color} /> : <div className="empty-state">No messages.</div>}
        </section>
        <BottomPanel
          view={view} problems={[]} currentCall={step?.call ?? null} changedCalls={NONE} everyCallArmed={dbg.breakpoints.includes('call:*')} color={color}
          onJumpToCall={(c) => dispatch({ type: 'jumpToCall', call: c })} onToggleEveryCall={() => toggleBp({ kind: 'call', key: '*' })}
        />
      </div>
    </div>
  );
}
