import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import execTrace from '../fixtures/exec-trace.json';
import type { TraceView } from '../lib/api';
import { BottomPanel } from './BottomPanel';
import { skillColors } from './util';

const view = seed as TraceView;
const setup = (over: Partial<Parameters<typeof BottomPanel>[0]> = {}) => {
  const onJumpToCall = vi.fn();
  const onToggleEveryCall = vi.fn();
  render(
    <BottomPanel view={view} problems={[]} currentCall={2} changedCalls={new Set([2])} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={onJumpToCall} onToggleEveryCall={onToggleEveryCall} {...over} />,
  );
  return { onJumpToCall, onToggleEveryCall };
};

describe('visibility matrix', () => {
  it('shows copies per hook and call, with token tooltips and row totals', () => {
    setup();
    const mem = view.matrix.hooks.indexOf('demo/memory');
    const cell = screen.getByTestId(`cell-${mem}-5`);
    expect(cell.textContent).toBe('2'); // two history copies in request 3
    expect(cell.getAttribute('title')).toMatch(/demo\/memory in LLM call #6 .*: 2 copies, \d+ tokens/);
    expect(screen.getByText(String(view.matrix.totals[mem]))).toBeTruthy();
    expect(screen.getByTestId(`cell-${mem}-2`).className).toContain('is-changed');
  });

  it('an untrusted folder: says how many executable hooks did not run, with the Trust action; no hooks at all: the old sentence', async () => {
    const empty: TraceView = { ...view, matrix: { hooks: [], systems: [], copies: [], tokens: [], totals: [] } };
    const onTrust = vi.fn(() => Promise.resolve());
    const { unmount } = render(<BottomPanel view={empty} problems={[]} currentCall={null} changedCalls={new Set()} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={() => {}} onToggleEveryCall={() => {}} untrusted={{ hooks: 19, onTrust }} />);
    expect(screen.getByTestId('matrix-untrusted').textContent).toMatch(/^19 executable hooks did not run: this folder is not trusted/);
    expect(screen.queryByText(/No hook reached any LLM call/)).toBeNull();
    await act(async () => { fireEvent.click(screen.getByTestId('matrix-trust')); });
    expect(onTrust).toHaveBeenCalledTimes(1);
    unmount();
    render(<BottomPanel view={empty} problems={[]} currentCall={null} changedCalls={new Set()} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={() => {}} onToggleEveryCall={() => {}} />);
    expect(screen.getByText(/No hook reached any LLM call in this scenario/)).toBeTruthy();
    expect(screen.queryByTestId('matrix-trust')).toBeNull();
  });

  it('says so when executable hooks changed what the model reads without adding a message', () => {
    const exec = execTrace as unknown as TraceView;
    const blocked: TraceView = { ...exec, matrix: { hooks: [], systems: [], copies: [], tokens: [], totals: [] } };
    const changing = blocked.steps.filter((s) => (s.hook_call?.changes?.length ?? 0) > 0).length;
    expect(changing).toBeGreaterThan(0);
    render(<BottomPanel view={blocked} problems={[]} currentCall={0} changedCalls={new Set()} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={() => {}} onToggleEveryCall={() => {}} />);
    expect(screen.getByTestId('matrix-exec-only').textContent).toContain(`${changing} executable hook call`);
    expect(screen.queryByText(/No hook reached any LLM call/)).toBeNull();
  });

  it('counts the messages executable hooks added, as their system\'s rows, with their tokens', () => {
    const exec = execTrace as unknown as TraceView;
    render(<BottomPanel view={exec} problems={[]} currentCall={0} changedCalls={new Set()} everyCallArmed={false} color={skillColors([])}
      onJumpToCall={() => {}} onToggleEveryCall={() => {}} />);
    const row = exec.matrix.hooks.indexOf('process/audit');
    expect(exec.matrix.systems?.[row]).toBe('process');
    const head = screen.getByTitle(/process hook audit/);
    expect(head.textContent).toContain('audit');
    expect(head.querySelector('.sysbadge')).toBeTruthy();
    expect(screen.getByTestId(`cell-${row}-0`).textContent).toBe('1');
    expect(screen.getByText(String(exec.matrix.totals[row]))).toBeTruthy();
  });

  it('jumps to the LLM call of a clicked cell', () => {
    const { onJumpToCall } = setup();
    fireEvent.click(screen.getByTestId('cell-0-3'));
    expect(onJumpToCall).toHaveBeenCalledWith(3);
  });

  it('toggles the every-LLM-call breakpoint', () => {
    const { onToggleEveryCall } = setup();
    fireEvent.click(screen.getByLabelText(/break on every LLM call/));
    expect(onToggleEveryCall).toHaveBeenCalled();
  });

  it('lists changed calls and jumps to them', () => {
    const { onJumpToCall } = setup();
    fireEvent.click(screen.getByRole('tab', { name: /Changes/ }));
    fireEvent.click(screen.getByRole('button', { name: /LLM call #3/ }));
    expect(onJumpToCall).toHaveBeenCalledWith(2);
    expect(screen.getByText(/content changed/)).toBeTruthy();
  });

  it('has empty states', () => {
    setup({ view: null });
    expect(screen.getByText(/Pick a valid scenario/)).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /Problems/ }));
    expect(screen.getByText(/No problems/)).toBeTruthy();
  });
});
