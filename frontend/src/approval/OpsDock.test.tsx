import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { TraceView } from '../lib/api/types';
import { OpsDock } from './OpsDock';
import { OpsStore } from './store';
import { fakeOps } from './fakeOps';
import { renderInApp } from '../app/testing';
import { createApp } from '../app/stores';

// events pushed inside act: they change what is on screen
function fakeOpsAct() {
  const f = fakeOps();
  return { ...f, emit: ((name, p) => act(() => f.emit(name, p))) as typeof f.emit };
}

const view = { file: 'x.yaml', steps: [] } as unknown as TraceView;
let disconnect = () => {};
afterEach(() => disconnect());

function dock() {
  const { api, emit, listeners } = fakeOpsAct();
  const onShow = vi.fn();
  const onOpen = vi.fn();
  const store = new OpsStore(onShow, onOpen, api);
  disconnect = store.connect();
  render(<OpsDock store={store} cursor={-1} />);
  return { api, emit, listeners, onShow, onOpen, store };
}

describe('OpsDock', () => {
  it('brings the views to where the run waits: an approval, a pause', () => {
    const { emit, onShow } = dock();
    const at7 = { ...view, revision: 7 } as TraceView;
    emit('run:waiting', { step: 7, reason: 'approval', view: at7 });
    expect(onShow).toHaveBeenLastCalledWith(at7, 7);
    const at9 = { ...view, revision: 9 } as TraceView;
    emit('run:waiting', { step: 9, reason: 'paused', view: at9 });
    expect(onShow).toHaveBeenLastCalledWith(at9, 9);
  });

  it('says when the folder\'s executable hooks take no part, during the run and after', () => {
    const { emit } = dock();
    fireEvent.click(screen.getByTestId('ops-toggle'));
    emit('run:control', { running: true, paused: false, cancelled: false });
    expect(screen.queryByTestId('ops-hooks-not-run')).toBeNull();
    emit('run:control', { running: true, paused: false, cancelled: false, hooks_not_run: 'folder not trusted' });
    expect(screen.getByTestId('ops-hooks-not-run').textContent).toContain('folder not trusted');
    emit('run:control', { running: false, paused: false, cancelled: false, hooks_not_run: 'folder not trusted' });
    expect(screen.getByTestId('ops-hooks-not-run').textContent).toContain('prompt hooks only');
  });

  it('starts a run, asks for the approval, sends the denial, shows the end', () => {
    const { api, emit, onShow, onOpen } = dock();
    fireEvent.click(screen.getByTestId('ops-toggle'));
    expect(onOpen).toHaveBeenCalledTimes(1);
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
});

describe('the controlled run in the app', () => {
  it('pauses, resumes and cancels with the buttons and F6, F7, Shift+F6; no key while typing or with Ctrl', () => {
    const { api, emit } = fakeOpsAct();
    const app = createApp({ ops: api });
    disconnect = app.ops.connect();
    renderInApp(<><input data-testid="field" /><OpsDock store={app.ops} cursor={-1} /></>, { app });
    fireEvent.keyDown(screen.getByTestId('field'), { key: 'F6' });
    expect(api.startControlledRun).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: 'F6' });
    expect(api.startControlledRun).toHaveBeenCalledTimes(1);
    emit('run:control', { running: true, paused: false, cancelled: false });
    fireEvent.keyDown(window, { key: 'F6' }); // running: no second start
    expect(api.startControlledRun).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: 'F7', ctrlKey: true });
    expect(api.pauseRun).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: 'F7' });
    expect(api.pauseRun).toHaveBeenCalledTimes(1);
    emit('run:control', { running: true, paused: true, cancelled: false });
    expect(screen.getByTestId('ops-pause').textContent).toBe('Resume');
    fireEvent.click(screen.getByTestId('ops-pause'));
    expect(api.resumeRun).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(window, { key: 'F6', shiftKey: true });
    expect(api.cancelControlledRun).toHaveBeenCalledTimes(1);
  });

  it('an approval in the History shows the run in the simulator, with the bottom panel open', () => {
    const { api, emit } = fakeOpsAct();
    const app = createApp({ ops: api });
    disconnect = app.ops.connect();
    app.history.setMode('history');
    app.layout.update({ bottom_collapsed: true });
    emit('run:approval', { id: 'a', tool: 't', tool_call_id: 'c', arguments: null, reason: 'r', timeout_ms: 1000, deadline: '', step: 0, scenario: 's' });
    expect(app.layout.get().layout.bottom_collapsed).toBe(false); // the dock opened over it
    emit('run:waiting', { step: 0, reason: 'approval', view });
    expect(app.history.get().mode).toBe('simulator');
  });
});
