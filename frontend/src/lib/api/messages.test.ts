import { describe, expect, it } from 'vitest';
import seed from '../../fixtures/seed-diagrams.json';
import expected from '../../fixtures/seed-diagrams.expected.json';
import { bigTrace } from '../../fixtures/big';
import type { Message, TraceView } from './types';
import { carriedIn, listAt, LIST_CACHE_STEPS, messagesAt, rowsAt, stepLabel, tag, totalTokens } from './messages';

const view = seed as TraceView;
const naive = (v: TraceView, i: number): Message[] => {
  const r = v.steps[i]!.request;
  return v.messages.filter((m) => m.request === r && m.created <= i && (m.removed === null || m.removed > i)).sort((a, b) => a.id - b.id);
};

describe('tag', () => {
  it.each([
    [{ origin: 'system_prompt' }, 'system'],
    [{ origin: 'user_input' }, 'user'],
    [{ origin: 'hook', hook: 'memory' }, 'hook:memory'],
    [{ origin: 'prompt', prompt: 'first_step' }, 'prompt:first_step'],
    [{ origin: 'assistant' }, 'assistant'],
    [{ origin: 'tool', tool: 'read_file' }, 'tool:read_file'],
    [{ origin: 'history', history_of: 'user_input' }, 'h.user'],
    [{ origin: 'history', history_of: 'assistant' }, 'h.assistant'],
    [{ origin: 'history', history_of: 'hook', hook: 'memory' }, 'h.hook:memory'],
  ] as const)('%o → %s', (m, t) => {
    expect(tag(m as Parameters<typeof tag>[0])).toBe(t);
  });
});

describe('messagesAt on the seed-diagrams fixture', () => {
  it('gives every LLM call exactly the conformance message sequence', () => {
    expect(view.calls).toHaveLength(expected.llm_calls.length);
    expected.llm_calls.forEach((want, i) => {
      const c = view.calls[i]!;
      expect({ request: c.request, phase: c.phase, round: c.round }).toEqual({ request: want.request, phase: want.phase, round: want.round });
      expect(view.steps[c.step]!.kind).toBe('llm_call');
      expect(messagesAt(view, c.step).map(tag)).toEqual(want.messages);
    });
    expect(view.requests.map((r) => r.yielded)).toEqual(expected.yielded);
  });

  it('equals the contract filter at every step', () => {
    for (const s of view.steps) expect(messagesAt(view, s.index)).toEqual(naive(view, s.index));
  });

  it('returns nothing for a step that does not exist', () => {
    expect(messagesAt(view, -1)).toEqual([]);
    expect(messagesAt(view, view.steps.length)).toEqual([]);
  });

  it('keeps the persistent memory hook in history of later requests', () => {
    const r3 = view.calls[5]!;
    const copies = messagesAt(view, r3.step).filter((m) => m.origin === 'history' && m.hook === 'memory');
    expect(copies).toHaveLength(2);
  });
});

describe('rowsAt', () => {
  it('flags injected messages and keeps removed ones as ghosts at their old position', () => {
    // remove_prompt first_step of request 1 round 0
    const s = view.steps.find((x) => x.kind === 'remove_prompt' && x.prompt === 'first_step')!;
    const rows = rowsAt(view, s.index);
    const ghost = rows.filter((r) => r.removedHere);
    expect(ghost.map((r) => tag(r.message))).toEqual(['prompt:first_step']);
    expect(rows.filter((r) => !r.removedHere).map((r) => r.message)).toEqual(messagesAt(view, s.index));
    const idx = rows.findIndex((r) => r.removedHere);
    expect(rows[idx - 1]!.message.id).toBeLessThan(rows[idx]!.message.id);

    const inj = view.steps.find((x) => x.kind === 'inject' && x.timing === 'after_tool_call' && x.added.length > 0)!;
    expect(rowsAt(view, inj.index).filter((r) => r.injected).map((r) => tag(r.message))).toEqual(['hook:truncated-content-hint']);
  });
});

describe('scale', () => {
  it('filters 10,000 messages quickly and correctly', () => {
    const big = bigTrace(10_000);
    expect(big.messages).toHaveLength(10_000);
    const t0 = performance.now();
    const got = messagesAt(big, 2);
    const t1 = performance.now();
    for (let i = 0; i < 100; i++) messagesAt(big, 2);
    const t2 = performance.now();
    expect(got).toHaveLength(10_000);
    expect(got).toEqual(naive(big, 2));
    // generous bounds: a sanity check on a shared CI machine, not a benchmark (npm run bench)
    expect(t1 - t0).toBeLessThan(2000); // the first call builds the per-request index
    expect((t2 - t1) / 100).toBeLessThan(200);
  });
});

describe('helpers', () => {
  it('labels steps and sums tokens', () => {
    expect(stepLabel(view.steps[view.calls[2]!.step]!)).toBe('LLM call #3');
    expect(stepLabel(view.steps[0]!)).toBe('build messages');
    const msgs = messagesAt(view, view.calls[0]!.step);
    expect(totalTokens(msgs)).toBe(msgs.reduce((a, m) => a + m.tokens, 0));
  });
});

describe('listAt', () => {
  it('gives rowsAt and its figures at every step', () => {
    for (const s of view.steps) {
      const l = listAt(view, s.index);
      const rows = rowsAt(view, s.index);
      expect(l.rows).toEqual(rows);
      const live = rows.filter((r) => !r.removedHere);
      expect(l.live).toBe(live.length);
      expect(l.tokens).toBe(totalTokens(live.map((r) => r.message)));
      expect(l.added).toBe(rows.filter((r) => r.injected).length);
      expect(l.removed).toBe(rows.length - live.length);
      expect(l.firstChange).toBe(rows.findIndex((r) => r.injected || r.removedHere));
    }
  });

  it('is cached per view and step, least recently used first out', () => {
    const v: TraceView = structuredClone(view);
    const first = listAt(v, 0);
    expect(listAt(v, 0)).toBe(first);
    for (let i = 1; i <= LIST_CACHE_STEPS; i++) listAt(v, i); // step 0 is now the oldest and falls out
    expect(listAt(v, 0)).not.toBe(first);
    const last = listAt(v, LIST_CACHE_STEPS);
    listAt(v, 0); // uses one slot; LIST_CACHE_STEPS was used more recently than 1
    expect(listAt(v, LIST_CACHE_STEPS)).toBe(last);
    // another view object (a new revision) never sees these lists
    expect(listAt(structuredClone(v), 0)).not.toBe(listAt(v, 0));
  });
});

describe('carriedIn', () => {
  it('counts the history messages a request carries in', () => {
    for (const r of view.requests) {
      const carried = view.messages.filter((m) => m.request === r.index && m.origin === 'history');
      expect(carriedIn(view, r.index)).toEqual({ messages: carried.length, hookCopies: carried.filter((m) => m.history_of === 'hook').length });
    }
    expect(carriedIn(view, 99)).toEqual({ messages: 0, hookCopies: 0 });
  });
});
