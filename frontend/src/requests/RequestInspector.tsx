// The request inspector (seed 004): every model request of the run like a browser's network tab —
// status, attempts (retries with their status and reason), timings as a bar, usage, and the request
// hooks that ran around it. Data from window.go.bind.Requests through src/lib/api/requests.
import { useEffect, useState } from 'react';
import type { TraceView } from '../lib/api';
import { currentRequests, requestsOf, type RequestRow, type RequestsView } from '../lib/api/requests';
import { OtlpExport } from './OtlpExport';
import './requests.css';

const ms = (a: string, b: string) => new Date(b).getTime() - new Date(a).getTime();

function fmtMs(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.max(0, n).toFixed(n < 10 ? 1 : 0)} ms`;
}

/** "denied", the HTTP status, or "—" while the request never ended. */
export function statusOf(row: RequestRow): { text: string; ok: boolean } {
  const c = row.context;
  if (row.hooks.some((h) => h.outcome === 'denied')) return { text: `denied ${c?.http_status || ''}`.trim(), ok: false };
  if (!c || !c.end_time) return { text: '—', ok: false };
  return { text: String(c.http_status || (c.success ? 200 : 'failed')), ok: c.success };
}

interface Props {
  view: TraceView;
  onJump: (step: number) => void;
}

export function RequestInspector({ view, onJump }: Props) {
  const [data, setData] = useState<RequestsView>(() => requestsOf(view));
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    currentRequests(view)
      .then((d) => { if (live) setData(d); })
      .catch(() => { if (live) setData(requestsOf(view)); });
    return () => { live = false; };
  }, [view]);

  const rows = data.rows;
  if (rows.length === 0) {
    return (
      <div className="empty-state">
        No model request went through request hooks. Declare them in <code>.hookstudio/request-hooks.yaml</code> or a
        skill's <code>hooks/request-hooks.yaml</code>, or script <code>attempts:</code> and <code>request_policy:</code> in the scenario.
      </div>
    );
  }
  const starts = rows.map((r) => r.context?.start_time).filter((s): s is string => !!s);
  const ends = rows.map((r) => r.context?.end_time ?? r.context?.start_time).filter((s): s is string => !!s);
  const t0 = starts.reduce((a, b) => (a < b ? a : b));
  const t1 = ends.reduce((a, b) => (a > b ? a : b));
  const span = Math.max(ms(t0, t1), 1);
  const pct = (t: string) => `${(100 * ms(t0, t)) / span}%`;
  const detail = rows.find((r) => r.call === open);

  return (
    <div className="req-inspector" data-testid="request-inspector">
      <OtlpExport scenario={view.scenario} />
      <table className="req-table" aria-label="Requests">
        <thead>
          <tr>
            <th>#</th><th>request</th><th>model</th><th>status</th><th>attempts</th><th>time</th>
            <th className="req-waterfall-h">timeline</th><th>tokens in/out</th><th>hooks</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const c = r.context;
            const st = statusOf(r);
            const retries = (c?.attempts.length ?? 0) - 1;
            const end = c?.end_time ?? c?.start_time;
            return (
              <tr key={r.call} className={st.ok ? 'req-ok' : 'req-bad'} aria-selected={open === r.call}
                onClick={() => setOpen(open === r.call ? null : r.call)} data-testid={`request-row-${r.call}`}>
                <td>{r.call + 1}</td>
                <td>R{r.request + 1} {r.phase}{r.phase === 'agent' ? ` ${r.round}` : ''}</td>
                <td>{c?.model}</td>
                <td className="req-status">{st.text}</td>
                <td>
                  {c?.attempts.length ?? 0}
                  {retries > 0 && <span className="req-badge" title="retried">{retries} {retries === 1 ? 'retry' : 'retries'}</span>}
                </td>
                <td>{c && end ? fmtMs(ms(c.start_time, end)) : '—'}</td>
                <td className="req-waterfall">
                  {c && end && (
                    <div className="req-bar-track">
                      <div className="req-bar" style={{ left: pct(c.start_time), width: `max(2px, calc(${pct(end)} - ${pct(c.start_time)}))` }}
                        title={`start ${c.start_time}${c.first_byte_time ? ` · first byte ${c.first_byte_time}` : ''} · end ${end}`}>
                        {c.first_byte_time && (
                          <div className="req-bar-wait" style={{ width: `${(100 * ms(c.start_time, c.first_byte_time)) / Math.max(ms(c.start_time, end), 1)}%` }} />
                        )}
                      </div>
                      {c.attempts.map((a, i) => (
                        <span key={i} className={a.status_code && a.status_code < 300 ? 'req-tick' : 'req-tick req-tick-bad'} style={{ left: pct(a.timestamp) }}
                          title={`attempt ${i + 1}: ${a.status_code ?? 'no answer'} ${a.reason ?? ''}`} />
                      ))}
                    </div>
                  )}
                </td>
                <td>{c?.usage_metadata ? `${c.usage_metadata.prompt_tokens} / ${c.usage_metadata.completion_tokens}` : '—'}</td>
                <td>
                  {r.hooks.map((h) => (
                    <span key={h.step} className={`req-hook req-hook-${h.outcome}`} title={`${h.event} ${h.hook}: ${h.outcome}`}>{h.hook}</span>
                  ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {detail && detail.context && (
        <div className="req-detail" data-testid="request-detail">
          <h4>
            Request {detail.call + 1} · <code>{detail.context.request_id}</code> · {detail.context.route}
            {detail.context.is_streaming ? ' · streaming' : ''} · credential {detail.context.current_credential_id}
            {detail.context.current_credential_email ? ` (${detail.context.current_credential_email})` : ''}
          </h4>
          {detail.context.error && <div className="req-error">{detail.context.error}</div>}
          <table className="req-attempts" aria-label="Attempts">
            <thead><tr><th>attempt</th><th>status</th><th>reason</th><th>at</th></tr></thead>
            <tbody>
              {detail.context.attempts.map((a, i) => (
                <tr key={i}>
                  <td>{i + 1}</td><td>{a.status_code ?? 'no answer'}</td><td>{a.reason ?? ''}</td>
                  <td>+{fmtMs(ms(detail.context!.start_time, a.timestamp))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {detail.context.usage_metadata && (
            <div className="req-usage">
              usage: {detail.context.usage_metadata.prompt_tokens} prompt · {detail.context.usage_metadata.completion_tokens} completion ·{' '}
              {detail.context.usage_metadata.thinking_tokens} thinking · {detail.context.usage_metadata.cached_tokens} cached
              {detail.context.usage_metadata.counted ? ' (counted)' : ''}
            </div>
          )}
          <ul className="req-hooks">
            {detail.hooks.map((h) => (
              <li key={h.step}>
                <button type="button" className="linkbtn" onClick={() => onJump(h.step)} data-testid={`request-hook-${h.step}`}>
                  {h.event} · {h.hook}
                </button>{' '}
                <span className={`req-hook req-hook-${h.outcome}`}>{h.outcome}</span> {fmtMs(h.duration_ms)}
                {h.error ? <span className="req-error"> {h.error}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      )}
      {data.usage.length > 0 && (
        <table className="req-usage-table" aria-label="Usage per model">
          <thead><tr><th>model</th><th>requests</th><th>ok</th><th>failed</th><th>attempts</th><th>prompt</th><th>completion</th><th>thinking</th><th>cached</th></tr></thead>
          <tbody>
            {data.usage.map((u) => (
              <tr key={u.model}>
                <td>{u.model}</td><td>{u.requests}</td><td>{u.successes}</td><td>{u.failures}</td><td>{u.attempts}</td>
                <td>{u.prompt_tokens}</td><td>{u.completion_tokens}</td><td>{u.thinking_tokens}</td><td>{u.cached_tokens}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
