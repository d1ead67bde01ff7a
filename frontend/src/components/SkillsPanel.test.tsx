import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import stateFixture from '../fixtures/studio-state.json';
import type { StudioState } from '../lib/api';
import { SkillsPanel } from './SkillsPanel';

const state = stateFixture as StudioState;
const setup = (s: StudioState | null = state) => {
  const onToggleSkill = vi.fn();
  const onToggleHookBreakpoint = vi.fn();
  render(<SkillsPanel state={s} breakpoints={['hook:demo/memory']} onToggleSkill={onToggleSkill} onToggleHookBreakpoint={onToggleHookBreakpoint} />);
  return { onToggleSkill, onToggleHookBreakpoint };
};

describe('SkillsPanel', () => {
  it('shows a broken skill as broken with its diagnostics as file:line:col', () => {
    setup();
    const ft = screen.getByTestId('skill-file-tools');
    expect(within(ft).getByText('broken')).toBeTruthy();
    expect(within(ft).getByText('file-tools/hooks/hooks.json:4:17')).toBeTruthy();
    expect(within(ft).getByText(/missing required field "role"/)).toBeTruthy();
    expect(within(ft).getAllByLabelText('error')).toHaveLength(2);
    // the others keep working
    expect(within(screen.getByTestId('skill-demo')).queryByText('broken')).toBeNull();
  });

  it('lists hooks with checkpoint chip, role, persistent pin and tool filter', () => {
    setup();
    const demo = screen.getByTestId('skill-demo');
    expect(within(demo).getByText('truncated-content-hint')).toBeTruthy();
    expect(within(demo).getByText(/read_file, search_text/)).toBeTruthy();
    expect(within(demo).getAllByTitle('persistent')).toHaveLength(1);
    expect(within(demo).getAllByText('⑤')).toHaveLength(1);
    const zh = screen.getByTestId('skill-notes-zh');
    expect(within(zh).getByLabelText('warning')).toBeTruthy();
    expect(within(zh).getByText('notes-zh/hooks/hooks.json:15:7')).toBeTruthy();
  });

  it('enables/disables a skill and sets hook breakpoints', () => {
    const { onToggleSkill, onToggleHookBreakpoint } = setup();
    fireEvent.click(screen.getByLabelText('enable skill notes-zh'));
    expect(onToggleSkill).toHaveBeenCalledWith('notes-zh', true);
    const armed = screen.getByLabelText('breakpoint on hook demo/memory');
    expect(armed.className).toContain('armed');
    fireEvent.click(screen.getByLabelText('breakpoint on hook demo/loop-rules'));
    expect(onToggleHookBreakpoint).toHaveBeenCalledWith('demo/loop-rules');
  });

  it('says when a skill has no hooks', () => {
    setup();
    expect(within(screen.getByTestId('skill-scratch')).getByText(/No hooks — add/)).toBeTruthy();
  });

  it('shows the root-missing banner and the no-folder empty state', () => {
    setup({ ...state, root_missing: true });
    expect(screen.getByRole('alert').textContent).toMatch(/Folder disappeared.*last good state.*waiting/);
  });

  it('empty state without a folder', () => {
    setup(null);
    expect(screen.getByText('No folder open.')).toBeTruthy();
  });
});
