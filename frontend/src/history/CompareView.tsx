// Two stored runs call by call: totals, a chart of each aligned call's prompt tokens (B solid,
// A as an outline), and a row per call position (request/phase/round) with its status and token
// delta, expandable to the message diffs (changed texts side by side, word-level highlights).
import { Fragment, useEffect, useMemo, useState } from 'react';
import { compareRuns, type CallDiff, type Comparison, type MessageDiff, type RunSummary } from '../lib/api/history';
import { BarChart, type Bar } from './charts';
import { wordDiff } from './wordDiff';
import { fmtDate, fmtMs } from './format';

export const callLabel = (c: Pick<CallDiff, 'a' | 'b'>): string =>
  c.a !== null && c.b !== null ? (c.a === c.b ? `#${c.a + 1}` : `#${c.a + 1} → #${c.b + 1}`) : c.a !== null ? `#${c.a + 1}` : `#${c.b! + 1}`;

const where = (c: CallDiff) => `request ${c.request + 1} · ${c.phase}${c.round !== null ? ` round ${c.round + 1}` : ''}`;

/** "codex@0.171.0" → "codex": two versions of one agent are an upgrade, two agents a conversion. */
const agentOf = (ref: string | undefined) => (ref ?? '').split('@')[0];

export function Delta({ n, testid }: { n: number; testid?: string }) {
  const cls = n > 0 ? 'plus' : n < 0 ? 'minus' : 'muted';
  return <span className={`delta ${cls}`} data-testid={testid}>{n > 0 ? `+${n.toLocaleString()}` : n.toLocaleString()}</span>;
}

function WordDiff({ a, b, side }: { a: string; b: string; side: 'a' | 'b' }) {
  const pieces = useMemo(() => wordDiff(a, b), [a, b]);
  return (
    <pre className="diff-text">
      {pieces.map((p, i) => (p.op === 'same' ? <span key={i}>{p.text}</span> : p.op === 'del' ? (side === 'a' ? <del key={i}>{p.text}</del> : null) : side === 'b' ? <ins key={i}>{p.text}</ins> : null))}
    </pre>
  );
}

function MessageDiffRow({ m, runA, runB }: { m: MessageDiff; runA: number; runB: number }) {
  return (
    <li className={`mdiff op-${m.op}`} data-testid="message-diff">
      <div className="mdiff-head">
        <span className={`badge ${m.op === 'added' ? 'badge-inject' : m.op === 'removed' ? 'badge-remove' : 'badge-changed'}`}>{m.op}</span>
        <code>{m.tag}</code>
        <span className="role">{m.role}</span>
        <span className="spacer" />
        <span className="tokens">{m.tokens_a} → {m.tokens_b} tok</span> <Delta n={m.token_delta} />
      </div>
      <div className={m.op === 'changed' ? 'mdiff-cols' : 'mdiff-cols single'}>
        {m.op !== 'added' && (
          <div className="mdiff-side">
            <div className="side-label">run #{runA}{m.a !== null ? ` · message ${m.a}` : ''}</div>
            {m.op === 'changed' ? <WordDiff a={m.content_a ?? ''} b={m.content_b ?? ''} side="a" /> : <pre className="diff-text"><del>{m.content_a}</del></pre>}
          </div>
        )}
        {m.op !== 'removed' && (
          <div className="mdiff-side">
            <div className="side-label">run #{runB}{m.b !== null ? ` · message ${m.b}` : ''}</div>
            {m.op === 'changed' ? <WordDiff a={m.content_a ?? ''} b={m.content_b ?? ''} side="b" /> : <pre className="diff-text"><ins>{m.content_b}</ins></pre>}
          </div>
        )}
      </div>
    </li>
  );
}

function Totals({ c }: { c: Comparison }) {
  return (
    <div className="cmp-totals" data-testid="compare-totals">
      <div><span className="muted">prompt tokens</span><b>{c.tokens_a.toLocaleString()} → {c.tokens_b.toLocaleString()}</b> <Delta n={c.token_delta} testid="total-delta" /></div>
      <div><span className="muted">changed calls</span><b data-testid="changed-calls">{c.changed_calls}</b> <span className="muted">of {c.calls.length}</span></div>
      <div><span className="muted">LLM calls</span><b>{c.a.llm_calls} → {c.b.llm_calls}</b></div>
      <div><span className="muted">largest prompt</span><b>{c.a.max_prompt_tokens.toLocaleString()} → {c.b.max_prompt_tokens.toLocaleString()}</b> <Delta n={c.b.max_prompt_tokens - c.a.max_prompt_tokens} /></div>
      <div><span className="muted">wall time</span><b>{fmtMs(c.a.wall_ms)} → {fmtMs(c.b.wall_ms)}</b></div>
    </div>
  );
}

export function CompareView({ a, b, onBack, onOpen }: { a: number; b: number; onBack: () => void; onOpen: (run: RunSummary) => void }) {
  const [cmp, setCmp] = useState<Comparison | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const [onlyChanged, setOnlyChanged] = useState(false);

  useEffect(() => {
    let alive = true;
    setCmp(null); setError(null);
    compareRuns(a, b).then((c) => {
      if (!alive) return;
      setCmp(c);
      // the first changed call starts expanded: that is what one compares for
      const first = c.calls.findIndex((d) => d.status !== 'same');
      setOpen(new Set(first >= 0 ? [first] : []));
    }).catch((e: unknown) => { if (alive) setError(String(e)); });
    return () => { alive = false; };
  }, [a, b]);

  const toggle = (i: number) => setOpen((s) => { const n = new Set(s); if (n.has(i)) n.delete(i); else n.add(i); return n; });
  const bars: Bar[] = useMemo(() => (cmp?.calls ?? []).map((c) => ({
    label: callLabel(c).replace(/ → .*/, ''), value: c.tokens_b, ghost: c.tokens_a, highlight: c.status !== 'same',
    tip: [`${callLabel(c)} · ${where(c)} · ${c.status}`, `run #${cmp!.a.id}: ${c.tokens_a} → run #${cmp!.b.id}: ${c.tokens_b} (${c.token_delta >= 0 ? '+' : ''}${c.token_delta})`],
  })), [cmp]);

  return (
    <div className="compare" data-testid="compare-view">
      <div className="hist-bar">
        <button type="button" className="btn" onClick={onBack}>← Runs</button>
        <h2 className="hist-title">Compare run #{a} → run #{b}</h2>
        <span className="spacer" />
        {cmp && <button type="button" className="btn" onClick={() => onOpen(cmp.a)}>Open #{cmp.a.id}</button>}
        {cmp && <button type="button" className="btn" onClick={() => onOpen(cmp.b)}>Open #{cmp.b.id}</button>}
      </div>
      {error && <div className="banner banner-err" role="alert">{error}</div>}
      {!cmp && !error && <div className="empty-state">Comparing…</div>}
      {cmp && (
        <div className="compare-body">
          <div className="cmp-runs muted small">
            A: #{cmp.a.id} {cmp.a.scenario} · {fmtDate(cmp.a.started)} · {cmp.a.source} — B: #{cmp.b.id} {cmp.b.scenario} · {fmtDate(cmp.b.started)} · {cmp.b.source}
            {cmp.a.scenario !== cmp.b.scenario && <span className="count-warn"> · different scenarios</span>}
            {cmp.a.agent !== cmp.b.agent && (
              <div data-testid="compare-agents">rendered as <b>{cmp.a.agent || 'no agent'}</b> → <b>{cmp.b.agent || 'no agent'}</b>: {agentOf(cmp.a.agent) === agentOf(cmp.b.agent)
                ? 'what this upgrade changes for these hooks' : 'where each agent puts these hooks\' words'}</div>
            )}
          </div>
          <div className="cmp-top">
          <BarChart
            title="Prompt tokens per LLM call" bars={bars} yLabel="tokens" xLabel="LLM call (aligned by request, phase, round)" empty="neither run made LLM calls"
            onBar={(i) => setOpen((s) => new Set(s).add(i))}
            legend={<span className="legend"><span className="key bar-key"><i />run #{cmp.b.id}</span><span className="key ghost-key"><i />run #{cmp.a.id}</span><span className="key hl-key"><i />changed</span></span>}
          />
          <Totals c={cmp} />
          </div>
          <div className="cmp-tools">
            <label className="check"><input type="checkbox" checked={onlyChanged} onChange={(e) => setOnlyChanged(e.target.checked)} /> only changed calls</label>
            <span className="spacer" />
            <button type="button" className="linkbtn" onClick={() => setOpen(new Set(cmp.calls.map((_, i) => i).filter((i) => cmp.calls[i]!.messages.length > 0)))}>expand all</button>
            <button type="button" className="linkbtn" onClick={() => setOpen(new Set())}>collapse all</button>
          </div>
          <table className="cmp-table">
            <thead>
              <tr><th /><th>call</th><th>where</th><th>status</th><th className="num">tokens A</th><th className="num">tokens B</th><th className="num">Δ tokens</th><th className="num">messages</th></tr>
            </thead>
            <tbody>
              {cmp.calls.map((c, i) => {
                if (onlyChanged && c.status === 'same') return null;
                const isOpen = open.has(i);
                return (
                  <Fragment key={i}>
                    <tr className={`cmp-row st-${c.status}`} data-testid={`call-diff-${i}`} onClick={() => toggle(i)} aria-expanded={isOpen}>
                      <td><button type="button" className="linkbtn twisty" aria-label={isOpen ? 'Collapse' : 'Expand'} onClick={(e) => { e.stopPropagation(); toggle(i); }}>{isOpen ? '▾' : '▸'}</button></td>
                      <td className="mono">{callLabel(c)}</td>
                      <td>{where(c)}</td>
                      <td><span className={`st st-${c.status}`} data-testid="call-status">{c.status}</span></td>
                      <td className="num">{c.a !== null ? c.tokens_a.toLocaleString() : '—'}</td>
                      <td className="num">{c.b !== null ? c.tokens_b.toLocaleString() : '—'}</td>
                      <td className="num"><Delta n={c.token_delta} testid="token-delta" /></td>
                      <td className="num muted">{c.same} same{c.messages.length ? `, ${c.messages.length} differ` : ''}</td>
                    </tr>
                    {isOpen && (
                      <tr className="cmp-detail">
                        <td />
                        <td colSpan={7}>
                          {c.messages.length === 0 ? <div className="muted small">{identical(c.token_delta)}</div> : (
                            <ul className="mdiffs">{c.messages.map((m, k) => <MessageDiffRow key={k} m={m} runA={cmp.a.id} runB={cmp.b.id} />)}</ul>
                          )}
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** What an open call with no message differences says: its prompt may still differ outside the
 *  messages — the tools offered (another agent names them otherwise) count in its tokens. */
export function identical(tokenDelta: number): string {
  if (tokenDelta === 0) return 'The message lists are identical.';
  return `The message lists are identical; the prompt differs by ${tokenDelta > 0 ? '+' : ''}${tokenDelta} tokens outside them (the tools offered).`;
}
