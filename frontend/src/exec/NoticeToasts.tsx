// A hook's system_message is for the user: a simulation's notices show as toasts — on a
// re-simulation only those that are new or changed, so an edit shows what it changed.
import { useEffect, useState } from 'react';
import type { TraceView } from '../lib/api';
import { noticesOf } from './hookcalls';

const SHOWN_MS = 8000;
const MAX = 3;
type Notice = ReturnType<typeof noticesOf>[number];
const key = (n: Notice) => `${n.hook}\u0000${n.text}`;

interface Shown { view: TraceView | null; notices: Notice[]; seen: ReadonlySet<string> }

export function NoticeToasts({ view, onJump }: { view: TraceView | null; onJump: (step: number) => void }) {
  const [shown, setShown] = useState<Shown>({ view: null, notices: [], seen: new Set() });
  // a new view: its notices not seen in the views before (a pending view is the old one again)
  if (view && !view.pending && view !== shown.view) {
    const all = noticesOf(view);
    setShown({ view, notices: all.filter((n) => !shown.seen.has(key(n))).slice(0, MAX), seen: new Set([...shown.seen, ...all.map(key)]) });
  }
  useEffect(() => {
    if (shown.notices.length === 0) return;
    const t = setTimeout(() => setShown((s) => ({ ...s, notices: [] })), SHOWN_MS);
    return () => clearTimeout(t);
  }, [shown.notices]);
  if (shown.notices.length === 0) return null;
  return (
    <div className="notice-toasts" aria-live="polite">
      {shown.notices.map((n) => (
        <div key={n.step} className="toast toast-notice" role="status" data-testid="hook-notice">
          <button type="button" className="linkbtn" onClick={() => onJump(n.step)} title={`step ${n.step}`}>{n.hook}</button>: {n.text}
          <button type="button" className="linkbtn" aria-label="dismiss" onClick={() => setShown((s) => ({ ...s, notices: s.notices.filter((x) => x !== n) }))}>✕</button>
        </div>
      ))}
    </div>
  );
}
