import { describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import execFixture from '../fixtures/exec-trace.json';
import execStateFixture from '../fixtures/exec-state.json';
import type { ExecState, SimProgress as Progress, StudioState, TraceView } from '../lib/api';
import { HookCallDetail } from './HookCallDetail';
import { HookCallsPanel } from './HookCallsPanel';
import { TrustBanner, trustKey } from './TrustBanner';
import { SimProgress } from './SimProgress';
import { NoticeToasts } from './NoticeToasts';
import { HookCallRow } from './HookCallRow';
import { StepList } from '../components/StepList';
import { FlowView, nodeAt } from '../components/FlowView';
import { SkillsPanel } from '../components/SkillsPanel';
import { sourceOf } from '../paged/local';
import { MessageList } from '../components/MessageList';

const view = execFixture as unknown as TraceView;
const state = execStateFixture as unknown as StudioState;
const stepOf = (hook: string) => view.steps.find((s) => s.hook_call?.hook === hook)!;

describe('HookCallDetail', () => {
  it('shows the exact stdin and stdout, exit status, duration, outcome and the effect as a diff', () => {
    render(<HookCallDetail view={view} step={stepOf('guard')} />);
    const input = screen.getByTestId('hookcall-input').textContent!;
    expect(JSON.parse(input)).toEqual({ event: 'pre_tool_execution', tool_arguments: { path: 'a' }, tool_name: 'read_file' });
    expect(JSON.parse(screen.getByTestId('hookcall-output').textContent!)).toMatchObject({ action: 'skip' });
    const d = screen.getByTestId('hookcall-detail');
    expect(within(d).getByText('skipped', { selector: '.outcome' })).toBeTruthy();
    expect(within(d).getByText('exit 0')).toBeTruthy();
    expect(within(d).getByText('3.4 ms')).toBeTruthy();
    expect(within(d).getByText(/system_message: guard skipped read_file/)).toBeTruthy();
    expect(within(screen.getByTestId('hookcall-diff')).getByText(/reading a is not allowed here/)).toBeTruthy();
  });
  it('shows a replaced message as − before / + after', () => {
    render(<HookCallDetail view={view} step={stepOf('branch')} />);
    const diff = screen.getByTestId('hookcall-diff');
    expect(within(diff).getByText('replaced in place')).toBeTruthy();
    expect(within(diff).getByText('You are careful.')).toBeTruthy();
    expect(within(diff).getByText(/Current git branch: main/)).toBeTruthy();
    expect(screen.getByText(/slow/)).toBeTruthy();
  });
  it('a failing hook: its error, stderr, non-JSON output; the answer diff only at the hook that changed it', () => {
    render(<HookCallDetail view={view} step={stepOf('lint')} />);
    expect(screen.getByRole('alert').textContent).toContain('exit status 1');
    expect(screen.getByTestId('hookcall-stderr').textContent).toContain('lint: cannot parse');
    expect(screen.getByTestId('hookcall-output').textContent).toBe('not json');
    expect(screen.getByText(/No change to the message list/)).toBeTruthy();
  });
  it('a process hook shows the JSON-RPC request and answer', () => {
    render(<HookCallDetail view={view} step={view.steps.find((s) => s.hook_call?.event === 'hook.hello')!} />);
    expect(screen.getByText('Request (JSON-RPC)')).toBeTruthy();
    expect(JSON.parse(screen.getByTestId('hookcall-input').textContent!)).toMatchObject({ method: 'hook.hello' });
  });
  it('copies the input', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<HookCallDetail view={view} step={stepOf('guard')} />);
    await act(async () => { fireEvent.click(screen.getByLabelText('copy Input (stdin)')); });
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('"tool_name": "read_file"'));
    expect(screen.getByText('copied')).toBeTruthy();
  });
});

describe('step list, flow, skills panel, messages', () => {
  it('renders hook_call steps with system, event, hook, outcome and duration; failing and slow ones flagged', () => {
    render(<StepList source={sourceOf(view)} cursor={0} breakpoints={['exec:command/guard']} changedCalls={new Set()} onJump={() => undefined} onToggleBreakpoint={() => undefined} />);
    const rows = screen.getAllByTestId('hook-call-row');
    expect(rows.length).toBeGreaterThan(3);
    const { container } = render(<HookCallRow call={stepOf('branch').hook_call!} />);
    expect(container.querySelector('.dur.is-slow')?.textContent).toBe('slow 1.45 s');
    const lint = render(<HookCallRow call={{ ...stepOf('polish').hook_call!, outcome: 'error' }} />);
    expect(lint.container.querySelector('.outcome.tone-fail')).toBeTruthy();
    expect(lint.container.textContent).toContain('reused');
    const other = 'PicoClaw\'s code reverts this tool definition: the model would not see lookup_docs';
    const noted = render(<HookCallRow call={{ ...stepOf('polish').hook_call!, other }} />);
    expect(noted.container.querySelector('[data-testid="hook-call-other"]')?.textContent).toContain(other);
    expect(lint.container.querySelector('[data-testid="hook-call-other"]')).toBeNull();
  });
  it('shows a Claude Code hook call with its badge, and blocked and asked outcomes styled', () => {
    const base = stepOf('guard').hook_call!;
    const blocked = render(<HookCallRow call={{ ...base, system: 'claude-code', event: 'PreToolUse:Bash', hook: 'sh .claude/hooks/guard.sh', outcome: 'blocked' }} />);
    const badge = blocked.container.querySelector('.sysbadge')!;
    expect(badge.textContent).toBe('Claude Code');
    expect(badge.className).toContain('sys-claude-code');
    const out = blocked.container.querySelector('.outcome')!;
    expect(out.getAttribute('data-outcome')).toBe('blocked');
    expect(out.className).toContain('tone-blocked');
    const asked = render(<HookCallRow call={{ ...base, system: 'claude-code', outcome: 'asked' }} />);
    expect(asked.container.querySelector('.outcome.tone-asked')?.textContent).toBe('asked');
    // another agent's hook: its badge is the registry's label, styled as an agent CLI's; the seeds' are not
    const gemini = render(<HookCallRow call={{ ...base, system: 'gemini-cli', event: 'BeforeTool:run_shell_command', hook: 'guard', outcome: 'blocked' }} />);
    const gb = gemini.container.querySelector('.sysbadge')!;
    expect(gb.textContent).toBe('Gemini CLI');
    expect(gb.className).toContain('sys-agent');
    expect(blocked.container.querySelector('.sysbadge.sys-agent')).toBeTruthy();
    expect(render(<HookCallRow call={base} />).container.querySelector('.sysbadge.sys-agent')).toBeNull();
  });
  it('puts hook invocations at their node and lights the node and its tag', () => {
    expect(nodeAt(sourceOf(view), stepOf('guard').index)?.id).toBe('run');
    expect(nodeAt(sourceOf(view), stepOf('branch').index)?.id).toBe('plan');
    expect(nodeAt(sourceOf(view), stepOf('lint').index)?.id).toBe('agent');
    const onToggleEvent = vi.fn();
    const { container } = render(<FlowView source={sourceOf(view)} cursor={stepOf('guard').index} breakpoints={['event:before_tool']} onToggleCheckpoint={() => undefined} onToggleEvent={onToggleEvent} />);
    const tag = container.querySelector('[data-hooknode="run"]')!;
    expect(tag.getAttribute('class')).toContain('is-lit');
    expect(tag.getAttribute('class')).toContain('armed');
    expect(screen.getByTestId('flow-hook-caption').textContent).toContain('pre_tool_execution · guard → skipped');
    fireEvent.click(tag);
    expect(onToggleEvent).toHaveBeenCalledWith('before_tool');
  });
  it('lists executable hooks beside prompt hooks, with breakpoints and a not-run marker', () => {
    const onToggleExecBreakpoint = vi.fn();
    render(<SkillsPanel state={state} breakpoints={['exec:command/guard']} onToggleSkill={() => undefined} onToggleHookBreakpoint={() => undefined} execNotRun="folder not trusted" onToggleExecBreakpoint={onToggleExecBreakpoint} />);
    const guarded = screen.getByTestId('skill-guarded');
    expect(within(guarded).getByText('guard')).toBeTruthy();
    expect(within(guarded).getByText('hook.before_llm')).toBeTruthy();
    expect(within(guarded).getAllByText('not run')).toHaveLength(3);
    expect(within(screen.getByTestId('folder-hooks')).getByText('polish')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('breakpoint on command/branch'));
    expect(onToggleExecBreakpoint).toHaveBeenCalledWith('command/branch');
  });
  it('lists a Claude Code handler among the folder hooks, with a breakpoint on it and its source to open', () => {
    const onToggleExecBreakpoint = vi.fn(), onOpenExecHook = vi.fn();
    const cc = { system: 'claude-code', event: 'PreToolUse', hook: 'sh .claude/hooks/guard.sh', source: '.claude/settings.json:6', detail: 'Bash' };
    const withCC = { ...state, exec: { ...state.exec!, hooks: [...state.exec!.hooks, cc] } } as StudioState;
    render(<SkillsPanel state={withCC} breakpoints={['exec:claude-code/sh .claude/hooks/guard.sh']} onToggleSkill={() => undefined} onToggleHookBreakpoint={() => undefined}
      onToggleExecBreakpoint={onToggleExecBreakpoint} onOpenExecHook={onOpenExecHook} />);
    const folder = screen.getByTestId('folder-hooks');
    const gutter = within(folder).getByLabelText('breakpoint on claude-code/sh .claude/hooks/guard.sh');
    expect(gutter.className).toContain('armed');
    expect(within(folder).getByText('Claude Code')).toBeTruthy();
    fireEvent.click(gutter);
    expect(onToggleExecBreakpoint).toHaveBeenCalledWith('claude-code/sh .claude/hooks/guard.sh');
    fireEvent.click(within(folder).getByText('sh .claude/hooks/guard.sh'));
    expect(onOpenExecHook).toHaveBeenCalledWith(cc);
    cleanup();
    // a folder's own configs have an editor of their own (skill "")
    const onEditSkill = vi.fn();
    render(<SkillsPanel state={withCC} breakpoints={[]} onToggleSkill={() => undefined} onToggleHookBreakpoint={() => undefined} onEditSkill={onEditSkill} onNewSkill={async () => undefined} />);
    fireEvent.click(screen.getByRole('button', { name: 'Folder hooks…' }));
    expect(onEditSkill).toHaveBeenCalledWith('');
  });
  it('labels messages added or rewritten by a hook and tool calls a hook decided', () => {
    render(<MessageList source={sourceOf(view)} cursor={view.calls[0]!.step} color={() => '#888'} />);
    expect(screen.getByText('edited by branch')).toBeTruthy();
    const later = render(<MessageList source={sourceOf(view)} cursor={stepOf('guard').index + 1} color={() => '#888'} />);
    expect(within(later.container).getAllByText('skipped by guard').length).toBeGreaterThan(0);
    // the skipped tool's message is the guard's words, not an edited result
    expect(within(later.container).getByText('written by guard')).toBeTruthy();
    expect(within(later.container).queryByText('edited by guard')).toBeNull();
  });
});

describe('HookCallsPanel', () => {
  it('lists invocations, lanes and metrics; jumps and toggles breakpoints', () => {
    const onJump = vi.fn(), onToggleHook = vi.fn(), onToggleEvent = vi.fn();
    render(<HookCallsPanel view={view} cursor={0} breakpoints={[]} onJump={onJump} onToggleHook={onToggleHook} onToggleEvent={onToggleEvent} />);
    expect(screen.getByText(/9 invocations/)).toBeTruthy();
    expect(screen.getByText(/1 failed/)).toBeTruthy();
    expect(screen.getByText(/1 slow/)).toBeTruthy();
    expect(screen.getByTestId('lane-process/audit').querySelectorAll('.mark')).toHaveLength(5);
    fireEvent.click(screen.getByTestId('hc-4'));
    expect(onJump).toHaveBeenCalledWith(stepOf('guard').index);
    fireEvent.click(screen.getAllByLabelText('breakpoint on hook command/guard')[0]!);
    expect(onToggleHook).toHaveBeenCalledWith('command/guard');
    fireEvent.click(screen.getAllByText('pre_tool_execution', { selector: 'button' })[0]!);
    expect(onToggleEvent).toHaveBeenCalledWith('pre_tool_execution');
    expect(within(screen.getByLabelText('Per-hook metrics')).getByText('guard')).toBeTruthy();
  });
  it('says why nothing ran', () => {
    const notRun: TraceView = { ...view, steps: view.steps.filter((s) => s.kind !== 'hook_call'), exec: { ran: false, not_run: 'folder not trusted', hooks: view.exec!.hooks, metrics: null, duration_ms: 0 } };
    render(<HookCallsPanel view={notRun} cursor={0} breakpoints={[]} onJump={() => undefined} onToggleHook={() => undefined} onToggleEvent={() => undefined} />);
    expect(screen.getByText('folder not trusted')).toBeTruthy();
  });
});

describe('trust, progress, notices', () => {
  const exec = (over: Partial<ExecState> = {}): ExecState => ({ ...state.exec!, trusted: false, ...over });
  it('lists the exact commands and trusts on request', async () => {
    const onTrust = vi.fn(() => Promise.resolve());
    render(<TrustBanner exec={exec()} onTrust={onTrust} />);
    expect(screen.getByText('./guard.sh')).toBeTruthy();
    expect(screen.getByText(/pre_tool_execution · guard \(guarded\) · in guarded\/hooks/)).toBeTruthy();
    await act(async () => { fireEvent.click(screen.getByTestId('trust-folder')); });
    expect(onTrust).toHaveBeenCalled();
  });
  it('says when the configuration changed, and shows nothing once trusted', () => {
    const { rerender, container } = render(<TrustBanner exec={exec({ changed: true })} onTrust={() => Promise.resolve()} />);
    expect(screen.getByText(/changed since you trusted/)).toBeTruthy();
    rerender(<TrustBanner exec={exec({ trusted: true })} onTrust={() => Promise.resolve()} />);
    expect(container.textContent).toBe('');
  });
  it('collapses to one line once read, remembers it for these commands, and asks in full when they change', () => {
    const onRead = vi.fn();
    const { rerender } = render(<TrustBanner exec={exec()} onTrust={() => Promise.resolve()} onRead={onRead} />);
    expect(screen.getByText('./guard.sh')).toBeTruthy();
    fireEvent.click(screen.getByTestId('trust-toggle'));
    expect(screen.queryByText('./guard.sh')).toBeNull();
    expect(screen.getByTestId('trust-banner').className).toContain('is-collapsed');
    const key = onRead.mock.calls[0]![0] as string;
    expect(key).toBe(trustKey(exec()));
    // reopened with the key read: one line, the commands one click away
    rerender(<TrustBanner key="again" exec={exec()} onTrust={() => Promise.resolve()} readKey={key} onRead={onRead} />);
    expect(screen.queryByText('./guard.sh')).toBeNull();
    fireEvent.click(screen.getByTestId('trust-toggle'));
    expect(screen.getByText('./guard.sh')).toBeTruthy();
    // other commands: the read key no longer matches, the banner asks in full
    const changed = exec({ commands: [...exec().commands, { ...exec().commands[0]!, command: './other.sh' }] });
    expect(trustKey(changed)).not.toBe(key);
    rerender(<TrustBanner key="changed" exec={changed} onTrust={() => Promise.resolve()} readKey={key} onRead={onRead} />);
    expect(screen.getByText('./other.sh')).toBeTruthy();
  });
  it('asks nothing of a hook file without commands', () => {
    const { container } = render(<TrustBanner exec={exec({ commands: [] })} onTrust={() => Promise.resolve()} />);
    expect(container.textContent).toBe('');
  });
  it('shows a failed trust', async () => {
    render(<TrustBanner exec={exec()} onTrust={() => Promise.reject('disk full')} />);
    await act(async () => { fireEvent.click(screen.getByTestId('trust-folder')); });
    expect(screen.getByRole('alert').textContent).toBe('disk full');
  });
  it('shows progress with Cancel while a run with hooks goes on, and its timer stops when it ends', () => {
    vi.useFakeTimers();
    try {
      const onCancel = vi.fn();
      const p: Progress = { active: true, file: 'f', started_ms: Date.now(), elapsed_ms: 0, steps: 12, hook_calls: 3, point: 'before_tool', last: 'command pre_tool_execution guard' };
      const { rerender, container } = render(<SimProgress progress={p} onCancel={onCancel} />);
      expect(screen.getByTestId('sim-progress').textContent).toContain('12 steps · 3 calls · before_tool');
      expect(screen.getByTestId('sim-progress').getAttribute('title')).toBe('last hook: command pre_tool_execution guard');
      act(() => { vi.advanceTimersByTime(1500); });
      expect(screen.getByTestId('sim-progress').textContent).toMatch(/1\.[5-9]\d? s|1\.\d+ s/);
      fireEvent.click(screen.getByTestId('sim-cancel'));
      expect(onCancel).toHaveBeenCalled();
      rerender(<SimProgress progress={{ ...p, active: false, status: 'ok' }} onCancel={onCancel} />);
      expect(container.textContent).toBe('');
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
  it('toasts system_message notices of a new simulation and jumps to their step', () => {
    vi.useFakeTimers();
    try {
      const onJump = vi.fn();
      const { rerender } = render(<NoticeToasts view={view} onJump={onJump} />);
      fireEvent.click(screen.getByText('cmd pre_tool_execution guard'));
      expect(onJump).toHaveBeenCalledWith(stepOf('guard').index);
      fireEvent.click(screen.getByLabelText('dismiss'));
      expect(screen.queryByTestId('hook-notice')).toBeNull();
      // a re-simulation with the same notice: nothing new to say
      rerender(<NoticeToasts view={{ ...view, revision: view.revision + 1 }} onJump={onJump} />);
      expect(screen.queryByTestId('hook-notice')).toBeNull();
      // a changed notice shows, for a while
      const steps = view.steps.map((s) => (s.hook_call?.notice ? { ...s, hook_call: { ...s.hook_call, notice: 'guard skipped it again' } } : s));
      rerender(<NoticeToasts view={{ ...view, steps, revision: view.revision + 2 }} onJump={onJump} />);
      expect(screen.getByTestId('hook-notice').textContent).toContain('guard skipped it again');
      act(() => { vi.advanceTimersByTime(9000); });
      expect(screen.queryByTestId('hook-notice')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
