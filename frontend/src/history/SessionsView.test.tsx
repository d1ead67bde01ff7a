import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { resetSessionsMock, type SessionSummary } from '../lib/api/sessions';
import { fmtSize, SessionsView } from './SessionsView';

let mock: ReturnType<typeof resetSessionsMock>;

const session = (id: string, over: Partial<SessionSummary>): SessionSummary => ({
  agent: 'claude-code', version: '2.1.332', id, file: `/home/user/.claude/projects/p/${id}.jsonl`, project: '/home/user/project',
  started: '2026-11-26T09:00:00Z', ended: '2026-11-26T09:10:00Z', modified: '2026-11-26T09:10:00Z', prompt: 'clean the build folder',
  turns: 1, calls: 4, model: 'claude-opus-5-5', hooks: [{ label: 'PostToolUse:Bash', count: 2 }], size: 163_296, ...over,
});

beforeEach(() => {
  mock = resetSessionsMock();
  mock.setSessions([
    session('aaa', {}),
    session('bbb', { agent: 'codex', version: '0.171.0', file: '/home/user/.codex/sessions/rollout-bbb.jsonl', prompt: 'tidy up', model: 'gpt-5.5', hooks: [] }),
  ]);
});
afterEach(() => { resetSessionsMock(); vi.restoreAllMocks(); });

const rows = () => document.querySelectorAll('.session-row');

describe('SessionsView', () => {
  it('lists the sessions with their figures, searched and filtered by agent', async () => {
    render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(2));
    const a = within(screen.getByTestId('session-aaa'));
    expect(a.getByText('claude-code 2.1.332')).toBeTruthy();
    expect(a.getByText('clean the build folder')).toBeTruthy();
    expect(a.getByText('PostToolUse:Bash×2')).toBeTruthy();
    expect(a.getByText('159.5 KB')).toBeTruthy();
    fireEvent.change(screen.getByTestId('sessions-search'), { target: { value: 'posttooluse' } });
    await waitFor(() => expect(rows().length).toBe(1));
    fireEvent.change(screen.getByTestId('sessions-search'), { target: { value: '' } });
    // each change lists again: the search's one row can still be on screen when the filter changes
    await waitFor(() => expect(rows().length).toBe(2));
    fireEvent.change(screen.getByLabelText('Agent filter'), { target: { value: 'codex' } });
    await waitFor(() => expect([...rows()].map((r) => r.getAttribute('data-testid'))).toEqual(['session-bbb']));
    fireEvent.change(screen.getByTestId('sessions-search'), { target: { value: 'nothing like it' } });
    expect(await screen.findByText('No session matches')).toBeTruthy();
  });

  it('imports a session with its progress and opens its run', async () => {
    const opened = vi.fn();
    render(<SessionsView onBack={() => {}} onOpenRun={opened} />);
    await waitFor(() => expect(rows().length).toBe(2));
    fireEvent.click(within(screen.getByTestId('session-aaa')).getByTestId('session-import'));
    const open = await within(screen.getByTestId('session-aaa')).findByTestId('session-open');
    expect(open.textContent).toBe('Open #1');
    expect(mock.imported).toEqual(['/home/user/.claude/projects/p/aaa.jsonl']);
    fireEvent.click(open);
    expect(opened).toHaveBeenCalledWith(1);
  });

  it('offers the imported run however its progress events and its answer cross', async () => {
    render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(2));
    const file = '/home/user/.claude/projects/p/aaa.jsonl';
    const { Import } = mock.api;
    // the answer arrives before a progress event sent while it was read
    mock.api.Import = async (f) => {
      const r = await Import(f);
      mock.emit('sessions:progress', { file, read: 10, total: 40 });
      return r;
    };
    fireEvent.click(within(screen.getByTestId('session-aaa')).getByTestId('session-import'));
    await waitFor(() => expect(mock.imported).toEqual([file]));
    expect(await within(screen.getByTestId('session-aaa')).findByTestId('session-open')).toBeTruthy();
    expect(within(screen.getByTestId('session-aaa')).queryByTestId('session-progress')).toBeNull();
    mock.api.Import = Import;
  });

  it('shows an import in progress', async () => {
    render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(2));
    act(() => mock.emit('sessions:progress', { file: '/home/user/.claude/projects/p/aaa.jsonl', read: 10, total: 40 }));
    const bar = within(screen.getByTestId('session-aaa')).getByTestId('session-progress') as HTMLProgressElement;
    expect(bar.value).toBe(10);
    expect(bar.max).toBe(40);
  });

  it('follows a session as it grows and stops, every subscription undone', async () => {
    const { unmount } = render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(2));
    const row = () => within(screen.getByTestId('session-aaa'));
    fireEvent.click(row().getByTestId('session-follow'));
    await waitFor(() => expect(row().getByTestId('session-follow').getAttribute('aria-pressed')).toBe('true'));
    expect(await row().findByTestId('session-open')).toBeTruthy();
    fireEvent.click(row().getByTestId('session-follow'));
    await waitFor(() => expect(row().getByTestId('session-follow').getAttribute('aria-pressed')).toBe('false'));
    expect(mock.listeners['sessions:update'].size).toBe(1);
    unmount();
    expect(mock.listeners['sessions:update'].size).toBe(0);
    expect(mock.listeners['sessions:progress'].size).toBe(0);
  });

  it('points the list at other folders', async () => {
    render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(2));
    fireEvent.click(screen.getByText('folders…'));
    fireEvent.change(screen.getByLabelText('Claude Code projects folder'), { target: { value: '/srv/claude/projects' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(screen.queryByLabelText('Claude Code projects folder')).toBeNull());
    expect((await mock.api.Locations()).claude).toBe('/srv/claude/projects');
  });

  it('lists Gemini CLI, Qwen Code and Copilot CLI sessions beside the others, each from its own folder', async () => {
    mock.setSessions([
      session('aaa', {}),
      session('ggg', { agent: 'gemini-cli', version: '', file: '/home/user/.gemini/tmp/project/chats/session-1.jsonl', model: 'gemini-3.8-flash', hooks: [{ label: 'hook context', count: 3 }] }),
      session('qqq', { agent: 'qwen-code', version: '0.24.4', file: '/home/user/.qwen/projects/p/chats/q.jsonl', hooks: [{ label: 'UserPromptSubmit', count: 1 }] }),
      session('ccc', { agent: 'copilot-cli', version: '1.0.102', file: '/home/user/.copilot/session-state/ccc/events.jsonl', hooks: [{ label: 'preToolUse', count: 2 }] }),
    ]);
    render(<SessionsView onBack={() => {}} onOpenRun={() => {}} />);
    await waitFor(() => expect(rows().length).toBe(4));
    expect(within(screen.getByTestId('session-ccc')).getByText('copilot-cli 1.0.102')).toBeTruthy();
    expect(within(screen.getByTestId('session-ggg')).getByText('gemini-cli')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Agent filter'), { target: { value: 'qwen-code' } });
    await waitFor(() => expect(rows().length).toBe(1));
    expect(rows()[0]!.getAttribute('data-testid')).toBe('session-qqq');
    fireEvent.click(screen.getByText('folders…'));
    fireEvent.change(screen.getByLabelText('Copilot CLI sessions folder'), { target: { value: '/srv/copilot/session-state' } });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(screen.queryByLabelText('Copilot CLI sessions folder')).toBeNull());
    expect(await mock.api.Locations()).toMatchObject({ copilot: '/srv/copilot/session-state', gemini: '/home/user/.gemini/tmp', qwen: '/home/user/.qwen/projects' });
  });

  it('writes sizes as people read them', () => {
    expect(fmtSize(900)).toBe('900 B');
    expect(fmtSize(2048)).toBe('2.0 KB');
    expect(fmtSize(52_428_800)).toBe('50.0 MB');
  });
});
