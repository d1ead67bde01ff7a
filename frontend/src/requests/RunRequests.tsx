// A stored run's request usage per model (seed 004, charted) and its executable hooks' metrics
// (seed 001: runs, successes, failures, skips, total time), for the History view.
import { useEffect, useState } from 'react';
import { runRequests, type RequestsView } from '../lib/api/requests';
import './requests.css';

const PARTS = [
  ['prompt_tokens', 'prompt'],
  ['completion_tokens', 'completion'],
  ['thinking_tokens', 'thinking'],
  ['cached_tokens', 'cached'],
] as const;

export function RunRequests({ runId }: { runId: number }) {
  const [data, setData] = useState<RequestsView | null>(null);
  useEffect(() => {
    let live = true;
    setData(null);
    runRequests(runId).then((d) => { if (live) setData(d); }).catch(() => { if (live) setData(null); });
    return () => { live = false; };
  }, [runId]);
  if (!data || (data.usage.length === 0 && !data.exec_hooks?.length)) return null;
  const max = Math.max(1, ...data.usage.map((u) => PARTS.reduce((a, [k]) => a + u[k], 0)));
  return (
    <div className="run-requests" data-testid="run-requests">
      {data.usage.length > 0 && (
        <figure className="req-usage-chart" aria-label={`Request usage per model — run #${runId}`}>
          <figcaption>Request usage per model — run #{runId}</figcaption>
          {data.usage.map((u) => (
            <div key={u.model} className="req-usage-row" data-testid={`usage-${u.model}`}>
              <span className="req-usage-model">{u.model}</span>
              <span className="req-usage-bars">
                {PARTS.map(([k, label]) => (u[k] > 0 ? (
                  <span key={k} className={`req-usage-part req-part-${label}`} style={{ width: `${(100 * u[k]) / max}%` }} title={`${label}: ${u[k]} tokens`} />
                ) : null))}
              </span>
              <span className="muted">{u.requests} req · {u.successes} ok · {u.failures} failed · {u.attempts} attempts</span>
            </div>
          ))}
        </figure>
      )}
      {!!data.exec_hooks?.length && (
        <table className="req-usage-table" aria-label={`Executable hooks — run #${runId}`}>
          <thead><tr><th>system</th><th>hook</th><th>runs</th><th>ok</th><th>failed</th><th>skipped</th><th>ms</th></tr></thead>
          <tbody>
            {data.exec_hooks.map((h) => (
              <tr key={`${h.system}/${h.hook}`}>
                <td>{h.system}</td><td>{h.hook}</td><td>{h.executions}</td><td>{h.successes}</td><td>{h.failures}</td><td>{h.skipped}</td>
                <td>{h.total_duration_ms.toFixed(1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
