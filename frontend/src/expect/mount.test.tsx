import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { BottomPanel } from '../components/BottomPanel';
import { StepList } from '../components/StepList';
import { skillColors } from '../components/util';
import { sourceOf } from '../paged/local';
import { viewWith } from './fixture';
import { CallDot } from './CallExpectations';

describe('the Expectations tab of the bottom panel', () => {
  it('counts the failures, lists the results and jumps to a failing call', () => {
    const onJumpToCall = vi.fn();
    render(<BottomPanel view={viewWith()} problems={[]} currentCall={0} changedCalls={new Set()} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={onJumpToCall} onToggleEveryCall={() => {}} />);
    // the matrix marks the calls that have expectations
    expect(screen.getByTestId('exp-dot-2').className).toContain('exp-fail');
    const tab = screen.getByRole('tab', { name: /Expectations/ });
    expect(tab.textContent).toBe('Expectations1');
    fireEvent.click(tab);
    expect(screen.getByTestId('exp-summary').textContent).toBe('2 passed, 1 failed');
    fireEvent.click(screen.getByTestId('exp-fail'));
    expect(onJumpToCall).toHaveBeenCalledWith(2);
  });
});

describe('the step list', () => {
  it('marks each LLM call step green or red by its expectations', () => {
    const view = viewWith();
    render(<StepList source={sourceOf(view)} cursor={view.calls[2]!.step} breakpoints={[]} changedCalls={new Set()} onJump={() => {}} onToggleBreakpoint={() => {}}
      callDot={(c) => <CallDot view={view} call={c} />} />);
    expect(screen.getByTestId('exp-dot-2').className).toContain('exp-fail');
  });
});
