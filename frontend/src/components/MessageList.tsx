import { useCallback, useMemo, useState } from 'react';
import type { Message, MessageRow, TraceView } from '../lib/api';
import { rowsAt, stepLabel } from '../lib/api';
import { Markdown } from './Markdown';
import { VirtualList } from './VirtualList';
import { cx, fmt, glyph } from './util';
import { PinIcon } from './Icons';

const LONG_CHARS = 320;
const LONG_LINES = 6;
/** number of lines, counting no further than `max` + 1 */
function lineCount(s: string, max = Infinity): number {
  let n = 1;
  for (let i = s.indexOf('\n'); i !== -1 && n <= max; i = s.indexOf('\n', i + 1)) n++;
  return n;
}
export const isLong = (s: string) => s.length > LONG_CHARS || lineCount(s, LONG_LINES) > LONG_LINES;

/** The origin label of a message: hook + skill, built-in prompt, history copy, user, tool, assistant. */
export function originLabel(m: Message): string {
  switch (m.origin) {
    case 'system_prompt': return 'system prompt';
    case 'user_input': return 'user input';
    case 'hook': return `hook ${m.hook ?? ''}${m.skill ? ` · ${m.skill}` : ''}`;
    case 'prompt': return `built-in prompt ${m.prompt ?? ''}`;
    case 'assistant': return m.tool_calls?.length ? 'assistant · tool calls' : 'assistant';
    case 'tool': return `tool ${m.tool ?? ''}`;
    case 'history':
      if (m.history_of === 'hook') return `history copy of hook ${m.hook ?? ''}${m.skill ? ` · ${m.skill}` : ''}`;
      if (m.history_of === 'assistant') return 'history · assistant reply';
      return 'history · user message';
  }
}

function originClass(m: Message): string {
  return m.origin === 'history' ? `o-history o-history-${m.history_of ?? ''}` : `o-${m.origin}`;
}

interface CardProps {
  row: MessageRow;
  color: (skill?: string) => string;
  expanded: boolean;
  onToggle: (id: number) => void;
}

export function MessageCard({ row, color, expanded, onToggle }: CardProps) {
  const { message: m, injected, removedHere } = row;
  const long = isLong(m.content);
  const collapsed = long && !expanded;
  const hookish = m.origin === 'hook' || (m.origin === 'history' && m.history_of === 'hook');
  const c = hookish ? color(m.skill) : undefined;
  return (
    <article
      className={cx('msg', originClass(m), injected && 'is-injected', removedHere && 'is-removed')}
      style={c ? { borderLeftColor: c } : undefined}
      data-testid={`msg-${m.id}`}
      aria-label={`${m.role} message ${m.id}${removedHere ? ' (removed)' : ''}`}
    >
      <header className="msg-head">
        <span className={cx('role', `role-${m.role}`)}>{m.role}</span>
        <span className="origin" style={c ? { color: c } : undefined} title={m.timing ? `timing: ${m.timing}` : undefined}>
          {hookish && <span className="dot" style={{ background: c }} />}
          {originLabel(m)}
        </span>
        {m.persistent && <PinIcon />}
        <span className="spacer" />
        {injected && <span className="badge badge-inject">INJECTED</span>}
        {removedHere && <span className="badge badge-remove">REMOVED</span>}
        <span className="tokens" title="tokens">{fmt(m.tokens)} tok</span>
      </header>
      {m.content && (
        <div className={cx('msg-body', collapsed && 'collapsed')}>
          <Markdown text={m.content} />
        </div>
      )}
      {m.tool_calls && m.tool_calls.length > 0 && (
        <ul className="toolcalls">
          {m.tool_calls.map((tc) => (
            <li key={tc.id}>
              <code>
                → {tc.name}({tc.arguments ? JSON.stringify(tc.arguments) : ''})
              </code>
            </li>
          ))}
        </ul>
      )}
      {long && (
        <button type="button" className="linkbtn" onClick={() => onToggle(m.id)} aria-expanded={expanded}>
          {expanded ? 'Show less' : `Show all (${lineCount(m.content)} lines)`}
        </button>
      )}
    </article>
  );
}

function estimate(row: MessageRow | undefined): number {
  if (!row) return 80;
  const m = row.message;
  const long = isLong(m.content);
  const lines = long ? 5 : Math.min(lineCount(m.content) + Math.floor(m.content.length / 60), 8);
  return 52 + lines * 19 + (m.tool_calls?.length ?? 0) * 22 + (long ? 22 : 0);
}

interface Props {
  view: TraceView;
  cursor: number;
  color: (skill?: string) => string;
}

export function MessageList({ view, cursor, color }: Props) {
  const step = view.steps[cursor];
  const rows = useMemo(() => rowsAt(view, cursor), [view, cursor]);
  const live = useMemo(() => rows.filter((r) => !r.removedHere), [rows]);
  const total = useMemo(() => live.reduce((a, r) => a + r.message.tokens, 0), [live]);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const onToggle = useCallback((id: number) => setExpanded((s) => {
    const n = new Set(s);
    if (n.has(id)) n.delete(id); else n.add(id);
    return n;
  }), []);
  const est = useCallback((i: number) => estimate(rows[i]), [rows]);
  // expanding a card changes its height: the list re-measures it (ResizeObserver)
  const key = useCallback((i: number) => rows[i]?.message.id ?? -i - 1, [rows]);
  const firstChange = rows.findIndex((r) => r.injected || r.removedHere);
  if (!step) return <div className="empty-state">No step selected.</div>;
  const call = step.kind === 'llm_call' && step.call !== null ? view.calls[step.call] : undefined;
  const added = rows.filter((r) => r.injected).length;
  const removed = rows.length - live.length;

  return (
    <section className="messages" aria-label="Message list">
      <header className="pane-head msg-list-head">
        <div className="title">
          {call ? (
            <>What LLM call <b>#{call.index + 1}</b> receives</>
          ) : (
            <>Message list after <b>{step.checkpoint ? `${glyph(step.checkpoint)} ` : ''}{stepLabel(step)}</b></>
          )}
        </div>
        <div className="sub">
          <span>request {step.request + 1}</span>
          {step.phase && <span>{step.phase}{step.round !== null ? ` · round ${step.round}` : ''}</span>}
          <span>{fmt(live.length)} messages</span>
          <span className="total-tokens" title="sum of message tokens">{fmt(total)} tokens</span>
          {added > 0 && <span className="plus">+{added}</span>}
          {removed > 0 && <span className="minus">−{removed}</span>}
        </div>
      </header>
      {rows.length === 0 ? (
        <div className="empty-state">The message list is empty at this step.</div>
      ) : (
        <VirtualList
          className="msg-scroll"
          aria-label="Messages"
          role="list"
          count={rows.length}
          estimate={est}
          getKey={key}
          scrollToIndex={firstChange >= 0 ? firstChange : null}
          render={(i) => <MessageCard row={rows[i]!} color={color} expanded={expanded.has(rows[i]!.message.id)} onToggle={onToggle} />}
        />
      )}
      {call && (
        <footer className="answer">
          <div className="answer-title">Model answer{call.phase === 'planning' && call.need_tool !== undefined ? ` · need_tool: ${call.need_tool}` : ''}{call.error ? ' · error' : ''}</div>
          {call.error && <div className="answer-error">{call.error}</div>}
          {call.content && <div className="answer-text">{call.content}</div>}
          {call.tool_calls?.map((tc) => <code key={tc.id} className="answer-tc">→ {tc.name}({tc.arguments ? JSON.stringify(tc.arguments) : ''})</code>)}
        </footer>
      )}
    </section>
  );
}
