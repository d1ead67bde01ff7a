import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { NewFileMenu } from './NewFileMenu';

const files = [
  { file: '.codex/hooks.json', kind: 'codex-hooks', system: 'codex', label: 'Codex' },
  { file: '.github/hooks/hooks.json', kind: 'copilot-hooks', system: 'copilot-cli', label: 'Copilot CLI' },
];

describe('NewFileMenu', () => {
  it('lists each offered file with its agent, moves with the arrows, creates the one picked', () => {
    const onCreate = vi.fn();
    render(<NewFileMenu files={files} onCreate={onCreate} />);
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(screen.getByTestId('new-hook-file'));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['Codex .codex/hooks.json', 'Copilot CLI .github/hooks/hooks.json']);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowUp' });
    fireEvent.click(document.activeElement!);
    expect(onCreate).toHaveBeenCalledWith('.github/hooks/hooks.json');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('opens on a request, closes on Esc back to its button, and says when nothing is left to create', () => {
    const { rerender } = render(<NewFileMenu files={[]} onCreate={vi.fn()} openRequest={0} />);
    expect(screen.queryByRole('menu')).toBeNull();
    rerender(<NewFileMenu files={[]} onCreate={vi.fn()} openRequest={1} />);
    expect(screen.getByRole('menu').textContent).toContain('exists in this folder');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('new-hook-file'));
  });
});
