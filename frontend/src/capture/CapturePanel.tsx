// Capture a real agent: Hook Studio answers a real agent (Claude Code, an SDK script) from an
// answers file and records what it sends its model; the capture is kept in the history, where
// the simulator's views open it. All backend traffic goes through src/lib/api/capture.ts.
import { useEffect, useReducer, useRef, useState } from 'react';
import { newer } from '../lib/api';
import { captureState, onCaptureState, replyCapture, startCapture, stopCapture, type CaptureState } from '../lib/api/capture';
import { SaveScenario } from './SaveScenario';
import { listProfiles, type ProfileInfo } from '../lib/api/run';
import { PendingAnswer } from './PendingAnswer';
import { AgentRecipe } from './AgentRecipe';
import { SystemBadge } from '../exec/HookCallRow';
import './capture.css';

interface Props {
  onClose: () => void;
  /** open the History on the kept capture */
  onOpenHistory: (runId: number) => void;
}

export function CapturePanel({ onClose, onOpenHistory }: Props) {
  const [state, take] = useReducer(newer<CaptureState>, null); // answers race events: the newest copy wins
  const [answers, setAnswers] = useState('');
  /** who answers: the answers file, a model profile (forward), or the user */
  const [mode, setMode] = useState<'file' | 'profile' | 'manual'>('file');
  const manual = mode === 'manual';
  const [profiles, setProfiles] = useState<ProfileInfo[] | null>(null);
  const [profile, setProfile] = useState('');
  const [port, setPort] = useState('0');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let live = true;
    captureState().then((s) => { if (live) { take(s); if (s.answers_file) setAnswers(s.answers_file); } }, (e: unknown) => { if (live) setError(String(e)); });
    const off = onCaptureState(take);
    dialog.current?.focus();
    return () => { live = false; off(); };
  }, []);
  useEffect(() => {
    if (mode !== 'profile' || profiles !== null) return;
    let live = true;
    listProfiles().then((l) => { if (live) { setProfiles(l); setProfile((p) => p || (l[0]?.name ?? '')); } }, (e: unknown) => { if (live) { setProfiles([]); setError(String(e)); } });
    return () => { live = false; };
  }, [mode, profiles]);
  const act = (f: () => Promise<CaptureState>) => {
    setBusy(true);
    setError(null);
    f().then(take, (e: unknown) => setError(String(e))).finally(() => setBusy(false));
  };
  const start = () => {
    const p = Number(port);
    if (!Number.isInteger(p) || p < 0 || p > 65535) { setError(`port ${port}: give 0 (a free port) or a number up to 65535`); return; }
    act(() => startCapture({ answers_file: mode === 'file' ? answers.trim() : '', port: p, manual, profile: mode === 'profile' ? profile : '' }));
  };
  const running = !!state?.running;
  return (
    <div className="capture-backdrop" onClick={onClose}>
      <div className="dialog capture-dialog" role="dialog" aria-modal="true" aria-label="Capture a real agent" tabIndex={-1} ref={dialog} onClick={(e) => e.stopPropagation()} data-testid="capture-panel" data-running={running}>
        <header className="capture-head">
          <h2>Capture a real agent</h2>
          <span className={running ? 'badge capture-live' : 'muted small'} data-testid="capture-status">{running ? `● listening on ${state?.base_url}` : 'not running'}</span>
          <span className="spacer" />
          <button type="button" className="iconbtn" aria-label="Close" title={running ? 'Hide (the capture goes on)' : 'Close (Esc)'} onClick={onClose}>✕</button>
        </header>
        <p className="muted small">Hook Studio becomes the agent's model endpoint (Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code, opencode, Factory Droid, Cline, or any SDK script): the agent runs its real hooks, and each request it sends is recorded — its messages, where each came from (hook output named), the tools and the answer. Who answers: an answers file that scripts the model (per call, in order, <code>content</code>, <code>tool_calls</code> or <code>error</code>), a real model through one of your profiles, or you (docs/capture.md).</p>
        {!running && (
          <form className="capture-form" onSubmit={(e) => { e.preventDefault(); start(); }}>
            <fieldset className="capture-modes">
              <legend className="small">Who answers the agent</legend>
              <label className="check"><input type="radio" name="capture-mode" checked={mode === 'file'} onChange={() => setMode('file')} data-testid="capture-mode-file" /> An answers file (scripted, in order)</label>
              <label className="check"><input type="radio" name="capture-mode" checked={mode === 'profile'} onChange={() => setMode('profile')} data-testid="capture-mode-profile" /> Forward to a model profile (its endpoint, model and key; the answer goes back unchanged)</label>
              <label className="check capture-manual"><input type="radio" name="capture-mode" checked={manual} onChange={() => setMode('manual')} data-testid="capture-manual" /> I answer each request myself (the app is the model: every request waits here)</label>
            </fieldset>
            {mode === 'file' && (<>
              <label htmlFor="capture-answers">Answers file</label>
              <input id="capture-answers" className="input" value={answers} onChange={(e) => setAnswers(e.target.value)} placeholder="/path/to/answers.yaml" data-testid="capture-answers" spellCheck={false} />
            </>)}
            {mode === 'profile' && (<>
              <label htmlFor="capture-profile">Profile</label>
              {profiles && profiles.length === 0
                ? <span className="muted small" data-testid="capture-no-profiles">No model profiles yet: add one under Run ▸ Settings.</span>
                : (
                  <select id="capture-profile" className="input" value={profile} onChange={(e) => setProfile(e.target.value)} data-testid="capture-profile">
                    {(profiles ?? []).map((p) => <option key={p.name} value={p.name}>{p.name} — {p.provider}, {p.model}{p.key_source === 'none' ? ' (no key)' : ''}</option>)}
                  </select>
                )}
            </>)}
            <label htmlFor="capture-port">Port</label>
            <input id="capture-port" className="input capture-port" value={port} onChange={(e) => setPort(e.target.value)} inputMode="numeric" title="0: a free port" />
            <button type="submit" className="btn primary" disabled={busy || (mode === 'file' && !answers.trim()) || (mode === 'profile' && !profile)} data-testid="capture-start">▶ Start capture</button>
          </form>
        )}
        {running && state && (
          <section className="capture-lines" aria-label="Lines to paste">
            <AgentRecipe key={state.base_url} recipes={state.recipes ?? []} lines={state.lines} onCopyError={setError} />
            <div className="capture-actions">
              <span className="muted small" data-testid="capture-progress">{state.forward
                ? `${state.calls.length} requests forwarded to profile ${state.forward.profile} (${state.forward.host}, model ${state.forward.model})`
                : state.manual ? `${state.calls.length} requests answered by you` : `${state.calls.length} of ${state.answers} scripted answers used`}</span>
              <span className="spacer" />
              <button type="button" className="btn danger" onClick={() => act(stopCapture)} disabled={busy} data-testid="capture-stop">■ Stop and keep</button>
            </div>
          </section>
        )}
        {running && state?.pending && (
          <PendingAnswer key={state.pending.n} pending={state.pending} busy={busy} onReply={(a) => act(() => replyCapture(state.pending!.n, a))} />
        )}
        {error && <div className="banner banner-err" role="alert">{error}</div>}
        {state?.error && !error && <div className="banner banner-err" role="alert">{state.error}</div>}
        {state && state.calls.length > 0 && (
          <table className="capture-calls" aria-label="Captured requests">
            <thead><tr><th>#</th><th>API</th><th>agent</th><th>status</th><th>messages</th><th>tokens in</th><th>hooks the model read</th><th>answer</th></tr></thead>
            <tbody>
              {state.calls.map((c) => (
                <tr key={c.n} className={c.status !== 200 ? 'is-error' : undefined} data-testid={`capture-call-${c.n}`}>
                  <td>{c.n + 1}</td>
                  <td title={c.path}>{c.api}</td>
                  <td>{c.agent ?? <span className="muted">—</span>}</td>
                  <td title={c.error}>{c.status}</td>
                  <td className="num">{c.messages}</td>
                  <td className="num">{c.input_tokens.toLocaleString()}</td>
                  <td>{c.hooks.length ? c.hooks.map((h) => <span key={h} className="capture-hook"><SystemBadge system="agent" /> {h}</span>) : <span className="muted">—</span>}</td>
                  <td className="capture-answer" title={c.error ?? c.answer}>{c.error ? <span className="count-err">{c.error}</span> : c.answer}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {!running && state?.run_id ? (
          <div className="capture-kept" data-testid="capture-kept">
            <span>Kept in the history as run #{state.run_id}.</span>
            <button type="button" className="btn" onClick={() => onOpenHistory(state.run_id!)}>Open in History</button>{' '}
            <SaveScenario runId={state.run_id} suggest={answers.includes('/') ? `${answers.slice(0, answers.lastIndexOf('/') + 1)}capture-${state.run_id}.yaml` : ''} />
          </div>
        ) : null}
      </div>
    </div>
  );
}
