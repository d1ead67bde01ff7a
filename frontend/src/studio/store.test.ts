import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import * as api from '../lib/api';
import type { StudioState } from '../lib/api';
import { DebuggerStore } from '../debugger/store';
import { StudioStore } from './store';

beforeEach(() => api.resetMockBackend());
afterEach(() => api.resetMockBackend());

function connected() {
  let subscribed = 0;
  const be = { ...api, subscribe: ((e, cb) => { subscribed++; const off = api.subscribe(e, cb); return () => { subscribed--; off(); }; }) as typeof api.subscribe };
  const debug = new DebuggerStore();
  const fail = vi.fn();
  const onDisk = vi.fn();
  const studio = new StudioStore(debug, fail, onDisk, be);
  const undo = studio.connect();
  return { studio, debug, fail, onDisk, undo, subscribed: () => subscribed };
}

describe('StudioStore', () => {
  it('loads the state and the trace, follows their events, and undoes its subscriptions', async () => {
    const { studio, debug, onDisk, undo, subscribed } = connected();
    expect(debug.get().status).toBe('loading');
    await waitFor(() => expect(studio.get().state?.root).toBeTruthy());
    await waitFor(() => expect(debug.get().status).toBe('paused'));
    expect(subscribed()).toBe(3);
    const s = studio.get().state!;
    api.emitMockEvent('studio:state', { ...s, notice: 'disk changed' });
    expect(studio.get().state?.notice).toBe('disk changed');
    expect(onDisk).toHaveBeenCalledTimes(1);
    api.emitMockEvent('studio:progress', { active: true, file: s.selected, started_ms: 0, elapsed_ms: 5, steps: 1, hook_calls: 0 });
    expect(studio.get().progress?.active).toBe(true);
    undo();
    expect(subscribed()).toBe(0);
    api.emitMockEvent('studio:state', { ...s, notice: 'after' });
    expect(studio.get().state?.notice).toBe('disk changed');
  });

  it('keeps a newer snapshot when an older answer arrives after it', async () => {
    const { studio } = connected();
    await waitFor(() => expect(studio.get().state).not.toBeNull());
    const s = studio.get().state!;
    studio.take({ ...s, seq: 9, notice: 'newer' } as StudioState);
    studio.take({ ...s, seq: 8, notice: 'older' } as StudioState);
    expect(studio.get().state?.notice).toBe('newer');
  });

  it('picks a scenario (an invalid one shows as invalid), toggles a skill at once, reports a failure', async () => {
    const { studio, debug, fail } = connected();
    await waitFor(() => expect(debug.get().status).toBe('paused'));
    const bad = studio.get().state!.scenarios.find((x) => !x.valid)!;
    studio.selectScenario(bad.file);
    expect(debug.get().status).toBe('loading');
    await waitFor(() => expect(debug.get().status).toBe('invalid'));
    await waitFor(() => expect(studio.get().state?.selected).toBe(bad.file));
    const skill = studio.get().state!.skills[0]!.name;
    studio.setSkillEnabled(skill, false);
    expect(studio.get().state!.skills[0]!.enabled).toBe(false);
    await expect(studio.createSkill('../bad')).rejects.toMatch(/invalid-skill-name/);
    studio.untrust();
    studio.openFolder('/elsewhere');
    await waitFor(() => expect(studio.get().state?.root).toBe('/elsewhere'));
    expect(fail).not.toHaveBeenCalled();
  });
});
