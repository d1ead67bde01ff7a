import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';
import type { CalibrationState } from '../lib/api/agents';
import type { RunSummary } from '../lib/api/history';
import type { TraceView } from '../lib/api/types';
import { emptyTrace } from '../lib/api/types';
import { AgentsSettings, calibrationProgress } from './AgentsSettings';
import { AgentPick } from './AgentPick';
import { RenderAs } from './RenderAs';

afterEach(() => removeFakeBackend());

const versions = [
  { agent: 'claude-code', version: '2.1.197', origin: 'bundled', file: 'bundled/claude-code/2.1.197.json' },
  { agent: 'claude-code', version: '2.1.332', origin: 'bundled', file: 'bundled/claude-code/2.1.332.json' },
];
const choice = { agent: 'claude-code', chosen: '', versions, installed: { agent: 'claude-code', path: '/usr/bin/claude', version: '2.1.332' } };
const idle: CalibrationState = { running: false, progress: { run: 0, runs: 0, probe: '', requests: 0, message: '' }, lines: [] };

describe('AgentsSettings', () => {
  it('lists the CLIs found, calibrates one with its progress, and shows what differs when it is saved', async () => {
    const CLIs = vi.fn().mockResolvedValue([
      { agent: 'claude-code', command: 'claude', path: '/usr/bin/claude', version: '2.1.400', profile: 'none', calibratable: true },
      { agent: 'codex', command: 'codex', path: '', version: '', profile: 'none', calibratable: false },
    ]);
    const Calibrate = vi.fn().mockResolvedValue({ ...idle, running: true, cli: '/usr/bin/claude' });
    const be = fakeBackend({ Agents: { CLIs, CalibrationState: vi.fn().mockResolvedValue(idle), Calibrate, CancelCalibration: vi.fn().mockResolvedValue(idle) } });
    render(<AgentsSettings />);
    const row = await screen.findByTestId('agent-claude-code');
    expect(row.textContent).toContain('/usr/bin/claude');
    expect(row.textContent).toContain('none');
    expect(screen.getByTestId('agent-codex').textContent).toContain('not found');
    expect(screen.queryByTestId('calibrate-codex')).toBeNull();

    await act(async () => { fireEvent.click(screen.getByTestId('calibrate-claude-code')); });
    expect(Calibrate).toHaveBeenCalledWith('claude-code', '/usr/bin/claude');
    const running: CalibrationState = { running: true, cli: '/usr/bin/claude', progress: { run: 1, runs: 3, probe: 'main', requests: 4, message: 'request 4 answered' }, lines: ['run 1/3 main: request 4 answered'] };
    act(() => be.emit('agents:calibration', running));
    expect(screen.getByTestId('calibration').textContent).toContain('request 4 answered');
    expect((screen.getByTestId('calibrate-claude-code') as HTMLButtonElement).disabled).toBe(true);

    CLIs.mockResolvedValue([{ agent: 'claude-code', command: 'claude', path: '/usr/bin/claude', version: '2.1.400', profile: 'calibrated', calibratable: true }]);
    await act(async () => {
      be.emit('agents:calibration', { ...running, running: false, result: { ref: 'claude-code@2.1.400', file: '/d/agents/claude-code/2.1.400.json', nearest: 'claude-code@2.1.332',
        changes: [{ outcome: 'Stop.block', field: 'renderings[0].preamble', from: '"A"', to: '"B"' }], duration_ms: 5200 } });
    });
    const done = screen.getByTestId('calibration').textContent ?? '';
    expect(done).toContain('Saved claude-code@2.1.400');
    expect(done).toContain('What differs from claude-code@2.1.332');
    expect(done).toContain('Stop.block');
    expect((await screen.findByTestId('agent-claude-code')).textContent).toContain('calibrated');
  });

  it('says when a calibration failed or was cancelled, and calibrates a CLI given by path', async () => {
    const Calibrate = vi.fn().mockResolvedValue({ ...idle, running: true });
    const be = fakeBackend({ Agents: { CLIs: vi.fn().mockResolvedValue([]), CalibrationState: vi.fn().mockResolvedValue(idle), Calibrate } });
    render(<AgentsSettings />);
    const input = await screen.findByLabelText('Another Claude Code CLI');
    fireEvent.change(input, { target: { value: ' /opt/claude ' } });
    await act(async () => { fireEvent.click(screen.getByRole('button', { name: 'Calibrate' })); });
    expect(Calibrate).toHaveBeenCalledWith('claude-code', '/opt/claude');
    act(() => be.emit('agents:calibration', { ...idle, error: 'probe main: the CLI did not run offline\nnothing was saved' }));
    expect(screen.getByRole('alert').textContent).toContain('probe main');
    act(() => be.emit('agents:calibration', { ...idle, error: 'cancelled', cancelled: true }));
    expect(screen.getByRole('alert').textContent).toContain('nothing was saved');
  });

  it('is not shown without the app; progress is a fraction of the runs', async () => {
    const { container } = render(<AgentsSettings />);
    await act(async () => {});
    expect(container.textContent).toBe('');
    expect(calibrationProgress({ ...idle, progress: { run: 2, runs: 3, probe: 'p', requests: 0, message: 'done' } })).toBeCloseTo(2 / 3);
    expect(calibrationProgress({ ...idle, progress: { run: 1, runs: 3, probe: 'p', requests: 0, message: 'starting' } })).toBeCloseTo(0.5 / 3);
  });
});

describe('AgentPick', () => {
  it('shows what the run rendered as, chooses a version and goes back when that fails', async () => {
    const SetAgentVersion = vi.fn().mockResolvedValueOnce({}).mockRejectedValueOnce('no profile');
    fakeBackend({ Studio: { AgentChoice: vi.fn().mockResolvedValue(choice), SetAgentVersion } });
    const view: TraceView = { ...emptyTrace(), agent: { agent: 'claude-code', version: '2.1.332', by: 'installed' } };
    const onState = vi.fn(), onError = vi.fn();
    render(<AgentPick view={view} onState={onState} onError={onError} />);
    const pick = await screen.findByTestId('agent-version') as HTMLSelectElement;
    expect(pick.value).toBe('');
    expect(pick.options[0]!.textContent).toBe('automatic (2.1.332)');
    expect(pick.closest('label')!.title).toContain('the installed CLI');
    await act(async () => { fireEvent.change(pick, { target: { value: '2.1.197' } }); });
    expect(SetAgentVersion).toHaveBeenCalledWith('2.1.197');
    expect(onState).toHaveBeenCalled();
    await act(async () => { fireEvent.change(pick, { target: { value: '2.1.332' } }); });
    expect(onError).toHaveBeenCalledWith('no profile');
    expect(pick.value).toBe('2.1.197');
  });
});

describe('RenderAs', () => {
  it('renders the run as another version and hands back the new run', async () => {
    const RenderAsFn = vi.fn().mockResolvedValue(42);
    fakeBackend({ Studio: { AgentChoice: vi.fn().mockResolvedValue(choice), RenderAs: RenderAsFn } });
    const run = { id: 7, scenario: 'release', scenario_file: 'claude-guard/scenarios/release.yaml', agent: 'claude-code@2.1.332' } as RunSummary;
    const onRendered = vi.fn();
    render(<RenderAs run={run} onRendered={onRendered} onError={() => {}} />);
    const pick = await screen.findByTestId('render-as') as HTMLSelectElement;
    expect([...pick.options].map((o) => o.value)).toEqual(['', '2.1.197']);
    await act(async () => { fireEvent.change(pick, { target: { value: '2.1.197' } }); });
    expect(RenderAsFn).toHaveBeenCalledWith('claude-guard/scenarios/release.yaml', 'claude-code@2.1.197');
    expect(onRendered).toHaveBeenCalledWith(42);
  });
});
