import { describe, expect, it, vi } from 'vitest';
import type { TraceView } from '../lib/api/types';
import { OpsStore } from './store';
import { fakeOps } from './fakeOps';

const view = { file: 'x.yaml', steps: [] } as unknown as TraceView;

describe('OpsStore', () => {
  it('follows the run: events merge, an approval opens the dock once, its decision closes it, the end shows the run', async () => {
    const { api, emit } = fakeOps();
    api.decideApproval.mockImplementation(() => Promise.reject(new Error('no run is waiting')));
    const show = vi.fn(), onOpen = vi.fn();
    const s = new OpsStore(show, onOpen, api);
    const undo = s.connect();
    emit('run:events', [{ seq: 1, type: 'WORKFLOW_STARTED', agent_id: 'a', message: 'm', timestamp: '', step: -1 }]);
    emit('run:events', [{ seq: 1, type: 'WORKFLOW_STARTED', agent_id: 'a', message: 'm', timestamp: '', step: -1 }, { seq: 2, type: 'AGENT_STARTED', agent_id: 'a', message: 'm', timestamp: '', step: 0 }]);
    expect(s.get().events.map((e) => e.seq)).toEqual([1, 2]);
    const pending = { id: 'p1', tool: 't', tool_call_id: 'c', arguments: null, reason: 'r', timeout_ms: 1, deadline: '', step: 2, scenario: 's' };
    emit('run:approval', pending);
    emit('run:approval', { ...pending, id: 'p2' });
    expect(onOpen).toHaveBeenCalledTimes(1);
    emit('run:approval-done', { id: 'p1', approved: true });
    expect(s.get().pending?.id).toBe('p2'); // another approval's decision leaves it
    s.decide(true, '');
    await vi.waitFor(() => expect(s.get().error).toBe('no run is waiting'));
    emit('run:trace', view);
    s.showStep(4);
    expect(show).toHaveBeenLastCalledWith(view, 4);
    emit('run:ended', { status: 'ok', view });
    expect(s.get()).toMatchObject({ ended: { status: 'ok' }, pending: null });
    expect(show).toHaveBeenLastCalledWith(view, -1);
    undo();
  });

  it('starts only when no run runs; pauses or resumes; cancels a running run only; undoes its subscriptions', () => {
    const { api, emit, listeners } = fakeOps();
    const s = new OpsStore(() => {}, () => {}, api);
    const undo = s.connect();
    s.pauseOrResume();
    s.cancel();
    expect([api.pauseRun.mock.calls.length, api.cancelControlledRun.mock.calls.length]).toEqual([0, 0]);
    s.start();
    emit('run:control', { running: true, paused: false, cancelled: false });
    s.start();
    expect(api.startControlledRun).toHaveBeenCalledTimes(1);
    s.pauseOrResume();
    emit('run:control', { running: true, paused: true, cancelled: false });
    s.pauseOrResume();
    s.cancel();
    expect([api.pauseRun.mock.calls.length, api.resumeRun.mock.calls.length, api.cancelControlledRun.mock.calls.length]).toEqual([1, 1, 1]);
    expect(listeners.size).toBe(7);
    undo();
    expect(listeners.size).toBe(0);
  });
});
