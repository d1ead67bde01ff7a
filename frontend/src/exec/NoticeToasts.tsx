// A hook's system_message is for the user: each new simulation shows its notices as toasts.
import { useEffect, useState } from 'react';
import type { TraceView } from '../lib/api';
import { noticesOf } from './hookcalls';

const SHOWN_MS = 8000;

export function NoticeToasts({ view, onJump }: { view: TraceView | null; onJump: (step: number) => void }) {
  const [dismissed, setDismissed] = useState<{ view: TraceView | null; steps: ReadonlySet<number> }>({ view: null, steps: new Set() });
  const [expired, setExpired] = useState<TraceView | null>(null);
  useEffect(() => {
    if (!view) return;
    const t = setTimeout(() => setExpired(view), SHOWN_MS);
    return () => clearTimeout(t);
  }, [view]);
  if (!view || expired === view || view.pending) return null;
  const gone = dismissed.view === view ? dismissed.steps : new Set<number>();
  const notices = noticesOf(view).filter((n) => !gone.has(n.step)).slice(0, 4);
  if (notices.length === 0) return null;
  return (
    <div className="notice-toasts" aria-live="polite">
      {notices.map((n) => (
        <div key={n.step} className="toast toast-notice" role="status" data-testid="hook-notice">
          <button type="button" className="linkbtn" onClick={() => onJump(n.step)} title={`step ${n.step}`}>{n.hook}</button>: {n.text}
          <button type="button" className="linkbtn" aria-label="dismiss" onClick={() => setDismissed({ view, steps: new Set([...gone, n.step]) })}>✕</button>
        </div>
      ))}
    </div>
  );
}
