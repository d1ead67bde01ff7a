// The event timeline's logic, kept apart from React: filtering by type, the budget badges, and the
// one-line text of an event.
import type { RunEvent, RunEventType } from '../lib/api/ops';

/** The types present in events, in first-seen order. */
export function typesOf(events: RunEvent[]): RunEventType[] {
  const seen: RunEventType[] = [];
  for (const e of events) if (!seen.includes(e.type)) seen.push(e.type);
  return seen;
}

/** The events whose type is not hidden, in sequence order. */
export function filterEvents(events: RunEvent[], hidden: ReadonlySet<RunEventType>): RunEvent[] {
  return events.filter((e) => !hidden.has(e.type));
}

/** Merges a batch into the list by sequence number, dropping repeats (a batch may overlap a reload). */
export function mergeEvents(list: RunEvent[], batch: RunEvent[]): RunEvent[] {
  if (batch.length === 0) return list;
  const bySeq = new Map(list.map((e) => [e.seq, e]));
  for (const e of batch) bySeq.set(e.seq, e);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

export type BudgetLevel = 'warning' | 'critical' | 'exceeded';
export interface BudgetBadge { level: BudgetLevel; ratio: number; used: number; total: number; seq: number; step: number }

/** One badge per budget level the run reached, in the order reached. */
export function budgetBadges(events: RunEvent[]): BudgetBadge[] {
  const out: BudgetBadge[] = [];
  for (const e of events) {
    if (e.type !== 'BUDGET_THRESHOLD' || !e.payload) continue;
    const p = e.payload;
    out.push({ level: p.level as BudgetLevel, ratio: Number(p.ratio), used: Number(p.used), total: Number(p.total), seq: e.seq, step: e.step });
  }
  return out;
}

/** What a row shows after the message: the detail that matters for the type. */
export function detailOf(e: RunEvent): string {
  const p = e.payload ?? {};
  switch (e.type) {
    case 'TOOL_INVOKED':
      return `${p.tool}(${JSON.stringify(p.arguments ?? {})})`;
    case 'TOOL_OBSERVATION':
      return String(p.error ?? p.result ?? '');
    case 'APPROVAL_REQUESTED': {
      // what the hooks answered before the person is asked (a process hook's approve_tool)
      const hooks = Array.isArray(p.hooks) ? (p.hooks as { hook?: string; event?: string; outcome?: string }[]) : [];
      const said = hooks.map((h) => `${h.hook} ${h.event}: ${h.outcome}`).join(', ');
      return [String(p.reason ?? ''), said && `after ${said}`].filter(Boolean).join(' · ');
    }
    case 'APPROVAL_DECISION':
      return [p.decision, p.reason === 'timeout' ? 'timeout' : '', p.feedback].filter(Boolean).join(' · ');
    case 'BUDGET_THRESHOLD':
      return `${p.used}/${p.total} tokens`;
    case 'ERROR_OCCURRED':
      return String(p.error ?? '');
    default:
      return '';
  }
}
