import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { emitMockEvent, resetMockBackend } from '../lib/api';
import { App } from '../App';

afterEach(() => resetMockBackend());

async function start(search: string) {
  resetMockBackend(search);
  render(<App />);
  await screen.findByTestId('step-0');
}

describe('App with executable hooks (fixture backend)', () => {
  it('asks to trust a folder with the exact commands, then offers to untrust it', async () => {
    await start('?exec=untrusted');
    const banner = screen.getByTestId('trust-banner');
    expect(within(banner).getByText('./guard.sh')).toBeTruthy();
    await act(async () => { fireEvent.click(screen.getByTestId('trust-folder')); });
    await waitFor(() => expect(screen.queryByTestId('trust-banner')).toBeNull());
    fireEvent.click(screen.getByTestId('untrust-folder'));
    await screen.findByTestId('trust-banner');
  });

  it('shows a hook call in full at its step, and the Hook calls tab', async () => {
    await start('?exec');
    fireEvent.click(screen.getByTestId('step-1'));
    const detail = await screen.findByTestId('hookcall-detail');
    expect(within(detail).getByText('hook.hello')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: /Hook calls/ }));
    expect(screen.getByText(/9 invocations/)).toBeTruthy();
    // F9 on a hook call arms a breakpoint on that hook; continue stops at its next invocation
    fireEvent.keyDown(window, { key: 'F9' });
    fireEvent.keyDown(window, { key: 'F5' });
    await waitFor(() => expect(screen.getByTestId('status').textContent).toMatch(/paused at breakpoint \(exec process\/audit\)/));
  });

  it('shows the progress of a run with hooks, and cancels it', async () => {
    await start('?exec');
    act(() => emitMockEvent('studio:progress', { active: true, file: 'f', started_ms: Date.now(), elapsed_ms: 10, steps: 4, hook_calls: 2, point: 'before_tool' }));
    expect(screen.getByTestId('sim-progress').textContent).toContain('before_tool');
    await act(async () => { fireEvent.click(screen.getByTestId('sim-cancel')); });
    await waitFor(() => expect(screen.queryByTestId('sim-progress')).toBeNull());
  });
});
