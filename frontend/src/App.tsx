// The shell: creates the app's stores (app/stores.ts), connects them while mounted, and lays out
// the top bar, banners, the simulator or the history, and the overlays. State lives in the stores;
// keys go through the command registry (commands/).
import { useEffect, useMemo, useState } from 'react';
import { AppContext, useApp } from './app/context';
import { createApp, type App as AppModel } from './app/stores';
import { useStore } from './lib/store';
import { useEditorSnapshot } from './editor/useEditorSnapshot';
import { isDirty } from './editor/store';
import { TopBar } from './components/TopBar';
import { HelpOverlay } from './components/HelpOverlay';
import { cx, skillColors } from './components/util';
import { ViewToggle } from './history/ViewToggle';
import { HistoryView } from './history/HistoryView';
import { TrustBanner } from './exec/TrustBanner';
import { NoticeToasts } from './exec/NoticeToasts';
import { RunPanel } from './run/RunPanel';
import { OpsDock } from './approval/OpsDock';
import { CapturePanel } from './capture/CapturePanel';
import { ExportDialog } from './convert/ExportDialog';
import { Simulator, useSlots } from './simulator/Simulator';

export function App({ app: given }: { app?: AppModel } = {}) {
  const [app] = useState(() => given ?? createApp());
  useEffect(() => app.start(), [app]);
  return (
    <AppContext.Provider value={app}>
      <Shell />
    </AppContext.Provider>
  );
}

function Shell() {
  const app = useApp();
  const { shell, studio, history, layout, debug, editor, capture, exportFor, run, ops } = app;
  const { help, error, theme } = useStore(shell);
  const { state } = useStore(studio);
  const { mode } = useStore(history);
  const panes = useStore(layout);
  const dbg = useStore(debug);
  const editorSnap = useEditorSnapshot(editor);
  const captureOpen = useStore(capture).open;
  const exporting = useStore(exportFor);
  const slots = useSlots();
  const color = useMemo(() => skillColors(state?.skills), [state?.skills]);
  const unsaved = editorSnap.order.filter((f) => isDirty(editorSnap.files[f])).length;
  const view = debug.view();
  const selected = state?.scenarios.find((s) => s.file === state.selected);

  return (
    <div className="app">
      <div className="topline">
        <TopBar unsaved={unsaved} state={state} theme={theme} onTheme={shell.setTheme} onChooseFolder={studio.chooseFolder} onOpenRecent={studio.openFolder}
          onSelectScenario={studio.selectScenario} onHelp={shell.openHelp} />
        <ViewToggle view={mode} onChange={history.setMode} />
        <button type="button" className="btn search-open" data-testid="search-open" title="Search every run and session: what reached the model, hooks' words, tool calls (Ctrl+K)" onClick={app.actions.openSearch}>Search…</button>
        <button type="button" className="btn export-open" data-testid="export-open" disabled={!state?.root} title="Write the folder's hooks in another agent's format (Ctrl+Shift+E)" onClick={() => exportFor.open()}>Export for…</button>
        <button type="button" className="btn capture-open" data-testid="capture-open" title="Capture a real agent: be its model endpoint and record what it sends" onClick={capture.open}>Capture ▸</button>
      </div>
      {error && (
        <div className="banner banner-err" role="alert">
          {error} <button type="button" className="linkbtn" onClick={shell.dismissError}>dismiss</button>
        </div>
      )}
      {state?.notice && <div className="banner banner-warn" role="status">{state.notice}</div>}
      {mode === 'simulator' && panes.loaded && (
        <TrustBanner exec={state?.exec} onTrust={studio.trust} readKey={panes.layout.trust_read} onRead={(k) => layout.update({ trust_read: k }, true)} />
      )}
      {mode === 'history' ? <HistoryView studio={state} color={color} onLive={() => history.setMode('simulator')} /> : <Simulator color={color} slots={slots} />}
      <RunPanel store={run} breakpoints={dbg.breakpoints} color={color} onOpenHistory={app.actions.openHistory}
        scenario={selected ? { file: selected.file, name: selected.name, valid: selected.valid } : undefined} />
      <OpsDock store={ops} cursor={debug.cursor()} buttonSlot={slots.opsButton} panelSlot={slots.opsPanel} hidden={mode === 'history'} />
      {help && <HelpOverlay commands={app.commands} onClose={shell.closeHelp} />}
      {exporting.open && (
        <ExportDialog to={exporting.to} prefer={selected?.file} onClose={exportFor.close}
          onWritten={(p, title) => { exportFor.close(); editor.toast(`Wrote ${p.files.filter((f) => f.action !== 'unchanged').length} file(s) for ${title} into ${p.dir_rel || p.dir}`); }} />
      )}
      {captureOpen && <CapturePanel onClose={capture.close} onOpenHistory={app.actions.openHistory} />}
      {mode === 'simulator' && <NoticeToasts view={view} onJump={debug.jumpToStep} />}
      {editorSnap.toast && (
        <div key={editorSnap.toast.id} className={cx('toast', editorSnap.toast.kind === 'err' && 'toast-err')} role="status" data-testid="toast">
          {editorSnap.toast.text}
          <button type="button" className="linkbtn" onClick={() => editor.clearToast()} aria-label="dismiss">✕</button>
        </div>
      )}
    </div>
  );
}
