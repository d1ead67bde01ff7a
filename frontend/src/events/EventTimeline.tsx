// The event timeline of a run (seed 002): every event in sequence order, filterable by type; a
// click moves the simulator's step cursor to the event's step. Budget thresholds show as badges.
import { useMemo, useState } from 'react';
import type { RunEvent, RunEventType } from '../lib/api/ops';
import { budgetBadges, detailOf, filterEvents, typesOf } from './timeline';
import './events.css';

export interface EventTimelineProps {
  events: RunEvent[];
  /** the simulator's current step, to mark the events at it */
  cursor: number;
  onSelectStep(step: number): void;
}

export function BudgetBadges({ events }: { events: RunEvent[] }) {
  const badges = budgetBadges(events);
  if (badges.length === 0) return null;
  return (
    <span className="budget-badges" data-testid="budget-badges">
      {badges.map((b) => (
        <span key={b.seq} className={`badge budget-${b.level}`} data-testid={`budget-${b.level}`}
          title={`${b.used} of ${b.total} tokens`}>
          {b.level} {Math.round(b.ratio * 100)}%
        </span>
      ))}
    </span>
  );
}

export function EventTimeline({ events, cursor, onSelectStep }: EventTimelineProps) {
  const [hidden, setHidden] = useState<Set<RunEventType>>(() => new Set());
  const types = useMemo(() => typesOf(events), [events]);
  const shown = useMemo(() => filterEvents(events, hidden), [events, hidden]);
  const toggle = (t: RunEventType) => setHidden((h) => {
    const n = new Set(h);
    if (n.has(t)) n.delete(t); else n.add(t);
    return n;
  });
  return (
    <div className="event-timeline" data-testid="event-timeline">
      <div className="event-filters" role="group" aria-label="Event types">
        {types.map((t) => (
          <label key={t} className={`event-filter ev-${t}`}>
            <input type="checkbox" checked={!hidden.has(t)} onChange={() => toggle(t)} data-testid={`filter-${t}`} />
            {t}
          </label>
        ))}
        <BudgetBadges events={events} />
      </div>
      {shown.length === 0 ? (
        <div className="empty-state small">{events.length ? 'No event of the selected types.' : 'No events yet.'}</div>
      ) : (
        <ol className="event-list">
          {shown.map((e) => (
            <li key={e.seq}>
              <button type="button" data-testid="event-row" data-type={e.type}
                className={`event-row ev-${e.type}${e.step === cursor ? ' at-cursor' : ''}`}
                disabled={e.step < 0} title={e.step >= 0 ? `Go to step ${e.step + 1}` : undefined}
                onClick={() => onSelectStep(e.step)}>
                <span className="event-seq">#{e.seq}</span>
                <span className="event-type">{e.type}</span>
                <span className="event-msg">{e.message}</span>
                {detailOf(e) && <span className="event-detail">{detailOf(e)}</span>}
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
