import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../lib/api/ops';
import { budgetBadges, detailOf, filterEvents, mergeEvents, typesOf } from './timeline';

const ev = (seq: number, type: RunEvent['type'], step = seq, payload?: Record<string, unknown>): RunEvent =>
  ({ seq, type, agent_id: 'agent', message: `${type} ${seq}`, timestamp: '2026-11-23T08:00:00Z', step, payload });

describe('timeline logic', () => {
  const list = [ev(1, 'WORKFLOW_STARTED', -1), ev(2, 'TOOL_INVOKED', 3, { tool: 'run_command', arguments: { command: 'ls' } }),
    ev(3, 'APPROVAL_DECISION', 4, { decision: 'denied', reason: 'timeout', feedback: '' }), ev(5, 'TOOL_INVOKED', 9, { tool: 'read_file' })];

  it('lists the types in first-seen order and filters hidden ones out', () => {
    expect(typesOf(list)).toEqual(['WORKFLOW_STARTED', 'TOOL_INVOKED', 'APPROVAL_DECISION']);
    expect(filterEvents(list, new Set(['TOOL_INVOKED'])).map((e) => e.seq)).toEqual([1, 3]);
    expect(filterEvents(list, new Set()).length).toBe(4);
  });

  it('merges batches by sequence number, without repeats', () => {
    const merged = mergeEvents(list.slice(0, 2), [ev(5, 'TOOL_INVOKED'), ev(2, 'TOOL_INVOKED'), ev(3, 'APPROVAL_DECISION')]);
    expect(merged.map((e) => e.seq)).toEqual([1, 2, 3, 5]);
  });

  it('gives one badge per budget level reached, in order', () => {
    const b = budgetBadges([ev(7, 'BUDGET_THRESHOLD', 20, { level: 'warning', ratio: 0.802, used: 2398, total: 2990 }), ev(9, 'LLM_OUTPUT'),
      ev(12, 'BUDGET_THRESHOLD', 30, { level: 'critical', ratio: 0.994, used: 2973, total: 2990 })]);
    expect(b.map((x) => [x.level, x.used, x.step])).toEqual([['warning', 2398, 20], ['critical', 2973, 30]]);
  });

  it('details the call, the decision and the observation', () => {
    expect(detailOf(list[1]!)).toBe('run_command({"command":"ls"})');
    expect(detailOf(list[2]!)).toBe('denied · timeout');
    expect(detailOf(ev(4, 'TOOL_OBSERVATION', 5, { result: 'Tool call x was denied by the user: no' }))).toBe('Tool call x was denied by the user: no');
    expect(detailOf(ev(6, 'APPROVAL_REQUESTED', 7, { reason: 'Dangerous tool requires approval: run_command' }))).toBe('Dangerous tool requires approval: run_command');
    expect(detailOf(ev(6, 'APPROVAL_REQUESTED', 7, { reason: 'why', hooks: [{ system: 'process', event: 'hook.approve_tool', hook: 'plugin_tools', outcome: 'ok' }] })))
      .toBe('why · after plugin_tools hook.approve_tool: ok');
  });
});
