// The run history: every stored run (filtered by scenario, skill, date range, source), charts
// of the focused run and of its scenario/hooks over time, two runs compared call by call, and
// one run opened read-only in the simulator's components.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { StudioState, TraceView } from '../lib/api';
import { hookCost, listRuns, onRunRecorded, openRun, promptSizes, type HookPoint, type PromptPoint, type RunFilter, type RunSource, type RunSummary } from '../lib/api/history';
import { VirtualList } from '../components/VirtualList';
import { CompareView } from './CompareView';
import { SessionsView } from './SessionsView';
import { SearchView } from './SearchView';
import { importSession, onSessionProgress, type SessionProgress } from '../lib/api/sessions';
import type { SearchHit } from '../lib/api/search';
import { useApp } from '../app/context';
import { useStore } from '../lib/store';
import { ReadOnlyRun } from './ReadOnlyRun';
import { HookCostChart, PromptSizeChart, TokensPerCallChart } from './charts';
import { RunRequests } from '../requests/RunRequests';
import { RenderAs } from '../agents/RenderAs';
import { RenderUnder } from '../convert/RenderUnder';
import { versionOf } from '../lib/api/agents';
import { dayEnd, dayStart, fmtDate, fmtMs } from './format';
import './history.css';

export interface Filters { scenario: string; skill: string; from: string; to: string; source: RunSource | '' }
export const noFilters: Filters = { scenario: '', skill: '', from: '', to: '', source: '' };
export const RUN_LIMIT = 2000;

/** The backend filter for the form's values (dates are local days; "to" includes its day). */
export function toRunFilter(f: Filters): RunFilter {
  const out: RunFilter = { limit: RUN_LIMIT };
  if (f.scenario) out.scenario = f.scenario;
  if (f.skill) out.skill = f.skill;
  if (f.source) out.source = f.source;
  const since = dayStart(f.from), until = dayEnd(f.to);
  if (since) out.since = since;
  if (until) out.until = until;
  return out;
}

/** where a stored run opens: a step, and a message there to show (a search's hit) */
export interface RunAt { step: number; message: number | null }
type Page = { kind: 'list' } | { kind: 'compare'; a: number; b: number } | { kind: 'run'; run: RunSummary; view: TraceView; at?: RunAt } | { kind: 'sessions' };

/** Where a hit opens: a message or an answer at the call that received or gave it (its list shown
 *  there), a hook run at its own step; the message to show, if it has one. */
export function hitAt(view: TraceView, h: SearchHit): RunAt {
  const call = h.kind !== 'hook' && h.call >= 0 ? view.calls[h.call] : undefined;
  const step = Math.min(Math.max(call ? call.step : h.step, 0), Math.max(view.steps.length - 1, 0));
  return { step, message: h.message >= 0 && h.message < view.messages.length ? h.message : null };
}

interface Props {
  studio: StudioState | null;
  color: (skill?: string) => string;
  onLive: () => void;
}

const COLS = '22px 40px 132px minmax(80px, 1fr) 58px 44px 58px 38px 100px 80px 54px 36px';

function RunRow({ r, selected, focused, onSelect, onFocus, onOpen }: {
  r: RunSummary; selected: boolean; focused: boolean; onSelect: (id: number) => void; onFocus: (r: RunSummary) => void; onOpen: (r: RunSummary) => void;
}) {
  return (
    <div
      className={`run-row${selected ? ' is-selected' : ''}${focused ? ' is-focused' : ''}`} style={{ gridTemplateColumns: COLS }}
      data-testid={`run-${r.id}`} role="row" aria-selected={selected} onClick={() => onFocus(r)} onDoubleClick={() => onOpen(r)}
    >
      <span role="cell"><input type="checkbox" aria-label={`Select run ${r.id}`} checked={selected} onClick={(e) => e.stopPropagation()} onChange={() => onSelect(r.id)} /></span>
      <span role="cell" className="mono muted">#{r.id}</span>
      <span role="cell" className="when" title={r.started}>{fmtDate(r.started)}</span>
      <span role="cell" className="scn" title={`${r.scenario} — ${r.scenario_file}${r.agent ? ` — rendered as ${r.agent}` : ''}`}>
        {r.scenario}{r.agent && <span className="badge run-agent">{versionOf(r.agent)}</span>}
      </span>
      <span role="cell" className="muted">{r.backend}</span>
      <span role="cell"><span className={`src src-${r.source}`}>{r.source}</span></span>
      <span role="cell"><span className={`run-status rs-${r.status}`} title={r.error}>{r.status}</span></span>
      <span role="cell" className="num">{r.llm_calls}</span>
      <span role="cell" className="num">{r.tokens_in.toLocaleString()} / {r.tokens_out.toLocaleString()}</span>
      <span role="cell" className="num">{r.max_prompt_tokens.toLocaleString()}</span>
      <span role="cell" className="num">{fmtMs(r.wall_ms)}</span>
      <span role="cell"><button type="button" className="linkbtn" onClick={(e) => { e.stopPropagation(); onOpen(r); }}>Open</button></span>
    </div>
  );
}

export function HistoryView({ studio, color, onLive }: Props) {
  const { search } = useApp();
  const searching = useStore(search).visible;
  const [importing, setImporting] = useState<SessionProgress | null>(null);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [focus, setFocus] = useState<RunSummary | null>(null);
  const [focusView, setFocusView] = useState<TraceView | null>(null);
  const [hook, setHook] = useState('');
  const [hookPts, setHookPts] = useState<HookPoint[]>([]);
  const [promptPts, setPromptPts] = useState<PromptPoint[]>([]);
  const [page, setPage] = useState<Page>({ kind: 'list' });
  const [tick, setTick] = useState(0); // bumped by history:run
  const [stored, setStored] = useState<number | null>(null); // the run history:run named last

  const fail = useCallback((e: unknown) => setError(String(e)), []);

  useEffect(() => onRunRecorded((id) => { setTick((t) => t + 1); setStored(id); }), []);
  // a run open read-only that is stored again (a followed session grew): shown as it is now
  const openId = page.kind === 'run' ? page.run.id : null;
  useEffect(() => {
    if (openId === null || stored !== openId) return;
    let alive = true;
    Promise.all([openRun(openId), listRuns({ source: 'session', limit: RUN_LIMIT })]).then(([view, rs]) => {
      const run = rs.find((r) => r.id === openId);
      // at the same place: a hit's run, imported to open it, is stored again as it opens
      if (alive && run) setPage((p) => (p.kind === 'run' && p.run.id === openId ? { kind: 'run', run, view, at: p.at } : p));
    }).catch(fail);
    return () => { alive = false; };
  }, [openId, stored, tick, fail]);

  useEffect(() => {
    let alive = true;
    listRuns(toRunFilter(filters)).then((r) => { if (alive) { setRuns(r); setError(null); } }).catch((e: unknown) => { if (alive) fail(e); });
    return () => { alive = false; };
  }, [filters, tick, fail]);

  // the focused run (charts): the clicked one, else the newest listed
  const focused = focus && runs?.some((r) => r.id === focus.id) ? focus : runs?.[0] ?? null;
  const focusId = focused?.id ?? null;
  useEffect(() => {
    if (focusId === null) { setFocusView(null); return; }
    let alive = true;
    openRun(focusId).then((v) => { if (alive) setFocusView(v); }).catch((e: unknown) => { if (alive) { setFocusView(null); fail(e); } });
    return () => { alive = false; };
  }, [focusId, fail]);

  const scenario = filters.scenario || focused?.scenario || '';
  useEffect(() => {
    if (!scenario) { setPromptPts([]); return; }
    let alive = true;
    promptSizes(scenario, 100).then((p) => { if (alive) setPromptPts(p); }).catch(fail);
    return () => { alive = false; };
  }, [scenario, tick, fail]);

  // hooks to chart: the focused run's, by tokens; the most expensive by default
  const hookChoices = useMemo(() => {
    if (!focusView) return [];
    return focusView.matrix.hooks.map((h, i) => ({ h, t: focusView.matrix.totals[i] ?? 0 })).sort((a, b) => b.t - a.t).map((x) => x.h);
  }, [focusView]);
  const chartHook = hook && (hookChoices.includes(hook) || hookChoices.length === 0) ? hook : hookChoices[0] ?? '';
  useEffect(() => {
    if (!chartHook) { setHookPts([]); return; }
    let alive = true;
    hookCost(chartHook, 100).then((p) => { if (alive) setHookPts(p); }).catch(fail);
    return () => { alive = false; };
  }, [chartHook, tick, fail]);

  const toggleSelect = useCallback((id: number) => {
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id].slice(-2)));
  }, []);
  const open = useCallback((r: RunSummary) => {
    openRun(r.id).then((view) => setPage({ kind: 'run', run: r, view })).catch(fail);
  }, [fail]);
  const compare = () => {
    if (selected.length !== 2 || !runs) return;
    // A is the older run, B the newer: deltas read as "what my change did"
    const [x, y] = selected.map((id) => runs.find((r) => r.id === id)).filter((r): r is RunSummary => !!r).sort((p, q) => p.started.localeCompare(q.started) || p.id - q.id);
    setPage({ kind: 'compare', a: x?.id ?? selected[0]!, b: y?.id ?? selected[1]! });
  };
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setFilters((f) => ({ ...f, [k]: v }));
  const toList = useCallback(() => setPage({ kind: 'list' }), []);
  // a hit: its run (a session not imported yet is imported first), at the hit's call and message
  useEffect(() => onSessionProgress((p) => setImporting((i) => (i && i.file === p.file ? p : i))), []);
  const openHit = useCallback((h: SearchHit) => {
    const runOf = h.run ? Promise.resolve(h.run) : (setImporting({ file: h.file, read: 0, total: 1 }), importSession(h.file).then((i) => i.run).finally(() => setImporting(null)));
    runOf.then((id) => {
      // the run's summary: among the runs started at the same moment, else the newest
      const started = Date.parse(h.started);
      const source: RunSource = h.source === 'disk' ? 'session' : h.source;
      const near: RunFilter = h.started && !Number.isNaN(started)
        ? { source, since: new Date(started).toISOString(), until: new Date(started + 1).toISOString(), limit: 50 }
        : { source, limit: RUN_LIMIT };
      return Promise.all([openRun(id), listRuns(near).then((rs) => (rs.some((r) => r.id === id) ? rs : listRuns({ limit: RUN_LIMIT })))]).then(([view, rs]) => {
        const run = rs.find((r) => r.id === id);
        if (!run) throw `run #${id} is not in the history`;
        setPage({ kind: 'run', run, view, at: hitAt(view, h) });
      });
    }).catch(fail);
  }, [fail]);

  const openSessionRun = useCallback((id: number) => {
    listRuns({ source: 'session', limit: RUN_LIMIT }).then((rs) => {
      const r = rs.find((x) => x.id === id);
      if (!r) throw `run #${id} is not in the history`;
      open(r);
    }).catch(fail);
  }, [open, fail]);

  const scenarioNames = useMemo(() => [...new Set([...(studio?.scenarios.map((s) => s.name) ?? []), ...(runs?.map((r) => r.scenario) ?? []), filters.scenario].filter(Boolean))].sort(), [studio, runs, filters.scenario]);
  const skillNames = useMemo(() => [...new Set([...(studio?.skills.map((s) => s.name) ?? []), filters.skill].filter(Boolean))].sort(), [studio, filters.skill]);
  const filtering = Object.values(filters).some(Boolean);

  if (page.kind === 'run') return <ReadOnlyRun run={page.run} view={page.view} at={page.at} backTo={searching ? 'Search' : 'Runs'} color={color} onBack={toList} onLive={onLive} />;
  if (page.kind === 'sessions') return <SessionsView onBack={toList} onOpenRun={openSessionRun} />;
  if (searching && page.kind === 'list') {
    return (
      <>
        {error && <div className="banner banner-err" role="alert">{error} <button type="button" className="linkbtn" onClick={() => setError(null)}>dismiss</button></div>}
        <SearchView store={search} onBack={search.close} onOpen={openHit} importing={importing} />
      </>
    );
  }

  return (
    <div className="history" data-testid="history-view">
      {error && <div className="banner banner-err" role="alert">{error} <button type="button" className="linkbtn" onClick={() => setError(null)}>dismiss</button></div>}
      {page.kind === 'compare' ? (
        <CompareView a={page.a} b={page.b} onBack={toList} onOpen={open} />
      ) : (
        <div className="hist-grid">
          <section className="hist-runs" aria-label="Runs">
            <form className="hist-filters" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
              <label>Scenario
                <select value={filters.scenario} onChange={(e) => set('scenario', e.target.value)} aria-label="Scenario filter">
                  <option value="">all</option>
                  {scenarioNames.map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              </label>
              <label>Skill
                <select value={filters.skill} onChange={(e) => set('skill', e.target.value)} aria-label="Skill filter">
                  <option value="">all</option>
                  {skillNames.map((n) => <option key={n} value={n}>{n}</option>)}
                </select>
              </label>
              <label>From <input type="date" value={filters.from} onChange={(e) => set('from', e.target.value)} aria-label="From date" /></label>
              <label>To <input type="date" value={filters.to} onChange={(e) => set('to', e.target.value)} aria-label="To date" /></label>
              <label>Source
                <select value={filters.source} onChange={(e) => set('source', e.target.value as Filters['source'])} aria-label="Source filter">
                  <option value="">all</option>
                  <option value="live">live</option>
                  <option value="app">app</option>
                  <option value="cli">cli</option>
                  <option value="capture">capture</option>
                  <option value="session">session</option>
                </select>
              </label>
              <button type="button" className="btn" onClick={search.open} data-testid="open-search" title="Search every run and session (Ctrl+K)">Search…</button>
              <button type="button" className="btn" onClick={() => setPage({ kind: 'sessions' })} data-testid="open-sessions"
                title="The Claude Code and Codex sessions on this machine: import one, or follow one still running">Open sessions…</button>
              {filtering && <button type="button" className="linkbtn" onClick={() => setFilters(noFilters)}>clear</button>}
              <span className="spacer" />
              <span className="muted small">{runs ? `${runs.length}${runs.length >= RUN_LIMIT ? '+' : ''} runs` : 'loading…'}</span>
              <button type="button" className="btn primary" disabled={selected.length !== 2} onClick={compare} data-testid="compare-btn" title="Select two runs with their check boxes">
                Compare {selected.length === 2 ? `#${Math.min(...selected)} ↔ #${Math.max(...selected)}` : `(${selected.length}/2)`}
              </button>
            </form>
            <div className="run-head" role="row" style={{ gridTemplateColumns: COLS }}>
              <span /><span>run</span><span>when</span><span>scenario</span><span>backend</span><span>source</span><span>status</span>
              <span className="num" title="LLM calls">calls</span><span className="num">tokens in / out</span><span className="num" title="the largest call's prompt tokens">max prompt</span><span className="num" title="wall time">wall</span><span />
            </div>
            {runs === null ? <div className="empty-state">Loading runs…</div> : runs.length === 0 ? (
              <div className="empty-state big" data-testid="history-empty">
                {filtering ? (
                  <><h2>No runs match these filters</h2><p>Widen the date range or clear the filters.</p></>
                ) : (
                  <><h2>No runs recorded yet</h2><p>Every simulation you see is recorded here: opening a scenario, toggling a skill, and each save of a hook or scenario. <code>hookctl simulate</code> records its runs too. Pick a scenario in the simulator (<kbd>Ctrl</kbd>+<kbd>H</kbd> switches back) and edit a hook to see the numbers move.</p></>
                )}
              </div>
            ) : (
              <VirtualList
                className="run-list" role="table" aria-label="Stored runs" count={runs.length} estimate={() => 30}
                getKey={(i) => runs[i]!.id} resetKey={runs}
                render={(i) => <RunRow r={runs[i]!} selected={selected.includes(runs[i]!.id)} focused={runs[i]!.id === focusId} onSelect={toggleSelect} onFocus={setFocus} onOpen={open} />}
              />
            )}
          </section>
          <section className="hist-charts" aria-label="Charts">
            <div className="charts-head">
              <span className="title">{focused ? <>Run #{focused.id} · {focused.scenario}</> : 'Charts'}</span>
              {focused && <button type="button" className="btn" onClick={() => open(focused)}>Open #{focused.id}</button>}
              {focused?.agent && studio?.scenarios.some((sc) => sc.file === focused.scenario_file) && (
                <>
                  <RenderAs run={focused} onRendered={(id) => setPage({ kind: 'compare', a: focused.id, b: id })} onError={fail} />
                  <RenderUnder run={focused} onRendered={(id) => setPage({ kind: 'compare', a: focused.id, b: id })} onError={fail} />
                </>
              )}
            </div>
            <TokensPerCallChart view={focused ? focusView : null} title={focused ? `Prompt tokens per LLM call — run #${focused.id}` : 'Prompt tokens per LLM call'} />
            {focused && <RunRequests runId={focused.id} />}
            <div className="chart-ctl">
              <label>Hook <select value={chartHook} onChange={(e) => setHook(e.target.value)} aria-label="Hook for the cost chart">
                {hookChoices.length === 0 && <option value="">—</option>}
                {hookChoices.map((h) => <option key={h} value={h}>{h}</option>)}
              </select></label>
            </div>
            <HookCostChart hook={chartHook} points={hookPts} />
            <PromptSizeChart scenario={scenario} points={promptPts} />
          </section>
        </div>
      )}
    </div>
  );
}
