// The controlled run's dock (seed 002): start a run of the selected scenario that asks you for its
// approvals, pause / resume / cancel it (buttons and F6, F7, Shift+F6), answer the approval dialog,
// and follow the event timeline with the budget badges. Clicking an event shows the run in the
// simulator at that event's step.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import type { TraceView } from '../lib/api/types';
import * as ops from '../lib/api/ops';
import type { OpsRunEnded, PendingApproval, RunControl, RunEvent } from '../lib/api/ops';
import { EventTimeline, BudgetBadges } from '../events/EventTimeline';
import { mergeEvents } from '../events/timeline';
import { ApprovalDialog } from './ApprovalDialog';
import './approval.css';

/** What the dock needs from the backend; tests pass a fake. */
export type OpsApi = Pick<typeof ops, 'startControlledRun' | 'pauseRun' | 'resumeRun' | 'cancelControlledRun' | 'decideApproval' | 'onOpsEvent' | 'hasOps'>;

export interface OpsDockProps {
  cursor: number;
  /** show view in the simulator, at step (-1: where it starts) */
  onShow(view: TraceView, step: number): void;
  api?: OpsApi;
  /** where the closed dock's toggle goes (the debug bar) and the open dock (over the bottom
   * panel), so it covers neither the message list nor the history; without them it floats */
  buttonSlot?: HTMLElement | null;
  panelSlot?: HTMLElement | null;
  /** the History view is showing: only an approval asks (the dock belongs to the simulator) */
  hidden?: boolean;
  /** the dock opened (the app makes room for it) */
  onOpen?: () => void;
}

const idle: RunControl = { running: false, paused: false, cancelled: false };

/** The key a shortcut means, or null (typing in a field is never a shortcut). */
export function opsKey(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>, typing: boolean): 'start' | 'pause' | 'cancel' | null {
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === 'F6') return e.shiftKey ? 'cancel' : 'start';
  if (e.key === 'F7' && !e.shiftKey) return 'pause';
  return null;
}

export function OpsDock({ cursor, onShow, api = ops, buttonSlot, panelSlot, hidden = false, onOpen }: OpsDockProps) {
  const [open, setOpenState] = useState(false);
  const onOpenRef = useRef(onOpen);
  useEffect(() => { onOpenRef.current = onOpen; }, [onOpen]);
  const setOpen = useCallback((o: boolean | ((was: boolean) => boolean)) => {
    setOpenState((was) => {
      const next = typeof o === 'function' ? o(was) : o;
      if (next && !was) queueMicrotask(() => onOpenRef.current?.());
      return next;
    });
  }, []);
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [pending, setPending] = useState<PendingApproval | null>(null);
  const [control, setControl] = useState<RunControl>(idle);
  const [ended, setEnded] = useState<OpsRunEnded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const view = useRef<TraceView | null>(null);

  useEffect(() => {
    const offs = [
      api.onOpsEvent('run:events', (batch) => setEvents((l) => mergeEvents(l, batch))),
      api.onOpsEvent('run:approval', (p) => { setPending(p); setOpen(true); }),
      api.onOpsEvent('run:approval-done', (d) => setPending((p) => (p && p.id === d.id ? null : p))),
      api.onOpsEvent('run:control', setControl),
      api.onOpsEvent('run:trace', (v) => { view.current = v; }),
      // the run waits for the user (paused, an approval): the views follow it there
      api.onOpsEvent('run:waiting', (w) => { view.current = w.view; onShow(w.view, w.step); }),
      api.onOpsEvent('run:ended', (e) => { view.current = e.view; setEnded(e); setPending(null); onShow(e.view, -1); }),
    ];
    return () => offs.forEach((off) => off());
  }, [api, onShow, setOpen]);

  const fail = (e: unknown) => setError(String(e instanceof Error ? e.message : e));
  const start = useCallback(() => {
    setEvents([]); setEnded(null); setError(null); setOpen(true);
    api.startControlledRun().catch(fail);
  }, [api, setOpen]);
  const pauseOrResume = useCallback(() => {
    if (!control.running) return;
    (control.paused ? api.resumeRun() : api.pauseRun()).catch(fail);
  }, [api, control]);
  const cancel = useCallback(() => { if (control.running) api.cancelControlledRun().catch(fail); }, [api, control]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      const typing = !!t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.isContentEditable);
      const k = opsKey(e, typing);
      if (!k) return;
      e.preventDefault();
      if (k === 'start') { if (!control.running) start(); } else if (k === 'pause') pauseOrResume(); else cancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [control.running, start, pauseOrResume, cancel]);

  if (!api.hasOps()) return null;
  const state = control.running ? (control.cancelled ? 'cancelling…' : control.paused ? 'paused' : 'running')
    : ended ? `ended: ${ended.status}${ended.error ? ` (${ended.error})` : ''}` : 'idle';
  const dock = (
    <div className={`ops-dock${open ? '' : ' closed'}${panelSlot || buttonSlot ? ' docked' : ''}`} data-testid="ops-dock" data-state={control.running ? (control.paused ? 'paused' : 'running') : 'idle'}>
      <div className="ops-controls">
        <button type="button" className="linkbtn" onClick={() => setOpen((o) => !o)} aria-expanded={open} data-testid="ops-toggle"
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
      {open && (
        <EventTimeline events={events} cursor={cursor}
          onSelectStep={(step) => { if (view.current) onShow(view.current, step); }} />
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
        onDecide={(approve, feedback) => { api.decideApproval(approve, feedback).catch(fail); }} />}
    </>
  );
}
