import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import type { HookPoint, PromptPoint } from '../lib/api/history';
import { sourceOf } from '../paged/local';
import { BarChart, HookCostChart, LineChart, niceTicks, PromptSizeChart, TokensPerCallChart } from './charts';

const view = seed as TraceView;
const hp = (run: number, tokens: number, hash: string): HookPoint => ({ run, started: `2026-01-0${run}T10:00:00Z`, scenario: 's', source: 'live', content_hash: hash, injected: 1, calls_seen: 2, copies_seen: 2, tokens_total: tokens });
const pp = (run: number, tokens: number): PromptPoint => ({ run, started: `2026-01-0${run}T10:00:00Z`, source: 'live', llm_calls: 3, tokens_in: tokens, max_prompt_tokens: Math.round(tokens / 2) });

describe('charts', () => {
  it('niceTicks covers the maximum with round steps', () => {
    expect(niceTicks(0)).toEqual([0]);
    expect(niceTicks(740)).toEqual([0, 200, 400, 600, 800]);
    expect(niceTicks(3140)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(niceTicks(5)).toEqual([0, 2, 4, 6]);
  });

  it('draws one bar per LLM call of a run, tallest for the largest prompt', () => {
    const { container } = render(<TokensPerCallChart source={sourceOf(view)} />);
    const bars = screen.getAllByTestId('bar');
    expect(bars).toHaveLength(view.calls.length);
    const heights = [...container.querySelectorAll('rect.bar')].map((b) => Number(b.getAttribute('height')));
    const max = Math.max(...view.calls.map((c) => c.tokens));
    expect(heights.indexOf(Math.max(...heights))).toBe(view.calls.findIndex((c) => c.tokens === max));
    expect(container.querySelector('figcaption')?.textContent).toContain('Prompt tokens per LLM call');
    // axes with labels
    expect(screen.getByText('LLM call')).toBeTruthy();
    expect(screen.getByText('tokens')).toBeTruthy();
    expect(screen.getByText('#1')).toBeTruthy();
  });

  it('shows a tooltip on hover and calls back on click', () => {
    const hits: number[] = [];
    render(<TokensPerCallChart source={sourceOf(view)} onCall={(c) => hits.push(c)} />);
    const bar = screen.getAllByTestId('bar')[2]!;
    fireEvent.mouseEnter(bar);
    expect(screen.getByTestId('chart-tip').textContent).toContain(`LLM call #3: ${view.calls[2]!.tokens} tokens`);
    fireEvent.mouseLeave(bar);
    expect(screen.queryByTestId('chart-tip')).toBeNull();
    fireEvent.click(bar);
    expect(hits).toEqual([2]);
  });

  it('handles empty data with a message instead of bars or points', () => {
    render(<><TokensPerCallChart source={null} /><HookCostChart hook="a/b" points={[]} /><PromptSizeChart scenario="" points={[]} /></>);
    expect(screen.queryAllByTestId('bar')).toHaveLength(0);
    expect(screen.queryAllByTestId('point')).toHaveLength(0);
    expect(screen.getByText('this run made no LLM calls')).toBeTruthy();
    expect(screen.getByText('no runs used this hook yet')).toBeTruthy();
    expect(screen.getByText('pick a scenario')).toBeTruthy();
  });

  it('marks the runs where a hook’s text changed', () => {
    render(<HookCostChart hook="demo/memory" points={[hp(1, 100, 'aa'), hp(2, 100, 'aa'), hp(3, 140, 'bb'), hp(4, 140, 'bb'), hp(5, 60, 'cc')]} />);
    expect(screen.getAllByTestId('point')).toHaveLength(5);
    expect(screen.getAllByTestId('edit-marker')).toHaveLength(2);
    expect(screen.getByText('prompt edited')).toBeTruthy();
  });

  it('draws both prompt-size series, one point per run each', () => {
    const { container } = render(<PromptSizeChart scenario="s" points={[pp(1, 1000), pp(2, 1200), pp(3, 900)]} />);
    expect(screen.getAllByTestId('point')).toHaveLength(6);
    expect(container.querySelectorAll('polyline')).toHaveLength(2);
    expect(screen.getByText('largest prompt')).toBeTruthy();
  });

  it('a single point has no line; ghost bars are drawn for compared values', () => {
    const { container } = render(<LineChart title="t" points={[{ label: 'a', tip: [] }]} series={[{ name: 'x', className: 's1', values: [3] }]} yLabel="y" xLabel="x" />);
    expect(container.querySelectorAll('polyline')).toHaveLength(0);
    expect(screen.getAllByTestId('point')).toHaveLength(1);
    render(<BarChart title="b" bars={[{ label: '1', value: 5, ghost: 3, tip: [] }, { label: '2', value: 2, tip: [] }]} yLabel="y" xLabel="x" />);
    expect(screen.getAllByTestId('bar-ghost')).toHaveLength(1);
  });
});
