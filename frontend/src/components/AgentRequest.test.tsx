import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import agentFixture from '../fixtures/agent-trace.json';
import seed from '../fixtures/seed-diagrams.json';
import type { Message, MessageRow, TraceView } from '../lib/api';
import { firstWords, isAgentOwn, requestKind, share, splitText } from '../lib/api/agentRequest';
import { itemsOf, MessageList } from './MessageList';
import { VisibilityMatrix } from './BottomPanel';
import { skillColors } from './util';

// a run of claude-guard's release scenario under claude-code@2.1.332 with a request model of our own
// words (app/services/studio's TestCallBody writes it): two system blocks and a context piece before
// the prompt, an environment block after it, three tools
const agentView = agentFixture as unknown as TraceView;
const color = skillColors([]);
const groups = () => screen.getAllByTestId('agent-group');
const line = (id: number) => screen.getByTestId(`msg-${id}`);
const toggle = (id: number) => within(line(id)).getAllByRole('button')[0]!;

afterEach(() => vi.restoreAllMocks());

describe("an agent's own messages in the message list", () => {
  it("groups them where they stand, a line each — which piece, its tokens, its first words — closed until clicked or Enter", async () => {
    const call = agentView.calls[0]!;
    render(<MessageList view={agentView} cursor={call.step} color={color} />);
    const [system, env] = groups();
    expect(system!.getAttribute('aria-label')).toBe("Claude Code's own system prompt (2 blocks) and context");
    expect(within(system!).getByText("Claude Code 2.1.332's own")).toBeTruthy();
    expect(within(system!).getByText('system prompt ×2 · context ×1')).toBeTruthy();
    // the user's prompt stands between the two groups, in its own card
    const list = screen.getByRole('list', { name: 'Messages' });
    const order = [...list.querySelectorAll('[data-testid="agent-group"], [data-testid^="msg-"]')].map((e) => e.getAttribute('data-testid'));
    const user = agentView.messages.find((m) => m.origin === 'user_input')!;
    expect(order.indexOf(`msg-${user.id}`)).toBeGreaterThan(order.indexOf('msg-2'));
    expect(order.indexOf(`msg-${user.id}`)).toBeLessThan(order.indexOf('msg-4'));
    expect(within(env!).getByText('turn.2')).toBeTruthy();

    const long = agentView.messages[1]!;
    expect(within(line(long.id)).getByText('system.2')).toBeTruthy();
    expect(within(line(long.id)).getByText(`${long.tokens} tok`)).toBeTruthy();
    expect(within(line(long.id)).getByText(firstWords(long.content))).toBeTruthy();
    for (const el of screen.getAllByRole('button', { expanded: false }).filter((b) => b.classList.contains('agent-line-toggle'))) {
      expect(el.getAttribute('aria-expanded')).toBe('false');
    }
    expect(document.querySelector('.agent-text')).toBeNull();

    fireEvent.click(toggle(long.id));
    expect(line(long.id).querySelector('.agent-text')!.textContent).toBe(long.content);
    fireEvent.click(toggle(long.id));
    expect(line(long.id).querySelector('.agent-text')).toBeNull();
    toggle(4).focus();
    await userEvent.keyboard('{Enter}');
    expect(line(4).querySelector('.agent-text')!.textContent).toBe('# Environment\nWorking folder: /home/user/project');
  });

  it("shows them all in full with the toggle, which says so to whoever remembers it", () => {
    const onShow = vi.fn();
    const call = agentView.calls[0]!;
    const { rerender } = render(<MessageList view={agentView} cursor={call.step} color={color} agentContext={{ shown: false, onShow }} />);
    fireEvent.click(screen.getByTestId('show-agent-context'));
    expect(onShow).toHaveBeenCalledWith(true);
    rerender(<MessageList view={agentView} cursor={call.step} color={color} agentContext={{ shown: true, onShow }} />);
    expect(document.querySelectorAll('.agent-text')).toHaveLength(4);
    // one closed by hand while the rest stay open
    fireEvent.click(toggle(0));
    expect(document.querySelectorAll('.agent-text')).toHaveLength(3);
  });

  it('lists the tools the call offered in a closed row at the top, with what their definitions cost', () => {
    const call = agentView.calls[0]!;
    render(<MessageList view={agentView} cursor={call.step} color={color} />);
    const row = screen.getByTestId('offered-tools');
    const btn = within(row).getByRole('button');
    expect(btn.getAttribute('aria-expanded')).toBe('false');
    expect(btn.textContent).toContain('3 tools offered');
    expect(btn.textContent).toContain('47 tok');
    expect(btn.textContent).toContain('Bash, Edit, Skill');
    fireEvent.click(btn);
    expect(within(screen.getByRole('list', { name: 'Tools offered' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Bash', 'Edit', 'Skill']);
  });

  it("gives the call's tokens of the whole request and their split, the hooks' share readable", () => {
    const call = agentView.calls[agentView.calls.length - 1]!;
    const s = call.split!;
    render(<MessageList view={agentView} cursor={call.step} color={color} />);
    expect(s.agent + s.tools + s.hooks + s.conversation).toBe(call.tokens);
    expect(screen.getByTitle(/the whole request/).textContent).toBe(`${call.tokens} tokens`);
    const split = screen.getByTestId('token-split');
    const hooks = split.querySelector('[data-part="hooks"]')!;
    expect(hooks.textContent).toBe(`hooks ${s.hooks} (${share(s.hooks, call.tokens)})`);
    expect(split.querySelector('[data-part="tools"]')!.textContent).toBe(`tools ${s.tools}`);
    expect(split.querySelectorAll('.split-bar .split-seg')).toHaveLength(4);
    expect(split.getAttribute('title')).toBe(splitText(s));
  });

  it("shows the call's request body, pretty-printed, and copies it", async () => {
    const body = JSON.stringify({ model: 'test-model', system: [{ type: 'text', text: 'x' }] }, null, 2);
    const load = vi.fn().mockResolvedValue(body);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const call = agentView.calls[1]!;
    render(<MessageList view={agentView} cursor={call.step} color={color} requestBody={load} />);
    await act(async () => { fireEvent.click(screen.getByTestId('show-request')); });
    expect(load).toHaveBeenCalledWith(1);
    const pre = screen.getByLabelText('Request body of LLM call #2');
    expect(pre.textContent).toBe(body);
    await act(async () => { fireEvent.click(screen.getByTestId('copy-request')); });
    expect(writeText).toHaveBeenCalledWith(body);
    expect(screen.getByRole('status').textContent).toBe('copied');
    fireEvent.click(screen.getByRole('tab', { name: 'Messages' }));
    expect(screen.getAllByTestId('agent-group')).toHaveLength(2);
  });

  it('says why a request body cannot be written', async () => {
    const load = vi.fn().mockRejectedValue(new Error('the view has been simulated again'));
    render(<MessageList view={agentView} cursor={agentView.calls[0]!.step} color={color} requestBody={load} />);
    await act(async () => { fireEvent.click(screen.getByTestId('show-request')); });
    expect(screen.getByRole('alert').textContent).toBe('the view has been simulated again');
  });

  it('marks a placeholder as one: the tokens are the CLI words\', and it says how to calibrate', () => {
    const v: TraceView = structuredClone(agentView);
    const m = v.messages[1]!;
    Object.assign(m, { placeholder: true, placeholder_tokens: 1535, tokens: 1538,
      content: "[claude-code 2.1.332's own text system.2: 7080 characters, 1535 tokens. Hook Studio does not ship the CLI's words; run `hookctl calibrate claude-code` (or Settings ▸ Agents ▸ Calibrate) to see them here.]" });
    render(<MessageList view={v} cursor={v.calls[0]!.step} color={color} />);
    expect(line(m.id).className).toContain('is-placeholder');
    expect(within(line(m.id)).getByText(/placeholder · calibrate/)).toBeTruthy();
    expect(within(line(m.id)).getByText('1,538 tok')).toBeTruthy();
    fireEvent.click(toggle(m.id));
    const open = line(m.id).querySelector('.agent-placeholder')!;
    expect(open.textContent).toContain('1,535 tokens');
    expect(within(open as HTMLElement).getByText('hookctl calibrate claude-code')).toBeTruthy();
  });

  it('says the agent\'s own texts are missing when its version has no request model', () => {
    const v: TraceView = structuredClone(agentView);
    v.agent = { ...v.agent!, request: 'none' };
    v.messages = v.messages.filter((m) => !m.pieces);
    render(<MessageList view={v} cursor={v.calls[0]!.step} color={color} />);
    const note = screen.getByTestId('agent-context-missing');
    expect(note.textContent).toContain('Claude Code 2.1.332');
    expect(within(note).getByText('hookctl calibrate claude-code')).toBeTruthy();
    expect(screen.queryByTestId('agent-group')).toBeNull();
    expect(within(screen.getByTestId('offered-tools')).getByRole('button').textContent).toContain('definitions not known');
    // not zero: not known
    expect(screen.getByTestId('token-split').querySelector('[data-part="agent"]')!.textContent).toBe("agent's own ?");
    expect(screen.getByTestId('token-split').querySelector('[data-part="tools"]')!.textContent).toBe('tools ?');
  });

  it('leaves a seed run as it was: no group, no tools row, no split, no Request view', () => {
    const v = seed as TraceView;
    render(<MessageList view={v} cursor={v.calls[0]!.step} color={color} requestBody={vi.fn()} />);
    expect(screen.queryByTestId('agent-group')).toBeNull();
    expect(screen.queryByTestId('offered-tools')).toBeNull();
    expect(screen.queryByTestId('token-split')).toBeNull();
    expect(screen.queryByTestId('show-request')).toBeNull();
    expect(screen.queryByTestId('show-agent-context')).toBeNull();
  });
});

describe('itemsOf', () => {
  const msg = (id: number, origin: Message['origin'], extra: Partial<Message> = {}): MessageRow =>
    ({ message: { id, origin, role: 'user', content: '', request: 1, created: 0, removed: null, tokens: 1, ...extra } as Message, injected: false, removedHere: false });
  it("groups the agent's own messages in a row, carried ones too, and finds the first change's item", () => {
    const rows = [
      msg(0, 'history', { history_of: 'system_prompt', pieces: ['system.1'] }),
      msg(1, 'history', { history_of: 'system_prompt', pieces: ['system.2'] }),
      msg(2, 'history', { history_of: 'user_input' }),
      msg(3, 'history', { history_of: 'agent_context', pieces: ['turn.5'] }),
      msg(4, 'user_input'),
      msg(5, 'system_prompt'), // a seed run's system prompt: no pieces, no agent's
    ];
    const { items, changeAt } = itemsOf(rows, 4);
    expect(items.map((it) => (it.kind === 'agent' ? it.rows.map((r) => r.message.id) : it.row.message.id))).toEqual([[0, 1], 2, [3], 4, 5]);
    expect(changeAt).toBe(3);
    expect(isAgentOwn(rows[5]!.message)).toBe(false);
  });
});

describe('the agent request helpers', () => {
  it.each([
    [0, 100, '0%'], [1, 100_000, '<0.1%'], [256, 4000, '6.4%'], [50, 100, '50%'],
  ])('share(%d, %d) = %s', (n, total, want) => expect(share(n, total)).toBe(want));
  it('cuts first words at a word', () => {
    expect(firstWords('  a  b\n c ')).toBe('a b c');
    expect(firstWords('alpha beta gamma delta', 12)).toBe('alpha beta…');
  });
  it("tells where a run's request model came from", () => {
    expect(requestKind({ agent: undefined })).toBeNull();
    expect(requestKind({ agent: { agent: 'codex', version: '1' } })).toBe('none');
    expect(requestKind({ agent: { agent: 'codex', version: '1', request: 'bundled' } })).toBe('bundled');
  });
});

describe('the visibility matrix of an agent run', () => {
  it("gives each call's split in its hover and a small bar under its tokens", () => {
    render(<VisibilityMatrix view={agentView} currentCall={null} changedCalls={new Set()} everyCallArmed={false} color={color} onJumpToCall={() => {}} onToggleEveryCall={() => {}} />);
    const last = agentView.calls[agentView.calls.length - 1]!;
    const foot = screen.getByTestId(`call-tokens-${last.index}`);
    expect(foot.textContent).toBe(String(last.tokens));
    expect(foot.querySelector('.split-compact .split-bar')).toBeTruthy();
    expect(foot.getAttribute('title')).toContain(`hooks: ${last.split!.hooks} tokens (${share(last.split!.hooks, last.tokens)})`);
    const th = screen.getAllByRole('columnheader').find((h) => h.textContent?.startsWith(`#${last.index + 1}`))!;
    expect(th.getAttribute('title')).toContain('tokens in the whole request');
  });
});
