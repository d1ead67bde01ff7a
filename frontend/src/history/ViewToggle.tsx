// Simulator ⇄ History switch shown in the top area (Ctrl+H toggles it too).
export type AppView = 'simulator' | 'history';

export function ViewToggle({ view, onChange }: { view: AppView; onChange: (v: AppView) => void }) {
  return (
    <div className="view-toggle" role="group" aria-label="View">
      <button type="button" aria-pressed={view === 'simulator'} onClick={() => onChange('simulator')} title="Live simulator (Ctrl+H)">Simulator</button>
      <button type="button" aria-pressed={view === 'history'} onClick={() => onChange('history')} title="Run history (Ctrl+H)" data-testid="history-toggle">History</button>
    </div>
  );
}
