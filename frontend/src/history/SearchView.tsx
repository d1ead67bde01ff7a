// History ▸ Search (Ctrl+K): words across every run of the history and every session on disk —
// what reached the model, the hooks' words, tool calls and results — with filters, each hit with
// its snippet, best first, a page at a time. Opening a hit shows its run at the call and message.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from '../lib/store';
import type { SessionProgress } from '../lib/api/sessions';
import type { HitKind, HitSource, SearchHit } from '../lib/api/search';
import { asks, type SearchForm, type SearchStore } from './searchStore';
import { fmtDate } from './format';

interface Props {
  store: SearchStore;
  onBack: () => void;
  onOpen: (hit: SearchHit) => void;
  /** a session not imported yet being imported to open a hit of it */
  importing: SessionProgress | null;
}

const KIND_LABEL: Record<HitKind, string> = { message: 'message', answer: "the model's answer", tool_call: 'tool call', hook: 'hook run' };
const SOURCES: HitSource[] = ['session', 'disk', 'capture', 'cli', 'app', 'live'];
const AGENTS = ['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'copilot-cli'];
const OUTCOMES = ['blocked', 'denied', 'error', 'timeout', 'stopped', 'asked', 'modified', 'ok', 'skipped'];
const EXAMPLES: { q: string; what: string }[] = [
  { q: 'outcome:blocked', what: 'where did a guard block something?' },
  { q: '"rm -rf" event:PreToolUse', what: 'what a PreToolUse hook saw or said about rm -rf' },
  { q: 'hook:guard kind:hook', what: "a hook's runs, by part of its command" },
  { q: 'config.go', what: 'which sessions read or wrote config.go' },
];

const base = (p: string) => p.split(/[\\/]/).filter(Boolean).pop() ?? p;

/** Where a hit is in its run: the call and message, and what it is. */
export function hitPlace(h: SearchHit): string {
  const parts: string[] = [];
  if (h.call >= 0) parts.push(`call #${h.call + 1}`);
  if (h.message >= 0) parts.push(`message ${h.message}`);
  parts.push(h.kind === 'message' ? (h.tool ? `${h.tool}'s result` : `${h.role} message`) : h.kind === 'tool_call' ? `tool call ${h.tool}` : KIND_LABEL[h.kind]);
  return parts.join(' · ');
}

function HitRow({ h, i, selected, onOpen, onSelect, importing }: {
  h: SearchHit; i: number; selected: boolean; onOpen: (h: SearchHit) => void; onSelect: (i: number) => void; importing: SessionProgress | null;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => { if (selected) ref.current?.scrollIntoView?.({ block: 'nearest' }); }, [selected]);
  const busy = importing && importing.file === h.file && h.run === 0;
  return (
    <li ref={ref} role="option" aria-selected={selected} className={`hit${selected ? ' is-selected' : ''}`} data-testid={`hit-${i}`}
      onClick={() => onOpen(h)} onMouseEnter={() => onSelect(i)}>
      <div className="hit-where">
        <span className={`src src-${h.source}`}>{h.run ? `#${h.run}` : 'not imported'}</span>
        {h.agent && <span className="badge">{h.agent}{h.version ? ` ${h.version}` : ''}</span>}
        {h.project && <span className="scn" title={h.project}>{base(h.project)}</span>}
        {h.started && !h.started.startsWith('0001-') && <span className="when">{fmtDate(h.started)}</span>}
        <span className="muted hit-title" title={h.title}>{h.title}</span>
        {busy && <progress value={importing.read} max={importing.total || 1} aria-label={`Importing ${base(h.file)}`} />}
      </div>
      <div className="hit-what small">
        <span>{hitPlace(h)}</span>
        {h.hook && (
          <span className="hit-hook" title={h.hook}>{h.event && <b>{h.event}</b>}{h.hook !== h.event && <> {h.hook.length > 48 ? `${h.hook.slice(0, 47)}…` : h.hook}</>}</span>
        )}
        {h.outcome && <span className={`run-status rs-${h.outcome === 'blocked' || h.outcome === 'denied' || h.outcome === 'error' ? 'error' : 'ok'}`}>{h.outcome}</span>}
        {h.count > 1 && <span className="muted" title="the same words again in this run">×{h.count}</span>}
      </div>
      <div className="hit-snippet mono small">
        {h.snippet.map((s, k) => (s.hit ? <mark key={k}>{s.text}</mark> : <span key={k}>{s.text}</span>))}
      </div>
    </li>
  );
}

export function SearchView({ store, onBack, onOpen, importing }: Props) {
  const st = useStore(store);
  const { form, hits, total, capped, loading, error, status, selected } = st;
  // a text area of one line that grows: a file's lines pasted in keep their breaks (a phrase each)
  const input = useRef<HTMLTextAreaElement>(null);
  // the words go to the search as typing pauses; the filters at once
  const [text, setText] = useState(form.text);
  useEffect(() => {
    if (text === store.get().form.text) return;
    const t = setTimeout(() => store.setForm({ text }), 250);
    return () => clearTimeout(t);
  }, [text, store]);
  useEffect(() => { input.current?.focus(); input.current?.select(); }, [st.focus]);
  useEffect(() => { store.refreshStatus(); }, [store]);

  const set = <K extends keyof SearchForm>(k: K, v: SearchForm[K]) => store.setForm({ [k]: v } as Partial<SearchForm>);
  const filtering = Object.entries(form).some(([k, v]) => k !== 'text' && v !== '');
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'ArrowDown') { e.preventDefault(); store.select(selected + 1); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); store.select(selected - 1); }
    else if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      if (text !== form.text) store.setForm({ text });
      else if (hits && hits[selected]) onOpen(hits[selected]);
    }
  };

  const indexing = status?.running ? `indexing ${Math.min(status.done + 1, status.total)} of ${status.total}: what is not indexed yet is not found` : '';
  const count = hits ? `${total.toLocaleString()}${capped ? '+' : ''} hit${total === 1 ? '' : 's'}` : '';

  return (
    <div className="history search" data-testid="search-view">
      {error && <div className="banner banner-err" role="alert" data-testid="search-error">{error}</div>}
      <form className="hist-filters search-bar" onSubmit={(e) => { e.preventDefault(); store.setForm({ text }); }} aria-label="Search">
        <button type="button" className="btn" onClick={onBack}>← Runs</button>
        <textarea ref={input} className="input search-input" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKey}
          rows={Math.min(6, text.split('\n').length)}
          placeholder={'words, "a phrase", outcome:blocked, hook:guard…'}
          aria-label="Search every run and session" data-testid="search-input" spellCheck={false} />
        <label>Agent
          <select value={form.agent} onChange={(e) => set('agent', e.target.value)} aria-label="Agent">
            <option value="">all</option>
            {AGENTS.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </label>
        <label>Kind
          <select value={form.kind} onChange={(e) => set('kind', e.target.value as SearchForm['kind'])} aria-label="Kind">
            <option value="">all</option>
            {(Object.keys(KIND_LABEL) as HitKind[]).map((k) => <option key={k} value={k}>{KIND_LABEL[k]}</option>)}
          </select>
        </label>
        <label>Outcome
          <select value={form.outcome} onChange={(e) => set('outcome', e.target.value)} aria-label="Outcome">
            <option value="">any</option>
            {OUTCOMES.map((o) => <option key={o} value={o}>{o}</option>)}
          </select>
        </label>
        <label>Event <input className="input narrow" value={form.event} onChange={(e) => set('event', e.target.value)} placeholder="PreToolUse" aria-label="Event" /></label>
        <label>Hook <input className="input narrow" value={form.hook} onChange={(e) => set('hook', e.target.value)} placeholder="guard" aria-label="Hook" /></label>
        <label>Project <input className="input" value={form.project} onChange={(e) => set('project', e.target.value)} placeholder="/home/me/project" aria-label="Project" /></label>
        <label>From <input type="date" value={form.since} onChange={(e) => set('since', e.target.value)} aria-label="From date" /></label>
        <label>To <input type="date" value={form.until} onChange={(e) => set('until', e.target.value)} aria-label="To date" /></label>
        <label>Source
          <select value={form.source} onChange={(e) => set('source', e.target.value as SearchForm['source'])} aria-label="Source">
            <option value="">all</option>
            {SOURCES.map((s) => <option key={s} value={s}>{s === 'disk' ? 'not imported' : s}</option>)}
          </select>
        </label>
        {filtering && <button type="button" className="linkbtn" onClick={store.clearFilters}>clear filters</button>}
      </form>
      <div className="search-status muted small" role="status" data-testid="search-status">
        {[
          loading ? <span key="n">searching…</span> : count && <span key="n">{count}{capped && ' — more places than that: the best of the newest are shown'}</span>,
          indexing ? <span key="i" className="search-indexing">{indexing}</span> : status && status.indexed > 0 && <span key="i">{status.indexed.toLocaleString()} runs and sessions indexed</span>,
          status?.error && <span key="e" className="warn" title={status.error}>indexing: {status.error}</span>,
          hits && hits.length > 0 && <span key="k">↑↓ and Enter open a hit</span>,
        ].filter(Boolean).flatMap((x, i) => (i === 0 ? [x] : [<span key={`s${i}`}> · </span>, x]))}
      </div>
      {!asks(form) ? (
        <div className="empty-state big search-help" data-testid="search-empty">
          <h2>Search every run and session</h2>
          <p>What reached the model, the hooks' words, tool calls and their results — in the runs of the history and the Claude Code and Codex sessions on this machine, imported or not.</p>
          <ul className="search-examples">
            {EXAMPLES.map((x) => (
              <li key={x.q}><button type="button" className="linkbtn mono" onClick={() => { setText(x.q); store.setForm({ text: x.q }); }}>{x.q}</button> <span className="muted">{x.what}</span></li>
            ))}
          </ul>
          <p className="muted small">All the words must be there; <code>"a phrase"</code> in order; <code>word*</code> a start; <code>a OR b</code>; <code>NOT word</code>;
            filters as <code>agent: project: hook: event: outcome: kind: source: since: until:</code>. Pasted lines are a phrase each.</p>
        </div>
      ) : hits && hits.length === 0 && !error ? (
        <div className="empty-state big" data-testid="search-none">
          <h2>Nothing found</h2>
          <p>{filtering ? <>No hit passes the filters: <button type="button" className="linkbtn" onClick={store.clearFilters}>clear them</button>, or try other words.</> : 'Try other words, or fewer.'}</p>
          {status?.running && <p className="muted">The index is being built ({status.done} of {status.total}); this search runs again when it is done.</p>}
        </div>
      ) : hits ? (
        <>
          <ul className="hits" role="listbox" aria-label="Hits">
            {hits.map((h, i) => <HitRow key={`${h.key}:${h.call}:${h.message}:${h.step}:${h.kind}:${i}`} h={h} i={i} selected={i === selected} onOpen={onOpen} onSelect={store.select} importing={importing} />)}
          </ul>
          {hits.length < total && (
            <button type="button" className="btn more-hits" disabled={loading} onClick={() => void store.more()} data-testid="search-more">
              More hits ({hits.length.toLocaleString()} of {total.toLocaleString()}{capped ? '+' : ''})
            </button>
          )}
        </>
      ) : null}
    </div>
  );
}
