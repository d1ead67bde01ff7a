import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { resetMockBackend } from '../lib/api';
import { resetMockHistory, type RunSummary } from '../lib/api/history';
import { ReadOnlyRun } from './ReadOnlyRun';
import { App } from '../App';
import { sourceOf } from '../paged/local';
import { renderInApp } from '../app/testing';

const view = seed as TraceView;
const run: RunSummary = {
  id: 7, scenario: view.scenario, scenario_file: view.file, scenario_hash: 'h', backend: 'mock', source: 'cli', status: 'ok',
  started: '2026-02-03T04:05:06Z', ended: '2026-02-03T04:05:07Z', wall_ms: 12, steps: view.steps.length, llm_calls: view.calls.length,
  tokens_in: 630, tokens_out: 40, max_prompt_tokens: 138,
};
const cursorIdx = () => Number(document.querySelector('.step.is-cursor .idx')?.textContent);

beforeEach(() => { resetMockBackend(); resetMockHistory(); });
afterEach(() => { resetMockBackend(); resetMockHistory(); });

describe('ReadOnlyRun', () => {
  it('shows the stored run in the simulator components with a read-only banner', () => {
    const onBack = vi.fn(), onLive = vi.fn();
    renderInApp(<ReadOnlyRun run={run} source={sourceOf(view)} color={() => 'red'} onBack={onBack} onLive={onLive} />);
    const banner = screen.getByTestId('readonly-banner');
    expect(banner.textContent).toContain('read-only: run #7 from 2026-02-0');
    expect(screen.getByRole('region', { name: 'Message list' })).toBeTruthy();
    expect(screen.getAllByRole('option').length).toBeGreaterThan(0); // the step list
    expect(screen.getByText('Visibility matrix')).toBeTruthy();
    expect(screen.getAllByTestId('bar')).toHaveLength(view.calls.length);
    fireEvent.click(screen.getByText('Back to live'));
    expect(onLive).toHaveBeenCalled();
    fireEvent.click(screen.getByText('← Runs'));
    expect(onBack).toHaveBeenCalled();
  });

  it('offers Save as scenario… for a capture run only, and saves it', async () => {
    const { unmount } = renderInApp(<ReadOnlyRun run={run} source={sourceOf(view)} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    expect(screen.queryByTestId('capture-save-scenario')).toBeNull();
    unmount();
    renderInApp(<ReadOnlyRun run={{ ...run, source: 'capture' }} source={sourceOf(view)} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    fireEvent.click(screen.getByTestId('capture-save-scenario'));
    fireEvent.change(screen.getByTestId('capture-scenario-path'), { target: { value: '/tmp/captured.yaml' } });
    fireEvent.click(screen.getByTestId('capture-scenario-save'));
    await waitFor(() => expect(screen.getByTestId('capture-scenario-saved').textContent).toContain('/tmp/captured.yaml'));
  });

  it('steps through the stored run with F10 / Shift+F10 / End, goes back with Esc, and jumps to a call from its bar', () => {
    const onBack = vi.fn();
    const { app } = renderInApp(<ReadOnlyRun run={run} source={sourceOf(view)} color={() => 'red'} onBack={onBack} onLive={() => {}} />);
    app.history.setMode('history');
    expect(cursorIdx()).toBe(0);
    fireEvent.keyDown(window, { key: 'F10' });
    fireEvent.keyDown(window, { key: 'F10' });
    expect(cursorIdx()).toBe(2);
    fireEvent.keyDown(window, { key: 'F10', shiftKey: true });
    expect(cursorIdx()).toBe(1);
    fireEvent.keyDown(window, { key: 'End' });
    expect(cursorIdx()).toBe(view.steps.length - 1);
    fireEvent.click(screen.getAllByTestId('bar')[2]!);
    expect(cursorIdx()).toBe(view.calls[2]!.step);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onBack).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('region', { name: 'Message list' }).textContent).toContain('What LLM call #3 receives');
  });
});

describe('App: Simulator ⇄ History', () => {
  it('Ctrl+H and the toggle switch views; the live debugger keeps its place; a run opens read-only', async () => {
    render(<App />);
    await screen.findByTestId('step-0');
    fireEvent.keyDown(window, { key: 'F10' });
    await waitFor(() => expect(cursorIdx()).toBe(1));
    fireEvent.keyDown(window, { key: 'h', ctrlKey: true });
    await screen.findByTestId('history-view');
    expect(screen.queryByTestId('status')).toBeNull();
    // stepping keys do not reach the hidden live debugger
    fireEvent.keyDown(window, { key: 'F10' });
    await waitFor(() => expect(document.querySelectorAll('.run-row').length).toBe(5));
    fireEvent.click(screen.getAllByText('Open')[0]!);
    const banner = await screen.findByTestId('readonly-banner');
    expect(banner.textContent).toMatch(/read-only: run #5 from/);
    fireEvent.click(screen.getByText('Back to live'));
    await screen.findByTestId('status');
    expect(cursorIdx()).toBe(1);
    fireEvent.click(screen.getByTestId('history-toggle'));
    await screen.findByTestId('history-view');
    fireEvent.keyDown(window, { key: 'H', ctrlKey: true });
    await screen.findByTestId('status');
  });
});
