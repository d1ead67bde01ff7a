// The run's agent in the simulator's header (issue 33): which agent CLI version the run is, and
// whether its request model — the agent's own system prompt, context and tools — is calibrated (the
// CLI's words, from this machine), a bundled shape (placeholders of the right size) or none; with the
// way to calibrate it: here (the app's calibration, then the scenario simulated again) or the command.
import { useEffect, useRef, useState } from 'react';
import { calibrate, onCalibration, type CalibrationState } from '../lib/api/agents';
import { agentLabel, calibrateCommand, requestKind } from '../lib/api/agentRequest';
import type { RequestModelKind, TraceView } from '../lib/api/types';
import { CopyCommand } from '../components/AgentRequest';
import './agents.css';

const KIND: Record<RequestModelKind, { label: string; says: string }> = {
  calibrated: { label: 'calibrated', says: "calibrated on this machine: the calls hold the CLI's own system prompt, context and tool definitions (kept in the data folder, never in Hook Studio's files). Calibrate again after updating the CLI." },
  bundled: { label: 'bundled shape', says: "Hook Studio ships only the shape of this version's request: its system prompt, context and tools are placeholders of the right size (their token counts are the real ones). Calibrate the installed CLI to see its words." },
  none: { label: 'none', says: "Hook Studio knows nothing of this version's request: the calls hold the conversation alone, without the agent's system prompt, context and tools, and their token figures leave them out. Calibrate the installed CLI to add them." },
};

interface Props {
  view: TraceView | null;
  /** simulate the scenario again (a calibration just saved the request model) */
  onCalibrated: () => void;
}

export function RunAgent({ view, onCalibrated }: Props) {
  const [open, setOpen] = useState(false);
  const [cal, setCal] = useState<CalibrationState | null>(null);
  const [error, setError] = useState<string | null>(null);
  const waiting = useRef(false); // a calibration started here: simulate again once it saved
  const done = useRef(onCalibrated);
  useEffect(() => { done.current = onCalibrated; }, [onCalibrated]);
  useEffect(() => onCalibration((s) => {
    setCal(s);
    if (!s.running && waiting.current) {
      waiting.current = false;
      if (s.result) done.current();
    }
  }), []);
  const agent = view?.agent;
  const kind = view ? requestKind(view) : null;
  if (!agent || !kind) return null;
  const running = cal?.running ?? false;
  const start = () => {
    setError(null);
    waiting.current = true;
    calibrate(agent.agent, '').then(setCal, (e: unknown) => { waiting.current = false; setError(e instanceof Error ? e.message : String(e)); });
  };
  const name = agentLabel(agent.agent);
  const last = cal?.lines[cal.lines.length - 1];
  return (
    <span className={`agent-req agent-req-${kind}`} data-testid="run-agent" data-kind={kind}>
      <button type="button" className="linkbtn small agent-req-btn" aria-expanded={open} onClick={() => setOpen((o) => !o)}
        title={`This run is ${name} ${agent.version}'s loop and request; its request model: ${KIND[kind].label}`}>
        {name} {agent.version} · request: <b>{KIND[kind].label}</b>{kind !== 'calibrated' && ' ⚠'}
      </button>
      {open && (
        <div className="agent-req-pop" role="dialog" aria-label={`${name} ${agent.version}'s request model`} data-testid="agent-req-pop">
          <p><b>{name} {agent.version}</b>&apos;s request model is {KIND[kind].says}</p>
          <p className="agent-req-actions">
            <button type="button" className="btn sm primary" onClick={start} disabled={running} data-testid="run-agent-calibrate">
              {running ? 'Calibrating…' : kind === 'calibrated' ? 'Calibrate again' : 'Calibrate now'}
            </button>
            <span className="muted small">or run <CopyCommand command={calibrateCommand(agent.agent)} /></span>
          </p>
          {running && last && <p className="muted small" role="status" data-testid="run-agent-progress">{last}</p>}
          {!running && cal?.result && <p className="muted small" role="status">Saved {cal.result.ref}{cal.result.request_file ? ' and its request model' : ''}.</p>}
          {(error ?? (!running && cal?.error)) && <p className="count-err small" role="alert">{error ?? cal?.error}</p>}
          <button type="button" className="linkbtn small" onClick={() => setOpen(false)}>Close</button>
        </div>
      )}
    </span>
  );
}
