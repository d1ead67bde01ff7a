import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { FlowView, nodeOf, visitedAt } from './FlowView';

const view = seed as TraceView;

describe('FlowView', () => {
  it('maps every step of the seed scenario to a flowchart node', () => {
    for (const s of view.steps) expect(nodeOf(s), `step ${s.index} ${s.kind}`).not.toBeNull();
    const kinds = (node: string) => view.steps.filter((s) => nodeOf(s) === node).map((s) => `${s.kind}:${s.timing ?? s.prompt ?? ''}`);
    expect(new Set(kinds('exit'))).toEqual(new Set(['remove:before_first_agent', 'remove:after_tool_call']));
    expect(kinds('cp5')).toContain('inject:after_tool_call');
    expect(kinds('cp5')).toContain('remove:after_tool_call'); // the in-loop remove
    expect(nodeOf(view.steps[view.calls[0]!.step])).toBe('plan');
    expect(nodeOf(view.steps[view.calls[1]!.step])).toBe('agent');
  });

  it('marks the nodes the request has passed through up to the cursor', () => {
    for (const s of view.steps) {
      const req = view.requests[s.request]!;
      const want = new Set<string>();
      for (let i = req.first_step; i <= s.index; i++) { const n = nodeOf(view.steps[i]); if (n) want.add(n); }
      expect(visitedAt(view, s.index), `step ${s.index}`).toEqual(want);
    }
    expect(visitedAt(view, -1).size).toBe(0);
  });

  it('highlights the node of the current step, shows the round, and toggles checkpoint breakpoints', () => {
    const onToggle = vi.fn();
    const { container } = render(<FlowView view={view} cursor={view.calls[2]!.step} breakpoints={['checkpoint:5']} onToggleCheckpoint={onToggle} />);
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('agent');
    expect(container.textContent).toContain('agent loop · round 1');
    expect(container.querySelector('[data-node="cp5"] .bpdot')).not.toBeNull();
    fireEvent.click(container.querySelector('[data-node="cp3"]')!);
    expect(onToggle).toHaveBeenCalledWith(3);
  });
});
