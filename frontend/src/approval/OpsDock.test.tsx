import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { OpsEvents } from '../lib/api/ops';
import type { TraceView } from '../lib/api/types';
import { OpsDock, opsKey, type OpsApi } from './OpsDock';

function fakeApi() {
  const listeners = new Map<string, (p: unknown) => void>();
  const api = {
    hasOps: () => true,
    startControlledRun: vi.fn(() => Promise.resolve()),
    pauseRun: vi.fn(() => Promise.resolve()),
    resumeRun: vi.fn(() => Promise.resolve()),
    cancelControlledRun: vi.fn(() => Promise.resolve()),
    decideApproval: vi.fn(() => Promise.resolve()),
    onOpsEvent: (name: string, cb: (p: unknown) => void) => { listeners.set(name, cb); return () => listeners.delete(name); },
  };
  const emit = <E extends keyof OpsEvents>(name: E, p: OpsEvents[E]) => act(() => listeners.get(name)!(p));
  return { api: api as unknown as OpsApi & typeof api, emit };
}

const view = { file: 'x.yaml', steps: [] } as unknown as TraceView;

describe('OpsDock', () => {
  it('brings the views to where the run waits: an approval, a pause', () => {
    const { api, emit } = fakeApi();
    const onShow = vi.fn();
    render(<OpsDock cursor={-1} onShow={onShow} api={api} />);
    const at7 = { ...view, revision: 7 } as TraceView;
    emit('run:waiting', { step: 7, reason: 'approval', view: at7 });
    expect(onShow).toHaveBeenLastCalledWith(at7, 7);
    const at9 = { ...view, revision: 9 } as TraceView;
    emit('run:waiting', { step: 9, reason: 'paused', view: at9 });
    expect(onShow).toHaveBeenLastCalledWith(at9, 9);
  });
  it('starts a run, asks for the approval, sends the denial, shows the end', () => {
    const { api, emit } = fakeApi();
    const onShow = vi.fn();
    render(<OpsDock cursor={-1} onShow={onShow} api={api} />);
    fireEvent.click(screen.getByTestId('ops-toggle'));
    fireEvent.click(screen.getByTestId('ops-start'));
    expect(api.startControlledRun).toHaveBeenCalled();
    emit('run:control', { running: true, paused: false, cancelled: false });
    emit('run:events', [{ seq: 1, type: 'WORKFLOW_STARTED', agent_id: 'agent', message: 'started', timestamp: '', step: -1 }]);
    emit('run:approval', { id: 'approval-1', tool: 'run_command', tool_call_id: 'c', arguments: { command: 'x' }, reason: 'why',
      timeout_ms: 30000, deadline: new Date(Date.now() + 30000).toISOString(), step: 3, scenario: 's' });
    fireEvent.change(screen.getByTestId('approval-feedback'), { target: { value: 'no' } });
    fireEvent.click(screen.getByTestId('approval-deny'));
    expect(api.decideApproval).toHaveBeenCalledWith(false, 'no');
    emit('run:approval-done', { id: 'approval-1', approved: false, feedback: 'no' });
    expect(screen.queryByTestId('approval-dialog')).toBeNull();
    emit('run:trace', view);
    emit('run:events', [{ seq: 2, type: 'TOOL_OBSERVATION', agent_id: 'agent', message: 'Tool denied: run_command', timestamp: '', step: 5,
      payload: { result: 'Tool call run_command was denied by the user: no', status: 'denied' } }]);
    fireEvent.click(screen.getAllByTestId('event-row')[1]!);
    expect(onShow).toHaveBeenLastCalledWith(view, 5);
    emit('run:control', { running: false, paused: false, cancelled: false });
    emit('run:ended', { status: 'ok', view });
    expect(screen.getByTestId('ops-state').textContent).toBe('ended: ok');
  });

  it('pauses, resumes and cancels with the buttons and keys', () => {
    const { api, emit } = fakeApi();
    render(<OpsDock cursor={-1} onShow={() => {}} api={api} />);
    fireEvent.keyDown(window, { key: 'F6' });
    expect(api.startControlledRun).toHaveBeenCalledTimes(1);
    emit('run:control', { running: true, paused: false, cancelled: false });
    fireEvent.keyDown(window, { key: 'F7' });
    expect(api.pauseRun).toHaveBeenCalledTimes(1);
    emit('run:control', { running: true, paused: true, cancelled: false });
    expect(screen.getByTestId('ops-pause').textContent).toBe('Resume');
    fireEvent.click(screen.getByTestId('ops-pause'));
    expect(api.resumeRun).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: 'F6', shiftKey: true });
    expect(api.cancelControlledRun).toHaveBeenCalledTimes(1);
  });

  it('keys are no shortcuts while typing or with modifiers', () => {
    expect(opsKey({ key: 'F6', shiftKey: false, ctrlKey: false, metaKey: false, altKey: false }, true)).toBeNull();
    expect(opsKey({ key: 'F7', shiftKey: false, ctrlKey: true, metaKey: false, altKey: false }, false)).toBeNull();
    expect(opsKey({ key: 'F6', shiftKey: true, ctrlKey: false, metaKey: false, altKey: false }, false)).toBe('cancel');
  });
});
