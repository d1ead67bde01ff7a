import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import fixture from '../fixtures/subagent-trace.json';
import type { TraceView } from '../lib/api';
import { subagentOf, subagentsOfCall } from '../lib/api';
import { RequestTabs, StepList } from './StepList';
import { FlowView, nodeAt } from './FlowView';
import { sourceOf } from '../paged/local';

// A Claude Code run whose first call starts an Explore sub-agent (app/services/studio's
// TestSubagentViewFixture): its request is laid out after the run's and nests under that call.
const view = fixture as unknown as TraceView;
const sub = view.requests[1]!;
const source = sourceOf(view);

describe('a sub-agent nested under the call that started it', () => {
  it('knows which request is a sub-agent and which call started it', () => {
    expect(subagentOf(view.requests, 0)).toBeNull();
    expect(subagentOf(view.requests, 1)).toMatchObject({ request: 1, depth: 1, firstStep: sub.first_step, sub: { type: 'Explore', call: 0 } });
    expect(subagentsOfCall(view.requests, 0).map((n) => n.request)).toEqual([1]);
    expect(subagentsOfCall(view.requests, 1)).toEqual([]);
  });

  it('indents its steps under a head naming it, and the call that started it links to them', () => {
    const onJump = vi.fn();
    const { container } = render(<StepList source={source} cursor={0} breakpoints={[]} changedCalls={new Set()} onJump={onJump} onToggleBreakpoint={() => undefined} />);
    const nested = [...container.querySelectorAll('.step.in-subagent')].map((el) => el.getAttribute('data-testid'));
    const want = [];
    for (let i = sub.first_step; i <= sub.last_step; i++) want.push(`step-${i}`);
    expect(nested).toEqual(want);
    const head = screen.getByTestId('step-subagent-head');
    expect(head.textContent).toContain('sub-agent Explore');
    expect(head.getAttribute('title')).toContain('Explore · Look at the build');
    const links = screen.getAllByTestId('step-subagent-link');
    expect(links).toHaveLength(1);
    expect(links[0]!.closest('.step')?.getAttribute('data-testid')).toBe(`step-${view.calls[0]!.step}`);
    fireEvent.click(links[0]!);
    expect(onJump).toHaveBeenCalledWith(sub.first_step);
  });

  it('says in the flowchart whose run the cursor is in, its hooks on their own nodes', () => {
    const start = view.steps.find((s) => s.request === 1 && s.hook_call?.event === 'SubagentStart')!;
    expect(nodeAt(source, start.index)?.id).toBe('SubagentStart');
    const { container } = render(<FlowView source={source} cursor={start.index} breakpoints={[]} onToggleCheckpoint={() => undefined} />);
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('SubagentStart');
    expect(screen.getByTestId('flow-subagent').textContent).toContain('sub-agent Explore · from LLM call #1');
    const own = render(<FlowView source={source} cursor={0} breakpoints={[]} onToggleCheckpoint={() => undefined} />);
    expect(own.container.querySelector('[data-testid="flow-subagent"]')).toBeNull();
  });

  it('lists its request right after the one whose call started it, named by its kind and task', () => {
    const onSelect = vi.fn();
    const { container, rerender } = render(<RequestTabs source={source} current={0} onSelect={onSelect} />);
    const tabs = [...container.querySelectorAll('[role="tab"]')].map((t) => t.textContent);
    expect(tabs).toEqual(['Request 1Clean the build folder.', '↳ ExploreLook at the build']);
    fireEvent.click(screen.getByTestId('request-tab-subagent'));
    expect(onSelect).toHaveBeenCalledWith(1);
    rerender(<RequestTabs source={source} current={1} onSelect={onSelect} />);
    expect(screen.getByTestId('request-subagent').textContent).toContain('started by LLM call #1: its task Find what is in the build folder');
  });
});
