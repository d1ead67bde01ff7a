// "Run with a model": pick an endpoint, start the selected scenario against it, watch it stream,
// stop before calls, answer tools, and keep the result as a mock scenario. The run lives in the
// RunStore, so it goes on while the drawer is hidden; all backend traffic goes through
// src/lib/api/run.ts.
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import * as run from '../lib/api/run';
import type { ProfileInfo } from '../lib/api/run';
import type { BreakpointId } from '../debugger/machine';
import { StepList } from '../components/StepList';
import { MessageList } from '../components/MessageList';
import { sourceOf } from '../paged/local';
import { useStore } from '../lib/store';
import { breakpointsToRun, isActive, type RunState } from './machine';
import type { RunStore } from './store';
import { EndView, PausedView, RetryNotice, ToolPrompt } from './RunViews';
import { SettingsDialog } from './SettingsDialog';
import './run.css';

interface Props {
  store: RunStore;
  /** the simulated debugger's breakpoints: its LLM-call ones become the run's */
  breakpoints: readonly BreakpointId[];
  /** the selected scenario (what StartRun runs) */
  scenario?: { file: string; name: string; valid: boolean };
  color: (skill?: string) => string;
  /** "Open in history" (may be a no-op when there is no history view) */
  onOpenHistory?: (runId: number) => void;
}

const NO_BPS: readonly BreakpointId[] = [];
const NO_CHANGES: ReadonlySet<number> = new Set();
const noop = () => {};

export function RunPanel({ store, breakpoints, scenario, color, onOpenHistory }: Props) {
  const { open, state, cursor } = useStore(store);
  const [profiles, setProfiles] = useState<ProfileInfo[] | null>(null);
  const [profile, setProfile] = useState('');
  const [everyCall, setEveryCall] = useState(false);
  const [settings, setSettings] = useState(false);
  const [toast, setToast] = useState<{ text: string; err: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const active = isActive(state);
  const [top, setTop] = useState(0); // the drawer starts below the app's top bar
  useLayoutEffect(() => {
    if (!open) return;
    const bar = document.querySelector('.topline') ?? document.querySelector('.topbar');
    setTop(bar ? Math.round(bar.getBoundingClientRect().bottom) : 0);
  }, [open]);

  const fromDebugger = useMemo(() => breakpointsToRun(breakpoints), [breakpoints]);
  const gotProfiles = useCallback((l: ProfileInfo[]) => {
    setProfiles(l);
    setProfile((p) => (l.some((x) => x.name === p) ? p : l[0]?.name ?? ''));
  }, []);
  useEffect(() => {
    if (open && profiles === null) run.listProfiles().then(gotProfiles).catch((e: unknown) => setToast({ text: String(e), err: true }));
  }, [open, profiles, gotProfiles]);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), toast.err ? 8000 : 5000);
    return () => clearTimeout(t);
  }, [toast]);

  const start = () => store.start({ profile, step: everyCall || fromDebugger.step, breakpoints: fromDebugger.breakpoints, max_rounds: 0 });
  const resume = store.resume;
  const cancel = store.cancel;
  const answer = store.answer;
  const saveScenario = () => {
    setSaving(true);
    run.saveRunAsScenario()
      .then((file) => setToast({ text: `Saved as mock scenario ${file}`, err: false }))
      .catch((e: unknown) => setToast({ text: `Could not save: ${String(e)}`, err: true }))
      .finally(() => setSaving(false));
  };
  const onClose = store.close;
  const setCursor = store.setCursor;

  if (!open) return null;
  const view = state.status === 'idle' ? null : state.view;
  const at = view && view.steps.length ? Math.min(cursor ?? view.steps.length - 1, view.steps.length - 1) : -1;
  const prof = profiles?.find((p) => p.name === (state.status === 'idle' ? profile : state.profile));
  const canStart = !active && !!profile && !!scenario?.valid;

  return (
    <div className="mrun-drawer" role="region" aria-label="Run with a model" data-testid="run-panel" data-status={state.status} style={{ top }}>
      <header className="mrun-head">
        <h2>Run with a model</h2>
        {state.status !== 'idle' && (
          <span className={`mrun-live mrun-live-${state.status}`} data-testid="run-label">
            {active ? '● live run' : 'run'} against <b>{state.profile}</b>{prof ? ` (${prof.model})` : ''}
          </span>
        )}
        <span className="mrun-state" data-testid="run-status">{statusText(state)}</span>
        <span className="spacer" />
        {active && <button type="button" className="btn danger" onClick={cancel}>■ Cancel run</button>}
        <button type="button" className="iconbtn" aria-label="Close run panel" title={active ? 'Hide (the run goes on)' : 'Close'} onClick={onClose}>✕</button>
      </header>
      <div className="mrun-body">
        <div className="mrun-side">
          {!active && (
            <section className="mrun-setup" aria-label="Run setup">
              <div className="mrun-field">
                <label htmlFor="run-profile">Endpoint</label>
                <select id="run-profile" value={profile} onChange={(e) => setProfile(e.target.value)} disabled={!profiles?.length}>
                  {!profiles?.length && <option value="">no endpoints yet</option>}
                  {profiles?.map((p) => <option key={p.name} value={p.name}>{p.name} — {p.model}{p.key_source === 'none' ? ' (no key)' : ''}</option>)}
                </select>
                <button type="button" className="btn" onClick={() => setSettings(true)}>Endpoints…</button>
              </div>
              <p className="small">Scenario: {scenario ? <b>{scenario.name}</b> : <span className="muted">none selected — pick one in the Scenario menu</span>}
                {scenario && !scenario.valid && <span className="count-err"> (invalid)</span>}</p>
              <label className="mrun-check"><input type="checkbox" checked={everyCall} onChange={(e) => setEveryCall(e.target.checked)} /> Pause before every LLM call</label>
              <p className="muted small" data-testid="run-bps">
                {fromDebugger.step ? 'The debugger breaks before every LLM call.' :
                  fromDebugger.breakpoints.length ? `Breakpoints from the debugger: before LLM call ${fromDebugger.breakpoints.map((c) => `#${c + 1}`).join(', ')}.` :
                    'No LLM-call breakpoints in the debugger (F9 on an LLM call step sets one).'}
              </p>
              {state.status === 'idle' && state.error && <div className="mrun-error" role="alert">{state.error}</div>}
              <div className="mrun-actions">
                <button type="button" className="btn primary" onClick={start} disabled={!canStart} data-testid="run-start">▶ Start run</button>
              </div>
            </section>
          )}
          {state.status !== 'idle' && state.status !== 'ended' && state.problem && <div className="mrun-error" role="alert">{state.problem}</div>}
          {(state.status === 'running' || state.status === 'starting') && state.retry && <RetryNotice retry={state.retry} />}
          {state.status === 'paused' && (
            <PausedView call={state.pausedCall} request={state.request} onContinue={() => resume(false)} onStep={() => resume(true)} onCancel={cancel} />
          )}
          {state.status === 'waitingForTool' && <ToolPrompt key={state.tool.id} tool={state.tool} onSend={answer} />}
          {state.status !== 'idle' && state.call !== null && state.status !== 'paused' && (
            <section className="mrun-stream" aria-label="Streamed answer">
              <h3>LLM call #{state.call + 1} {state.status === 'running' ? <span className="muted small">streaming…</span> : null}</h3>
              <pre className="mrun-stream-text" data-testid="run-stream">{state.text || '…'}</pre>
            </section>
          )}
          {state.status === 'ended' && (
            <EndView end={state.end} confirmed={state.confirmed} onSave={saveScenario} onOpenHistory={onOpenHistory} saving={saving} />
          )}
        </div>
        <section className="mrun-sim" aria-label="Live run trace">
          <div className="mrun-sim-label">
            {state.status === 'idle' ? 'The run’s steps appear here' : <>Live run against <b>{state.profile}</b> — read-only{view ? ` · ${view.steps.length} steps · ${view.calls.length} LLM calls` : ''}</>}
          </div>
          {view && at >= 0 ? (
            <div className="mrun-sim-grid">
              <div className="mrun-sim-steps">
                <StepList source={sourceOf(view)} cursor={at} breakpoints={NO_BPS} changedCalls={NO_CHANGES} onJump={setCursor} onToggleBreakpoint={noop} />
              </div>
              <div className="mrun-sim-msgs">
                <MessageList source={sourceOf(view)} cursor={at} color={color} />
              </div>
            </div>
          ) : (
            <div className="empty-state">{active ? 'Waiting for the first call…' : 'Start a run to see it step by step.'}</div>
          )}
        </section>
      </div>
      {settings && <SettingsDialog onClose={() => setSettings(false)} onChanged={gotProfiles} />}
      {toast && (
        <div className={`toast${toast.err ? ' toast-err' : ''}`} role="status" data-testid="run-toast">
          {toast.text}
          <button type="button" className="linkbtn" onClick={() => setToast(null)} aria-label="dismiss">✕</button>
        </div>
      )}
    </div>
  );
}

function statusText(s: RunState): string {
  switch (s.status) {
    case 'idle': return '';
    case 'starting': return 'starting…';
    case 'running': return s.call !== null ? `running LLM call #${s.call + 1}` : 'running';
    case 'paused': return `paused before LLM call #${s.pausedCall + 1}`;
    case 'waitingForTool': return `waiting for the result of ${s.tool.name}`;
    case 'ended': return `ended: ${s.end.status}`;
  }
}
