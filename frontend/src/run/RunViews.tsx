// The pieces of a live run's panel: the paused request, the tool prompt, the retry notice, the end.
import { useMemo, useState } from 'react';
import type { RunRetry, RunTool } from '../lib/api/run';
import type { RunEnd } from './machine';
import { END_LABELS } from './machine';

interface RequestSummary { model?: string; messages: number; tools: string[]; params: [string, unknown][] }

/** Pretty-printed request body and what it holds (messages, tools, parameters). */
export function describeRequest(body: string): { pretty: string; summary: RequestSummary | null } {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const tools = Array.isArray(j.tools)
      ? (j.tools as { name?: string; function?: { name?: string } }[]).map((t) => t.function?.name ?? t.name ?? '?')
      : [];
    const messages = Array.isArray(j.messages) ? j.messages.length : 0;
    const params = Object.entries(j).filter(([k, v]) => !['messages', 'tools', 'system', 'model'].includes(k) && (typeof v !== 'object' || v === null));
    return { pretty: JSON.stringify(j, null, 2), summary: { model: typeof j.model === 'string' ? j.model : undefined, messages, tools, params } };
  } catch {
    return { pretty: body, summary: null };
  }
}

interface PausedProps {
  call: number;
  request: string;
  onContinue: () => void;
  onStep: () => void;
  onCancel: () => void;
}

export function PausedView({ call, request, onContinue, onStep, onCancel }: PausedProps) {
  const { pretty, summary } = useMemo(() => describeRequest(request), [request]);
  return (
    <section className="mrun-paused" aria-label="Paused request" data-testid="run-paused">
      <header>
        <h3>Paused before LLM call #{call + 1}</h3>
        <span className="spacer" />
        <button type="button" className="btn primary" onClick={onContinue} title="Continue (F5)">▶ Continue <kbd>F5</kbd></button>
        <button type="button" className="btn" onClick={onStep} title="Step: pause before the next call (F10)">↷ Step <kbd>F10</kbd></button>
        <button type="button" className="btn danger" onClick={onCancel}>■ Cancel</button>
      </header>
      <p className="muted small">This is the exact body that will be sent (without the key).</p>
      {summary && (
        <div className="mrun-chips" data-testid="run-request-summary">
          {summary.model && <span className="mrun-chip">model {summary.model}</span>}
          <span className="mrun-chip">{summary.messages} messages</span>
          <span className="mrun-chip">{summary.tools.length ? `tools: ${summary.tools.join(', ')}` : 'no tools'}</span>
          {summary.params.map(([k, v]) => <span key={k} className="mrun-chip">{k} {String(v)}</span>)}
        </div>
      )}
      <pre className="mrun-request" data-testid="run-request" tabIndex={0}>{pretty}</pre>
    </section>
  );
}

interface ToolProps { tool: RunTool; onSend: (result: string) => void; busy?: boolean }

export function ToolPrompt({ tool, onSend, busy }: ToolProps) {
  const [text, setText] = useState('');
  const args = useMemo(() => JSON.stringify(tool.arguments ?? {}, null, 2), [tool.arguments]);
  return (
    <form className="mrun-tool" aria-label="Tool result" data-testid="run-tool" onSubmit={(e) => { e.preventDefault(); onSend(text); }}>
      <h3>The model called <code>{tool.name}</code> — the scenario has no result for it</h3>
      <pre className="mrun-request small">{args}</pre>
      <label>Result to send back
        <textarea value={text} onChange={(e) => setText(e.target.value)} rows={6} autoFocus placeholder="What the tool returns…" />
      </label>
      <div className="mrun-actions">
        <button type="submit" className="btn primary" disabled={busy}>Send result</button>
      </div>
    </form>
  );
}

export function RetryNotice({ retry }: { retry: RunRetry }) {
  return (
    <div className="banner banner-warn mrun-retry" role="status" data-testid="run-retry">
      Attempt {retry.attempt} failed: {retry.error} — retrying in {(retry.wait_ms / 1000).toFixed(1)} s
    </div>
  );
}

interface EndProps {
  end: RunEnd;
  confirmed: boolean;
  onSave: () => void;
  onOpenHistory?: (runId: number) => void;
  saving?: boolean;
}

export function EndView({ end, confirmed, onSave, onOpenHistory, saving }: EndProps) {
  const ok = end.status === 'ok';
  return (
    <section className={`mrun-end mrun-end-${end.status}`} aria-label="Run ended" data-testid="run-end">
      <h3 data-testid="run-end-status" data-status={end.status}>{ok ? '✓' : end.status === 'cancelled' ? '■' : '✗'} Run {END_LABELS[end.status]} <span className="muted small">({end.status})</span></h3>
      {end.error && <div className="mrun-error" role="alert">{end.error}</div>}
      {!confirmed && <p className="muted small">Stopping…</p>}
      <div className="mrun-actions">
        <button type="button" className="btn" onClick={onSave} disabled={!confirmed || saving}>Save as mock scenario</button>
        {onOpenHistory && end.run_id !== undefined && end.run_id > 0 && (
          <button type="button" className="btn" onClick={() => onOpenHistory(end.run_id!)}>Open in history</button>
        )}
      </div>
    </section>
  );
}
