import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';
import type { CalibrationState } from '../lib/api/agents';
import { emptyTrace, type RequestModelKind, type TraceView } from '../lib/api/types';
import { RunAgent } from './RunAgent';

afterEach(() => removeFakeBackend());

const idle: CalibrationState = { running: false, progress: { run: 0, runs: 0, probe: '', requests: 0, message: '' }, lines: [] };
const viewOf = (request?: RequestModelKind): TraceView => ({ ...emptyTrace(), agent: { agent: 'claude-code', version: '2.1.332', by: 'scenario', request } });

describe('RunAgent', () => {
  it.each([
    ['calibrated', 'calibrated', 'Calibrate again'],
    ['bundled', 'bundled shape', 'Calibrate now'],
    [undefined, 'none', 'Calibrate now'],
  ] as const)('says the run is the agent\'s and where its request model came from (%s)', (request, label, action) => {
    fakeBackend({ Agents: {} });
    render(<RunAgent view={viewOf(request)} onCalibrated={() => {}} />);
    const badge = screen.getByTestId('run-agent');
    expect(badge.getAttribute('data-kind')).toBe(request ?? 'none');
    const btn = screen.getByRole('button', { expanded: false });
    expect(btn.textContent).toContain(`Claude Code 2.1.332 · request: ${label}`);
    fireEvent.click(btn);
    expect(screen.getByRole('dialog').textContent).toContain('hookctl calibrate claude-code');
    expect(screen.getByTestId('run-agent-calibrate').textContent).toBe(action);
  });

  it('is not there for a run that is no agent\'s', () => {
    render(<RunAgent view={emptyTrace()} onCalibrated={() => {}} />);
    expect(screen.queryByTestId('run-agent')).toBeNull();
  });

  it('calibrates the CLI, shows how far it is, and simulates again once it saved; its subscription is undone', async () => {
    const Calibrate = vi.fn().mockResolvedValue({ ...idle, running: true, agent: 'claude-code' });
    const be = fakeBackend({ Agents: { Calibrate } });
    const onCalibrated = vi.fn();
    const { unmount } = render(<RunAgent view={viewOf('none')} onCalibrated={onCalibrated} />);
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    await act(async () => { fireEvent.click(screen.getByTestId('run-agent-calibrate')); });
    expect(Calibrate).toHaveBeenCalledWith('claude-code', '');
    act(() => be.emit('agents:calibration', { ...idle, running: true, lines: ['run 2/13 request: request 3 answered'] }));
    expect(screen.getByTestId('run-agent-progress').textContent).toBe('run 2/13 request: request 3 answered');
    expect((screen.getByTestId('run-agent-calibrate') as HTMLButtonElement).disabled).toBe(true);
    expect(onCalibrated).not.toHaveBeenCalled();
    act(() => be.emit('agents:calibration', { ...idle, running: false, result: { ref: 'claude-code@2.1.332', file: 'f', changes: [], duration_ms: 1, request_file: 'r' } }));
    expect(onCalibrated).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toBe('Saved claude-code@2.1.332 and its request model.');
    unmount();
    expect(be.listeners.get('agents:calibration')?.size ?? 0).toBe(0);
  });

  it('does not simulate again after a calibration that failed, and says why', async () => {
    const be = fakeBackend({ Agents: { Calibrate: vi.fn().mockResolvedValue({ ...idle, running: true }) } });
    const onCalibrated = vi.fn();
    render(<RunAgent view={viewOf('bundled')} onCalibrated={onCalibrated} />);
    fireEvent.click(screen.getByRole('button', { expanded: false }));
    await act(async () => { fireEvent.click(screen.getByTestId('run-agent-calibrate')); });
    act(() => be.emit('agents:calibration', { ...idle, running: false, error: 'claude: not offline\nnothing was saved' }));
    expect(onCalibrated).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toContain('not offline');
  });
});
