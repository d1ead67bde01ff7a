import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { manyCalls } from '../fixtures/manyCalls';
import { emitMockTokens, viewPagesBinding, type PagesBinding } from '../lib/api/pages';
import type { RunSummary } from '../lib/api/history';
import type { TraceView } from '../lib/api';
import { ReadOnlyRun } from '../history/ReadOnlyRun';
import { CHART_BARS } from '../history/charts';
import { renderInApp } from '../app/testing';
import { CALL_PAGE, openPaged, ROW_PAGE, STEP_PAGE, type PagedSource } from './remote';

const summary = (v: TraceView): RunSummary => ({
  id: 9, scenario: v.scenario, scenario_file: v.file, scenario_hash: '', backend: 'claude-code@2.1.332', source: 'session', status: 'ok',
  started: '2026-11-26T09:00:00Z', ended: '2026-11-26T10:00:00Z', wall_ms: 3_600_000, steps: v.steps.length, llm_calls: v.calls.length,
  tokens_in: 0, tokens_out: 0, max_prompt_tokens: 0,
});

/** The fallback's pages over a view, every call counted: what was asked of the binding, and how much. */
function spied(view: TraceView, over: Partial<PagesBinding> = {}) {
  const b = { ...viewPagesBinding(() => Promise.resolve({ summary: summary(view), view })), ...over };
  const asked = { steps: 0, rows: 0, calls: 0 };
  const api: PagesBinding = {
    ...b,
    Steps: (h, from, n) => { asked.steps += n; return b.Steps(h, from, n); },
    Rows: (h, s, from, n) => { asked.rows += n; return b.Rows(h, s, from, n); },
    Calls: (h, from, n) => { asked.calls += n; return b.Calls(h, from, n); },
  };
  return { api, asked };
}

const sources: PagedSource[] = [];
afterEach(() => { for (const s of sources.splice(0)) s.close(); });
const open = async (api: PagesBinding) => { const s = await openPaged(9, api); sources.push(s); return s; };
const cursorIdx = () => Number(document.querySelector('.step.is-cursor .idx')?.textContent);

describe('a stored run read in pages', () => {
  it('answers what it holds at once and fetches the rest a page at a time, telling its readers', async () => {
    const view = manyCalls(1000);
    const { api, asked } = spied(view);
    const s = await open(api);
    expect(s.head().steps).toBe(view.steps.length);
    const far = view.calls[900]!.step;
    expect(s.step(far)).toBeUndefined(); // asked for now
    const told = vi.fn();
    s.subscribe(told);
    await waitFor(() => expect(s.step(far)).toBeDefined());
    expect(told).toHaveBeenCalled();
    expect(s.step(far)).toMatchObject({ kind: 'llm_call', call: 900 });
    expect(asked.steps).toBe(2 * STEP_PAGE); // the first screen's page and that one, not the run
    // the list at that call: its figures, then only the rows asked for
    await waitFor(() => expect(s.list(far)).toBeDefined());
    expect(s.list(far)!.live).toBe(view.calls[900]!.tokens > 0 ? 2 + 2 * 900 + 90 : 0);
    expect(s.row(far, 1500)).toBeUndefined();
    await waitFor(() => expect(s.row(far, 1500)).toBeDefined());
    expect(asked.rows).toBe(3 * ROW_PAGE); // the first screen's, the first of that list (asked with it), and that one
    // a call's step without its page at hand
    expect(await s.callStep(777)).toBe(view.calls[777]!.step);
  });

  it('opens a 1,000-call session read-only painting only what is in view, and moves to a far call', async () => {
    const view = manyCalls(1000);
    const { api, asked } = spied(view);
    const s = await open(api);
    const { app } = renderInApp(<ReadOnlyRun run={summary(view)} source={s} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    app.history.setMode('history');
    await waitFor(() => expect(document.querySelectorAll('.steps .step:not(.is-loading)').length).toBeGreaterThan(0));
    // the matrix renders a window of the calls' columns, the chart a bar per span of calls
    await waitFor(() => expect(document.querySelectorAll('td.cell').length).toBeGreaterThan(0));
    expect(document.querySelectorAll('td.cell').length).toBeLessThan(80);
    expect(screen.getAllByTestId('bar').length).toBeLessThanOrEqual(CHART_BARS);
    // End: the last step, its list of 2,000 messages painted a few rows at a time
    fireEvent.keyDown(window, { key: 'End' });
    await waitFor(() => expect(cursorIdx()).toBe(view.steps.length - 1));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Message list' }).textContent).toContain('Message list after reply'));
    await waitFor(() => expect(document.querySelectorAll('section[aria-label="Message list"] .msg').length).toBeGreaterThan(0));
    expect(document.querySelectorAll('section[aria-label="Message list"] .msg').length).toBeLessThan(40);
    expect(asked.rows).toBeLessThanOrEqual(4 * ROW_PAGE);
    // a click in the chart jumps to a call far from here
    fireEvent.click(screen.getAllByTestId('bar')[3]!);
    const per = Math.ceil(1000 / CHART_BARS); // calls per bar: its largest prompt is its last call's
    await waitFor(() => expect(screen.getByRole('region', { name: 'Message list' }).textContent).toContain(`What LLM call #${4 * per} receives`));
    expect(asked.calls).toBeLessThan(10 * CALL_PAGE);
  });

  it('continues to the next breakpoint the Go side finds, past steps it never fetched', async () => {
    const view = manyCalls(1000, 500); // the hook's words after call #500 only
    const nextStop = vi.fn<PagesBinding['NextStop']>();
    const { api } = spied(view);
    const s = await open({ ...api, NextStop: (h, from, bps) => { nextStop(h, from, bps); return api.NextStop(h, from, bps); } });
    const { app } = renderInApp(<ReadOnlyRun run={summary(view)} source={s} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    app.history.setMode('history');
    await waitFor(() => expect(cursorIdx()).toBe(0));
    // a breakpoint on the hook's checkpoint ⑤, set in the flowchart; F5 stops at its first inject
    fireEvent.click(document.querySelector('[data-node="cp5"]')!);
    fireEvent.keyDown(window, { key: 'F5' });
    const first = view.steps.find((st) => st.kind === 'inject')!.index;
    expect(first).toBeGreaterThan(STEP_PAGE * 10);
    await waitFor(() => expect(cursorIdx()).toBe(first));
    expect(nextStop).toHaveBeenCalledWith(expect.any(Number), 0, ['checkpoint:5']);
    // no other: the run ends
    fireEvent.keyDown(window, { key: 'F5' });
    await waitFor(() => expect(cursorIdx()).toBe(view.steps.length - 1));
    expect(nextStop).toHaveBeenCalledTimes(2);
  });

  it('reads a long message whole only when its card is opened', async () => {
    const view = manyCalls(5);
    const { api } = spied(view);
    const asked = vi.fn();
    // the Go side's rows carry the start of a long text, its size and lines (studio.Preview)
    const cut: PagesBinding['Rows'] = (h, st, from, n) => api.Rows(h, st, from, n).then((rows) => rows.map((r) => {
      const m = r.message;
      return m.content.length <= 100 ? r : { ...r, message: { ...m, content: m.content.slice(0, 100), size: m.content.length, lines: m.content.split('\n').length } };
    }));
    const s = await open({ ...api, Rows: cut, Text: (h, id) => { asked(id); return api.Text(h, id); } });
    const { app } = renderInApp(<ReadOnlyRun run={summary(view)} source={s} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    app.history.setMode('history');
    fireEvent.keyDown(window, { key: 'End' });
    const tool = view.messages.find((m) => m.origin === 'tool')!;
    const card = await screen.findByTestId(`msg-${tool.id}`);
    expect(card.textContent).not.toContain('func f0() {}func f0() {}func f0() {}func f0() {}func f0() {}func f0() {}func f0() {}');
    fireEvent.click(within(card).getByText(/Show all \(42 lines\)/));
    await waitFor(() => expect(asked).toHaveBeenCalledWith(tool.id));
    await waitFor(() => expect(screen.getByTestId(`msg-${tool.id}`).textContent?.split('func f0() {}').length).toBe(41));
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('shows tokens as being counted, then the counts in place as history:tokens tells of them', async () => {
    const view = manyCalls(30);
    let counted = false;
    const pendingRows = (rows: Awaited<ReturnType<PagesBinding['Rows']>>) =>
      counted ? rows : rows.map((r) => ({ ...r, message: { ...r.message, tokens: 0, pending: true } }));
    const { api } = spied(view);
    const over: PagesBinding = {
      ...api,
      Open: (id) => api.Open(id).then((r) => ({ ...r, head: { ...r.head, tokens: { pending: 20 } } })),
      Head: (h) => api.Head(h).then((r) => ({ ...r, head: { ...r.head, tokens: { pending: counted ? 0 : 20 } } })),
      Rows: (h, st, from, n) => api.Rows(h, st, from, n).then(pendingRows),
    };
    const tokensAsked = vi.fn();
    const s = await open({ ...over, Tokens: (h, ids) => { tokensAsked(ids); return api.Tokens(h, ids); } });
    const { app } = renderInApp(<ReadOnlyRun run={summary(view)} source={s} color={() => 'red'} onBack={() => {}} onLive={() => {}} />);
    app.history.setMode('history');
    expect(screen.getByTestId('tokens-counting').textContent).toMatch(/Counting tokens… 0 of 20 texts/);
    await waitFor(() => expect(document.querySelectorAll('section[aria-label="Message list"] .msg').length).toBeGreaterThan(0));
    const tok = () => [...document.querySelectorAll('section[aria-label="Message list"] .msg .tokens')].map((e) => e.textContent);
    expect(tok().every((t) => t === '… tok')).toBe(true);
    counted = true;
    act(() => emitMockTokens({ run: 9, counted: 20, pending: 0, done: true }));
    await waitFor(() => expect(tok().every((t) => /^\d+ tok$/.test(t ?? ''))).toBe(true));
    expect(tokensAsked).toHaveBeenCalled(); // the counts were asked for, not the rows' texts again
    expect(screen.queryByTestId('tokens-counting')).toBeNull();
  });
  it('counts the rows of a page that comes after the last counts, still saying pending', async () => {
    const view = manyCalls(60);
    let counted = false;
    let release: () => void = () => {};
    const late = new Promise<void>((r) => { release = r; });
    const far = view.calls[50]!.step;
    const { api } = spied(view);
    const pendingRows = (rows: Awaited<ReturnType<PagesBinding['Rows']>>) => rows.map((r) => ({ ...r, message: { ...r.message, tokens: 0, pending: true } }));
    const tokensAsked = vi.fn();
    const s = await open({
      ...api,
      Open: (id) => api.Open(id).then((r) => ({ ...r, head: { ...r.head, tokens: { pending: 20 } } })),
      Head: (h) => api.Head(h).then((r) => ({ ...r, head: { ...r.head, tokens: { pending: counted ? 0 : 20 } } })),
      // that step's rows were read before the counts were stored, and come after them
      Rows: (h, st, from, n) => (st === far ? late.then(() => api.Rows(h, st, from, n)).then(pendingRows) : api.Rows(h, st, from, n).then((rows) => (counted ? rows : pendingRows(rows)))),
      Tokens: (h, ids) => { tokensAsked(ids); return api.Tokens(h, ids); },
    });
    expect(s.row(far, 0)).toBeUndefined(); // asked for now
    counted = true;
    act(() => emitMockTokens({ run: 9, counted: 20, pending: 0, done: true }));
    await waitFor(() => expect(s.head().pending).toBe(0));
    release();
    await waitFor(() => expect(s.row(far, 0, false)?.message.pending).toBe(false));
    expect(tokensAsked).toHaveBeenCalledWith(expect.arrayContaining([s.row(far, 0, false)!.message.id]));
  });

  it('tells each part as it arrives: a matrix cell does not move the steps\' version', async () => {
    const view = manyCalls(200);
    const s = await open(spied(view).api);
    await waitFor(() => expect(s.step(0)).toBeDefined());
    const steps = s.versionOf('steps'), cells = s.versionOf('cells');
    expect(s.cell(0, 150)).toBeUndefined(); // asked for now
    await waitFor(() => expect(s.cell(0, 150)).toBeDefined());
    expect(s.versionOf('cells')).toBeGreaterThan(cells);
    expect(s.versionOf('steps')).toBe(steps);
  });
});
