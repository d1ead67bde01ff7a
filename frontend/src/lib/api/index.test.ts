import { afterEach, describe, expect, it, vi } from 'vitest';
import seed from '../../fixtures/seed-diagrams.json';
import type { TraceView } from './types';
import * as api from './index';
import { fakeBackend, removeFakeBackend } from './fakeBackend';

afterEach(() => {
  removeFakeBackend();
  api.resetMockBackend();
});

function fakeWails() {
  const studio = {
    State: vi.fn(async () => ({ root: '/r', root_missing: false, recent: [], skills: [], scenarios: [], selected: '', errors: 0, warnings: 0, diagnostics: [] })),
    OpenFolder: vi.fn(), ChooseFolder: vi.fn(), SelectScenario: vi.fn(async () => seed as TraceView),
    SetSkillEnabled: vi.fn(), Trace: vi.fn(),
  };
  return { studio, ...fakeBackend({ Studio: studio }) };
}

describe('api with the Wails bindings', () => {
  it('calls window.go.bind.Studio through the generated bindings', async () => {
    const { studio } = fakeWails();
    expect(api.hasBackend()).toBe(true);
    expect((await api.getState()).root).toBe('/r');
    await api.selectScenario('demo/scenarios/x.yaml');
    expect(studio.SelectScenario).toHaveBeenCalledWith('demo/scenarios/x.yaml');
  });

  it('subscribe returns the undo function', () => {
    const { emit, listeners } = fakeWails();
    const cb = vi.fn();
    const off = api.subscribe('studio:trace', cb);
    emit('studio:trace', seed);
    expect(cb).toHaveBeenCalledTimes(1);
    off();
    emit('studio:trace', seed);
    expect(cb).toHaveBeenCalledTimes(1);
    expect(listeners.get('studio:trace')?.size).toBe(0);
  });
});

describe('api without a backend (dev fallback)', () => {
  it('serves the fixtures', async () => {
    expect(api.hasBackend()).toBe(false);
    const s = await api.getState();
    expect(s.skills.map((k) => k.name)).toContain('demo');
    const t = await api.getTrace();
    expect(t.scenario).toBe('seed-diagrams');
    const bad = s.scenarios.find((x) => !x.valid)!;
    const inv = await api.selectScenario(bad.file);
    expect(inv.status).toBe('invalid');
    expect(inv.diagnostics.length).toBeGreaterThan(0);
  });

  it('delivers events to subscribers until undone', () => {
    const cb = vi.fn();
    const off = api.subscribe('studio:trace', cb);
    api.emitMockEvent('studio:trace', seed as TraceView);
    off();
    api.emitMockEvent('studio:trace', seed as TraceView);
    expect(cb).toHaveBeenCalledTimes(1);
  });
});

describe('newer', () => {
  const at = (seq?: number, root = '/r') => ({ root, seq });
  it('keeps a newer snapshot when an older answer arrives after it', () => {
    const event = at(7, '/event');
    expect(api.newer(event, at(6, '/answer'))).toBe(event);
    const next = at(8, '/next');
    expect(api.newer(event, next)).toBe(next);
  });
  it('takes any snapshot without an order (the mock) and the first one', () => {
    const s = at(undefined);
    expect(api.newer(at(3), s)).toBe(s);
    expect(api.newer(null, at(1))).toMatchObject({ seq: 1 });
  });
});
