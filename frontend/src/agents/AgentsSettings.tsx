// Settings ▸ Agents (issue 27): the agent CLIs found on PATH — path, version, and whether a rendering
// profile exists for that version (bundled, calibrated or none) — and Calibrate, which learns the
// profile from the CLI itself (offline, against an in-process capture) with its progress, cancellable;
// a finished calibration says what differs from the nearest profile known before.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { agentCLIs, calibrate, calibrationState, cancelCalibration, CLAUDE_CODE, onCalibration, type AgentCLI, type CalibrationState } from '../lib/api/agents';
import './agents.css';

const PROFILE_TITLE: Record<string, string> = {
  bundled: 'a profile of this version ships with Hook Studio',
  calibrated: 'calibrated on this machine (agents/ in the data folder)',
  none: 'no profile for this version: runs render as the newest known; calibrate it',
};

/** How far a calibration is, as a fraction of its runs. */
export function calibrationProgress(s: CalibrationState): number {
  const { run, runs, message } = s.progress;
  if (!runs) return 0;
  return Math.min(1, (Math.max(run, 1) - 1 + (message === 'done' ? 1 : 0.5)) / runs);
}

export function AgentsSettings() {
  const [clis, setClis] = useState<AgentCLI[] | null>(null);
  const [cal, setCal] = useState<CalibrationState | null>(null);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => agentCLIs().then(setClis).catch((e: unknown) => setError(String(e))), []);

  useEffect(() => {
    let live = true;
    agentCLIs().then((l) => { if (live) setClis(l); }).catch((e: unknown) => { if (live) setError(String(e)); });
    calibrationState().then((s) => { if (live && s) setCal(s); }).catch(() => {});
    const off = onCalibration((s) => {
      setCal(s);
      if (!s.running && s.result) void reload(); // its version has a profile now
    });
    return () => { live = false; off(); };
  }, [reload]);
  if (clis === null) return null;

  const start = (cli: string) => {
    setError(null);
    calibrate(CLAUDE_CODE, cli).then(setCal).catch((e: unknown) => setError(String(e)));
  };
  const submit = (e: FormEvent) => { e.preventDefault(); start(path.trim()); };
  const running = cal?.running ?? false;
  return (
    <section className="mrun-form agents-settings" aria-label="Agents">
      <h3>Agents</h3>
      <p className="muted small">
        The agent CLIs found on <code>PATH</code>. What a hook&apos;s output becomes in front of the model moves between
        versions; each version&apos;s renderings are a <b>rendering profile</b>. Calibrate learns it from the CLI itself, offline,
        and saves it in the data folder (<code>agents/&lt;agent&gt;/&lt;version&gt;.json</code>); <code>hookctl calibrate</code> does the same.
      </p>
      <table className="agents-table" aria-label="Agent CLIs">
        <thead><tr><th>agent</th><th>CLI</th><th>version</th><th>profile</th><th /></tr></thead>
        <tbody>
          {clis.map((c) => (
            <tr key={c.agent} data-testid={`agent-${c.agent}`}>
              <td>{c.agent}</td>
              <td className="mono small" title={c.path || `${c.command} is not on PATH`}>{c.path || <span className="muted">not found ({c.command})</span>}</td>
              <td className="mono">{c.version || (c.error ? <span className="count-err" title={c.error}>?</span> : '—')}</td>
              <td>{c.path && <span className={`badge agent-profile ap-${c.profile}`} title={PROFILE_TITLE[c.profile]}>{c.profile}</span>}</td>
              <td>
                {c.calibratable && c.path && (
                  <button type="button" className="btn" disabled={running} onClick={() => start(c.path)} data-testid={`calibrate-${c.agent}`}>Calibrate</button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="agents-cli" onSubmit={submit} aria-label="Calibrate another Claude Code CLI">
        <label>Another Claude Code CLI<input value={path} onChange={(e) => setPath(e.currentTarget.value)} placeholder="/path/to/claude" spellCheck={false} /></label>
        <button type="submit" className="btn" disabled={running || !path.trim()}>Calibrate</button>
      </form>
      {error && <div className="mrun-error" role="alert">{error}</div>}
      {cal && (cal.running || cal.error || cal.result) && <Calibration state={cal} />}
    </section>
  );
}

function Calibration({ state }: { state: CalibrationState }) {
  const last = state.lines[state.lines.length - 1];
  if (state.running) {
    return (
      <div className="calibration" role="status" data-testid="calibration">
        <div className="calib-row">
          <span>Calibrating <span className="mono">{state.cli}</span></span>
          <progress max={1} value={calibrationProgress(state)} aria-label="Calibration progress" />
          <button type="button" className="btn" onClick={() => void cancelCalibration()}>Cancel</button>
        </div>
        {last && <div className="muted small mono">{last}</div>}
      </div>
    );
  }
  if (state.error) {
    return <div className="mrun-error" role="alert" data-testid="calibration">{state.cancelled ? 'Calibration cancelled: nothing was saved.' : state.error}</div>;
  }
  const r = state.result!;
  return (
    <div className="calibration" role="status" data-testid="calibration">
      <div>Saved <b>{r.ref}</b> ({(r.duration_ms / 1000).toFixed(1)} s) — <span className="mono small">{r.file}</span></div>
      {!r.nearest ? <div className="muted small">No other profile was known to compare with.</div>
        : r.changes.length === 0 ? <div className="muted small">The same renderings as {r.nearest}.</div> : (
          <>
            <div className="small">What differs from {r.nearest}:</div>
            <ul className="calib-changes">
              {r.changes.map((c) => (
                <li key={`${c.outcome} ${c.field}`} className="small"><b>{c.outcome}</b> {c.field}: <code>{c.from || '(none)'}</code> → <code>{c.to || '(none)'}</code></li>
              ))}
            </ul>
          </>
        )}
    </div>
  );
}
