import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import * as run from '../lib/api/run';
import { RunStore } from './store';

let mock: run.RunMock;
beforeEach(() => {
  mock = run.resetRunMock();
  mock.profiles.set('local', { name: 'local', provider: 'openai', base_url: 'http://127.0.0.1:1/v1', model: 'tiny' });
});
afterEach(() => { run.resetRunMock(); });

describe('RunStore', () => {
  it('runs to a breakpoint, follows the pause, resumes step by step, and ends', async () => {
    const s = new RunStore();
    const undo = s.connect();
    s.openPanel();
    s.start({ profile: 'local', step: false, breakpoints: [0], max_rounds: 0 });
    await waitFor(() => expect(s.get().state.status).toBe('paused'));
    expect(s.paused()).toBe(true);
    s.setCursor(0);
    s.resume(true);
    expect(s.get().cursor).toBeNull(); // resuming follows the newest step again
    await waitFor(() => expect(s.get().state.status).toBe('waitingForTool'));
    s.answer('package main');
    await waitFor(() => expect(s.get().state.status).toBe('paused'));
    s.resume(false);
    await waitFor(() => expect(s.get().state.status).toBe('ended'));
    expect(s.active()).toBe(false);
    undo();
  });

  it('a hidden drawer is no paused run for the keys; cancel ends the run; its events stop when undone', async () => {
    const s = new RunStore();
    const undo = s.connect();
    s.start({ profile: 'local', step: true, breakpoints: [], max_rounds: 0 });
    await waitFor(() => expect(s.get().state.status).toBe('paused'));
    expect(s.paused()).toBe(false);
    s.cancel();
    await waitFor(() => expect(s.get().state.status).toBe('ended'));
    undo();
    const before = s.get();
    mock.emit('run:delta', { call: 0, text: 'late' });
    expect(s.get()).toBe(before);
  });

  it('a refused start is shown', async () => {
    const s = new RunStore();
    const undo = s.connect();
    s.start({ profile: 'nobody', step: false, breakpoints: [], max_rounds: 0 });
    await waitFor(() => expect(s.get().state).toMatchObject({ status: 'idle', error: expect.stringContaining('no profile') }));
    undo();
  });
});
