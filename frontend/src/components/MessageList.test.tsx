import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import { collapsedHead, estimate, MessageList, originLabel, isLong, TOOL_CALLS_SHOWN } from './MessageList';
import { sourceOf } from '../paged/local';
import { skillColors } from './util';

const view = seed as TraceView;
const color = skillColors([{ name: 'demo', color: 'rgb(59, 130, 246)', dir: 'demo', has_hooks: true, hooks: [], diagnostics: [], broken: false, enabled: true }]);
const card = (id: number) => screen.getByTestId(`msg-${id}`);

describe('MessageList', () => {
  it('shows what an LLM call receives, with origin labels and skill colours', () => {
    const c = view.calls[2]!;
    render(<MessageList source={sourceOf(view)} cursor={c.step} color={color} />);
    expect(screen.getByText(/What LLM call/).textContent).toBe('What LLM call #3 receives');
    const hint = view.messages.find((m) => m.request === 0 && m.hook === 'truncated-content-hint')!;
    const el = card(hint.id);
    expect(within(el).getByText('hook truncated-content-hint · demo')).toHaveProperty('style.color', 'rgb(59, 130, 246)');
    expect(within(el).getByText('system')).toBeTruthy();
    const tool = view.messages.find((m) => m.request === 0 && m.origin === 'tool' && m.tool === 'read_file')!;
    expect(within(card(tool.id)).getByText('tool read_file')).toBeTruthy();
    const asst = view.messages.find((m) => m.request === 0 && m.origin === 'assistant')!;
    expect(within(card(asst.id)).getByText(/read_file\(\{"path":"main.go"\}\)/)).toBeTruthy();
    expect(screen.getByText(/built-in prompt agent_loop/)).toBeTruthy();
    // total tokens of the list
    const total = view.messages.filter((m) => m.request === 0 && m.created <= c.step && (m.removed === null || m.removed > c.step)).reduce((a, m) => a + m.tokens, 0);
    expect(screen.getByText(`${total} tokens`)).toBeTruthy();
    // the model's answer
    expect(screen.getByText(/Model answer/)).toBeTruthy();
  });

  it('badges messages INJECTED at this step', () => {
    const s = view.steps.find((x) => x.kind === 'inject' && x.timing === 'after_user_input' && x.request === 0)!;
    render(<MessageList source={sourceOf(view)} cursor={s.index} color={color} />);
    expect(screen.getByText(/Message list after/).textContent).toContain('① inject after_user_input');
    for (const id of s.added) expect(within(card(id)).getByText('INJECTED')).toBeTruthy();
    expect(screen.getAllByText('INJECTED')).toHaveLength(s.added.length);
    expect(screen.queryByText('REMOVED')).toBeNull();
  });

  it('shows messages REMOVED at this step as struck-through ghost rows', () => {
    const s = view.steps.find((x) => x.kind === 'remove' && x.timing === 'before_planning' && x.request === 0)!;
    render(<MessageList source={sourceOf(view)} cursor={s.index} color={color} />);
    const ghost = card(s.removed[0]!);
    expect(ghost.className).toContain('is-removed');
    expect(within(ghost).getByText('REMOVED')).toBeTruthy();
    expect(within(ghost).getByText('hook plan-style · demo')).toBeTruthy();
  });

  it('labels history copies of persistent hooks as such', () => {
    const c = view.calls[5]!;
    render(<MessageList source={sourceOf(view)} cursor={c.step} color={color} />);
    expect(screen.getAllByText('history copy of hook memory · demo')).toHaveLength(2);
    expect(screen.getAllByText('history · user message')).toHaveLength(2);
    expect(screen.getAllByText('history · assistant reply')).toHaveLength(2);
  });

  it('collapses long content and expands it on click', () => {
    const v: TraceView = structuredClone(view);
    const m = v.messages.find((x) => x.origin === 'system_prompt' && x.request === 0)!;
    m.content = Array.from({ length: 20 }, (_, i) => `line ${i} with **bold** text`).join('\n');
    render(<MessageList source={sourceOf(v)} cursor={v.calls[0]!.step} color={color} />);
    const btn = within(card(m.id)).getByRole('button', { name: /Show all/ });
    expect(card(m.id).querySelector('.msg-body')!.className).toContain('collapsed');
    fireEvent.click(btn);
    expect(within(card(m.id)).getByRole('button', { name: 'Show less' })).toBeTruthy();
    expect(card(m.id).querySelector('.msg-body')!.className).not.toContain('collapsed');
    expect(card(m.id).querySelector('strong')?.textContent).toBe('bold');
  });

  it('builds of a collapsed card only the lines its fade shows; opened, all of them', () => {
    const v: TraceView = structuredClone(view);
    const m = v.messages.find((x) => x.origin === 'system_prompt' && x.request === 0)!;
    m.content = Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n\n');
    render(<MessageList source={sourceOf(v)} cursor={v.calls[0]!.step} color={color} />);
    const body = () => card(m.id).querySelector('.msg-body')!;
    expect(body().textContent).toContain('line 0');
    expect(body().textContent).not.toContain('line 39');
    fireEvent.click(within(card(m.id)).getByRole('button', { name: /Show all/ }));
    expect(body().textContent).toContain('line 39');
  });

  it('cuts a collapsed head at its lines, its characters, and never inside a character', () => {
    expect(collapsedHead('short')).toBe('short');
    const lines = Array.from({ length: 30 }, (_, i) => `l${i}`).join('\n');
    expect(collapsedHead(lines).split('\n')).toHaveLength(12);
    expect(collapsedHead('x'.repeat(5000))).toHaveLength(640);
    const astral = 'x'.repeat(639) + '😀' + 'y';
    const head = collapsedHead(astral);
    expect(head).toBe('x'.repeat(639));
  });

  it('renders markdown without letting raw HTML through', () => {
    const v: TraceView = structuredClone(view);
    const m = v.messages.find((x) => x.origin === 'user_input' && x.request === 0)!;
    m.content = 'hi <img src=x onerror="alert(1)"><script>alert(2)</script> `code`';
    const { container } = render(<MessageList source={sourceOf(v)} cursor={v.calls[0]!.step} color={color} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[onerror]')).toBeNull();
    expect(card(m.id).querySelector('code')?.textContent).toBe('code');
  });

  it('collapses a card with many tool calls and lists them all on click', () => {
    const v: TraceView = structuredClone(view);
    const m = v.messages.find((x) => x.request === 0 && x.origin === 'assistant' && x.tool_calls?.length)!;
    const c = v.calls.find((x) => x.request === 0 && x.step > m.created)!;
    m.tool_calls = Array.from({ length: 60 }, (_, i) => ({ id: `t${i}`, name: 'read_file', arguments: { path: `f${i}.go` }, result: '' }));
    render(<MessageList source={sourceOf(v)} cursor={c.step} color={color} />);
    const el = card(m.id);
    expect(el.querySelectorAll('.toolcalls code')).toHaveLength(TOOL_CALLS_SHOWN);
    expect(within(el).getByText('… 55 more')).toBeTruthy();
    fireEvent.click(within(el).getByRole('button', { name: 'Show all (60 tool calls)' }));
    expect(card(m.id).querySelectorAll('.toolcalls code')).toHaveLength(60);
    expect(within(card(m.id)).getByText('→ read_file({"path":"f59.go"})')).toBeTruthy();
    fireEvent.click(within(card(m.id)).getByRole('button', { name: 'Show less' }));
    expect(card(m.id).querySelectorAll('.toolcalls code')).toHaveLength(TOOL_CALLS_SHOWN);
  });

  it('shows the first tool calls of a long model answer, all on click', () => {
    const v: TraceView = structuredClone(view);
    const c = v.calls.find((x) => x.tool_calls?.length)!;
    c.tool_calls = Array.from({ length: 40 }, (_, i) => ({ id: `t${i}`, name: 'read_file', arguments: { path: `f${i}.go` }, result: '' }));
    const { container } = render(<MessageList source={sourceOf(v)} cursor={c.step} color={color} />);
    expect(container.querySelectorAll('.answer-tc')).toHaveLength(TOOL_CALLS_SHOWN);
    fireEvent.click(screen.getByRole('button', { name: 'Show all (40 tool calls)' }));
    expect(container.querySelectorAll('.answer-tc')).toHaveLength(40);
  });

  it('estimates a one-line card close to its styled height', () => {
    const m = view.messages.find((x) => x.content && !x.content.includes('\n') && x.content.length < 40 && !x.tool_calls)!;
    expect(estimate({ message: m, injected: false, removedHere: false })).toBe(57); // 56.85 in Chromium
    expect(estimate(undefined)).toBeGreaterThan(0);
  });

  it('originLabel and isLong', () => {
    expect(originLabel({ origin: 'history', history_of: 'hook', hook: 'memory', skill: 'demo' } as never)).toBe('history copy of hook memory · demo');
    expect(originLabel({ origin: 'prompt', prompt: 'planning' } as never)).toBe('built-in prompt planning');
    expect(isLong('x'.repeat(1000))).toBe(true);
    expect(isLong('short')).toBe(false);
  });
});
