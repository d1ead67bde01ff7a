// A request waiting for the user's answer (a manual capture: the app is the agent's model). The
// last messages show what the agent sent — hook output named — and the answer is text or a
// tool call of a tool the request offers.
import { useState } from 'react';
import type { CaptureAnswer, CapturePending } from '../lib/api/capture';

interface Props {
  pending: CapturePending;
  onReply: (answer: CaptureAnswer) => void;
  busy: boolean;
}

const SHOWN = 4;

export function PendingAnswer({ pending, onReply, busy }: Props) {
  const [text, setText] = useState('');
  const [tool, setTool] = useState('');
  const [args, setArgs] = useState('{}');
  const [error, setError] = useState<string | null>(null);
  const last = pending.messages.slice(-SHOWN);
  const send = () => {
    if (tool) {
      let parsed: unknown;
      try { parsed = JSON.parse(args); } catch (e) { setError(`the arguments are not JSON: ${String(e)}`); return; }
      onReply({ content: text || undefined, tool_calls: [{ name: tool, arguments: parsed }] });
      return;
    }
    if (!text.trim()) { setError('write the answer, or pick a tool to call'); return; }
    onReply({ content: text });
  };
  return (
    <section className="capture-pending" aria-label="Request waiting for your answer" data-testid="capture-pending">
      <h3>Request #{pending.n + 1} waits for your answer <span className="muted small">({pending.api}, {pending.model || 'no model'}, {pending.messages.length} messages)</span></h3>
      <ol className="capture-pending-msgs" start={pending.messages.length - last.length + 1}>
        {last.map((m, i) => (
          <li key={i} className={m.origin === 'hook' ? 'is-hook' : undefined}>
            <b>{m.role}</b> <span className="muted small">{m.origin === 'hook' ? `hook ${m.hook ?? ''}` : m.origin}</span>
            <div className="capture-pending-text">{m.content || (m.tool_calls?.map((t) => `→ ${t.name}(${JSON.stringify(t.arguments)})`).join('\n')) || '—'}</div>
          </li>
        ))}
      </ol>
      <label htmlFor="capture-reply">Answer</label>
      <textarea id="capture-reply" className="input" rows={3} value={text} onChange={(e) => { setText(e.target.value); setError(null); }} data-testid="capture-reply"
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); send(); } }} />
      <div className="capture-pending-tool">
        <label htmlFor="capture-tool">or call</label>
        <select id="capture-tool" value={tool} onChange={(e) => setTool(e.target.value)} data-testid="capture-tool">
          <option value="">no tool</option>
          {pending.tools.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        {tool && <input className="input" aria-label="Tool arguments (JSON)" value={args} onChange={(e) => { setArgs(e.target.value); setError(null); }} data-testid="capture-args" spellCheck={false} />}
        <span className="spacer" />
        <button type="button" className="btn primary" onClick={send} disabled={busy} data-testid="capture-send" title="Send the answer (Ctrl+Enter)">Send answer</button>
      </div>
      {error && <div className="count-err small" role="alert">{error}</div>}
    </section>
  );
}
