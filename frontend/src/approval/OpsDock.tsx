// The controlled run's dock (seed 002): start a run of the selected scenario that asks you for its
// approvals, pause / resume / cancel it (buttons and F6, F7, Shift+F6), answer the approval dialog,
// and follow the event timeline with the budget badges. Clicking an event shows the run in the
// simulator at that event's step.
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '../lib/store';
import type { OpsStore } from './store';
import { EventTimeline, BudgetBadges } from '../events/EventTimeline';
import { ApprovalDialog } from './ApprovalDialog';
import './approval.css';

export interface OpsDockProps {
  store: OpsStore;
  cursor: number;
  /** where the closed dock's toggle goes (the debug bar) and the open dock (over the bottom
   * panel), so it covers neither the message list nor the history; without them it floats */
  buttonSlot?: HTMLElement | null;
  panelSlot?: HTMLElement | null;
  /** the History view is showing: only an approval asks (the dock belongs to the simulator) */
  hidden?: boolean;
}

export function OpsDock({ store, cursor, buttonSlot, panelSlot, hidden = false }: OpsDockProps) {
  const { open, events, pending, control, ended, error } = useStore(store);
  const { start, pauseOrResume, cancel } = store;
  if (!store.available()) return null;
  const state = control.running ? (control.cancelled ? 'cancelling…' : control.paused ? 'paused' : 'running')
    : ended ? `ended: ${ended.status}${ended.error ? ` (${ended.error})` : ''}` : 'idle';
  const dock = (
    <div className={`ops-dock${open ? '' : ' closed'}${panelSlot || buttonSlot ? ' docked' : ''}`} data-testid="ops-dock" data-state={control.running ? (control.paused ? 'paused' : 'running') : 'idle'}>
      <div className="ops-controls">
        <button type="button" className="linkbtn" onClick={store.toggle} aria-expanded={open} data-testid="ops-toggle"
          title={open ? 'Hide the controlled run (it goes on)' : 'Show the controlled run: run the scenario asking you for its approvals (F6)'}>
          {open ? '▾' : '▸'} Controlled run{!open && control.running ? ` · ${state}` : ''}
        </button>
        {!open && <BudgetBadges events={events} />}
        {open && (
          <>
            <button type="button" className="btn" disabled={control.running} onClick={start} data-testid="ops-start" title="Run the selected scenario asking you for its approvals (F6)">Run with approvals</button>
            <button type="button" className="btn" disabled={!control.running || control.cancelled} onClick={pauseOrResume} data-testid="ops-pause" title="Pause or resume at the next checkpoint (F7)">
              {control.paused ? 'Resume' : 'Pause'}
            </button>
            <button type="button" className="btn" disabled={!control.running || control.cancelled} onClick={cancel} data-testid="ops-cancel" title="Cancel at the next checkpoint (Shift+F6)">Cancel</button>
            <span className="ops-state" data-testid="ops-state">{state}</span>
          </>
        )}
      </div>
      {error && open && <div className="banner banner-err" role="alert">{error}</div>}
      {open && control.hooks_not_run && (
        <div className="banner banner-warn" data-testid="ops-hooks-not-run">
          Executable hooks take no part: {control.hooks_not_run}. This run plays the prompt hooks only, as the simulation does.
        </div>
      )}
      {open && (
        <EventTimeline events={events} cursor={cursor} onSelectStep={store.showStep} />
      )}
    </div>
  );
  const slot = open ? panelSlot : buttonSlot;
  let placed: ReactNode = null;
  if (!hidden) placed = slot ? createPortal(dock, slot) : dock;
  return (
    <>
      {placed}
      {pending && <ApprovalDialog key={pending.id} pending={pending}
        onDecide={store.decide} />}
    </>
  );
}
