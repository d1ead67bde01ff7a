import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { RunEvent } from '../lib/api/ops';
import { EventTimeline } from './EventTimeline';

const ev = (seq: number, type: RunEvent['type'], step: number, payload?: Record<string, unknown>): RunEvent =>
  ({ seq, type, agent_id: 'agent', message: `${type.toLowerCase()} ${seq}`, timestamp: '', step, payload });

const events = [ev(1, 'WORKFLOW_STARTED', -1), ev(2, 'AGENT_THINKING', 3), ev(3, 'TOOL_INVOKED', 7, { tool: 'run_command' }),
  ev(4, 'BUDGET_THRESHOLD', 9, { level: 'warning', ratio: 0.84, used: 84, total: 100 }), ev(6, 'TOOL_INVOKED', 12, { tool: 'read_file' })];

describe('EventTimeline', () => {
  it('filters by type and moves the step cursor to a clicked event', () => {
    const onSelectStep = vi.fn();
    render(<EventTimeline events={events} cursor={7} onSelectStep={onSelectStep} />);
    const rows = () => screen.getAllByTestId('event-row').map((r) => r.getAttribute('data-type'));
    expect(rows()).toEqual(['WORKFLOW_STARTED', 'AGENT_THINKING', 'TOOL_INVOKED', 'BUDGET_THRESHOLD', 'TOOL_INVOKED']);
    fireEvent.click(screen.getByTestId('filter-TOOL_INVOKED'));
    expect(rows()).toEqual(['WORKFLOW_STARTED', 'AGENT_THINKING', 'BUDGET_THRESHOLD']);
    fireEvent.click(screen.getByTestId('filter-TOOL_INVOKED'));
    const invoked = screen.getAllByTestId('event-row')[2]!;
    expect(invoked.className).toContain('at-cursor');
    fireEvent.click(screen.getAllByTestId('event-row')[4]!);
    expect(onSelectStep).toHaveBeenCalledWith(12);
    // An event without a step cannot move the cursor.
    expect((screen.getAllByTestId('event-row')[0] as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a badge per budget level reached', () => {
    render(<EventTimeline events={events} cursor={0} onSelectStep={() => {}} />);
    expect(screen.getByTestId('budget-warning').textContent).toBe('warning 84%');
    expect(screen.queryByTestId('budget-critical')).toBeNull();
  });
});
