import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { resetMockHistory, type HistoryBinding, type MockHistory, type RunSummary } from '../lib/api/history';
import { hitAt, HistoryView, toRunFilter, RUN_LIMIT } from './HistoryView';
import { resetSearchMock, type SearchHit } from '../lib/api/search';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';
import { renderInApp } from '../app/testing';

const view = seed as TraceView;
const color = () => 'red';
let mock: MockHistory;
beforeEach(() => { mock = resetMockHistory(); });
afterEach(() => { resetMockHistory(); removeFakeBackend(); vi.restoreAllMocks(); });

const rows = () => document.querySelectorAll('.run-row');
async function start(onLive = () => {}) {
  renderInApp(<HistoryView studio={null} color={color} onLive={onLive} />);
  await waitFor(() => expect(rows().length).toBe(mock.runs.length));
}

describe('HistoryView: runs list and filters', () => {
  it('lists the stored runs newest first with their figures', async () => {
    await start();
    const ids = [...rows()].map((r) => r.getAttribute('data-testid'));
    expect(ids).toEqual(['run-5', 'run-4', 'run-3', 'run-2', 'run-1']);
    const first = within(screen.getByTestId('run-5'));
    const s = mock.runs[4]!.summary;
    expect(first.getByText('seed-diagrams')).toBeTruthy();
    expect(first.getByText('mock')).toBeTruthy();
    expect(first.getByText('ok')).toBeTruthy();
    expect(first.getByText(`${s.tokens_in.toLocaleString()} / ${s.tokens_out.toLocaleString()}`)).toBeTruthy();
    expect(first.getByText(s.max_prompt_tokens.toLocaleString())).toBeTruthy();
    expect(first.getByText(`${s.wall_ms} ms`)).toBeTruthy();
  });

  it('calls Runs with the filter of the form', async () => {
    const spy = vi.spyOn(mock.binding, 'Runs');
    await start();
    expect(spy).toHaveBeenLastCalledWith({ limit: RUN_LIMIT });
    fireEvent.change(screen.getByLabelText('Scenario filter'), { target: { value: 'seed-diagrams' } });
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({ limit: RUN_LIMIT, scenario: 'seed-diagrams' }));
    fireEvent.change(screen.getByLabelText('Source filter'), { target: { value: 'cli' } });
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({ limit: RUN_LIMIT, scenario: 'seed-diagrams', source: 'cli' }));
    await waitFor(() => expect(rows().length).toBe(1));
    expect(rows()[0]!.getAttribute('data-testid')).toBe('run-2');
    fireEvent.change(screen.getByLabelText('From date'), { target: { value: '2001-01-02' } });
    fireEvent.change(screen.getByLabelText('To date'), { target: { value: '2001-01-03' } });
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({
      limit: RUN_LIMIT, scenario: 'seed-diagrams', source: 'cli',
      since: new Date('2001-01-02T00:00:00').toISOString(), until: new Date('2001-01-04T00:00:00').toISOString(),
    }));
    expect(await screen.findByText('No runs match these filters')).toBeTruthy();
    fireEvent.click(screen.getByText('clear'));
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({ limit: RUN_LIMIT }));
  });

  it('filters by skill', async () => {
    const spy = vi.spyOn(mock.binding, 'Runs');
    renderInApp(<HistoryView studio={{ skills: [{ name: 'demo' }, { name: 'other' }], scenarios: [] } as never} color={color} onLive={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(5));
    fireEvent.change(screen.getByLabelText('Skill filter'), { target: { value: 'other' } });
    await waitFor(() => expect(spy).toHaveBeenLastCalledWith({ limit: RUN_LIMIT, skill: 'other' }));
    await screen.findByTestId('history-empty');
  });

  it('toRunFilter leaves out empty fields', () => {
    expect(toRunFilter({ scenario: '', skill: '', from: '', to: '', source: '' })).toEqual({ limit: RUN_LIMIT });
  });

  it('explains that runs are recorded on every save when there are none', async () => {
    mock = resetMockHistory({ seeded: false });
    renderInApp(<HistoryView studio={null} color={color} onLive={() => {}} />);
    const empty = await screen.findByTestId('history-empty');
    expect(empty.textContent).toContain('No runs recorded yet');
    expect(empty.textContent).toContain('each save');
  });

  it('refreshes on history:run and stops listening on unmount', async () => {
    mock = resetMockHistory({ seeded: false });
    const { unmount } = renderInApp(<HistoryView studio={null} color={color} onLive={() => {}} />);
    await screen.findByTestId('history-empty');
    expect(mock.listeners.size).toBe(1);
    act(() => { mock.record(view); });
    await waitFor(() => expect(rows().length).toBe(1));
    unmount();
    expect(mock.listeners.size).toBe(0);
  });

  it('uses window.go.bind.History and the runtime events when the backend is there', async () => {
    const summary = { ...mock.runs[0]!.summary, id: 42 } as RunSummary;
    const fake: HistoryBinding = {
      Runs: vi.fn(() => Promise.resolve([summary])), Run: vi.fn(() => Promise.resolve(view)), Compare: vi.fn(),
      HookCost: vi.fn(() => Promise.resolve([])), PromptSizes: vi.fn(() => Promise.resolve([])),
    };
    const backend = fakeBackend({ Studio: {}, History: fake });
    const { unmount } = renderInApp(<HistoryView studio={null} color={color} onLive={() => {}} />);
    await screen.findByTestId('run-42');
    expect(fake.Runs).toHaveBeenCalledWith({ limit: RUN_LIMIT });
    await waitFor(() => expect(fake.Run).toHaveBeenCalledWith(42)); // the focused run's chart
    expect(fake.PromptSizes).toHaveBeenCalledWith('seed-diagrams', 100);
    expect(backend.listeners.get('history:run')?.size).toBe(1);
    act(() => backend.emit('history:run', 43));
    await waitFor(() => expect(fake.Runs).toHaveBeenCalledTimes(2));
    unmount();
    expect(backend.listeners.get('history:run')?.size).toBe(0);
  });
});

describe('HistoryView: selecting, comparing, opening', () => {
  it('compares two selected runs, the older as A', async () => {
    await start();
    const btn = screen.getByTestId('compare-btn') as HTMLButtonElement;
    expect(btn.disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Select run 5'));
    fireEvent.click(screen.getByLabelText('Select run 2'));
    expect(btn.disabled).toBe(false);
    // a third pick drops the first
    fireEvent.click(screen.getByLabelText('Select run 1'));
    expect((screen.getByLabelText('Select run 5') as HTMLInputElement).checked).toBe(false);
    fireEvent.click(screen.getByLabelText('Select run 3'));
    fireEvent.click(btn);
    expect(await screen.findByText('Compare run #1 → run #3')).toBeTruthy();
    await screen.findByTestId('compare-totals');
    fireEvent.click(screen.getByText('← Runs'));
    await waitFor(() => expect(rows().length).toBe(5));
  });

  it('draws the charts for the focused run and its scenario', async () => {
    await start();
    await waitFor(() => expect(document.querySelectorAll('.hist-charts [data-testid="bar"]').length).toBe(view.calls.length));
    // 5 runs: prompt size has two series, the hook chart one
    await waitFor(() => expect(document.querySelectorAll('.hist-charts [data-testid="point"]').length).toBe(5 * 2 + 5));
    expect(document.querySelectorAll('[data-testid="edit-marker"]').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('run-2'));
    expect(await screen.findByText('Prompt tokens per LLM call — run #2')).toBeTruthy();
  });

  it('opens a run read-only and goes back to live', async () => {
    const onLive = vi.fn();
    await start(onLive);
    fireEvent.click(within(screen.getByTestId('run-3')).getByText('Open'));
    const banner = await screen.findByTestId('readonly-banner');
    expect(banner.textContent).toMatch(/read-only: run #3 from \d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(screen.getByRole('region', { name: 'Message list' })).toBeTruthy();
    fireEvent.click(screen.getByText('← Runs'));
    await waitFor(() => expect(rows().length).toBe(5));
    fireEvent.click(within(screen.getByTestId('run-3')).getByText('Open'));
    fireEvent.click(await screen.findByText('Back to live'));
    expect(onLive).toHaveBeenCalledTimes(1);
  });
});

describe('HistoryView: search', () => {
  it('opens the search, and a hit opens its run read-only at the call and message; back goes to the search as it was', async () => {
    const sm = resetSearchMock();
    const run = mock.record(view, { source: 'session' }); // an imported session
    const call = view.calls[1]!;
    const msg = view.messages.find((m) => m.request === call.request && m.created <= call.step && m.role === 'user')!;
    sm.setHits([{
      key: `run:${run.id}`, source: run.source as SearchHit['source'], run: run.id, file: '', agent: '', version: '', project: '', title: run.scenario, started: run.started,
      kind: 'message', role: 'user', origin: 'user_input', call: 1, message: msg.id, step: msg.created, hook: '', event: '', outcome: '', tool: '', count: 1, rank: -1,
      snippet: [{ text: 'the words', hit: true }],
    }]);
    const { app } = renderInApp(<HistoryView studio={null} color={color} onLive={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(mock.runs.length));
    fireEvent.click(screen.getByTestId('open-search'));
    expect(app.search.get().visible).toBe(true);
    fireEvent.change(await screen.findByTestId('search-input'), { target: { value: 'words' } });
    const first = await waitFor(() => { const h = document.querySelector<HTMLElement>('.hit'); if (!h) throw new Error('no hit'); return h; });
    fireEvent.click(first);
    await waitFor(() => expect(screen.getByTestId('readonly-banner').textContent).toContain(`run #${run.id}`));
    // the call's step is the cursor, the message is marked in its list
    expect(Number(document.querySelector('.step.is-cursor .idx')?.textContent)).toBe(call.step);
    expect(screen.getByText(`#${call.index + 1}`, { selector: '.msg-list-head b' })).toBeTruthy();
    expect(screen.getByTestId(`msg-${msg.id}`).className).toContain('is-found');
    // stored again as it opens (a session imported to open its hit): shown again, at the same place
    const loads = vi.spyOn(mock.binding, 'Run');
    act(() => { for (const l of [...mock.listeners]) l(run.id); });
    await waitFor(() => expect(loads).toHaveBeenCalled());
    await waitFor(() => expect(Number(document.querySelector('.step.is-cursor .idx')?.textContent)).toBe(call.step));
    expect(screen.getByTestId(`msg-${msg.id}`).className).toContain('is-found');
    fireEvent.click(screen.getByText('← Search'));
    await waitFor(() => expect(document.querySelectorAll('.hit')).toHaveLength(1));
    expect((screen.getByTestId('search-input') as HTMLInputElement).value).toBe('words');
    fireEvent.click(screen.getByText('← Runs'));
    await waitFor(() => expect(rows().length).toBe(mock.runs.length));
    resetSearchMock();
  });

  it('hitAt: a message at the call that received it, a hook run at its own step', () => {
    const h = { kind: 'message', call: 1, message: 3, step: 0 } as SearchHit;
    expect(hitAt(view, h)).toEqual({ step: view.calls[1]!.step, message: 3 });
    expect(hitAt(view, { ...h, kind: 'hook', step: 2, message: -1 })).toEqual({ step: 2, message: null });
    expect(hitAt(view, { ...h, call: -1, step: 4 })).toEqual({ step: 4, message: 3 });
    expect(hitAt(view, { ...h, call: -1, step: 10_000, message: 10_000 })).toEqual({ step: view.steps.length - 1, message: null });
  });
});
