import { describe, expect, it, vi } from 'vitest';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { DebuggerStore } from './store';

const view = seed as TraceView;
const loaded = () => { const d = new DebuggerStore(); d.dispatch({ type: 'load', view }); return d; };

describe('DebuggerStore', () => {
  it('steps, and a continue settles at the next breakpoint at once', () => {
    const d = loaded();
    d.stepForward();
    expect(d.cursor()).toBe(1);
    d.jumpToStep(view.calls[1]!.step);
    d.toggleAtCursor(); // the call's breakpoint
    expect(d.get().breakpoints).toEqual(['call:1']);
    d.restart();
    d.continue();
    expect(d.get()).toMatchObject({ status: 'paused', cursor: view.calls[1]!.step, hit: 'call:1' });
    d.continue();
    expect(d.get().status).toBe('ended');
    d.first();
    expect(d.cursor()).toBe(0);
    d.last();
    expect(d.cursor()).toBe(view.steps.length - 1);
  });

  it('keeps the cursor on the same call when the live trace changes; drops an older one', () => {
    const d = loaded();
    d.traceUpdated({ ...view, revision: 5 });
    d.jumpToCall(3);
    const l = vi.fn();
    d.subscribe(l);
    d.traceUpdated({ ...view, revision: 6, changes: [] });
    expect(d.step()?.call).toBe(3);
    d.traceUpdated({ ...view, revision: 4 });
    expect(d.view()?.revision).toBe(6);
    expect(l).toHaveBeenCalledTimes(1);
  });

  it('shows a view at a step, and an empty one has no cursor', () => {
    const d = new DebuggerStore();
    expect(d.step()).toBeUndefined();
    d.first();
    d.toggleAtCursor();
    expect(d.get().status).toBe('empty');
    d.show(view, 7);
    expect(d.cursor()).toBe(7);
  });
});
