import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { PendingApproval } from '../lib/api/ops';
import { ApprovalDialog, answerText, secondsLeft } from './ApprovalDialog';

const t0 = Date.parse('2026-11-23T08:00:00Z');
const pending: PendingApproval = {
  id: 'approval-1', tool: 'run_command', tool_call_id: 'call_0_0_0', arguments: { command: 'sudo systemctl restart api' },
  reason: 'Dangerous tool requires approval: run_command', timeout_ms: 30000, deadline: '2026-11-23T08:00:30Z', step: 13, scenario: 'ops-policy',
};

afterEach(() => { vi.useRealTimers(); });

describe('ApprovalDialog', () => {
  it('shows the exact call and why, and counts down to the deadline', () => {
    vi.useFakeTimers();
    let now = t0;
    render(<ApprovalDialog pending={pending} onDecide={() => {}} now={() => now} />);
    expect(screen.getByTestId('approval-call').textContent).toContain('"command": "sudo systemctl restart api"');
    expect(screen.getByTestId('approval-reason').textContent).toBe('Dangerous tool requires approval: run_command');
    expect(screen.getByTestId('approval-countdown').textContent).toMatch(/^30 s left/);
    now = t0 + 26_500;
    act(() => { vi.advanceTimersByTime(300); });
    expect(screen.getByTestId('approval-countdown').textContent).toMatch(/^4 s left/);
    expect(screen.getByTestId('approval-countdown').className).toContain('urgent');
    now = t0 + 31_000;
    act(() => { vi.advanceTimersByTime(300); });
    expect(screen.getByTestId('approval-countdown').textContent).toContain('denied');
    expect((screen.getByTestId('approval-approve') as HTMLButtonElement).disabled).toBe(true);
  });

  it('denies with the feedback, once', () => {
    const onDecide = vi.fn();
    render(<ApprovalDialog pending={pending} onDecide={onDecide} now={() => t0} />);
    fireEvent.change(screen.getByTestId('approval-feedback'), { target: { value: '  find the cause first ' } });
    fireEvent.click(screen.getByTestId('approval-deny'));
    fireEvent.click(screen.getByTestId('approval-approve'));
    expect(onDecide).toHaveBeenCalledTimes(1);
    expect(onDecide).toHaveBeenCalledWith(false, 'find the cause first');
  });

  it('shows what the hooks answered about the call before you are asked', () => {
    const asked: PendingApproval = { ...pending, hooks: [
      { system: 'process', event: 'hook.before_tool', hook: 'plugin_tools', outcome: 'ok', answer: '{"action": "continue"}' },
      { system: 'process', event: 'hook.approve_tool', hook: 'plugin_tools', outcome: 'ok', answer: '{"jsonrpc": "2.0", "id": 11, "result": {"approved": true}}' },
    ] };
    render(<ApprovalDialog pending={asked} onDecide={() => {}} now={() => t0} />);
    const rows = screen.getAllByTestId('approval-hook');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('plugin_toolshook.before_toolok'),
      expect.stringContaining('plugin_toolshook.approve_toolok{"approved":true}'),
    ]);
    expect(answerText('exit 2: no')).toBe('exit 2: no');
  });

  it('lists no hooks when none answered', () => {
    render(<ApprovalDialog pending={pending} onDecide={() => {}} now={() => t0} />);
    expect(screen.queryByTestId('approval-hooks')).toBeNull();
  });

  it('rounds the seconds left up and never below zero', () => {
    expect(secondsLeft('2026-11-23T08:00:30Z', t0 + 29_001)).toBe(1);
    expect(secondsLeft('2026-11-23T08:00:30Z', t0 + 40_000)).toBe(0);
  });
});
