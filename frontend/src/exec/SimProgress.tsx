// A simulation with executable hooks takes as long as its hooks: while it runs, what it is doing
// and a Cancel button (an edit replaces the run on its own; Cancel keeps what ran so far).
import { useEffect, useState } from 'react';
import type { SimProgress as Progress } from '../lib/api';
import { formatMs } from './hookcalls';

export function SimProgress({ progress, onCancel }: { progress: Progress | null; onCancel: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const active = !!progress?.active;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => setNow(Date.now()), 200);
    return () => clearInterval(t);
  }, [active]);
  if (!progress?.active) return null;
  const elapsed = progress.started_ms > 0 ? Math.max(progress.elapsed_ms, now - progress.started_ms) : progress.elapsed_ms;
  return (
    <span className="simprogress" role="status" data-testid="sim-progress" title={progress.last ? `last hook: ${progress.last}` : undefined}>
      <span className="spinner" aria-hidden />
      hooks running · {progress.steps > 0 && <>{progress.steps} steps · </>}{progress.hook_calls} calls
      {progress.point && <> · <b>{progress.point}</b></>}
      <span className="muted"> · {formatMs(elapsed)}</span>
      <button type="button" className="btn sm" onClick={onCancel} data-testid="sim-cancel">Cancel</button>
    </span>
  );
}
