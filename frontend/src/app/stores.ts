// The app's state, one store per area, wired together once: the shell (App.tsx) creates them,
// connects them to the backend while it is mounted (start returns the undo of every subscription)
// and hands them to the components through AppContext.
import * as api from '../lib/api';
import { ShellStore } from '../shell/store';
import { LayoutStore } from '../layout/store';
import { DebuggerStore } from '../debugger/store';
import { StudioStore, type StudioApi } from '../studio/store';
import { EditorStore, type EditorApi } from '../editor/store';
import { EditorPaneStore } from '../editor/pane';
import { HistoryStore } from '../history/store';
import { SearchStore } from '../history/searchStore';
import { CaptureStore } from '../capture/store';
import { ExportStore } from '../convert/store';
import { RunStore, type RunApi } from '../run/store';
import { OpsStore, type OpsApi } from '../approval/store';
import type { LayoutApi } from '../layout/store';
import { CommandRegistry } from '../commands/registry';
import { appCommands } from '../commands/appCommands';
import { Subscriptions } from '../lib/store';
import type { TraceView } from '../lib/api';

export interface AppStores {
  shell: ShellStore;
  layout: LayoutStore;
  debug: DebuggerStore;
  studio: StudioStore;
  editor: EditorStore;
  editorPane: EditorPaneStore;
  history: HistoryStore;
  search: SearchStore;
  capture: CaptureStore;
  exportFor: ExportStore;
  run: RunStore;
  ops: OpsStore;
}

export interface App extends AppStores {
  commands: CommandRegistry;
  /** Loads, follows the backend's events and handles the window's keys; returns the undo of all of it. */
  start(): () => void;
  /** Actions that touch more than one area. */
  actions: {
    createSkill(name: string): Promise<void>;
    importSkills(): void;
    /** a controlled run's view, in the simulator at a step */
    showRun(view: TraceView, step: number): void;
    openHistory(): void;
    /** History ▸ Search with its box focused */
    openSearch(): void;
  };
}

/** The backends the stores talk to; tests replace some. */
export interface Backends {
  studio?: StudioApi;
  editor?: EditorApi;
  layout?: LayoutApi;
  run?: RunApi;
  ops?: OpsApi;
}

export function createApp(be: Backends = {}): App {
  const shell = new ShellStore();
  const layout = new LayoutStore(shell.fail, be.layout);
  const debug = new DebuggerStore();
  // the editor's drafts re-simulate; their views are the live trace's
  const editor = new EditorStore(be.editor ?? api, debug.traceUpdated);
  const studio = new StudioStore(debug, shell.fail, () => { void editor.checkDisk(); }, be.studio);
  const editorPane = new EditorPaneStore();
  const history = new HistoryStore();
  const search = new SearchStore();
  const capture = new CaptureStore();
  const exportFor = new ExportStore();
  const run = new RunStore(be.run);
  const showRun = (view: TraceView, step: number) => { history.setMode('simulator'); debug.show(view, step); };
  const ops = new OpsStore(showRun, layout.openBottom, be.ops);
  const stores: AppStores = { shell, layout, debug, studio, editor, editorPane, history, search, capture, exportFor, run, ops };
  const commands = new CommandRegistry(appCommands(stores));

  const actions: App['actions'] = {
    createSkill: (name) => studio.createSkill(name).then(() => editorPane.edit(name)),
    importSkills: () => {
      studio.importSkills().then(() => editor.toast('Import finished'), (e: unknown) => editor.toast(`Import failed: ${String(e)}`, 'err'));
    },
    showRun,
    openHistory: () => { run.close(); capture.close(); history.setMode('history'); },
    openSearch: () => { run.close(); capture.close(); history.setMode('history'); search.open(); },
  };

  const start = () => {
    const subs = new Subscriptions();
    subs.add(layout.load());
    subs.add(studio.connect());
    subs.add(run.connect());
    subs.add(ops.connect());
    subs.add(search.connect());
    subs.add(commands.listen());
    shell.applyTheme();
    // the window title names the folder
    const title = () => { const root = studio.get().state?.root; document.title = root ? `Hook Studio — ${root}` : 'Hook Studio'; };
    title();
    subs.add(studio.subscribe(title));
    subs.add(() => editor.dispose());
    return () => subs.undoAll();
  };

  return { ...stores, commands, actions, start };
}
