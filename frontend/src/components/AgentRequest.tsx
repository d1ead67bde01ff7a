// What an agent CLI sends besides the conversation, in the message list of its call (issue 33):
// its own messages (system prompt blocks, the context it adds around the prompt) grouped where they
// stand, a line each until opened; the tools the call offered; whose the call's tokens are (the
// split, the hooks' share readable however small); and the call's request body as the agent sends it.
import { memo, useEffect, useState } from 'react';
import type { LLMCall, MessageRow, RunAgent, TokenSplit } from '../lib/api';
import { agentLabel, calibrateCommand, firstWords, isAgentSystem, pieceNames, share, SPLIT_PARTS, splitText, splitTotal } from '../lib/api/agentRequest';
import { cx, fmt } from './util';
import './agentRequest.css';

/** A stacked bar of a call's split, with each part's tokens beside it (compact: the bar alone, its numbers in the title). */
export function TokenSplitBar({ split, compact = false, unknown = false }: {
  split: TokenSplit; compact?: boolean;
  /** the run has no request model: the agent's own part and its tools' are not known (not zero) */
  unknown?: boolean;
}) {
  const total = splitTotal(split);
  return (
    <div className={cx('split', compact && 'split-compact')} title={splitText(split)} data-testid={compact ? undefined : 'token-split'}>
      <div className="split-bar" role="img" aria-label={`tokens of the request: ${SPLIT_PARTS.map((p) => `${p.label} ${split[p.key]}`).join(', ')}`}>
        {SPLIT_PARTS.map((p) => split[p.key] > 0 && (
          // a sliver still shows: a part's segment is never thinner than 3 px
          <span key={p.key} className={`split-seg split-${p.key}`} style={{ flexGrow: split[p.key], flexBasis: 3 }} />
        ))}
      </div>
      {!compact && (
        <ul className="split-legend">
          {SPLIT_PARTS.map((p) => (
            <li key={p.key} className={`split-item split-item-${p.key}`} title={p.title} data-part={p.key}>
              <span className={`split-key split-${p.key}`} />
              {p.label} {unknown && (p.key === 'agent' || p.key === 'tools') ? <b title="not known: no request model for this version">?</b> : <b>{fmt(split[p.key])}</b>}
              {p.key === 'hooks' && <span className="split-share"> ({share(split.hooks, total)})</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The tools the call offered: a line (how many, what their definitions cost), their names when opened. */
export function OfferedTools({ call, known }: { call: LLMCall; /** the request model knows the tools' definitions */ known: boolean }) {
  const [open, setOpen] = useState(false);
  const names = call.offered ?? [];
  const cost = call.tool_tokens ?? 0;
  return (
    <div className={cx('offered', open && 'open')} data-testid="offered-tools">
      <button type="button" className="offered-line" aria-expanded={open} onClick={() => setOpen((o) => !o)}
        title={known ? 'The tools this call offered the model, with what their definitions cost' : 'The scenario\'s tools: without a request model the agent\'s own tools and their definitions are not known'}>
        <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span>
        <b>{names.length} {names.length === 1 ? 'tool' : 'tools'} offered</b>
        {!open && names.length > 0 && <span className="offered-names">{names.join(', ')}</span>}
        <span className="spacer" />
        <span className="tokens">{known ? `${fmt(cost)} tok` : 'definitions not known'}</span>
      </button>
      {open && (
        <ul className="offered-list" aria-label="Tools offered">
          {names.map((n) => <li key={n}><code>{n}</code></li>)}
          {(call.withheld_tools ?? []).map((n) => <li key={`w-${n}`} className="withheld" title="a hook took it out of this call's offer"><code>{n}</code> withheld</li>)}
        </ul>
      )}
    </div>
  );
}

/** In place of the agent's own messages when the run has no request model for its version: what is missing, and how to get it. */
export function MissingAgentContext({ agent }: { agent: RunAgent }) {
  const name = agentLabel(agent.agent);
  return (
    <div className="agent-missing" data-testid="agent-context-missing" role="note">
      <b>{name} {agent.version}&apos;s own system prompt, context and tools are not in this run:</b> Hook Studio has no request model for this version,
      so the calls hold the conversation alone and their token figures leave the agent&apos;s part out. Calibrate the installed CLI to add them: <CopyCommand command={calibrateCommand(agent.agent)} />
    </div>
  );
}

interface GroupProps {
  rows: readonly MessageRow[];
  agent: RunAgent | undefined;
  /** whether a message's text is shown */
  isOpen: (id: number) => boolean;
  onToggle: (id: number) => void;
}

/** The agent's own messages that stand together (its system prompt's blocks, its context before or after the prompt). */
export const AgentGroup = memo(function AgentGroup({ rows, agent, isOpen, onToggle }: GroupProps) {
  const name = agent ? agentLabel(agent.agent) : 'The agent';
  const system = rows.filter((r) => isAgentSystem(r.message)).length;
  const context = rows.length - system;
  let tokens = 0;
  for (const r of rows) if (!r.removedHere) tokens += r.message.tokens;
  const what = [system && `system prompt (${system} ${system === 1 ? 'block' : 'blocks'})`, context && 'context'].filter(Boolean).join(' and ');
  const short = [system && `system prompt ×${system}`, context && `context ×${context}`].filter(Boolean).join(' · ');
  const carried = rows.every((r) => r.message.origin === 'history');
  const injected = rows.some((r) => r.injected);
  return (
    <article className={cx('agent-group', injected && 'is-injected')} data-testid="agent-group" aria-label={`${name}'s own ${what}`}>
      <header className="agent-group-head">
        <span className="agent-tag">{name}{agent?.version ? ` ${agent.version}` : ''}&apos;s own</span>
        <span className="agent-what" title={`${name}'s own ${what}${carried ? ', carried from the requests before' : ''}`}>{short}{carried ? ' · carried' : ''}</span>
        <span className="spacer" />
        {injected && <span className="badge badge-inject">INJECTED</span>}
        <span className="tokens">{fmt(tokens)} tok</span>
      </header>
      <ul className="agent-lines">
        {rows.map((r) => <AgentLine key={r.message.id} row={r} agent={agent} open={isOpen(r.message.id)} onToggle={onToggle} />)}
      </ul>
    </article>
  );
});

function AgentLine({ row, agent, open, onToggle }: { row: MessageRow; agent: RunAgent | undefined; open: boolean; onToggle: (id: number) => void }) {
  const m = row.message;
  const ph = !!m.placeholder;
  return (
    <li className={cx('agent-line', ph && 'is-placeholder', open && 'open', row.removedHere && 'is-removed')} data-testid={`msg-${m.id}`}>
      <button type="button" className="agent-line-toggle" aria-expanded={open} onClick={() => onToggle(m.id)}
        title={ph ? `A placeholder: the CLI's words (${fmt(m.placeholder_tokens ?? 0)} tokens) are not shipped with Hook Studio` : `${pieceNames(m)}: ${fmt(m.tokens)} tokens`}>
        <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span>
        <code className="piece">{pieceNames(m)}</code>
        <span className={cx('role', `role-${m.role}`)}>{m.role}</span>
        {ph ? <span className="agent-first placeholder-note">placeholder · calibrate to see the CLI&apos;s words</span>
          : <span className="agent-first">{firstWords(m.content)}</span>}
        {m.edited_by && <span className="badge badge-edited" title={`the ${m.system ?? ''} hook ${m.edited_by} added to it`}>+ {m.edited_by}</span>}
        {row.removedHere && <span className="badge badge-remove">REMOVED</span>}
        <span className="tokens">{fmt(m.tokens)} tok</span>
      </button>
      {open && (ph ? <Placeholder text={m.content} agent={agent} tokens={m.placeholder_tokens ?? 0} /> : <pre className="agent-text">{m.content}</pre>)}
    </li>
  );
}

/** A placeholder opened: what it stands for and the command that puts the CLI's words there. */
function Placeholder({ text, agent, tokens }: { text: string; agent: RunAgent | undefined; tokens: number }) {
  const cmd = calibrateCommand(agent?.agent ?? 'AGENT');
  return (
    <div className="agent-placeholder">
      <p>{text}</p>
      <p className="muted small">
        Counted as the CLI&apos;s words: {fmt(tokens)} tokens. To see them here, calibrate the installed CLI: <CopyCommand command={cmd} />
      </p>
    </div>
  );
}

/** A command in code with a Copy button. */
export function CopyCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = () => {
    const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clip) { setCopied(false); return; }
    clip.writeText(command).then(() => setCopied(true), () => setCopied(false));
  };
  return (
    <span className="copy-command">
      <code>{command}</code>
      <button type="button" className="linkbtn small" onClick={copy} title="Copy the command">{copied === true ? 'copied' : copied === false ? 'select it to copy' : 'copy'}</button>
    </span>
  );
}

interface BodyState { call: number; body?: string; error?: string }

/** A call's request body as the agent sends it, pretty-printed, copyable. */
export function RequestBody({ call, load }: { call: number; load: (call: number) => Promise<string> }) {
  const [got, setGot] = useState<BodyState | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load(call).then((body) => { if (live) setGot({ call, body }); }, (e: unknown) => { if (live) setGot({ call, error: e instanceof Error ? e.message : String(e) }); });
    return () => { live = false; };
  }, [call, load]);
  const mine = got?.call === call ? got : null;
  const copy = (text: string) => {
    const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clip) { setCopied('the clipboard is not available: select the text and copy it'); return; }
    clip.writeText(text).then(() => setCopied('copied'), () => setCopied('the clipboard is not available: select the text and copy it'));
  };
  return (
    <div className="request-body" data-testid="request-body">
      {!mine ? <div className="empty-state">Writing the request body…</div>
        : mine.error !== undefined ? <div className="empty-state request-error" role="alert">{mine.error}</div>
          : (
            <>
              <div className="request-body-bar">
                <span className="muted small">the request body as the agent sends it · {fmt(mine.body!.length)} characters</span>
                <span className="spacer" />
                {copied && <span className="muted small" role="status">{copied}</span>}
                <button type="button" className="btn sm" onClick={() => copy(mine.body!)} data-testid="copy-request">Copy</button>
              </div>
              <pre className="request-json" tabIndex={0} aria-label={`Request body of LLM call #${call + 1}`}>{mine.body}</pre>
            </>
          )}
    </div>
  );
}
