// The approval dialog (seed 002): the exact tool call the run is waiting on, why it needs approval,
// and a countdown to the deadline — no decision by then is a denial. A denial's feedback is what the
// model reads in the tool message.
import { useEffect, useState } from 'react';
import type { HookAnswer, PendingApproval } from '../lib/api/ops';
import { OutcomeBadge, SystemBadge } from '../exec/HookCallRow';
import './approval.css';

export interface ApprovalDialogProps {
  pending: PendingApproval;
  onDecide(approve: boolean, feedback: string): void;
  /** the clock (tests fix it) */
  now?: () => number;
}

/** Whole seconds left until the deadline, never below zero. */
export function secondsLeft(deadline: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
}

export function ApprovalDialog({ pending, onDecide, now = Date.now }: ApprovalDialogProps) {
  const [feedback, setFeedback] = useState('');
  const [left, setLeft] = useState(() => secondsLeft(pending.deadline, now()));
  const [sent, setSent] = useState(false);
  useEffect(() => {
    setLeft(secondsLeft(pending.deadline, now()));
    const t = setInterval(() => setLeft(secondsLeft(pending.deadline, now())), 250);
    return () => clearInterval(t);
  }, [pending.deadline, now]);
  const decide = (approve: boolean) => {
    if (sent) return;
    setSent(true);
    onDecide(approve, feedback.trim());
  };
  return (
    <div className="modal-backdrop approval-backdrop">
      <div className="approval-dialog" role="dialog" aria-modal="true" aria-labelledby="approval-title" data-testid="approval-dialog">
        <h2 id="approval-title">Approve <code>{pending.tool}</code>?</h2>
        <p className="approval-reason" data-testid="approval-reason">{pending.reason}</p>
        <pre className="approval-call" data-testid="approval-call">{pending.tool}({JSON.stringify(pending.arguments ?? {}, null, 2)})</pre>
        {pending.hooks && pending.hooks.length > 0 && <HookAnswers hooks={pending.hooks} />}
        <p className={`approval-countdown${left <= 5 ? ' urgent' : ''}`} data-testid="approval-countdown" aria-live="polite">
          {left > 0 ? `${left} s left — no decision by then denies the call` : 'time is up: the call is denied'}
        </p>
        <label className="approval-feedback">
          Feedback for the model (sent with a denial)
          <textarea value={feedback} onChange={(e) => setFeedback(e.target.value)} rows={2} data-testid="approval-feedback" />
        </label>
        <div className="approval-buttons">
          <button type="button" className="btn" disabled={sent || left === 0} onClick={() => decide(false)} data-testid="approval-deny">Deny</button>
          <button type="button" className="btn btn-primary" disabled={sent || left === 0} onClick={() => decide(true)} data-testid="approval-approve">Approve</button>
        </div>
      </div>
    </div>
  );
}

/** What the executable hooks answered about the call before you are asked: a process hook's
 * approve_tool that approved it, a Claude Code hook that asked, the before_tool hooks. */
function HookAnswers({ hooks }: { hooks: HookAnswer[] }) {
  return (
    <div className="approval-hooks" data-testid="approval-hooks">
      <div className="approval-hooks-title">The hooks before you</div>
      <ul>
        {hooks.map((h, i) => (
          <li key={i} data-testid="approval-hook" data-outcome={h.outcome}>
            <SystemBadge system={h.system} />
            <span className="approval-hook-name">{h.hook}</span>
            <span className="approval-hook-event">{h.event}</span>
            <OutcomeBadge outcome={h.outcome} />
            {h.answer && <code className="approval-hook-answer" title={h.answer}>{answerText(h.answer)}</code>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A hook's answer as the row shows it: a JSON-RPC response's result (a process hook's
 * `{"approved": true}`), anything else as it came (the title keeps the whole answer). */
export function answerText(answer: string): string {
  try {
    const v: unknown = JSON.parse(answer);
    if (v && typeof v === 'object' && 'jsonrpc' in v && 'result' in v) return JSON.stringify(v.result);
  } catch { /* not JSON: as it came */ }
  return answer;
}
