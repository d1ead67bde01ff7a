import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import seed from './fixtures/seed-diagrams.json';
import type { TraceView } from './lib/api';
import { emitMockEvent, resetMockBackend } from './lib/api';
import { App } from './App';

const view = seed as TraceView;
beforeEach(() => resetMockBackend());
afterEach(() => resetMockBackend());

async function start() {
  render(<App />);
  await screen.findByTestId('step-0');
}
const cursorRow = () => document.querySelector('.step.is-cursor') as HTMLElement;

describe('App (fixture backend)', () => {
  it('opens the help overlay with ? and F1, closes it with Esc', async () => {
    await start();
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.keyDown(window, { key: '?' });
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    expect(screen.getByText('Step forward')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.keyDown(window, { key: 'F1' });
    expect(screen.getByRole('dialog')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('Close help'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('sets the window title to the folder', async () => {
    await start();
    await waitFor(() => expect(document.title).toBe('Hook Studio — /home/ana/.local/share/hookstudio/skills'));
  });

  it('steps with F10 / Shift+F10, continues with F5, restarts with Ctrl+Shift+F5', async () => {
    await start();
    expect(cursorRow().dataset.testid).toBe('step-0');
    fireEvent.keyDown(window, { key: 'F10' });
    fireEvent.keyDown(window, { key: 'F10' });
    expect(cursorRow().dataset.testid).toBe('step-2');
    fireEvent.keyDown(window, { key: 'F10', shiftKey: true });
    expect(cursorRow().dataset.testid).toBe('step-1');
    // F9 on an LLM call sets a call breakpoint; F5 runs to it
    fireEvent.click(screen.getByTestId(`step-${view.calls[1]!.step}`));
    fireEvent.keyDown(window, { key: 'F9' });
    fireEvent.keyDown(window, { key: 'F5', ctrlKey: true, shiftKey: true });
    expect(cursorRow().dataset.testid).toBe('step-0');
    fireEvent.keyDown(window, { key: 'F5' });
    await waitFor(() => expect(cursorRow().dataset.testid).toBe(`step-${view.calls[1]!.step}`));
    expect(screen.getByTestId('status').textContent).toMatch(/breakpoint/);
    expect(screen.getByText(/What LLM call/).textContent).toBe('What LLM call #2 receives');
  });

  it('jumps to a call from the matrix', async () => {
    await start();
    fireEvent.click(screen.getByTestId('cell-0-4'));
    expect(cursorRow().dataset.testid).toBe(`step-${view.calls[4]!.step}`);
    expect(screen.getByRole('tab', { name: /Request 2/ }).getAttribute('aria-selected')).toBe('true');
  });

  it('keeps the cursor on the same call when a new trace arrives, and highlights changes', async () => {
    await start();
    fireEvent.click(screen.getByTestId('cell-0-3'));
    const next: TraceView = { ...view, revision: 4, changes: [{ call: 3, added: 1, removed: 0, changed: 0, summary: 'demo/step-reminder: +1' }] };
    act(() => emitMockEvent('studio:trace', next));
    expect(cursorRow().dataset.testid).toBe(`step-${view.calls[3]!.step}`);
    expect(cursorRow().className).toContain('is-changed');
    expect(screen.getByText(/rev 4/)).toBeTruthy();
  });

  it('shows the diagnostics of an invalid scenario picked in the scenario menu', async () => {
    await start();
    fireEvent.click(screen.getByTestId('scenario-picker'));
    const item = screen.getByRole('menuitem', { name: /read-and-fix/ });
    expect(item.textContent).toMatch(/2 errors/);
    fireEvent.click(item);
    const inv = await screen.findByTestId('invalid');
    expect(inv.textContent).toMatch(/is invalid/);
    expect(inv.textContent).toContain('file-tools/scenarios/read-and-fix.yaml:12:24');
  });

  it('shows what to do when no folder is open', async () => {
    resetMockBackend('?empty');
    render(<App />);
    expect(await screen.findByRole('heading', { name: 'No folder open' })).toBeTruthy();
  });
});
