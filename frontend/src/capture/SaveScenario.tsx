// "Save as scenario…" for a capture kept in the history: asks for the file, saves a scenario
// whose mock replays the captured answers, and says where and what it does not replay. Used
// by the Capture dialog (the run just kept) and the History's read-only run (any capture).
import { useState } from 'react';
import { saveCaptureScenario, type SavedScenario } from '../lib/api/capture';

interface Props {
  runId: number;
  /** the path offered first ("" none) */
  suggest: string;
}

export function SaveScenario({ runId, suggest }: Props) {
  const [path, setPath] = useState<string | null>(null);
  const [saved, setSaved] = useState<SavedScenario | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    setBusy(true);
    setError(null);
    saveCaptureScenario(runId, (path ?? '').trim())
      .then((s) => { setSaved(s); setPath(null); }, (e: unknown) => setError(String(e)))
      .finally(() => setBusy(false));
  };
  return (
    <span className="capture-save">
      <button type="button" className="btn" onClick={() => { setSaved(null); setError(null); setPath(suggest); }} disabled={busy} data-testid="capture-save-scenario"
        title="A scenario whose mock replays this capture's answers, in order: hookctl simulate and the simulator run it">Save as scenario…</button>
      {path !== null && (
        <form className="capture-scenario" onSubmit={(e) => { e.preventDefault(); save(); }}>
          <label htmlFor={`capture-scenario-path-${runId}`} className="small">Scenario file</label>
          <input id={`capture-scenario-path-${runId}`} className="input" value={path} onChange={(e) => setPath(e.target.value)}
            placeholder="/path/to/skills/my-skill/scenarios/captured.yaml" spellCheck={false} autoFocus data-testid="capture-scenario-path" />
          <button type="submit" className="btn primary" disabled={busy || !path.trim()} data-testid="capture-scenario-save">Save</button>
          <button type="button" className="btn" onClick={() => setPath(null)}>Cancel</button>
        </form>
      )}
      {error && <span className="error small" role="alert">{error}</span>}
      {saved && (
        <span className="small" data-testid="capture-scenario-saved">
          Saved as <code>{saved.path}</code>: its mock replays the captured answers (<code>hookctl simulate {saved.path}</code>).
          {saved.notes.length > 0 && <ul className="muted">{saved.notes.map((n) => <li key={n}>{n}</li>)}</ul>}
        </span>
      )}
    </span>
  );
}
