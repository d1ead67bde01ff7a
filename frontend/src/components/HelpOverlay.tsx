// The help (? or F1): every keyboard command of the registry with its keys, how to read the
// screen, and which build this is.
import { useEffect, useRef, useState } from 'react';
import { aboutInfo, versionLine, type AboutInfo } from '../lib/api/about';
import { keyLabel, type CommandRegistry } from '../commands/registry';

function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <>
      {keys.map((k, i) => (
        <span key={k}>{i > 0 && ' / '}{keyLabel(k).split('+').map((p, j) => <span key={p}>{j > 0 && '+'}<kbd>{p}</kbd></span>)}</span>
      ))}
    </>
  );
}

export function HelpOverlay({ commands, onClose }: { commands: CommandRegistry; onClose: () => void }) {
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
          {commands.groups().map(({ group, commands: list }) => (
            <tbody key={group}>
              <tr className="shortcut-group"><th colSpan={2}>{group}</th></tr>
              {list.map((c) => (
                <tr key={c.id} data-command={c.id}>
                  <td><Keys keys={c.keys} /></td>
                  <td>{c.label}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
        <h3>Reading the screen</h3>
        <ul className="help-notes">
          <li><b>Panes</b>: drag a divider to resize a pane (or focus it and use the arrow keys; double-click resets); the sizes are remembered.</li>
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
