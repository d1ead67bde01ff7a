// The live simulator's panes: the skills panel (or the editor), the debug bar, flowchart and step
// list, the message list at the cursor, and the bottom panel — sized by the remembered layout and
// fitted to the window. Reads the app's stores; the keys are commands (commands/appCommands.ts).
import { ScenarioPlaces } from '../components/ScenarioPlaces';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type * as api from '../lib/api';
import { useApp } from '../app/context';
import { useStore } from '../lib/store';
import { useEditorSnapshot } from '../editor/useEditorSnapshot';
import { isDirty } from '../editor/store';
import { breakpointForStep, hasCursor, type DebuggerState } from '../debugger/machine';
import { SkillsPanel, DiagnosticList } from '../components/SkillsPanel';
import { FlowView } from '../components/FlowView';
import { StepList, RequestTabs } from '../components/StepList';
import { MessageList } from '../components/MessageList';
import { BottomPanel } from '../components/BottomPanel';
import { ErrorIcon } from '../components/Icons';
import { cx } from '../components/util';
import { CallExpectations, addAndReport } from '../expect/CallExpectations';
import { canAddExpectation } from '../lib/api/expect';
import { SimProgress } from '../exec/SimProgress';
import { HookCallDetail } from '../exec/HookCallDetail';
import { HookCallsPanel } from '../exec/HookCallsPanel';
import { hookCallsOf, isFailure } from '../exec/hookcalls';
import { HostBehaviourPick, hostsPrograms } from '../exec/HostBehaviourPick';
import { AgentPick } from '../agents/AgentPick';
import { RunAgent } from '../agents/RunAgent';
import { callBody } from '../lib/api/agentRequest';
import { useAgentContextShown } from '../layout/useAgentContext';
import { requestTabs } from '../requests/tab';
import { useSize } from '../layout/useSize';
import { Splitter } from '../layout/Splitter';
import { bottomRange, fitHeights, fitWidths, flowRange, leftRange, messagesRange, toFraction } from '../layout/panes';

// CodeMirror is loaded with the editor, not with the simulator
const EditorPanel = lazy(() => import('../editor/EditorPanel').then((m) => ({ default: m.EditorPanel })));

/** Where the controlled run's dock goes: its toggle in the debug bar, the open dock over the bottom panel. */
export interface Slots {
  opsButton: HTMLSpanElement | null;
  opsPanel: HTMLDivElement | null;
  setOpsButton: (el: HTMLSpanElement | null) => void;
  setOpsPanel: (el: HTMLDivElement | null) => void;
}
export function useSlots(): Slots {
  const [opsButton, setOpsButton] = useState<HTMLSpanElement | null>(null);
  const [opsPanel, setOpsPanel] = useState<HTMLDivElement | null>(null);
  return { opsButton, opsPanel, setOpsButton, setOpsPanel };
}

function statusText(dbg: DebuggerState): string {
  if (dbg.status === 'paused') return dbg.hit ? `paused at breakpoint (${dbg.hit.replace(':', ' ')})` : 'paused';
  if (dbg.status === 'ended') return 'ended — restart to step again';
  return dbg.status;
}

export function Simulator({ color, slots }: { color: (skill?: string) => string; slots: Slots }) {
  const app = useApp();
  const { debug, studio, layout, editor, editorPane, run, shell } = app;
  const dbg = useStore(debug);
  const { state, progress } = useStore(studio);
  const { layout: lay } = useStore(layout);
  const { editing, openConfig, newHookRequest, newFileRequest } = useStore(editorPane);
  const editorSnap = useEditorSnapshot(editor);
  const [mainEl, setMainEl] = useState<HTMLDivElement | null>(null);
  const mainSize = useSize(mainEl);
  const agentContext = useAgentContextShown();

  const view = debug.view();
  const revision = view?.revision;
  // the request body of a call of the simulation shown (the backend refuses a newer one's)
  const requestBody = useCallback((call: number) => callBody(revision ?? -1, call), [revision]);
  const cursor = hasCursor(dbg) ? dbg.cursor : -1;
  const step = debug.step();
  const changedCalls = useMemo(() => new Set(view?.changes.map((c) => c.call) ?? []), [view]);
  const problems = useMemo(() => {
    if (!state) return [];
    const all = [...state.diagnostics, ...state.skills.flatMap((s) => s.diagnostics), ...state.scenarios.flatMap((s) => s.diagnostics)];
    const seen = new Set<string>();
    return all.filter((d) => {
      const k = `${d.file}:${d.line}:${d.column}:${d.code}:${d.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }, [state]);
  const hookTabs = useMemo(() => {
    if (!view) return [];
    const calls = hookCallsOf(view);
    if (calls.length === 0 && !view.exec?.hooks.length) return [];
    const failed = calls.filter((e) => isFailure(e.call)).length;
    return [{
      id: 'hookcalls', label: failed ? 'Hook calls ✖' : 'Hook calls', count: calls.length,
      render: (v: api.TraceView) => (
        <HookCallsPanel view={v} cursor={cursor} breakpoints={dbg.breakpoints} onJump={debug.jumpToStep}
          onToggleHook={(key) => debug.toggleBreakpoint({ kind: 'exec', key })} onToggleEvent={(key) => debug.toggleBreakpoint({ kind: 'event', key })} />
      ),
    }, ...requestTabs(calls.filter((e) => e.call.system === 'request').length, debug.jumpToStep)];
  }, [view, cursor, dbg.breakpoints, debug]);

  const selected = state?.scenarios.find((s) => s.file === state.selected);
  const toast = (text: string, ok: boolean) => editor.toast(text, ok ? undefined : 'err');
  // the panes fitted to the main area (until it is measured, the stylesheet's sizes)
  const measured = mainSize.width > 0 && mainSize.height > 0;
  const widths = fitWidths(mainSize.width, lay, editing !== null);
  const heights = fitHeights(mainSize.height, lay);
  const mainStyle = measured ? {
    gridTemplateColumns: `${widths.left}px var(--split) minmax(0, 1fr) var(--split) ${widths.messages}px`,
    gridTemplateRows: `minmax(0, 1fr) ${lay.bottom_collapsed ? '0' : 'var(--split)'} ${heights.bottom}px`,
  } : undefined;
  const setLeft = (px: number | undefined, save?: boolean) => layout.update(editing !== null ? { editor_width: px } : { skills_width: px }, save);
  const status = statusText(dbg);
  // executable hooks that wait for the folder's trust did not run: the matrix says so, with the Trust action
  const exec = state?.exec;
  const untrusted = view && !view.exec?.ran && exec?.present && !exec.trusted && !exec.error
    ? { hooks: view.exec?.hooks.length || exec.hooks.length, onTrust: studio.trust } : undefined;

  return (
    <div className={cx('main', editing !== null && 'editing')} ref={setMainEl} style={mainStyle}>
      {editing !== null ? (
        <Suspense fallback={<aside className="editor"><div className="empty-state">Loading the editor…</div></aside>}>
          <EditorPanel key={editing} store={editor} skill={editing} state={state} view={view} onClose={editorPane.close} newHookRequest={newHookRequest} openConfig={openConfig} newFileRequest={newFileRequest} />
        </Suspense>
      ) : (
        <SkillsPanel
          state={state} breakpoints={dbg.breakpoints} onToggleSkill={studio.setSkillEnabled} onToggleHookBreakpoint={(id) => debug.toggleBreakpoint({ kind: 'hook', key: id })}
          execNotRun={view?.exec?.not_run} onToggleExecBreakpoint={(key) => debug.toggleBreakpoint({ kind: 'exec', key })}
          onOpenExecHook={(h) => editorPane.openExecHook(h, state?.skills[0]?.name)}
          onEditSkill={editorPane.edit} onNewHook={editorPane.newHook} onNewSkill={app.actions.createSkill} onImport={app.actions.importSkills}
          drafts={[...(state?.drafts ?? []), ...editorSnap.order.filter((f) => isDirty(editorSnap.files[f]))]}
        />
      )}
      <Splitter axis="x" grows="right" size={widths.left} range={leftRange(mainSize.width, widths.messages, editing !== null)} testId="split-left" className="split-left"
        label={editing !== null ? 'Resize the editor' : 'Resize the skills panel'} onResize={(px) => setLeft(px)} onCommit={layout.commit}
        onReset={() => setLeft(undefined, true)} />
      <section className="centre" aria-label="Simulator">
        <div className="debugbar">
          <button type="button" className="iconbtn" title="Continue (F5)" aria-label="Continue" disabled={dbg.status !== 'paused'} onClick={debug.continue}>▶</button>
          <button type="button" className="iconbtn" title="Step back (Shift+F10)" aria-label="Step back" disabled={!(dbg.status === 'paused' || dbg.status === 'ended') || cursor <= 0} onClick={debug.stepBack}>↶</button>
          <button type="button" className="iconbtn" title="Step forward (F10)" aria-label="Step forward" disabled={dbg.status !== 'paused'} onClick={debug.stepForward}>↷</button>
          <button type="button" className="iconbtn" title="Restart (Ctrl+Shift+F5)" aria-label="Restart" disabled={!hasCursor(dbg)} onClick={debug.restart}>⟲</button>
          <span className={`status status-${dbg.status}`} data-testid="status" title={status}>{status}</span>
          {view?.draft && <span className="badge badge-unsaved" data-testid="draft-preview" title="The simulation includes unsaved editor text; save to make it permanent">preview of unsaved edits</span>}
          <SimProgress progress={progress} onCancel={studio.cancelSimulation} />
          {state?.exec?.trusted && (
            <button type="button" className="linkbtn small untrust" onClick={studio.untrust} data-testid="untrust-folder" title="This folder's executable hooks run at each simulation. Click to stop trusting it (prompt hooks only).">
              ϟ trusted
            </button>
          )}
          {state?.exec?.trusted && hostsPrograms(state.exec.hooks) && <HostBehaviourPick root={state.root} onState={studio.take} onError={shell.fail} />}
          {state?.exec?.trusted && state.exec.hooks.some((h) => h.system === 'claude-code') && <AgentPick view={view ?? null} onState={studio.take} onError={shell.fail} />}
          <RunAgent view={view ?? null} onCalibrated={() => { if (view?.file) studio.selectScenario(view.file); }} />
          <span className="spacer" />
          <span className="ops-button-slot" ref={slots.setOpsButton} />
          <button type="button" className="btn" data-testid="run-open" title="Run the selected scenario against a real model" onClick={run.openPanel}>Run with model ▸</button>
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
            {!state?.root ? (
              <><h2>No folder open</h2><p>Click <b>Open folder…</b> and pick a skills folder (one sub-folder per skill with <code>hooks/hooks.json</code>).</p></>
            ) : state.scenarios.length === 0 ? (
              <><h2>No scenarios found</h2><p data-testid="no-scenarios">In <code>{state.root}</code>, <ScenarioPlaces skills={state.skills.length} />; it shows up here as soon as it is saved.</p></>
            ) : (
              <><h2>Pick a scenario</h2><p>Choose one in the <b>Scenario</b> menu above to simulate it step by step.</p></>
            )}
          </div>
        ) : (
          <>
            {lay.flow_collapsed ? (
              <button type="button" className="pane-bar" onClick={() => layout.toggle('flow_collapsed')} aria-expanded={false} aria-controls="flow-pane" data-testid="flow-expand" title="Show the flowchart (Ctrl+Shift+F)">
                ▸ Flowchart
              </button>
            ) : (
              <>
                <div className="flow-pane" id="flow-pane" style={measured ? { height: heights.flow } : undefined} data-testid="flow-pane">
                  <FlowView view={view} cursor={cursor} breakpoints={dbg.breakpoints} onToggleCheckpoint={(cp) => debug.toggleBreakpoint({ kind: 'checkpoint', key: cp })} onToggleEvent={(p) => debug.toggleBreakpoint({ kind: 'event', key: p })} />
                  <button type="button" className="iconbtn sm pane-collapse" onClick={() => layout.toggle('flow_collapsed')} aria-expanded aria-controls="flow-pane" aria-label="Collapse the flowchart" title="Collapse the flowchart (Ctrl+Shift+F)" data-testid="flow-collapse">▴</button>
                </div>
                <Splitter axis="y" grows="down" size={heights.flow} range={flowRange(mainSize.height, heights.bottom)} label="Resize the flowchart" controls="flow-pane" testId="split-flow"
                  onResize={(px) => layout.update({ flow_height: toFraction(px, mainSize.height) })} onCommit={layout.commit}
                  onReset={() => layout.update({ flow_height: undefined }, true)} onCollapse={() => layout.toggle('flow_collapsed')} />
              </>
            )}
            <RequestTabs view={view} current={step.request} onSelect={(r) => debug.dispatch({ type: 'selectRequest', request: r })} />
            <StepList view={view} cursor={cursor} breakpoints={dbg.breakpoints} changedCalls={changedCalls}
              onJump={debug.jumpToStep} onToggleBreakpoint={(s) => debug.toggleBreakpoint(breakpointForStep(s))} />
          </>
        )}
      </section>
      <Splitter axis="x" grows="left" size={widths.messages} range={messagesRange(mainSize.width, widths.left)} label="Resize the message pane" testId="split-messages" className="split-messages"
        onResize={(px) => layout.update({ messages_width: px })} onCommit={layout.commit} onReset={() => layout.update({ messages_width: undefined }, true)} />
      <section className="right" aria-label="Messages at the cursor">
        {view && step ? (
          <>
            {step.call !== null && step.call !== undefined && <CallExpectations view={view} call={step.call} onAdded={toast} />}
            <div className="right-stack">
              {step.kind === 'hook_call' && <HookCallDetail key={cursor} view={view} step={step} />}
              <MessageList view={view} cursor={cursor} color={color} agentContext={agentContext} requestBody={requestBody}
                onAddExpectation={canAddExpectation() ? (c, id) => void addAndReport(c, id, toast) : undefined} />
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
          onResize={(px) => layout.update({ bottom_height: toFraction(px, mainSize.height) })} onCommit={layout.commit}
          onReset={() => layout.update({ bottom_height: undefined }, true)} onCollapse={() => layout.toggle('bottom_collapsed')} />
      )}
      <BottomPanel
        collapsed={!!lay.bottom_collapsed}
        onToggleCollapsed={() => layout.toggle('bottom_collapsed')}
        view={view}
        problems={problems}
        currentCall={step?.call ?? null}
        changedCalls={changedCalls}
        everyCallArmed={dbg.breakpoints.includes('call:*')}
        color={color}
        onJumpToCall={debug.jumpToCall}
        onToggleEveryCall={() => debug.toggleBreakpoint({ kind: 'call', key: '*' })}
        extraTabs={hookTabs}
        untrusted={untrusted}
      />
      <div className="ops-slot" ref={slots.setOpsPanel} />
    </div>
  );
}
