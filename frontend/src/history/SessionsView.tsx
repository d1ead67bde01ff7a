// History ▸ Open sessions: the agents' sessions on this machine (Claude Code, Codex, Gemini CLI,
// Qwen Code, Copilot CLI), newest first and searched. Import reads one into the history with its progress
// and opens the run read-only; Follow keeps importing a session whose agent still runs, and the
// run grows with it. The folders they are listed from can be changed (remembered).
import { useCallback, useEffect, useState } from 'react';
import {
  followedSessions, followSession, importSession, listSessions, onSessionProgress, onSessionUpdate, SESSION_AGENTS, sessionLocations, setSessionLocations, unfollowSession,
  type Imported, type SubagentSummary, type SessionAgent, type SessionLocations, type SessionProgress, type SessionSummary,
} from '../lib/api/sessions';
import { VirtualList } from '../components/VirtualList';
import { fmtDate } from './format';

interface Props {
  onBack: () => void;
  /** open the run a session was kept as */
  onOpenRun: (id: number) => void;
}

const COLS = '132px 130px minmax(90px, 1fr) minmax(120px, 1.4fr) 42px 42px 120px minmax(90px, 1fr) 64px 206px';

export function fmtSize(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KB`;
  return `${n} B`;
}

const base = (p: string) => p.split('/').filter(Boolean).pop() ?? p;

/** What an import said, kept beside its row. */
interface Done { run: number; exact: number; calls: number; notes: string[] }

function done(i: Imported): Done {
  const notes = [...i.session.notes.map((n) => (n.line ? `line ${n.line}: ${n.message}` : n.message)),
    ...i.session.unknown.map((u) => `${u.count} record${u.count === 1 ? '' : 's'} of type ${u.type} not shown (line ${u.lines.join(', ')})`)];
  return { run: i.run, exact: i.session.calls.filter((c) => c.exact).length, calls: i.session.calls.length, notes };
}

function SessionRow({ s, progress, result, following, busy, onImport, onFollow, onOpen }: {
  s: SessionSummary; progress?: SessionProgress; result?: Done; following: boolean; busy: boolean;
  onImport: (s: SessionSummary) => void; onFollow: (s: SessionSummary) => void; onOpen: (id: number) => void;
}) {
  const hooks = s.hooks.map((h) => `${h.label}×${h.count}`).join(' ');
  return (
    <div className={`run-row session-row${following ? ' is-following' : ''}${s.subagents?.length ? ' has-subagents' : ''}`} style={{ gridTemplateColumns: COLS }} role="row" data-testid={`session-${s.id}`}>
      <span role="cell" className="when" title={`${s.started} → ${s.ended}`}>{fmtDate(s.started)}</span>
      <span role="cell"><span className={`src src-${s.agent}`}>{s.agent}{s.version ? ` ${s.version}` : ''}</span></span>
      <span role="cell" className="scn" title={s.project}>{base(s.project)}</span>
      <span role="cell" className="muted" title={s.prompt}>{s.prompt}</span>
      <span role="cell" className="num" title="prompts the user sent">{s.turns}</span>
      <span role="cell" className="num" title="model calls">{s.calls}</span>
      <span role="cell" className="muted" title={s.model}>{s.model}</span>
      <span role="cell" className="muted small" title={hooks}>{hooks || '—'}</span>
      <span role="cell" className="num">{fmtSize(s.size)}</span>
      <span role="cell" className="session-actions">
        {progress && progress.read < progress.total ? (
          <progress value={progress.read} max={progress.total || 1} aria-label={`Importing ${base(s.file)}`} data-testid="session-progress" />
        ) : result ? (
          <button type="button" className="linkbtn" onClick={() => onOpen(result.run)} data-testid="session-open"
            title={`${result.calls} model calls: ${result.exact} exact, ${result.calls - result.exact} rebuilt${result.notes.length ? `\n${result.notes.join('\n')}` : ''}`}>
            Open #{result.run}{result.notes.length > 0 ? ` · ${result.notes.length} note${result.notes.length === 1 ? '' : 's'}` : ''}
          </button>
        ) : null}
        <button type="button" className="btn" disabled={busy} onClick={() => onImport(s)} data-testid="session-import"
          title="Read the session into the history (the file is not changed)">{result ? 'Import again' : 'Import'}</button>
        <button type="button" className={`btn${following ? ' primary' : ''}`} aria-pressed={following} onClick={() => onFollow(s)} data-testid="session-follow"
          title="Keep importing what the agent writes while it runs">{following ? 'Following' : 'Follow'}</button>
      </span>
      {(s.subagents ?? []).length > 0 && <SubagentRows subs={s.subagents!} depth={1} />}
    </div>
  );
}

/** The sub-agents a session ran, nested under it: kind, task, calls, hooks. */
function SubagentRows({ subs, depth }: { subs: SubagentSummary[]; depth: number }) {
  return (
    <div className="session-subagents" role="rowgroup" aria-label="Sub-agents" style={{ gridColumn: '1 / -1' }}>
      {subs.map((a) => {
        const hooks = a.hooks.map((h) => `${h.label}×${h.count}`).join(' ');
        return (
          <div key={a.id} className="session-subagent" role="row" data-testid="session-subagent" style={{ paddingLeft: depth * 18 }}>
            <span role="cell" className="muted">↳ sub-agent</span>
            <span role="cell" className="src">{a.type || 'sub-agent'}</span>
            <span role="cell" title={a.description}>{a.description}</span>
            <span role="cell" className="num" title="model calls">{a.calls} call{a.calls === 1 ? '' : 's'}</span>
            <span role="cell" className="muted small" title={hooks}>{hooks || '—'}</span>
            <span role="cell" className="muted small mono" title={a.file}>{a.id}</span>
          </div>
        );
      })}
    </div>
  );
}

export function SessionsView({ onBack, onOpenRun }: Props) {
  const [search, setSearch] = useState('');
  const [agent, setAgent] = useState<SessionAgent | ''>('');
  const [list, setList] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Record<string, SessionProgress>>({});
  const [results, setResults] = useState<Record<string, Done>>({});
  const [busy, setBusy] = useState<Set<string>>(new Set());
  const [following, setFollowing] = useState<string[]>([]);
  const [locs, setLocs] = useState<SessionLocations | null>(null);
  const [editLocs, setEditLocs] = useState<SessionLocations | null>(null);
  const [tick, setTick] = useState(0);

  const fail = useCallback((e: unknown) => setError(String(e)), []);

  useEffect(() => {
    let alive = true;
    listSessions({ search, agent }).then((l) => { if (alive) { setList(l); setError(null); } }, (e: unknown) => { if (alive) fail(e); });
    return () => { alive = false; };
  }, [search, agent, tick, locs, fail]);
  useEffect(() => { sessionLocations().then(setLocs, fail); followedSessions().then(setFollowing, fail); }, [fail]);
  useEffect(() => onSessionProgress((p) => setProgress((m) => ({ ...m, [p.file]: p }))), []);
  useEffect(() => onSessionUpdate((u) => {
    if (u.error) setError(`${base(u.file)}: ${u.error}`);
    if (!u.following) setFollowing((f) => f.filter((x) => x !== u.file));
    if (u.run && u.session) {
      const s = u.session;
      setResults((r) => ({ ...r, [u.file]: done({ run: u.run, session: s }) }));
      setTick((t) => t + 1); // its size, calls and hooks grew
    }
  }), []);

  const importOne = (s: SessionSummary) => {
    setBusy((b) => new Set(b).add(s.file));
    setProgress((m) => ({ ...m, [s.file]: { file: s.file, read: 0, total: s.size } }));
    importSession(s.file)
      .then((i) => setResults((r) => ({ ...r, [s.file]: done(i) })), fail)
      .finally(() => {
        setBusy((b) => { const n = new Set(b); n.delete(s.file); return n; });
        // done: no bar, whatever progress event comes last (they may cross the import's answer)
        setProgress((m) => { const n = { ...m }; delete n[s.file]; return n; });
      });
  };
  const followOne = (s: SessionSummary) => {
    (following.includes(s.file) ? unfollowSession(s.file) : followSession(s.file)).then(setFollowing, fail);
  };
  const saveLocs = () => {
    if (!editLocs) return;
    setSessionLocations(editLocs).then((l) => { setLocs(l); setEditLocs(null); }, fail);
  };

  return (
    <div className="history sessions" data-testid="sessions-view">
      {error && <div className="banner banner-err" role="alert">{error} <button type="button" className="linkbtn" onClick={() => setError(null)}>dismiss</button></div>}
      <form className="hist-filters" onSubmit={(e) => e.preventDefault()} aria-label="Sessions">
        <button type="button" className="btn" onClick={onBack}>← Runs</button>
        <b>Open sessions</b>
        <label>Search <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="project, prompt, model, hook…" aria-label="Search sessions" data-testid="sessions-search" /></label>
        <label>Agent
          <select value={agent} onChange={(e) => setAgent(e.target.value as SessionAgent | '')} aria-label="Agent filter">
            <option value="">all</option>
            {SESSION_AGENTS.map((a) => <option key={a.id} value={a.id}>{a.name}</option>)}
          </select>
        </label>
        <button type="button" className="linkbtn" onClick={() => setTick((t) => t + 1)}>refresh</button>
        <span className="spacer" />
        <span className="muted small">{list ? `${list.length} sessions` : 'reading…'}</span>
        <button type="button" className="linkbtn" onClick={() => setEditLocs(locs)} title={locs ? SESSION_AGENTS.map((a) => locs[a.folder]).join('\n') : ''}>folders…</button>
      </form>
      {editLocs && (
        <form className="hist-filters session-folders" onSubmit={(e) => { e.preventDefault(); saveLocs(); }} aria-label="Session folders">
          {SESSION_AGENTS.map((a) => (
            <label key={a.id}>{a.name} <input className="input mono" value={editLocs[a.folder]} onChange={(e) => setEditLocs({ ...editLocs, [a.folder]: e.target.value })}
              aria-label={a.label} spellCheck={false} /></label>
          ))}
          <button type="submit" className="btn primary">Save</button>
          <button type="button" className="btn" onClick={() => setEditLocs(null)}>Cancel</button>
          <span className="muted small">empty: the agent's own ({SESSION_AGENTS.map((a) => a.where).join(', ')})</span>
        </form>
      )}
      <div className="run-head" role="row" style={{ gridTemplateColumns: COLS }}>
        <span>started</span><span>agent</span><span>project</span><span>first prompt</span><span className="num">turns</span><span className="num">calls</span>
        <span>model</span><span>hooks that fired</span><span className="num">size</span><span />
      </div>
      {list === null ? <div className="empty-state">Reading the sessions…</div> : list.length === 0 ? (
        <div className="empty-state big" data-testid="sessions-empty">
          {search || agent ? <><h2>No session matches</h2><p>Clear the search or the agent filter.</p></> : (
            <><h2>No sessions found</h2><p>{SESSION_AGENTS.map((a, i) => <span key={a.id}>{i > 0 && (i === SESSION_AGENTS.length - 1 ? ' and ' : ', ')}{a.name} keeps its sessions in <code>{locs?.[a.folder]}</code></span>)}; run one, or point <b>folders…</b> elsewhere. <code>hookctl sessions list</code> shows the same.</p></>
          )}
        </div>
      ) : (
        <VirtualList
          className="run-list" role="table" aria-label="Sessions" count={list.length} estimate={() => 30}
          getKey={(i) => list[i]!.file} resetKey={list}
          render={(i) => {
            const s = list[i]!;
            return <SessionRow s={s} progress={progress[s.file]} result={results[s.file]} following={following.includes(s.file)} busy={busy.has(s.file)}
              onImport={importOne} onFollow={followOne} onOpen={onOpenRun} />;
          }}
        />
      )}
    </div>
  );
}
