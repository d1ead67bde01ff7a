import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { MessageList } from './MessageList';
import { StepList } from './StepList';
import { sourceOf } from '../paged/local';
import { skillColors } from './util';

const color = skillColors([]);
const EMPTY = 'empty answer: the model sent neither text nor tool calls, so the reply is empty';

// A real run whose call 2 came back empty: the backend sets its warning.
function warned(): TraceView {
  const v = structuredClone(seed) as TraceView;
  const c = v.calls[2]!;
  Object.assign(c, { content: '', tool_calls: [], warning: EMPTY });
  return v;
}

describe('a warning on an LLM call', () => {
  it.each([
    ['the warned call', 2, true],
    ['another call', 1, false],
  ])('the answer of %s shows it: %s', (_, call, shown) => {
    const v = warned();
    render(<MessageList source={sourceOf(v)} cursor={v.calls[call]!.step} color={color} />);
    const answer = screen.getByText(/Model answer/).closest('footer')!;
    expect(within(answer).queryByText('warning') !== null).toBe(shown);
    expect(within(answer).queryByText(`⚠ ${EMPTY}`) !== null).toBe(shown);
  });

  it('badges the call in the step list, and only it', () => {
    const v = warned();
    render(<StepList source={sourceOf(v)} cursor={v.calls[2]!.step} breakpoints={[]} changedCalls={new Set()} onJump={() => {}} onToggleBreakpoint={() => {}} />);
    const badges = screen.getAllByText('warning');
    expect(badges).toHaveLength(1);
    expect(badges[0]!.closest('[role=option]')!.getAttribute('data-testid')).toBe(`step-${v.calls[2]!.step}`);
    expect(badges[0]!.getAttribute('title')).toBe(EMPTY);
  });
});
