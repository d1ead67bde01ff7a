import { lazy, Suspense, useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import * as api from './lib/api';
import type { HookInfo, Step, StudioState } from './lib/api';
import { breakpointForStep, hasCursor, hasView, initialState, reducer, type Breakpoint } from './debugger/machine';
import { TopBar, type Theme } from './components/TopBar';
import { SkillsPanel, DiagnosticList } from './components/SkillsPanel';
import { FlowView } from './components/FlowView';
import { StepList, RequestTabs } from './components/StepList';
import { MessageList } from './components/MessageList';
import { BottomPanel } from './components/BottomPanel';
import { CallExpectations, addAndReport } from './expect/CallExpectations';
import { canAddExpectation } from './lib/api/expect';
import { HelpOverlay } from './components/HelpOverlay';
import { skillColors } from './components/util';
import { ErrorIcon } from './components/Icons';
import { EditorStore, isDirty } from './editor/store';
import { useEditorSnapshot } from './editor/useEditorSnapshot';

// CodeMirror is loaded with the editor, not with the simulator
const EditorPanel = lazy(() => import('./editor/EditorPanel').then((m) => ({ default: m.EditorPanel })));
import { useEditorKeys } from './editor/useEditorKeys';
import { cx } from './components/util';
import { RunPanel } from './run/RunPanel';
import { HistoryView } from './history/HistoryView';
import { ViewToggle, isHistoryKey, type AppView } from './history/ViewToggle';
import { TrustBanner } from './exec/TrustBanner';
import { SimProgress } from './exec/SimProgress';
import { NoticeToasts } from './exec/NoticeToasts';
import { HookCallDetail } from './exec/HookCallDetail';
import { HookCallsPanel } from './exec/HookCallsPanel';
import { hookCallsOf, isFailure } from './exec/hookcalls';
import { OpsDock } from './approval/OpsDock';
import { HostBehaviourPick } from './exec/HostBehaviourPick';
import { CapturePanel } from './capture/CapturePanel';
import { requestTabs } from './requests/tab';
import { useLayout, useSize } from './layout/useLayout';
import { Splitter } from './layout/Splitter';
import { bottomRange, fitHeights, fitWidths, flowRange, leftRange, messagesRange, toFraction } from './layout/panes';

function readTheme(): Theme {
  try {
    const t = localStorage.getItem('hookstudio.theme');
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch { return 'system'; }
}

type StateUpdate = StudioState | ((s: StudioState | null) => StudioState | null);
// answers and events both carry snapshots: the newest wins whichever arrives last
function takeState(prev: StudioState | null, next: StateUpdate): StudioState | null {
  return typeof next === 'function' ? next(prev) : api.newer(prev, next);
}

export function App() {
  const [studio, setStudio] = useReducer(takeState, null);
  const [dbg, dispatch] = useReducer(reducer, initialState);
  const [help, setHelp] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [theme, setTheme] = useState<Theme>(readTheme);
  const [runOpen, setRunOpen] = useState(false);
  const [mode, setMode] = useState<AppView>('simulator'); // the live simulator or the run history
  const [captureOpen, setCaptureOpen] = useState(false);
  const closeCapture = useCallback(() => setCaptureOpen(false), []);

  const fail = useCallback((e: unknown) => setError(String(e)), []);
  // pane sizes: remembered per user in the backend's data folder, fitted to the window
  const panes = useLayout(fail);
  const [mainEl, setMainEl] = useState<HTMLDivElement | null>(null);
  // the controlled run's dock: its toggle in the debug bar, the open dock over the bottom panel
  const [opsButtonSlot, setOpsButtonSlot] = useState<HTMLSpanElement | null>(null);
  const [opsPanelSlot, setOpsPanelSlot] = useState<HTMLDivElement | null>(null);
  const mainSize = useSize(mainEl);
  // the editor: open files, unsaved text, histories; drafts re-simulate through traceUpdated
  const [store] = useState(() => new EditorStore(api, (v) => dispatch({ type: 'traceUpdated', view: v })));
  const editorSnap = useEditorSnapshot(store);
  const [editing, setEditing] = useState<string | null>(null);
  const [openConfig, setOpenConfig] = useState<{ file: string; line?: number } | undefined>(undefined);
  // an executable hook's "file:line": its skill's editor on that config (a folder hook: the first skill's)
  const openExecHook = useCallback((h: HookInfo) => {
    const at = h.source.lastIndexOf(':');
    const file = at > 0 ? h.source.slice(0, at) : h.source;
    const line = at > 0 ? Number(h.source.slice(at + 1)) || undefined : undefined;
    // a folder hook opens beside the first skill, as before; a folder without skills (a Claude Code project) in the folder's editor
    const skill = h.skill || studio?.skills[0]?.name || '';
    setOpenConfig({ file, line });
    setEditing(skill);
  }, [studio]);
  const [newHookRequest, setNewHookRequest] = useState(0);
  useEditorKeys(store, editing !== null);
  useEffect(() => () => store.dispose(), [store]);
  const unsaved = editorSnap.order.filter((f) => isDirty(editorSnap.files[f])).length;
  useEffect(() => {
    if (!editorSnap.toast) return;
    const t = setTimeout(() => store.clearToast(), editorSnap.toast.kind === 'err' ? 6000 : 2500);
    return () => clearTimeout(t);
  }, [editorSnap.toast, store]);

  // initial load + backend events (every subscription undone on unmount)
  useEffect(() => {
    let alive = true;
    dispatch({ type: 'loadStart' });
    api.getState().then((s) => { if (alive) setStudio(s); }).catch(fail);
    // answers of the live trace go through traceUpdated: a late one never replaces a newer simulation's event
    api.getTrace().then((v) => { if (alive) dispatch({ type: 'traceUpdated', view: v }); }).catch(fail);
    const offState = api.subscribe('studio:state', (s) => { setStudio(s); void store.checkDisk(); });
    const offTrace = api.subscribe('studio:trace', (v) => dispatch({ type: 'traceUpdated', view: v }));
    return () => { alive = false; offState(); offTrace(); };
  }, [fail, store]);

  // executable hooks: a simulation with them runs in the background and reports its progress
  const [progress, setProgress] = useState<api.SimProgress | null>(null);
  useEffect(() => {
    let alive = true;
    let evented = false; // the answer can arrive after the first event, which is newer
    api.getProgress().then((p) => { if (alive && !evented) setProgress(p); }).catch(() => undefined);
    const off = api.subscribe('studio:progress', (p) => { evented = true; setProgress(p); });
    return () => { alive = false; off(); };
  }, []);
  const trustFolder = useCallback(() => api.trustFolder().then((s) => setStudio(s)), []);
  const untrustFolder = useCallback(() => { api.untrustFolder().then((s) => setStudio(s)).catch(fail); }, [fail]);
  const cancelSimulation = useCallback(() => { api.cancelSimulation().catch(fail); }, [fail]);

  // a simulated run reaches its next breakpoint at once
  useEffect(() => { if (dbg.status === 'running') dispatch({ type: 'tick' }); }, [dbg]);

  useEffect(() => {
    document.title = studio?.root ? `Hook Studio — ${studio.root}` : 'Hook Studio';
  }, [studio?.root]);

  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme'); else root.setAttribute('data-theme', theme);
    try { localStorage.setItem('hookstudio.theme', theme); } catch { /* private mode */ }
  }, [theme]);

  const view = hasView(dbg) ? dbg.view : null;
  const cursor = hasCursor(dbg) ? dbg.cursor : -1;
  const step: Step | undefined = view && cursor >= 0 ? view.steps[cursor] : undefined;
  const color = useMemo(() => skillColors(studio?.skills), [studio?.skills]);
  const changedCalls = useMemo(() => new Set(view?.changes.map((c) => c.call) ?? []), [view]);
  const toggleBp = useCallback((b: Breakpoint | null) => { if (b) dispatch({ type: 'toggleBreakpoint', breakpoint: b }); }, []);
  // A controlled run (approval/OpsDock) shows its trace here, at an event's step.
  const showRun = useCallback((v: api.TraceView, at: number) => {
    setMode('simulator');
    dispatch({ type: 'load', view: v });
    if (at >= 0) dispatch({ type: 'jumpToStep', step: at });
  }, []);
  const hookTabs = useMemo(() => {
    if (!view) return [];
    const calls = hookCallsOf(view);
    if (calls.length === 0 && !view.exec?.hooks.length) return [];
    const failed = calls.filter((e) => isFailure(e.call)).length;
    return [{
      id: 'hookcalls', label: failed ? 'Hook calls ✖' : 'Hook calls', count: calls.length,
      render: (v: api.TraceView) => (
        <HookCallsPanel view={v} cursor={cursor} breakpoints={dbg.breakpoints} onJump={(i) => dispatch({ type: 'jumpToStep', step: i })}
          onToggleHook={(key) => toggleBp({ kind: 'exec', key })} onToggleEvent={(key) => toggleBp({ kind: 'event', key })} />
      ),
    }, ...requestTabs(calls.filter((e) => e.call.system === 'request').length, (i) => dispatch({ type: 'jumpToStep', step: i }))];
  }, [view, cursor, dbg.breakpoints, toggleBp]);

  const selectScenario = useCallback((file: string) => {
    dispatch({ type: 'loadStart' });
    api.selectScenario(file).then((v) => {
      dispatch({ type: 'traceUpdated', view: v });
      return api.getState().then(setStudio); // the top bar names the scenario picked
    }).catch(fail);
  }, [fail]);
  const afterFolder = useCallback((s: StudioState) => {
    setStudio(s);
    dispatch({ type: 'loadStart' });
    return api.getTrace().then((v) => dispatch({ type: 'traceUpdated', view: v }));
  }, []);
  const chooseFolder = useCallback(() => { api.chooseFolder().then(afterFolder).catch(fail); }, [afterFolder, fail]);
  const openRecent = useCallback((p: string) => { api.openFolder(p).then(afterFolder).catch(fail); }, [afterFolder, fail]);
  const toggleSkill = useCallback((skill: string, enabled: boolean) => {
    setStudio((s) => (s ? { ...s, skills: s.skills.map((k) => (k.name === skill ? { ...k, enabled } : k)) } : s));
    api.setSkillEnabled(skill, enabled).then((v) => dispatch({ type: 'traceUpdated', view: v })).catch(fail);
  }, [fail]);

  const createSkill = useCallback((name: string) => api.createSkill(name).then((s) => { setStudio(s); setEditing(name); }), []);
  const importSkills = useCallback(() => {
    api.importSkills().then((s) => { setStudio(s); store.toast('Import finished'); }).catch((e) => store.toast(`Import failed: ${String(e)}`, 'err'));
  }, [store]);
  const newHook = useCallback((skill: string) => { setEditing(skill); setNewHookRequest((n) => n + 1); }, []);

  const togglePane = panes.toggle;
  const bottomCollapsed = !!panes.layout.bottom_collapsed;
  const openBottom = useCallback(() => { if (bottomCollapsed) togglePane('bottom_collapsed'); }, [bottomCollapsed, togglePane]);
  // keyboard
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing = t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable) && (t as HTMLInputElement).type !== 'checkbox';
      if (isHistoryKey(e)) { e.preventDefault(); setMode((m) => (m === 'history' ? 'simulator' : 'history')); return; }
      if (e.key === 'Escape') { if (help) { e.preventDefault(); setHelp(false); } return; }
      if (e.key === 'F1' || (e.key === '?' && !typing)) { e.preventDefault(); setHelp(true); return; }
      if (typing || mode === 'history') return; // the history view handles its own keys
      const ctrl = e.ctrlKey || e.metaKey;
      if (ctrl && !e.altKey && !e.shiftKey && (e.key === 'j' || e.key === 'J')) { e.preventDefault(); togglePane('bottom_collapsed'); return; }
      if (ctrl && !e.altKey && e.shiftKey && (e.key === 'f' || e.key === 'F')) { e.preventDefault(); togglePane('flow_collapsed'); return; }
      if (e.key === 'F10') { e.preventDefault(); dispatch({ type: e.shiftKey ? 'stepBack' : 'stepForward' }); }
      else if (e.key === 'F5' && ctrl && e.shiftKey) { e.preventDefault(); dispatch({ type: 'restart' }); }
      else if (e.key === 'F5' && !ctrl) { e.preventDefault(); dispatch({ type: 'continue' }); }
      else if ((e.key === 'r' || e.key === 'R') && ctrl && !e.altKey) { e.preventDefault(); dispatch({ type: 'restart' }); }
      else if (e.key === 'F9') { e.preventDefault(); toggleBp(breakpointForStep(step)); }
      else if (e.key === 'Home' && !ctrl) { e.preventDefault(); dispatch({ type: 'jumpToStep', step: 0 }); }
      else if (e.key === 'End' && !ctrl && view) { e.preventDefault(); dispatch({ type: 'jumpToStep', step: view.steps.length - 1 }); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [help, step, view, toggleBp, mode, togglePane]);

  const problems = useMemo(() => {
    if (!studio) return [];
    const all = [...studio.diagnostics, ...studio.skills.flatMap((s) => s.diagnostics), ...studio.scenarios.flatMap((s) => s.diagnostics)];
    const seen = new Set<string>();
    return all.filter((d) => {
      const k = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }, [studio]);
  const selected = studio?.scenarios.find((s) => s.file === studio.selected);
  // the panes fitted to the main area (until it is measured, the stylesheet's sizes)
  const lay = panes.layout;
  const measured = mainSize.width > 0 && mainSize.height > 0;
  const widths = fitWidths(mainSize.width, lay, editing !== null);
  const heights = fitHeights(mainSize.height, lay);
  const mainStyle = measured ? {
    gridTemplateColumns: `${widths.left}px var(--split) minmax(0, 1fr) var(--split) ${widths.messages}px`,
    gridTemplateRows: `minmax(0, 1fr) ${lay.bottom_collapsed ? '0' : 'var(--split)'} ${heights.bottom}px`,
  } : undefined;
  const setLeft = (px: number | undefined, save?: boolean) => panes.update(editing !== null ? { editor_width: px } : { skills_width: px }, save);
  const statusText =
    dbg.status === 'paused' ? (dbg.hit ? `paused at breakpoint (${dbg.hit.replace(':', ' ')})` : 'paused') :
    dbg.status === 'ended' ? 'ended — restart to step again' : dbg.status;

  return (
    <div className="app">
      <div className="topline">
      <TopBar unsaved={unsaved} state={studio} theme={theme} onTheme={setTheme} onChooseFolder={chooseFolder} onOpenRecent={openRecent} onSelectScenario={selectScenario} onHelp={() => setHelp(true)} />
      <ViewToggle view={mode} onChange={setMode} />
      <button type="button" className="btn capture-open" data-testid="capture-open" title="Capture a real agent: be its model endpoint and record what it sends" onClick={() => setCaptureOpen(true)}>Capture ▸</button>
      </div>
      {error && (
        <div className="banner banner-err" role="alert">
          {error} <button type="button" className="linkbtn" onClick={() => setError(null)}>dismiss</button>
        </div>
      )}
      {studio?.notice && (
        <div className="banner banner-warn" role="status">{studio.notice}</div>
      )}
      {mode === 'simulator' && panes.loaded && <TrustBanner exec={studio?.exec} onTrust={trustFolder} readKey={panes.layout.trust_read} onRead={(k) => panes.update({ trust_read: k }, true)} />}
      {mode === 'history' ? <HistoryView studio={studio} color={color} onLive={() => setMode('simulator')} /> : (
      <div className={cx('main', editing !== null && 'editing')} ref={setMainEl} style={mainStyle}>
        {editing !== null ? (
          <Suspense fallback={<aside className="editor"><div className="empty-state">Loading the editor…</div></aside>}>
            <EditorPanel key={editing} store={store} skill={editing} state={studio} view={view} onClose={() => { setEditing(null); setOpenConfig(undefined); }} newHookRequest={newHookRequest} openConfig={openConfig} />
          </Suspense>
        ) : (
          <SkillsPanel
            state={studio} breakpoints={dbg.breakpoints} onToggleSkill={toggleSkill} onToggleHookBreakpoint={(id) => toggleBp({ kind: 'hook', key: id })}
            execNotRun={view?.exec?.not_run} onToggleExecBreakpoint={(key) => toggleBp({ kind: 'exec', key })} onOpenExecHook={openExecHook}
            onEditSkill={setEditing} onNewHook={newHook} onNewSkill={createSkill} onImport={importSkills} drafts={[...(studio?.drafts ?? []), ...editorSnap.order.filter((f) => isDirty(editorSnap.files[f]))]}
          />
        )}
        <Splitter axis="x" grows="right" size={widths.left} range={leftRange(mainSize.width, widths.messages, editing !== null)} testId="split-left" className="split-left"
          label={editing !== null ? 'Resize the editor' : 'Resize the skills panel'} onResize={(px) => setLeft(px)} onCommit={panes.commit}
          onReset={() => setLeft(undefined, true)} />
        <section className="centre" aria-label="Simulator">
          <div className="debugbar">
            <button type="button" className="iconbtn" title="Continue (F5)" aria-label="Continue" disabled={dbg.status !== 'paused'} onClick={() => dispatch({ type: 'continue' })}>▶</button>
            <button type="button" className="iconbtn" title="Step back (Shift+F10)" aria-label="Step back" disabled={!(dbg.status === 'paused' || dbg.status === 'ended') || cursor <= 0} onClick={() => dispatch({ type: 'stepBack' })}>↶</button>
            <button type="button" className="iconbtn" title="Step forward (F10)" aria-label="Step forward" disabled={dbg.status !== 'paused'} onClick={() => dispatch({ type: 'stepForward' })}>↷</button>
            <button type="button" className="iconbtn" title="Restart (Ctrl+Shift+F5)" aria-label="Restart" disabled={!hasCursor(dbg)} onClick={() => dispatch({ type: 'restart' })}>⟲</button>
            <span className={`status status-${dbg.status}`} data-testid="status" title={statusText}>{statusText}</span>
            {view?.draft && <span className="badge badge-unsaved" data-testid="draft-preview" title="The simulation includes unsaved editor text; save to make it permanent">preview of unsaved edits</span>}
            <SimProgress progress={progress} onCancel={cancelSimulation} />
            {studio?.exec?.trusted && (
              <button type="button" className="linkbtn small untrust" onClick={untrustFolder} data-testid="untrust-folder" title="This folder's executable hooks run at each simulation. Click to stop trusting it (prompt hooks only).">
                ϟ trusted
              </button>
            )}
            {studio?.exec?.trusted && <HostBehaviourPick root={studio.root} onState={setStudio} onError={fail} />}
            <span className="spacer" />
            <span className="ops-button-slot" ref={setOpsButtonSlot} />
            <button type="button" className="btn" data-testid="run-open" title="Run the selected scenario against a real model" onClick={() => setRunOpen(true)}>Run with model ▸</button>
            {view && step && (
              <span className="muted small dbg-info" title={`${view.scenario} · step ${cursor + 1}/${view.steps.length} · ${view.calls.length} LLM calls · rev ${view.revision}${view.status !== 'ok' && view.status !== 'invalid' ? ` · ${view.status}${view.error ? `: ${view.error}` : ''}` : ''}`}>
                {view.scenario} · step {cursor + 1}/{view.steps.length} · {view.calls.length} LLM calls · rev {view.revision}
                {view.status !== 'ok' && view.status !== 'invalid' && <span className="count-err"> · {view.status}{view.error ? `: ${view.error}` : ''}</span>}
              </span>
            )}
          </div>
          {dbg.status === 'loading' ? (
            <div className="empty-state">Simulating…</div>
          ) : dbg.status === 'invalid' ? (
            <div className="invalid" data-testid="invalid">
              <h2><ErrorIcon /> Scenario “{dbg.view.scenario || selected?.name}” is invalid</h2>
              <p className="muted">{dbg.view.file} — fix these and save; the simulation runs again by itself.</p>
              <DiagnosticList items={dbg.view.diagnostics.length ? dbg.view.diagnostics : selected?.diagnostics ?? []} />
            </div>
          ) : !view || !step ? (
            <div className="empty-state big">
              {!studio?.root ? (
                <><h2>No folder open</h2><p>Click <b>Open folder…</b> and pick a skills folder (one sub-folder per skill with <code>hooks/hooks.json</code>).</p></>
              ) : studio.scenarios.length === 0 ? (
                <><h2>No scenarios found</h2><p>Add one under <code>&lt;skill&gt;/scenarios/*.yaml</code> in <code>{studio.root}</code>; it shows up here as soon as it is saved.</p></>
              ) : (
                <><h2>Pick a scenario</h2><p>Choose one in the <b>Scenario</b> menu above to simulate it step by step.</p></>
              )}
            </div>
          ) : (
            <>
              {lay.flow_collapsed ? (
                <button type="button" className="pane-bar" onClick={() => togglePane('flow_collapsed')} aria-expanded={false} aria-controls="flow-pane" data-testid="flow-expand" title="Show the flowchart (Ctrl+Shift+F)">
                  ▸ Flowchart
                </button>
              ) : (
                <>
                  <div className="flow-pane" id="flow-pane" style={measured ? { height: heights.flow } : undefined} data-testid="flow-pane">
                    <FlowView view={view} cursor={cursor} breakpoints={dbg.breakpoints} onToggleCheckpoint={(cp) => toggleBp({ kind: 'checkpoint', key: cp })} onToggleEvent={(p) => toggleBp({ kind: 'event', key: p })} />
                    <button type="button" className="iconbtn sm pane-collapse" onClick={() => togglePane('flow_collapsed')} aria-expanded aria-controls="flow-pane" aria-label="Collapse the flowchart" title="Collapse the flowchart (Ctrl+Shift+F)" data-testid="flow-collapse">▴</button>
                  </div>
                  <Splitter axis="y" grows="down" size={heights.flow} range={flowRange(mainSize.height, heights.bottom)} label="Resize the flowchart" controls="flow-pane" testId="split-flow"
                    onResize={(px) => panes.update({ flow_height: toFraction(px, mainSize.height) })} onCommit={panes.commit}
                    onReset={() => panes.update({ flow_height: undefined }, true)} onCollapse={() => togglePane('flow_collapsed')} />
                </>
              )}
              <RequestTabs view={view} current={step.request} onSelect={(r) => dispatch({ type: 'selectRequest', request: r })} />
              <StepList
                view={view}
                cursor={cursor}
                breakpoints={dbg.breakpoints}
                changedCalls={changedCalls}
                onJump={(i) => dispatch({ type: 'jumpToStep', step: i })}
                onToggleBreakpoint={(s) => toggleBp(breakpointForStep(s))}
              />
            </>
          )}
        </section>
        <Splitter axis="x" grows="left" size={widths.messages} range={messagesRange(mainSize.width, widths.left)} label="Resize the message pane" testId="split-messages" className="split-messages"
          onResize={(px) => panes.update({ messages_width: px })} onCommit={panes.commit} onReset={() => panes.update({ messages_width: undefined }, true)} />
        <section className="right" aria-label="Messages at the cursor">
          {view && step ? (
            <>
              {step.call !== null && step.call !== undefined && (
                <CallExpectations view={view} call={step.call} onAdded={(text, ok) => store.toast(text, ok ? undefined : 'err')} />
              )}
              <div className="right-stack">
                {step.kind === 'hook_call' && <HookCallDetail key={cursor} view={view} step={step} />}
                <MessageList view={view} cursor={cursor} color={color}
                  onAddExpectation={canAddExpectation() ? (c, id) => void addAndReport(c, id, (text, ok) => store.toast(text, ok ? undefined : 'err')) : undefined} />
              </div>
            </>
          ) : (
            <div className="empty-state">
              {dbg.status === 'invalid' ? 'This scenario is invalid, so nothing was simulated: fix the diagnostics and save.' : 'The message list the model receives appears here once a scenario is simulated.'}
            </div>
          )}
        </section>
        {!lay.bottom_collapsed && (
          <Splitter axis="y" grows="up" size={heights.bottom} range={bottomRange(mainSize.height, heights.flow)} label="Resize the bottom panel" testId="split-bottom" className="split-bottom"
            onResize={(px) => panes.update({ bottom_height: toFraction(px, mainSize.height) })} onCommit={panes.commit}
            onReset={() => panes.update({ bottom_height: undefined }, true)} onCollapse={() => togglePane('bottom_collapsed')} />
        )}
        <BottomPanel
          collapsed={!!lay.bottom_collapsed}
          onToggleCollapsed={() => togglePane('bottom_collapsed')}
          view={view}
          problems={problems}
          currentCall={step?.call ?? null}
          changedCalls={changedCalls}
          everyCallArmed={dbg.breakpoints.includes('call:*')}
          color={color}
          onJumpToCall={(c) => dispatch({ type: 'jumpToCall', call: c })}
          onToggleEveryCall={() => toggleBp({ kind: 'call', key: '*' })}
          extraTabs={hookTabs}
        />
        <div className="ops-slot" ref={setOpsPanelSlot} />
      </div>
      )}
      <RunPanel open={runOpen} onClose={() => setRunOpen(false)} breakpoints={dbg.breakpoints} color={color} onOpenHistory={() => { setRunOpen(false); setMode('history'); }} scenario={selected ? { file: selected.file, name: selected.name, valid: selected.valid } : undefined} />
      <OpsDock cursor={cursor} onShow={showRun} buttonSlot={opsButtonSlot} panelSlot={opsPanelSlot} hidden={mode === 'history'} onOpen={openBottom} />
      {help && <HelpOverlay onClose={() => setHelp(false)} />}
      {captureOpen && <CapturePanel onClose={closeCapture} onOpenHistory={() => { setCaptureOpen(false); setMode('history'); }} />}
      {mode === 'simulator' && <NoticeToasts view={view} onJump={(i) => dispatch({ type: 'jumpToStep', step: i })} />}
      {editorSnap.toast && (
        <div key={editorSnap.toast.id} className={cx('toast', editorSnap.toast.kind === 'err' && 'toast-err')} role="status" data-testid="toast">
          {editorSnap.toast.text}
          <button type="button" className="linkbtn" onClick={() => store.clearToast()} aria-label="dismiss">✕</button>
        </div>
      )}
    </div>
  );
}
