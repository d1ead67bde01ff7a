import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import claude from '../fixtures/claude-trace.json';
import type { FlowLoop, TraceView } from '../lib/api';
import { sourceOf } from '../paged/local';
import { FlowView, nodeAt, visitedAt } from './FlowView';

const view = seed as TraceView;
const claudeView = claude as unknown as TraceView;

describe('FlowView on seed 000’s loop', () => {
  it('puts every step of the seed scenario on a node of the flowchart', () => {
    expect(view.flow.loop.id).toBe('seed-000');
    for (const s of view.steps) expect(nodeAt(sourceOf(view), s.index), `step ${s.index} ${s.kind}`).not.toBeNull();
    const kinds = (node: string) => view.steps.filter((s) => nodeAt(sourceOf(view), s.index)?.id === node).map((s) => `${s.kind}:${s.timing ?? s.prompt ?? ''}`);
    expect(new Set(kinds('exit'))).toEqual(new Set(['remove:before_first_agent', 'remove:after_tool_call']));
    expect(kinds('cp5')).toContain('inject:after_tool_call');
    expect(kinds('cp5')).toContain('remove:after_tool_call'); // the in-loop remove
    expect(nodeAt(sourceOf(view), view.calls[0]!.step)?.id).toBe('plan');
    expect(nodeAt(sourceOf(view), view.calls[1]!.step)?.id).toBe('agent');
  });

  it('marks the nodes the request has passed through up to the cursor', () => {
    for (const s of view.steps) {
      const req = view.requests[s.request]!;
      const want = new Set<string>();
      for (let i = req.first_step; i <= s.index; i++) { const n = nodeAt(sourceOf(view), i); if (n) want.add(n.id); }
      expect(visitedAt(sourceOf(view), s.index), `step ${s.index}`).toEqual(want);
    }
    expect(visitedAt(sourceOf(view), -1).size).toBe(0);
  });

  it('highlights the node of the current step, shows the round, and toggles checkpoint breakpoints', () => {
    const onToggle = vi.fn();
    const { container } = render(<FlowView source={sourceOf(view)} cursor={view.calls[2]!.step} breakpoints={['checkpoint:5']} onToggleCheckpoint={onToggle} />);
    expect(container.querySelector('.flow')?.getAttribute('data-loop')).toBe('seed-000');
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('agent');
    expect(container.textContent).toContain('agent loop · round 1');
    expect(container.querySelector('[data-node="cp5"] .bpdot')).not.toBeNull();
    expect(container.querySelectorAll('.node.is-cp')).toHaveLength(5);
    expect(container.querySelectorAll('path.edge')).toHaveLength(view.flow.loop.edges.length);
    fireEvent.click(container.querySelector('[data-node="cp3"]')!);
    expect(onToggle).toHaveBeenCalledWith(3);
  });
});

describe('FlowView on Claude Code’s loop', () => {
  const guard = claudeView.steps.find((s) => s.hook_call?.event === 'PreToolUse:Bash')!;

  it('draws Claude Code’s loop with its hook events as nodes, no checkpoints', () => {
    const { container } = render(<FlowView source={sourceOf(claudeView)} cursor={0} breakpoints={[]} onToggleCheckpoint={() => undefined} />);
    expect(container.querySelector('.flow')?.getAttribute('data-loop')).toBe('claude-code');
    expect(screen.getByTestId('flow-title').textContent).toContain('Claude Code');
    const events = [...container.querySelectorAll('.node.kind-event')].map((n) => n.getAttribute('data-node'));
    for (const e of ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'PreCompact', 'PostCompact', 'SessionEnd']) {
      expect(events).toContain(e);
    }
    expect(container.querySelectorAll('.node.is-cp')).toHaveLength(0);
    expect(container.querySelector('[data-node="after_user_input"], [data-node="plan"]')).toBeNull();
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('prompt');
  });

  it('lights the node of a hook call and its tag, and breaks on the event', () => {
    const onToggleEvent = vi.fn();
    const { container } = render(<FlowView source={sourceOf(claudeView)} cursor={guard.index} breakpoints={['event:PreToolUse']} onToggleCheckpoint={() => undefined} onToggleEvent={onToggleEvent} />);
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('PreToolUse');
    expect(container.querySelector('[data-node="PreToolUse"] .bpdot')).not.toBeNull();
    const tag = container.querySelector('[data-hooknode="PreToolUse"]')!;
    expect(tag.getAttribute('class')).toContain('is-lit');
    expect(tag.getAttribute('class')).toContain('armed');
    expect(screen.getByTestId('flow-hook-caption').textContent).toContain('Claude Code PreToolUse:Bash');
    fireEvent.click(container.querySelector('[data-node="Stop"]')!);
    expect(onToggleEvent).toHaveBeenCalledWith('Stop');
    const visited = visitedAt(sourceOf(claudeView), guard.index);
    expect([...visited]).toEqual(expect.arrayContaining(['prompt', 'model', 'tools', 'PreToolUse']));
    expect(visited.has('tool')).toBe(false);
  });

  it('lights the model for an LLM call', () => {
    const { container } = render(<FlowView source={sourceOf(claudeView)} cursor={claudeView.calls[1]!.step} breakpoints={[]} onToggleCheckpoint={() => undefined} />);
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('model');
  });
});

describe('FlowView draws whatever loop it is given', () => {
  it('an agent it has never seen: two nodes, one event, an edge', () => {
    const loop: FlowLoop = {
      id: 'made-up', title: 'A made-up agent', title_at: { x: 4, y: 12 }, width: 300, height: 80, node_height: 30,
      frame: { x: 2, y: 40, w: 296, h: 38, label: 'its loop', label_at: { x: 6, y: 74 } },
      nodes: [
        { id: 'ask', kind: 'event', label: 'onAsk', x: 10, y: 20, w: 80, events: ['onAsk'] },
        { id: 'model', kind: 'step', label: 'model', x: 150, y: 20, w: 80 },
      ],
      edges: [{ from: 'ask', to: 'model', exit: 'right', enter: 'left', label: 'then', label_at: { x: 100, y: 18 } }],
      elsewhere: ['onIdle'], sources: ['its docs'],
    };
    const steps = claudeView.steps.slice(0, 2).map((s, i) => ({ ...s, index: i, request: 0 }));
    const made: TraceView = { ...claudeView, steps, calls: [], requests: [{ ...claudeView.requests[0]!, first_step: 0, last_step: 1 }], flow: { loop, why: 'a test', steps: [0, 1] } };
    const onToggleEvent = vi.fn();
    const { container } = render(<FlowView source={sourceOf(made)} cursor={1} breakpoints={[]} onToggleCheckpoint={() => undefined} onToggleEvent={onToggleEvent} />);
    expect(container.querySelector('.flow')?.getAttribute('data-loop')).toBe('made-up');
    expect(container.querySelector('svg')?.getAttribute('viewBox')).toMatch(/^0 0 300 (80|96)$/);
    expect(container.querySelector('.node.is-current')?.getAttribute('data-node')).toBe('model');
    expect(container.querySelector('.node.is-visited[data-node="ask"]')).not.toBeNull();
    expect(container.querySelector('path.edge')?.getAttribute('d')).toBe('M90,35 L150,35');
    expect(container.querySelector('.looplabel')?.textContent).toBe('its loop');
    fireEvent.click(container.querySelector('[data-node="ask"]')!);
    expect(onToggleEvent).toHaveBeenCalledWith('onAsk');
  });
});
