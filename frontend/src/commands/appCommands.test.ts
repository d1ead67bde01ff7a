import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, waitFor } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import * as api from '../lib/api';
import * as run from '../lib/api/run';
import * as ops from '../lib/api/ops';
import type { TraceView } from '../lib/api';
import { createApp, type App } from '../app/stores';
import { DebuggerStore } from '../debugger/store';
import { keyLabel } from './registry';

const view = seed as TraceView;
type Mods = Partial<Pick<KeyboardEventInit, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>>;
function press(key: string, mods: Mods = {}, target: EventTarget = window): KeyboardEvent {
  const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...mods });
  act(() => { target.dispatchEvent(e); });
  return e;
}

// every subscription the app makes to a backend, counted
let open = 0;
const counted = <A extends unknown[]>(sub: (...a: A) => () => void) => (...a: A) => { open++; const off = sub(...a); return () => { open--; off(); }; };
const backends = () => ({
  studio: { ...api, subscribe: counted(api.subscribe) },
  run: { ...run, onRun: counted(run.onRun), resumeRun: vi.fn(() => Promise.resolve()) },
  ops: { ...ops, onOpsEvent: counted(ops.onOpsEvent) },
});

let app: App;
let stop: () => void;
let be: ReturnType<typeof backends>;
beforeEach(async () => {
  api.resetMockBackend();
  run.resetRunMock();
  open = 0;
  be = backends();
  app = createApp(be);
  stop = app.start();
  await waitFor(() => expect(app.debug.step()).toBeDefined());
});
afterEach(() => { stop(); document.body.innerHTML = ''; });
const cursor = () => app.debug.cursor();

describe('the app commands', () => {
  it("every shortcut the README and the help name is a command's key", () => {
    const keys = new Set(app.commands.commands.flatMap((c) => c.keys.map(keyLabel)));
    for (const k of ['F10', 'Shift+F10', 'F5', 'Ctrl+Shift+F5', 'Ctrl+R', 'F9', 'Home', 'End', '?', 'F1', 'Esc', 'Ctrl+Shift+F', 'Ctrl+J',
      'F6', 'F7', 'Shift+F6', 'Ctrl+S', 'Ctrl+Shift+S', 'Ctrl+Z', 'Ctrl+Shift+Z', 'Ctrl+Y', 'Ctrl+Space', 'Ctrl+H', 'Ctrl+K']) {
      expect(keys, k).toContain(k);
    }
  });

  it('steps the live debugger: F10, Shift+F10, End, Home, F9, Ctrl+Shift+F5 / Ctrl+R, F5', () => {
    press('F10');
    press('F10');
    expect(cursor()).toBe(2);
    press('F10', { shiftKey: true });
    expect(cursor()).toBe(1);
    press('End');
    expect(cursor()).toBe(view.steps.length - 1);
    press('Home');
    expect(cursor()).toBe(0);
    app.debug.jumpToCall(1);
    press('F9');
    expect(app.debug.get().breakpoints).toEqual(['call:1']);
    press('F5', { ctrlKey: true, shiftKey: true });
    expect(cursor()).toBe(0);
    press('F5');
    expect(cursor()).toBe(view.calls[1]!.step);
    press('r', { ctrlKey: true });
    expect(cursor()).toBe(0);
  });

  it('no stepping key while typing in a field', () => {
    const input = document.body.appendChild(document.createElement('input'));
    const e = press('F10', {}, input);
    expect(cursor()).toBe(0);
    expect(e.defaultPrevented).toBe(false);
  });

  it('in the history the stepping keys act on the run open read-only, and Esc goes back to the runs', () => {
    press('h', { ctrlKey: true });
    expect(app.history.get().mode).toBe('history');
    press('F10');
    expect(cursor()).toBe(0); // the live debugger stays
    const ro = new DebuggerStore();
    ro.dispatch({ type: 'load', view });
    const back = vi.fn();
    const undo = app.history.showReadOnly(ro, back);
    press('F10');
    press('End');
    expect([cursor(), ro.cursor()]).toEqual([0, view.steps.length - 1]);
    press('Escape');
    expect(back).toHaveBeenCalledTimes(1);
    undo();
    press('H', { ctrlKey: true });
    expect(app.history.get().mode).toBe('simulator');
  });

  it('Ctrl+K opens the search in the history (from a field too, over the Capture panel), Esc goes back to the runs', () => {
    app.capture.open();
    const input = document.body.appendChild(document.createElement('input'));
    expect(press('k', { ctrlKey: true }, input).defaultPrevented).toBe(true);
    expect(app.history.get().mode).toBe('history');
    expect(app.capture.get().open).toBe(false);
    expect(app.search.get().visible).toBe(true);
    const focus = app.search.get().focus;
    press('K', { ctrlKey: true });
    expect(app.search.get().focus).toBe(focus + 1); // again: its box focused again
    press('Escape', {}, input);
    expect(app.search.get().visible).toBe(false);
    expect(app.history.get().mode).toBe('history');
  });

  it("a real run's open drawer takes F5 / F10: they resume it when paused, and never step the simulator", () => {
    app.run.openPanel();
    press('F10');
    press('F5');
    expect(cursor()).toBe(0);
    expect(be.run.resumeRun).not.toHaveBeenCalled();
    app.run.dispatch({ type: 'start', opts: { profile: 'p', step: false, breakpoints: [], max_rounds: 0 } });
    app.run.dispatch({ type: 'paused', payload: { call: 0, request: '{}', view } });
    const input = document.body.appendChild(document.createElement('input'));
    press('F10', {}, input);
    expect(be.run.resumeRun).toHaveBeenLastCalledWith(true);
    app.run.dispatch({ type: 'paused', payload: { call: 1, request: '{}', view } });
    press('F5');
    expect(be.run.resumeRun).toHaveBeenLastCalledWith(false);
    app.run.close();
    press('F10');
    expect(cursor()).toBe(1);
  });

  it('? and F1 open the help (F1 in a field too), Esc closes it; Esc closes the Capture panel', () => {
    const input = document.body.appendChild(document.createElement('input'));
    press('?', { shiftKey: true }, input);
    expect(app.shell.get().help).toBe(false);
    press('F1', {}, input);
    expect(app.shell.get().help).toBe(true);
    press('Escape');
    expect(app.shell.get().help).toBe(false);
    press('?', { shiftKey: true });
    expect(app.shell.get().help).toBe(true);
    press('Escape');
    app.capture.open();
    press('Escape', {}, input);
    expect(app.capture.get().open).toBe(false);
  });

  it('Ctrl+Shift+E opens Export for… once a folder is open, Esc closes it', () => {
    expect(app.studio.get().state?.root).toBeTruthy();
    expect(press('E', { ctrlKey: true, shiftKey: true }).defaultPrevented).toBe(true);
    expect(app.exportFor.get()).toEqual({ open: true, to: '' });
    press('Escape');
    expect(app.exportFor.get().open).toBe(false);
  });

  it('Ctrl+J and Ctrl+Shift+F fold the panes in the simulator only', () => {
    press('j', { ctrlKey: true });
    press('F', { ctrlKey: true, shiftKey: true });
    expect(app.layout.get().layout).toMatchObject({ bottom_collapsed: true, flow_collapsed: true });
    app.history.setMode('history');
    const e = press('j', { ctrlKey: true });
    expect(e.defaultPrevented).toBe(false);
    expect(app.layout.get().layout.bottom_collapsed).toBe(true);
  });

  it('Ctrl+S saves with an editor open or unsaved files, and is the browser\'s otherwise', async () => {
    const save = vi.spyOn(app.editor, 'save').mockResolvedValue('saved');
    expect(press('s', { ctrlKey: true }).defaultPrevented).toBe(false);
    app.editorPane.edit('demo');
    press('s', { metaKey: true });
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('undoes every subscription and stops handling keys when stopped', () => {
    expect(open).toBeGreaterThan(0);
    stop();
    expect(open).toBe(0);
    press('F10');
    expect(cursor()).toBe(0);
    stop = () => {};
  });
});
