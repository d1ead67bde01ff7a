import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import type { LLMCall, Message, MessageRow, ToolCall } from '../lib/api';
import { listAt, stepLabel, systemLabel } from '../lib/api';
import { isAgentCall, isAgentOwn, requestKind } from '../lib/api/agentRequest';
import { AgentGroup, MissingAgentContext, OfferedTools, RequestBody, TokenSplitBar } from './AgentRequest';
import type { RunSource } from '../paged/source';
import { useSource } from '../paged/source';
import { LocalSource } from '../paged/local';
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

/** What a collapsed card renders of a text: its first lines, more than its 96px show. */
const HEAD_LINES = 12;
const HEAD_CHARS = 640;
/**
 * The start of s that a collapsed card shows (the rest is hidden under its fade): a long session's
 * list is dozens of long tool results, and each is parsed, built and laid out only as far as seen.
 */
export function collapsedHead(s: string): string {
  let end = Math.min(s.length, HEAD_CHARS);
  for (let i = s.indexOf('\n'), n = 1; i !== -1 && i < end; i = s.indexOf('\n', i + 1), n++) {
    if (n === HEAD_LINES) { end = i; break; }
  }
  // never between the two halves of a character outside the BMP
  if (end < s.length && end > 0 && /[\uD800-\uDBFF]/.test(s[end - 1]!)) end--;
  return s.slice(0, end);
}

/** The origin label of a message: hook + skill, built-in prompt, history copy, user, tool, assistant. */
export function originLabel(m: Message): string {
  switch (m.origin) {
    case 'system_prompt': return 'system prompt';
    case 'agent_context': return "the agent's context";
    case 'user_input': return 'user input';
    case 'hook': return m.system ? `${systemLabel(m.system)} hook ${m.hook ?? ''}` : `hook ${m.hook ?? ''}${m.skill ? ` · ${m.skill}` : ''}`;
    case 'compaction': return 'compaction summary';
    case 'prompt': return `built-in prompt ${m.prompt ?? ''}`;
    case 'assistant': return m.tool_calls?.length ? 'assistant · tool calls' : 'assistant';
    case 'tool': return `tool ${m.tool ?? ''}`;
    case 'history':
      if (m.history_of === 'hook') return `history copy of hook ${m.hook ?? ''}${m.skill ? ` · ${m.skill}` : ''}`;
      if (m.history_of === 'assistant') return 'history · assistant reply';
      if (m.history_of === 'tool') return `history · tool ${m.tool ?? ''}`;
      if (m.history_of === 'system_prompt') return 'history · system prompt';
      if (m.history_of === 'agent_context') return "history · the agent's context";
      return 'history · user message';
  }
}

function originClass(m: Message): string {
  return m.origin === 'history' ? `o-history o-history-${m.history_of ?? ''}` : `o-${m.origin}`;
}

interface CardProps {
  row: MessageRow;
  /** the whole text of a message whose row carries its start (a stored run's page), once it is read: the card opened */
  whole?: string;
  color: (skill?: string) => string;
  expanded: boolean;
  onToggle: (id: number) => void;
  /** "add expectation from this message" (issue 12); absent: no button */
  onAddExpectation?: (id: number) => void;
  /** the message a search found */
  found?: boolean;
}

/** Tool calls a collapsed card lists; an answer with thousands of calls shows these and a toggle. */
export const TOOL_CALLS_SHOWN = 5;
/** More tool calls than this collapse the card (a few more than shown is not worth a toggle). */
const TOOL_CALLS_COLLAPSE = TOOL_CALLS_SHOWN + 3;

const toolCallText = (tc: ToolCall) => `→ ${tc.name}(${tc.arguments ? JSON.stringify(tc.arguments) : ''})`;

/** A row that carries only the start of its message's text (size: the whole text's length). */
export const isPreview = (m: Message) => (m.size ?? 0) > m.content.length;

/** What of a message's card can be collapsed, and how it reads when collapsed. */
function collapsible(m: Message): { long: boolean; manyCalls: boolean } {
  return { long: isPreview(m) || isLong(m.content), manyCalls: (m.tool_calls?.length ?? 0) > TOOL_CALLS_COLLAPSE };
}

export const MessageCard = memo(function MessageCard({ row, whole, color, expanded, onToggle, onAddExpectation, found }: CardProps) {
  const { message: m, injected, removedHere } = row;
  const { long, manyCalls } = collapsible(m);
  const collapsed = long && !expanded;
  // opened, a preview shows the whole text once it is read (its start until then)
  const text = expanded && whole !== undefined ? whole : m.content;
  const reading = expanded && isPreview(m) && whole === undefined;
  const hookish = m.origin === 'hook' || (m.origin === 'history' && m.history_of === 'hook');
  const c = hookish ? color(m.skill) : undefined;
  const calls = m.tool_calls && m.tool_calls.length > 0 ? (manyCalls && !expanded ? m.tool_calls.slice(0, TOOL_CALLS_SHOWN) : m.tool_calls) : undefined;
  const hidden: string[] = [];
  if (long) hidden.push(`${fmt(m.lines ?? lineCount(m.content))} lines`);
  if (manyCalls) hidden.push(`${fmt(m.tool_calls!.length)} tool calls`);
  return (
    <article
      className={cx('msg', originClass(m), injected && 'is-injected', removedHere && 'is-removed', found && 'is-found')}
      style={c ? { borderLeftColor: c } : undefined}
      data-testid={`msg-${m.id}`}
      aria-label={`${m.role} message ${m.id}${removedHere ? ' (removed)' : ''}`}
    >
      <header className="msg-head">
        <span className={cx('role', `role-${m.role}`)}>{m.role}</span>
        <span className="origin" style={c ? { color: c } : undefined} title={`${originLabel(m)}${m.timing ? ` · timing: ${m.timing}` : ''}`}>
          {hookish && <span className="dot" style={{ background: c }} />}
          {originLabel(m)}
        </span>
        {m.persistent && <PinIcon />}
        {m.edited_by && (
          <span className="badge badge-edited" title={m.in_place ? `the tool did not run: the model reads the ${m.system ?? ''} hook ${m.edited_by}'s words in its place` : `rewritten by the ${m.system ?? ''} hook ${m.edited_by}`}>
            {m.in_place ? 'written' : 'edited'} by {m.edited_by}
          </span>
        )}
        <span className="spacer" />
        {injected && <span className="badge badge-inject">INJECTED</span>}
        {removedHere && <span className="badge badge-remove">REMOVED</span>}
        <span className="tokens" title={m.pending ? 'tokens: being counted' : 'tokens'}>{m.pending ? '…' : fmt(m.tokens)} tok</span>
        {onAddExpectation && (
          <button type="button" className="linkbtn small" title="Add an expectation about this message to the scenario" onClick={() => onAddExpectation(m.id)} data-testid={`add-expect-${m.id}`}>+ expect</button>
        )}
      </header>
      {text && (
        <div className={cx('msg-body', collapsed && 'collapsed')}>
          <Markdown text={collapsed ? collapsedHead(text) : text} />
          {reading && <p className="muted small" aria-busy="true">reading the whole text…</p>}
        </div>
      )}
      {calls && (
        <ul className="toolcalls">
          {calls.map((tc) => (
            <li key={tc.id}>
              <code>{toolCallText(tc)}</code>
              <ToolCallStatus tc={tc} />
            </li>
          ))}
          {calls.length < m.tool_calls!.length && <li className="muted">… {fmt(m.tool_calls!.length - calls.length)} more</li>}
        </ul>
      )}
      {(long || manyCalls) && (
        <button type="button" className="linkbtn" onClick={() => onToggle(m.id)} aria-expanded={expanded}>
          {expanded ? 'Show less' : `Show all (${hidden.join(', ')})`}
        </button>
      )}
    </article>
  );
});

// Heights in px of the parts of a card (styles.css: row padding, card border + padding, header,
// a 13px × 1.45 body line, a tool call line, the toggle); the list corrects them once a card is measured.
const ROW_PAD = 8, CARD_CHROME = 14, HEAD = 16, LINE = 18.85, COLLAPSED_BODY = 96, CALL = 15, TOGGLE = 16, BLOCK_GAP = 8;
const CHARS_PER_LINE = 55;

/** Estimated height of a card's row before it is measured. */
export function estimate(row: MessageRow | undefined): number {
  if (!row) return 80;
  const m = row.message;
  const { long, manyCalls } = collapsible(m);
  let h = ROW_PAD + CARD_CHROME + HEAD;
  if (m.content) {
    const lines = Math.min(lineCount(m.content, 40) + Math.floor(m.content.length / CHARS_PER_LINE), 40);
    h += long ? COLLAPSED_BODY : lines * LINE + (m.content.includes('```') ? BLOCK_GAP * 2 : 0);
  }
  const n = m.tool_calls?.length ?? 0;
  if (n > 0) h += 4 + (manyCalls ? TOOL_CALLS_SHOWN + 1 : n) * CALL;
  if (long || manyCalls) h += TOGGLE;
  return Math.round(h);
}

/** What an executable hook made of a tool call: skipped/denied/answered by a hook, arguments rewritten. */
export function ToolCallStatus({ tc }: { tc: ToolCall }) {
  if (!tc.status && !tc.original_arguments) return null;
  return (
    <>
      {tc.status && tc.status !== 'approved' && <span className={cx('badge', `badge-tool-${tc.status}`)} title={tc.by ? `by hook ${tc.by}` : undefined}>{tc.status}{tc.by ? ` by ${tc.by}` : ''}</span>}
      {tc.status === 'approved' && <span className="badge badge-tool-approved">approved</span>}
      {tc.original_arguments && <span className="badge badge-edited" title={`arguments before the hook: ${JSON.stringify(tc.original_arguments)}`}>arguments rewritten</span>}
    </>
  );
}

/** A real run's warning on the call (an empty answer, say); older backends omit it. */
export function callWarning(call: LLMCall | undefined): string | undefined {
  return (call as { warning?: string } | undefined)?.warning || undefined;
}

function Answer({ call }: { call: LLMCall }) {
  const [all, setAll] = useState(false);
  const warning = callWarning(call);
  const tcs = call.tool_calls ?? [];
  const many = tcs.length > TOOL_CALLS_COLLAPSE;
  const shown = many && !all ? tcs.slice(0, TOOL_CALLS_SHOWN) : tcs;
  return (
    <footer className="answer">
      <div className="answer-title">
        Model answer{call.phase === 'planning' && call.need_tool !== undefined ? ` · need_tool: ${call.need_tool}` : ''}{call.error ? ' · error' : ''}
        {warning && <span className="badge badge-warn" title={warning}>warning</span>}
      </div>
      {call.error && <div className="answer-error">{call.error}</div>}
      {warning && <div className="answer-warning" role="status">⚠ {warning}</div>}
      {(call.model || (call.added_tools && call.added_tools.length > 0)) && (
        <div className="muted small">{call.model && <>model {call.model}</>}{call.added_tools?.length ? ` · tools added by hooks: ${call.added_tools.join(', ')}` : ''}</div>
      )}
      {call.original_content !== undefined && (
        <div className="answer-replaced" data-testid="answer-replaced">
          <span className="badge badge-edited">replaced by a hook</span> the model said: <span className="answer-before">{call.original_content}</span>
        </div>
      )}
      {call.content && <div className="answer-text">{call.content}</div>}
      {shown.map((tc) => <span key={tc.id} className="answer-tcl"><code className="answer-tc">{toolCallText(tc)}</code><ToolCallStatus tc={tc} /></span>)}
      {many && (
        <button type="button" className="linkbtn" onClick={() => setAll((a) => !a)} aria-expanded={all}>
          {all ? 'Show less' : `Show all (${fmt(tcs.length)} tool calls)`}
        </button>
      )}
    </footer>
  );
}

/** A row of the list: a message's card, or the agent's own messages that stand together. */
type Item = { kind: 'msg'; row: MessageRow } | { kind: 'agent'; rows: MessageRow[] };

/** The rows as the list shows them: the agent's own messages in a row are one group (issue 33). */
export function itemsOf(rows: readonly MessageRow[], firstChange: number): { items: Item[]; changeAt: number } {
  const items: Item[] = [];
  let changeAt = -1;
  rows.forEach((row, k) => {
    const last = items[items.length - 1];
    if (isAgentOwn(row.message)) {
      if (last?.kind === 'agent') last.rows.push(row);
      else items.push({ kind: 'agent', rows: [row] });
    } else {
      items.push({ kind: 'msg', row });
    }
    if (k === firstChange) changeAt = items.length - 1;
  });
  return { items, changeAt };
}

// a group: its chrome and header, a line per message (an opened one is measured)
const GROUP_CHROME = 8 + 12 + 16, GROUP_LINE = 21;
const estimateItem = (it: Item | undefined): number =>
  !it ? 80 : it.kind === 'msg' ? estimate(it.row) : GROUP_CHROME + it.rows.length * GROUP_LINE;

interface Props {
  source: RunSource;
  cursor: number;
  color: (skill?: string) => string;
  /** "add expectation from this message" for the messages of an LLM call (issue 12) */
  onAddExpectation?: (call: number, message: number) => void;
  /** the agent's own messages in full (the user's remembered choice) and the way to change it; absent: kept here */
  agentContext?: { shown: boolean; onShow: (shown: boolean) => void };
  /** the request body an LLM call sends (the live simulation's); absent: no Request view */
  requestBody?: (call: number) => Promise<string>;
  /** a message a search found: scrolled to, opened and marked */
  found?: number | null;
}

/** A row whose message is still being fetched: its place, at the height it is guessed to have. */
function LoadingCard() {
  return <article className="msg-loading" aria-busy="true"><span className="muted">…</span></article>;
}

export function MessageList({ source, cursor, color, onAddExpectation, agentContext, requestBody, found = null }: Props) {
  useSource(source, 'head', 'steps', 'calls', 'lists', 'rows', 'texts');
  const step = source.step(cursor);
  const addCall = step?.kind === 'llm_call' && step.call !== null && onAddExpectation ? step.call : null;
  const onAdd = useCallback((id: number) => { if (addCall !== null) onAddExpectation?.(addCall, id); }, [addCall, onAddExpectation]);
  // the list's figures; its rows are read as they are shown
  const list = source.list(cursor);
  // the live simulation's whole list is at hand: the agent's own messages in a row are grouped
  // (a stored run's pages hold no agent's pieces, so it has none to group)
  const whole = source instanceof LocalSource ? source.view : null;
  const grouped = useMemo(() => {
    if (!whole) return null;
    const { rows, firstChange } = listAt(whole, cursor);
    return itemsOf(rows, firstChange);
  }, [whole, cursor]);
  const count = grouped ? grouped.items.length : list?.rows ?? 0;
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set(found !== null ? [found] : []));
  useEffect(() => { if (found !== null) setExpanded((s) => (s.has(found) ? s : new Set(s).add(found))); }, [found]);
  // where the found message's row is: asked of the source when the list is in pages
  const [foundRow, setFoundRow] = useState<{ step: number; id: number; row: number } | null>(null);
  useEffect(() => {
    if (found === null || grouped) return;
    let alive = true;
    source.rowOf(cursor, found).then((row) => { if (alive) setFoundRow({ step: cursor, id: found, row }); }, () => {});
    return () => { alive = false; };
  }, [source, cursor, found, grouped]);
  // a list in pages scrolls to it once its row is held (asked for now): the rows measured, not guessed
  const foundPaged = !grouped && foundRow && foundRow.step === cursor && foundRow.id === found && foundRow.row >= 0 ? foundRow.row : -1;
  const foundAt = found === null ? -1
    : grouped ? grouped.items.findIndex((it) => (it.kind === 'msg' ? it.row.message.id === found : it.rows.some((r) => r.message.id === found)))
      : foundPaged >= 0 && source.row(cursor, foundPaged) ? foundPaged : -1;
  const changeAt = grouped ? grouped.changeAt : list?.first_change ?? -1;
  const [localShown, setLocalShown] = useState(false);
  const [mode, setMode] = useState<'messages' | 'request'>('messages');
  const showAgent = agentContext ? agentContext.shown : localShown;
  const onToggle = useCallback((id: number) => setExpanded((s) => {
    const n = new Set(s);
    if (n.has(id)) n.delete(id); else n.add(id);
    return n;
  }), []);
  // an agent's message is open when the toggle shows them all, unless clicked shut (and the other way round)
  const isOpen = useCallback((id: number) => showAgent !== expanded.has(id), [showAgent, expanded]);
  const setShowAgent = (shown: boolean) => {
    setExpanded(new Set()); // the new default holds for every message again
    if (agentContext) agentContext.onShow(shown); else setLocalShown(shown);
  };
  // only rows that were never rendered use the estimate; expanding a card is measured. The rows'
  // layout (every row of the list, thousands in a long session) is made again when rows arrive,
  // not when another part does (the calls, the matrix's cells), and the rows re-render when their
  // rows or texts do
  const rowsV = source.versionOf('rows'), textsV = source.versionOf('texts');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const est = useCallback((i: number) => (grouped ? estimateItem(grouped.items[i]) : estimate(source.row(cursor, i, false))), [grouped, source, cursor, rowsV]);
  const key = useCallback((i: number) => {
    // a row not held yet is a loading card, the same height wherever it is: a number, not a string made per row
    if (!grouped) return source.row(cursor, i, false)?.message.id ?? -i - 1;
    const it = grouped.items[i];
    if (!it) return -i - 1;
    return it.kind === 'msg' ? it.row.message.id : `agent-${it.rows[0]!.message.id}-${it.rows.length}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [grouped, source, cursor, rowsV]);
  const render = useCallback(
    (i: number) => {
      const row = grouped ? undefined : source.row(cursor, i);
      const it: Item | undefined = grouped ? grouped.items[i] : row && { kind: 'msg', row };
      if (!it) return <LoadingCard />;
      if (it.kind === 'agent') return <AgentGroup rows={it.rows} agent={whole?.agent} isOpen={isOpen} onToggle={onToggle} />;
      const open = expanded.has(it.row.message.id);
      const text = open && isPreview(it.row.message) ? source.text(it.row.message.id) : undefined;
      return <MessageCard row={it.row} whole={text} color={color} expanded={open} onToggle={onToggle} onAddExpectation={addCall !== null ? onAdd : undefined}
        found={it.row.message.id === found} />;
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [grouped, whole, source, cursor, rowsV, textsV, isOpen, color, expanded, onToggle, addCall, onAdd, found],
  );
  if (!step) return <div className="empty-state">{cursor >= 0 && cursor < source.head().steps ? 'Loading…' : 'No step selected.'}</div>;
  const call = step.kind === 'llm_call' && step.call !== null ? source.call(step.call) : undefined;
  const agentCall = isAgentCall(call) ? call : undefined;
  const hasAgentRows = grouped?.items.some((it) => it.kind === 'agent') ?? false;
  const showRequest = mode === 'request' && call !== undefined && agentCall !== undefined && requestBody !== undefined;
  const kind = whole ? requestKind(whole) : null;

  return (
    <section className="messages" aria-label="Message list">
      <header className="pane-head msg-list-head">
        <div className="title-row">
          <div className="title">
            {call ? (
              <>What LLM call <b>#{call.index + 1}</b> receives</>
            ) : (
              <>Message list after <b>{step.checkpoint ? `${glyph(step.checkpoint)} ` : ''}{stepLabel(step)}</b></>
            )}
          </div>
          <span className="spacer" />
          {agentCall && requestBody && (
            <span className="view-switch" role="tablist" aria-label="Show the call as">
              <button type="button" role="tab" aria-selected={!showRequest} onClick={() => setMode('messages')}>Messages</button>
              <button type="button" role="tab" aria-selected={showRequest} onClick={() => setMode('request')} data-testid="show-request"
                title="The request body as the agent sends it, in its API's shape">Request</button>
            </span>
          )}
        </div>
        <div className="sub">
          <span>request {step.request + 1}</span>
          {step.phase && <span>{step.phase}{step.round !== null ? ` · round ${step.round}` : ''}</span>}
          <span>{list ? fmt(list.live) : '…'} messages</span>
          {agentCall ? (
            <span className="total-tokens" title="the whole request: the messages and the definitions of the tools offered">{fmt(agentCall.tokens)} tokens</span>
          ) : (
            <span className="total-tokens" title={list?.pending ? `sum of the counted messages' tokens: ${fmt(list.pending)} still being counted` : 'sum of message tokens'}>
              {list ? fmt(list.tokens) : '…'} tokens{list?.pending ? ' (counting…)' : ''}
            </span>
          )}
          {list && list.added > 0 && <span className="plus">+{list.added}</span>}
          {list && list.removed > 0 && <span className="minus">−{list.removed}</span>}
          {hasAgentRows && !showRequest && (
            <label className="check show-agent" title="Show the agent's own messages (its system prompt and context) in full instead of a line each; remembered">
              <input type="checkbox" checked={showAgent} onChange={(e) => setShowAgent(e.currentTarget.checked)} data-testid="show-agent-context" /> show the agent&apos;s own context
            </label>
          )}
        </div>
        {agentCall && <TokenSplitBar split={agentCall.split} unknown={kind === 'none'} />}
      </header>
      {showRequest ? (
        <RequestBody call={call.index} load={requestBody} />
      ) : (
        <>
          {agentCall && kind === 'none' && whole?.agent && <MissingAgentContext agent={whole.agent} />}
          {agentCall && <OfferedTools call={agentCall} known={kind !== 'none'} />}
          {!list && !grouped ? (
            <div className="empty-state">Loading…</div>
          ) : count === 0 ? (
            <div className="empty-state">The message list is empty at this step.</div>
          ) : (
            <VirtualList
              className="msg-scroll"
              aria-label="Messages"
              role="list"
              count={count}
              estimate={est}
              getKey={key}
              resetKey={source}
              overscan={3}
              scrollToIndex={foundAt >= 0 ? foundAt : changeAt >= 0 ? changeAt : null}
              render={render}
            />
          )}
        </>
      )}
      {call && <Answer key={call.index} call={call} />}
    </section>
  );
}
