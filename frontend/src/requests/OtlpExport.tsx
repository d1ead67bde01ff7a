// The OpenTelemetry setting: the collector URL (remembered) and a button that sends the run on screen
// (its stored copy) there as OTLP/HTTP traces — Jaeger, Grafana Tempo, Langfuse, Phoenix.
import { useState } from 'react';
import { exportOTLP, otlpEndpoint, setOtlpEndpoint } from '../lib/api/requests';

export function OtlpExport({ scenario }: { scenario: string }) {
  const [url, setUrl] = useState(otlpEndpoint);
  const [state, setState] = useState<{ busy: boolean; text: string; err: boolean }>({ busy: false, text: '', err: false });
  const send = async () => {
    setOtlpEndpoint(url);
    setState({ busy: true, text: 'sending…', err: false });
    try {
      const id = await exportOTLP(scenario, url);
      setState({ busy: false, text: `run #${id} sent`, err: false });
    } catch (e) {
      setState({ busy: false, text: String(e instanceof Error ? e.message : e), err: true });
    }
  };
  return (
    <div className="req-otlp">
      <label>
        OpenTelemetry collector{' '}
        <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} aria-label="OpenTelemetry collector URL" size={28} />
      </label>
      <button type="button" className="btn" disabled={state.busy || !scenario} onClick={() => void send()}>Send run</button>
      {state.text && <span className={state.err ? 'req-error' : 'muted'} role="status">{state.text}</span>}
    </div>
  );
}
