// The app's keyboard commands, over its stores. The order decides between two commands on one
// key: a paused real run's F5/F10 come before the debugger's, the editor's keys before the
// focused editor's own.
import type { Command } from './registry';
import type { AppStores } from '../app/stores';
import type { DebuggerStore } from '../debugger/store';

/** The element is a plain form field, which keeps its own text undo until it commits. */
const inField = (t: EventTarget | null) => {
  const el = t as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA');
};

export function appCommands(a: AppStores): Command[] {
  const simulator = () => a.history.get().mode === 'simulator';
  const editing = () => a.editorPane.get().editing !== null;
  // the stepping keys act on the live debugger, or in the history on the run open read-only
  const target = (): DebuggerStore | null => (simulator() ? a.debug : a.history.readOnlyDebugger());
  const onDebugger = (act: (d: DebuggerStore) => void) => ({
    when: () => target() !== null,
    run: () => act(target()!),
  });
  const inEditor = (e: KeyboardEvent) => editing() && !!(e.target as HTMLElement | null)?.closest?.('.editor') && !inField(e.target);

  return [
    // a real run's drawer takes F5/F10 while it is open (its run paused or not), in any field
    { id: 'run.continue', group: 'Run with a model', label: 'Paused real run: continue to the next breakpoint', keys: ['F5'], early: true, typing: true,
      when: () => a.run.get().open, run: () => { if (a.run.paused()) a.run.resume(false); } },
    { id: 'run.step', group: 'Run with a model', label: 'Paused real run: step to the next LLM call', keys: ['F10'], early: true, typing: true,
      when: () => a.run.get().open, run: () => { if (a.run.paused()) a.run.resume(true); } },

    { id: 'editor.save', group: 'Editor', label: 'Save the current file', keys: ['Mod+S'], early: true, typing: true,
      when: () => editing() || a.editor.dirtyFiles().length > 0, run: () => { void a.editor.save(); } },
    { id: 'editor.saveAll', group: 'Editor', label: 'Save all unsaved files', keys: ['Mod+Shift+S'], early: true, typing: true,
      when: () => editing() || a.editor.dirtyFiles().length > 0, run: () => { void a.editor.saveAll(); } },
    { id: 'editor.undo', group: 'Editor', label: 'Undo the last edit of the current file', keys: ['Mod+Z'], early: true, typing: true,
      when: inEditor, run: () => a.editor.undo() },
    { id: 'editor.redo', group: 'Editor', label: 'Redo', keys: ['Mod+Shift+Z', 'Mod+Y'], early: true, typing: true,
      when: inEditor, run: () => a.editor.redo() },
    { id: 'editor.newFile', group: 'Editor', label: "Create an agent's hook file in the folder (.codex/hooks.json, .gemini/settings.json, …) from a starter", keys: ['Mod+Shift+N'],
      when: () => !!a.studio.get().state?.root, run: () => a.editorPane.newFile() },
    { id: 'editor.complete', group: 'Editor', label: 'Raw hooks.json: complete keys and values from the schema', keys: ['Ctrl+Space'] },

    { id: 'history.toggle', group: 'App', label: 'Switch between the live simulator and the run history', keys: ['Ctrl+H'], typing: true,
      run: () => a.history.toggle() },
    { id: 'search.open', group: 'App', label: "Search every run and session: what reached the model, hooks' words, tool calls", keys: ['Mod+K'], typing: true,
      run: () => { a.run.close(); a.capture.close(); a.history.setMode('history'); a.search.open(); } },
    { id: 'help.close', group: 'App', label: 'Close this help', keys: ['Esc'], typing: true,
      when: () => a.shell.get().help, run: () => a.shell.closeHelp() },
    { id: 'capture.close', group: 'App', label: 'Close the Capture panel (the capture goes on)', keys: ['Esc'], typing: true,
      when: () => a.capture.get().open, run: () => a.capture.close() },
    { id: 'export.close', group: 'App', label: 'Close the Export dialog (nothing is written)', keys: ['Esc'], typing: true,
      when: () => a.exportFor.get().open, run: () => a.exportFor.close() },
    { id: 'export.open', group: 'App', label: "Export the folder's hooks for another agent (Codex, Gemini CLI, Copilot CLI, Qwen Code, Claude Code)", keys: ['Mod+Shift+E'],
      when: () => !!a.studio.get().state?.root && !a.exportFor.get().open, run: () => a.exportFor.open() },
    { id: 'history.back', group: 'App', label: 'A stored run open read-only: back to the runs', keys: ['Esc'],
      when: () => !simulator() && a.history.get().readOnly !== null, run: () => a.history.get().readOnly?.back() },
    { id: 'search.close', group: 'App', label: 'The search: back to the runs', keys: ['Esc'], typing: true,
      when: () => !simulator() && a.history.get().readOnly === null && a.search.get().visible && !a.shell.get().help, run: () => a.search.close() },
    { id: 'menu.close', group: 'App', label: 'Close a menu', keys: ['Esc'] },
    { id: 'help.open', group: 'App', label: 'Open this help', keys: ['?', 'F1'], typing: true,
      run: () => a.shell.openHelp() },

    { id: 'debugger.stepForward', group: 'Debugger', label: 'Step forward', keys: ['F10'], ...onDebugger((d) => d.stepForward()) },
    { id: 'debugger.stepBack', group: 'Debugger', label: 'Step back', keys: ['Shift+F10'], ...onDebugger((d) => d.stepBack()) },
    { id: 'debugger.continue', group: 'Debugger', label: 'Continue to the next breakpoint', keys: ['F5'], ...onDebugger((d) => d.continue()) },
    { id: 'debugger.restart', group: 'Debugger', label: 'Restart from the first step', keys: ['Mod+Shift+F5', 'Mod+R'], ...onDebugger((d) => d.restart()) },
    { id: 'debugger.breakpoint', group: 'Debugger', label: "Toggle a breakpoint on the current step's LLM call / checkpoint / hook (on a hook call: that executable hook)",
      keys: ['F9'], ...onDebugger((d) => d.toggleAtCursor()) },
    { id: 'debugger.first', group: 'Debugger', label: 'First step', keys: ['Home'], ...onDebugger((d) => d.first()) },
    { id: 'debugger.last', group: 'Debugger', label: 'Last step', keys: ['End'], ...onDebugger((d) => d.last()) },

    { id: 'layout.flow', group: 'Layout', label: 'Collapse / show the flowchart', keys: ['Mod+Shift+F'],
      when: simulator, run: () => a.layout.toggle('flow_collapsed') },
    { id: 'layout.bottom', group: 'Layout', label: 'Collapse / show the bottom panel', keys: ['Mod+J'],
      when: simulator, run: () => a.layout.toggle('bottom_collapsed') },

    { id: 'ops.start', group: 'Controlled run', label: 'Run the scenario, asking you for its approvals', keys: ['F6'],
      when: () => a.ops.available(), run: () => a.ops.start() },
    { id: 'ops.pause', group: 'Controlled run', label: 'Pause / resume at the next checkpoint', keys: ['F7'],
      when: () => a.ops.available(), run: () => a.ops.pauseOrResume() },
    { id: 'ops.cancel', group: 'Controlled run', label: 'Cancel at the next checkpoint', keys: ['Shift+F6'],
      when: () => a.ops.available(), run: () => a.ops.cancel() },
  ];
}
