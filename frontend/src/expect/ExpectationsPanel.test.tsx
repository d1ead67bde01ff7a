import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ExpectationsPanel } from './ExpectationsPanel';
import { viewWith } from './fixture';

describe('ExpectationsPanel', () => {
  it('lists failures first, red, with expected, actual and a diff', () => {
    render(<ExpectationsPanel view={viewWith()} onJumpToCall={() => {}} />);
    expect(screen.getByTestId('exp-summary').textContent).toBe('2 passed, 1 failed');
    const rows = screen.getAllByRole('button');
    expect(rows[0]!.getAttribute('data-testid')).toBe('exp-fail');
    expect(rows[0]!.textContent).toContain('demo/scenarios/seed.yaml:12:7');
    expect(rows[0]!.textContent).toContain('expected: sees memory ×2');
    expect(rows[0]!.textContent).toContain('- memory ×2');
    expect(rows[0]!.textContent).toContain('+ memory ×1');
    expect(screen.getAllByTestId('exp-pass')).toHaveLength(2);
  });

  it('jumps to the call of a failing expectation', () => {
    const onJumpToCall = vi.fn();
    render(<ExpectationsPanel view={viewWith()} onJumpToCall={onJumpToCall} />);
    fireEvent.click(screen.getByTestId('exp-fail'));
    expect(onJumpToCall).toHaveBeenCalledWith(2);
    fireEvent.click(screen.getAllByTestId('exp-pass')[0]!);
    expect(onJumpToCall).toHaveBeenCalledTimes(1);
  });

  it('explains how to add expectations when there are none', () => {
    render(<ExpectationsPanel view={viewWith([])} onJumpToCall={() => {}} />);
    expect(screen.getByText(/states no expectations/)).toBeTruthy();
  });
});
