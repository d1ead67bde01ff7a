import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { resetMockHistory, type CallDiff, type Comparison, type MessageDiff, type RunSummary } from '../lib/api/history';
import { callLabel, CompareView, identical } from './CompareView';

const run = (id: number, over: Partial<RunSummary> = {}): RunSummary => ({
  id, scenario: 'fix', scenario_file: 'ft/scenarios/fix.yaml', scenario_hash: 'h', backend: 'mock', source: 'live', status: 'ok',
  started: `2026-03-0${id}T09:00:00Z`, ended: `2026-03-0${id}T09:00:01Z`, wall_ms: 5, steps: 20, llm_calls: 3, tokens_in: 300, tokens_out: 30, max_prompt_tokens: 120, ...over,
});
const md = (op: MessageDiff['op'], over: Partial<MessageDiff> = {}): MessageDiff => ({ op, tag: 'hook:hint', role: 'system', a: 1, b: 1, tokens_a: 10, tokens_b: 10, token_delta: 0, ...over });
const call = (i: number, status: CallDiff['status'], ta: number, tb: number, messages: MessageDiff[] = []): CallDiff => ({
  request: 0, phase: i === 0 ? 'planning' : 'agent', round: i === 0 ? null : i - 1, a: status === 'added' ? null : i, b: status === 'removed' ? null : i,
  status, tokens_a: ta, tokens_b: tb, token_delta: tb - ta, same: 3, messages,
});
const cmp: Comparison = {
  a: run(1), b: run(2, { tokens_in: 330, max_prompt_tokens: 140, llm_calls: 4 }),
  calls: [
    call(0, 'same', 100, 100),
    call(1, 'changed', 100, 120, [md('changed', { content_a: 'read the whole file', content_b: 'read the rest of the file', tokens_a: 10, tokens_b: 30, token_delta: 20 })]),
    call(2, 'removed', 100, 0),
    call(3, 'added', 0, 110, [md('added', { tag: 'tool:read_file', role: 'tool', a: null, b: 7, content_b: 'file body', tokens_a: 0, tokens_b: 40, token_delta: 40 })]),
  ],
  tokens_a: 300, tokens_b: 330, token_delta: 30, changed_calls: 3,
};

let mock: ReturnType<typeof resetMockHistory>;
beforeEach(() => { mock = resetMockHistory(); vi.spyOn(mock.binding, 'Compare').mockResolvedValue(cmp); });
afterEach(() => { vi.restoreAllMocks(); resetMockHistory(); });

async function start() {
  const onOpen = vi.fn();
  render(<CompareView a={1} b={2} onBack={() => {}} onOpen={onOpen} />);
  await screen.findByTestId('compare-totals');
  return onOpen;
}
const row = (i: number) => screen.getByTestId(`call-diff-${i}`);

describe('CompareView', () => {
  it('asks Compare(a, b) and shows the totals', async () => {
    await start();
    expect(mock.binding.Compare).toHaveBeenCalledWith(1, 2);
    expect(screen.getByTestId('total-delta').textContent).toBe('+30');
    expect(screen.getByTestId('changed-calls').textContent).toBe('3');
    expect(screen.getByTestId('compare-totals').textContent).toContain('300 → 330');
    expect(screen.getByTestId('compare-totals').textContent).toContain('120 → 140');
    expect(screen.queryByTestId('compare-agents')).toBeNull(); // the same rendering: nothing to say
  });

  it('says when the two runs rendered as two agent versions (what an upgrade changes)', async () => {
    vi.spyOn(mock.binding, 'Compare').mockResolvedValue({ ...cmp, a: run(1, { agent: 'claude-code@2.1.197' }), b: run(2, { agent: 'claude-code@2.1.332' }) });
    await start();
    expect(screen.getByTestId('compare-agents').textContent).toBe('rendered as claude-code@2.1.197 → claude-code@2.1.332: what this upgrade changes for these hooks');
  });

  it('says when the two runs are one scenario under two agents (where each puts the words)', async () => {
    vi.spyOn(mock.binding, 'Compare').mockResolvedValue({ ...cmp, a: run(1, { agent: 'claude-code@2.1.332' }), b: run(2, { agent: 'codex@0.171.0' }) });
    await start();
    expect(screen.getByTestId('compare-agents').textContent).toBe("rendered as claude-code@2.1.332 → codex@0.171.0: where each agent puts these hooks' words");
  });

  it('shows each call position with its status and token delta', async () => {
    await start();
    const statuses = [0, 1, 2, 3].map((i) => within(row(i)).getByTestId('call-status').textContent);
    expect(statuses).toEqual(['same', 'changed', 'removed', 'added']);
    const deltas = [0, 1, 2, 3].map((i) => within(row(i)).getByTestId('token-delta'));
    expect(deltas.map((d) => d.textContent)).toEqual(['0', '+20', '-100', '+110']);
    expect(deltas[1]!.className).toContain('plus');
    expect(deltas[2]!.className).toContain('minus');
    expect(within(row(1)).getByText('request 1 · agent round 1')).toBeTruthy();
    expect(within(row(2)).getAllByText('—')).toHaveLength(1); // no tokens B
    // a bar per aligned call, run A drawn as an outline
    expect(screen.getAllByTestId('bar')).toHaveLength(4);
    expect(screen.getAllByTestId('bar-ghost')).toHaveLength(4);
  });

  it('expands a call to its message diffs, changed text side by side with word highlights', async () => {
    await start();
    // the first changed call starts open
    expect(row(1).getAttribute('aria-expanded')).toBe('true');
    const diffs = screen.getAllByTestId('message-diff');
    expect(diffs).toHaveLength(1);
    const d = diffs[0]!;
    expect(d.textContent).toContain('hook:hint');
    expect(d.textContent).toContain('10 → 30 tok');
    expect(d.querySelector('del')?.textContent).toBe('whole');
    expect(d.querySelector('ins')?.textContent).toContain('rest of the');
    expect(d.querySelectorAll('.mdiff-side')).toHaveLength(2);
    // collapse it, expand the added call
    fireEvent.click(row(1));
    expect(screen.queryAllByTestId('message-diff')).toHaveLength(0);
    fireEvent.click(within(row(3)).getByLabelText('Expand'));
    const added = screen.getByTestId('message-diff');
    expect(added.className).toContain('op-added');
    expect(added.querySelectorAll('.mdiff-side')).toHaveLength(1);
    expect(added.querySelector('ins')?.textContent).toBe('file body');
    // a same call says its lists are identical
    fireEvent.click(row(0));
    expect(screen.getByText('The message lists are identical.')).toBeTruthy();
    fireEvent.click(screen.getByText('expand all'));
    expect(screen.getAllByTestId('message-diff')).toHaveLength(2);
  });

  it('hides unchanged calls on request and opens either run', async () => {
    const onOpen = await start();
    fireEvent.click(screen.getByLabelText('only changed calls'));
    expect(screen.queryByTestId('call-diff-0')).toBeNull();
    expect(row(1)).toBeTruthy();
    fireEvent.click(screen.getByText('Open #2'));
    expect(onOpen).toHaveBeenCalledWith(cmp.b);
  });

  it('reports a failed comparison', async () => {
    vi.spyOn(mock.binding, 'Compare').mockRejectedValue('compare: no such run');
    render(<CompareView a={1} b={99} onBack={() => {}} onOpen={() => {}} />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('no such run'));
  });

  it('labels calls by their index in each run', () => {
    expect(callLabel({ a: 2, b: 2 })).toBe('#3');
    expect(callLabel({ a: 2, b: 3 })).toBe('#3 → #4');
    expect(callLabel({ a: null, b: 0 })).toBe('#1');
  });
});

describe('the mock Compare (same alignment as the backend)', () => {
  it('finds the edited hook in the calls that see it, with positive deltas', async () => {
    // seeded runs 2 → 3: the memory hook grew by a sentence
    const real = await resetMockHistory().binding.Compare(2, 3);
    expect(real.changed_calls).toBeGreaterThan(0);
    expect(real.token_delta).toBeGreaterThan(0);
    for (const c of real.calls.filter((x) => x.status === 'changed')) {
      expect(c.token_delta).toBeGreaterThan(0);
      expect(c.messages.every((m) => m.op === 'changed' && m.tag.endsWith('hook:memory'))).toBe(true);
    }
  });
});

describe('identical', () => {
  it('says where the tokens differ when the lists do not', () => {
    expect(identical(0)).toBe('The message lists are identical.');
    expect(identical(9)).toContain('+9 tokens outside them');
    expect(identical(-4)).toContain('-4 tokens outside them');
  });
});
