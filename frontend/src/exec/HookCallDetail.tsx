// The selected hook_call step in full: the exact input (stdin JSON, JSON-RPC request) and output,
// stderr, exit status, duration, outcome, warnings, and what it did to the message list.
import { useState } from 'react';
import type { Message, Step, TraceView } from '../lib/api';
import { systemLabel } from '../lib/api';
import { cx } from '../components/util';
import { Duration, OutcomeBadge, SystemBadge } from './HookCallRow';
import { llmCallOfStep, pretty, stepDiff, toolCallOfStep } from './hookcalls';

function Copy({ text, what }: { text: string; what: string }) {
  const [done, setDone] = useState(false);
  const copy = () => {
    const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
    if (!clip) return;
    clip.writeText(text).then(() => { setDone(true); setTimeout(() => setDone(false), 1200); }, () => undefined);
  };
  return <button type="button" className="linkbtn" onClick={copy} aria-label={`copy ${what}`}>{done ? 'copied' : 'copy'}</button>;
}

function Block({ title, text, testid, tone }: { title: string; text: string; testid: string; tone?: 'err' }) {
  return (
    <section className="hc-block">
      <header><span>{title}</span><span className="spacer" /><Copy text={text} what={title} /></header>
      <pre className={cx('hc-pre', tone && `hc-pre-${tone}`)} data-testid={testid}>{text}</pre>
    </section>
  );
}

const msgTag = (m: Message) => `${m.role} · ${m.origin === 'hook' && m.system ? `${systemLabel(m.system)} hook ${m.hook ?? ''}` : m.origin.replace('_', ' ')}`;

function MsgLine({ m, kind }: { m: Message; kind: 'add' | 'del' }) {
  return (
    <div className={cx('hc-msg', `hc-${kind}`)}>
      <span className="hc-sign">{kind === 'add' ? '+' : '−'}</span>
      <span className="hc-msgtag">#{m.id} {msgTag(m)}</span>
      <span className="hc-msgtext">{m.content || (m.tool_calls?.length ? `${m.tool_calls.length} tool call(s)` : '(empty)')}</span>
    </div>
  );
}

/** The effect of the step on the message list, the tool call and the answer. */
function Effect({ view, step }: { view: TraceView; step: Step }) {
  const diff = stepDiff(view, step);
  const tc = toolCallOfStep(view, step);
  const call = llmCallOfStep(view, step);
  const point = step.hook_call?.point;
  // the tool call and the answer keep only the first "before": show it at the hook that changed it
  const said = (word: string) => !!step.hook_call?.changes?.some((c) => c.includes(word));
  const argsChanged = tc?.original_arguments !== undefined && point === 'before_tool' && said('arguments');
  const answerChanged = call?.original_content !== undefined && point === 'after_llm' && said('answer');
  const toolDecided = tc?.status && tc.by === step.hook_call?.hook;
  const none = diff.added.length + diff.removed.length + diff.replaced.length === 0 && !argsChanged && !answerChanged && !toolDecided;
  return (
    <section className="hc-block" aria-label="Effect on the message list">
      <header><span>Effect</span></header>
      {none ? <div className="muted small pad">No change to the message list, the tool call or the answer.</div> : (
        <div className="hc-diff" data-testid="hookcall-diff">
          {diff.replaced.map(({ before, after }) => (
            <div key={`r${after.id}`} className="hc-replaced">
              <div className="muted small">replaced in place</div>
              <MsgLine m={before} kind="del" />
              <MsgLine m={after} kind="add" />
            </div>
          ))}
          {diff.removed.map((m) => <MsgLine key={`d${m.id}`} m={m} kind="del" />)}
          {diff.added.map((m) => <MsgLine key={`a${m.id}`} m={m} kind="add" />)}
          {toolDecided && tc && (
            <div className="hc-tool"><span className={cx('badge', `badge-tool-${tc.status}`)}>{tc.status}</span> tool call <code>{tc.name}</code>{tc.result ? <> — the model reads: <q>{tc.result}</q></> : null}</div>
          )}
          {argsChanged && tc && (
            <div className="hc-tool">
              <div className="muted small">arguments of <code>{tc.name}</code></div>
              <div className="hc-msg hc-del"><span className="hc-sign">−</span><code>{JSON.stringify(tc.original_arguments)}</code></div>
              <div className="hc-msg hc-add"><span className="hc-sign">+</span><code>{JSON.stringify(tc.arguments ?? {})}</code></div>
            </div>
          )}
          {answerChanged && call && (
            <div className="hc-tool">
              <div className="muted small">answer of LLM call #{call.index + 1}</div>
              <div className="hc-msg hc-del"><span className="hc-sign">−</span><span className="hc-msgtext">{call.original_content}</span></div>
              <div className="hc-msg hc-add"><span className="hc-sign">+</span><span className="hc-msgtext">{call.content}</span></div>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

export function HookCallDetail({ view, step }: { view: TraceView; step: Step }) {
  const hc = step.hook_call;
  if (!hc) return null;
  const input = pretty(hc.input);
  const output = hc.output !== undefined ? pretty(hc.output) : hc.output_text ?? '';
  const rpc = hc.system === 'process';
  return (
    <section className={cx('hookcall', `tone-${hc.outcome}`)} aria-label="Hook call" data-testid="hookcall-detail">
      <header className="pane-head hc-head">
        <div className="title">
          <SystemBadge system={hc.system} /> <b>{hc.event}</b> · <span className="hc-hook">{hc.hook}</span>
        </div>
        <div className="sub">
          <OutcomeBadge outcome={hc.outcome} />
          <Duration ms={hc.duration_ms} />
          {hc.exit_code !== undefined && <span className={cx(hc.exit_code !== 0 && 'count-err')}>exit {hc.exit_code}</span>}
          {hc.reused && <span className="reused" title="result reused from the previous run: same input, same files">reused</span>}
          {hc.notify && <span className="muted">notification (nothing awaited)</span>}
          {hc.source && <span className="muted">{hc.source}</span>}
          <span className="muted">point {hc.point}</span>
        </div>
      </header>
      <div className="hc-body">
        {hc.error && <div className="hc-line hc-error" role="alert">✖ {hc.error}</div>}
        {hc.rpc_error && <div className="hc-line hc-error">JSON-RPC error: {hc.rpc_error}</div>}
        {hc.warnings?.map((w, i) => <div key={i} className="hc-line hc-warning">⚠ {w}</div>)}
        {hc.notice && <div className="hc-line hc-notice">system_message: {hc.notice}</div>}
        {hc.changes && hc.changes.length > 0 && <ul className="hc-changes">{hc.changes.map((c, i) => <li key={i}>{c}</li>)}</ul>}
        <div className="hc-io">
          <Block title={rpc ? 'Request (JSON-RPC)' : 'Input (stdin)'} text={input || '(nothing)'} testid="hookcall-input" />
          <Block title={rpc ? 'Answer' : hc.output !== undefined ? 'Output (stdout)' : 'Output (stdout, not JSON)'} text={output || '(nothing)'} testid="hookcall-output" />
        </div>
        {hc.truncated && <div className="hc-line hc-warning">⚠ output was capped</div>}
        {hc.stderr && <Block title="stderr" text={hc.stderr} testid="hookcall-stderr" tone="err" />}
        <Effect view={view} step={step} />
      </div>
    </section>
  );
}
