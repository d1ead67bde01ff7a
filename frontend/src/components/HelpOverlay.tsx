import { useEffect, useRef, useState } from 'react';
import { aboutInfo, versionLine, type AboutInfo } from '../lib/api/about';

export const SHORTCUTS: [string, string][] = [
  ['F10', 'Step forward'],
  ['Shift+F10', 'Step back'],
  ['F5', 'Continue to the next breakpoint'],
  ['Ctrl+Shift+F5 / Ctrl+R', 'Restart from the first step'],
  ['F9', "Toggle a breakpoint on the current step's LLM call / checkpoint / hook (on a hook call: that executable hook)"],
  ['Home / End', 'First / last step'],
  ['Ctrl+Shift+F', 'Collapse / show the flowchart'],
  ['Ctrl+J', 'Collapse / show the bottom panel'],
  ['Drag a divider', 'Resize a pane (or focus it and use the arrow keys; double-click resets); the sizes are remembered'],
  ['Ctrl+S', 'Editor: save the current file'],
  ['Ctrl+Shift+S', 'Editor: save all unsaved files'],
  ['Ctrl+Z', 'Editor: undo the last edit of the current file'],
  ['Ctrl+Shift+Z / Ctrl+Y', 'Editor: redo'],
  ['Ctrl+Space', 'Raw hooks.json: complete keys and values from the schema'],
  ['Ctrl+H', 'Switch between the live simulator and the run history'],
  ['F5 / F10 (paused real run)', 'Run with a model: continue / step to the next LLM call'],
  ['F6', 'Controlled run: run the scenario, asking you for its approvals'],
  ['F7', 'Controlled run: pause / resume at the next checkpoint'],
  ['Shift+F6', 'Controlled run: cancel at the next checkpoint'],
  ['? / F1', 'Open this help'],
  ['Esc', 'Close this help / menus'],
];

export function HelpOverlay({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const [about, setAbout] = useState<AboutInfo | null>(null);
  useEffect(() => { ref.current?.focus(); }, []);
  useEffect(() => {
    let live = true;
    aboutInfo().then((a) => { if (live) setAbout(a); }, () => {});
    return () => { live = false; };
  }, []);
  return (
    <div className="overlay" onClick={onClose}>
      <div className="dialog" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" tabIndex={-1} ref={ref} onClick={(e) => e.stopPropagation()}>
        <header>
          <h2>Hook Studio — help</h2>
          <button type="button" className="iconbtn" onClick={onClose} aria-label="Close help">✕</button>
        </header>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map(([k, v]) => (
              <tr key={k}>
                <td>{k.split(' / ').map((x, i) => <span key={x}>{i > 0 && ' / '}{x.split('+').map((p, j) => <span key={p}>{j > 0 && '+'}<kbd>{p}</kbd></span>)}</span>)}</td>
                <td>{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Reading the screen</h3>
        <ul className="help-notes">
          <li><b>Checkpoints</b> ①–⑤: after_user_input, before_planning, before_each_agent, before_first_agent, after_tool_call. Click one in the flow chart to break there.</li>
          <li><b>Breakpoints</b>: the dot left of a step, a hook in the Skills panel, or “break on every LLM call” in the matrix.</li>
          <li><b>INJECTED</b> / <b>REMOVED</b> mark what this step changed; removed messages stay as struck-through ghosts.</li>
          <li><b>History copies</b> are persistent hook messages the frontend carried into later requests; the model sees them again.</li>
          <li>Save a hook's <code>.md</code> in any editor: the trace is re-simulated and changed LLM calls are highlighted.</li>
          <li><b>Editor</b>: “Edit” on a skill opens it next to the simulator. Unsaved edits are previewed at once (“preview of unsaved edits”); a ● marks unsaved files. If a file changes on disk meanwhile, you choose: keep mine, take the disk's, or merge.</li>
        </ul>
        <h3>About</h3>
        <p className="help-notes" data-testid="about">
          {about
            ? <>Hook Studio {versionLine(about)} · {about.goVersion} {about.platform}{!about.history && ' · run history unavailable (built without cgo)'}</>
            : 'Hook Studio — browser preview without the Go backend'}
        </p>
      </div>
    </div>
  );
}
