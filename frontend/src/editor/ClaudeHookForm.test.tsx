import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { ClaudeHookForm, ownDiags } from './ClaudeHookForm';
import { EditorStore } from './store';
import { fakeApi } from './testApi';
import type { ClaudeApi, ClaudeEventInfo, ClaudeHooks, ClaudeHooksEdit } from '../lib/api/configs';
import type { Diagnostic } from '../lib/api';

const FILE = '.claude/settings.json';
const EVENTS: ClaudeEventInfo[] = [
  { name: 'PreToolUse', fires: true, matcher: true, if: true },
  { name: 'Stop', fires: true, matcher: false, if: false },
  { name: 'Notification', fires: false, matcher: true, if: false },
];

// A fake backend over JSON settings: the form only sees InspectClaudeHooks and EditClaudeHooks, so this
// checks the hooks it writes and that the rest of the settings stays; lines are given per path in order.
function fakeClaudeApi(diags: Diagnostic[] = []) {
  const inspect = (text: string): ClaudeHooksEdit => {
    try {
      const doc = (text.trim() ? JSON.parse(text) : {}) as { hooks?: ClaudeHooks };
      const hooks = doc.hooks ?? {};
      const lines: Record<string, number> = {};
      let n = 2;
      for (const [ev, gs] of Object.entries(hooks)) {
        lines[ev] = n++;
        if (!Array.isArray(gs)) continue;
        gs.forEach((g, gi) => { lines[`${ev}/${gi}`] = n++; (Array.isArray(g?.hooks) ? g.hooks : []).forEach((_, hi) => { lines[`${ev}/${gi}/${hi}`] = n++; }); });
      }
      return { text, editable: true, hooks, lines, events: EVENTS, diagnostics: diags };
    } catch {
      return { text, editable: false, error: 'not JSON', hooks: {}, lines: {}, events: EVENTS, diagnostics: [{ file: FILE, line: 1, column: 1, severity: 'error', code: 'claude-syntax', message: '.claude/settings.json is not valid JSON' }] };
    }
  };
  const api = {
    inspectClaudeHooks: vi.fn(async (_f: string, text: string) => inspect(text)),
    editClaudeHooks: vi.fn(async (_f: string, text: string, hooks: ClaudeHooks) => {
      const doc = (text.trim() ? JSON.parse(text) : {}) as Record<string, unknown>;
      if (Object.keys(hooks).length) doc.hooks = hooks; else delete doc.hooks;
      return inspect(JSON.stringify(doc));
    }),
  };
  return api as typeof api & ClaudeApi;
}

const sample = {
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh .claude/hooks/guard.sh', 'x-note': 'kept' }] }],
    Stop: [{ hooks: [{ type: 'prompt', prompt: 'Did the tests run?', timeout: 30 }] }],
  },
  permissions: { allow: ['Bash(ls:*)'] },
};

async function setup(text = JSON.stringify(sample), diags: Diagnostic[] = [], opts: { line?: number; skill?: boolean; file?: string } = {}) {
  const file = opts.file ?? FILE;
  const editor = fakeApi({ [file]: text });
  const store = new EditorStore(editor);
  const api = fakeClaudeApi(diags);
  await store.open(file);
  const onRaw = vi.fn();
  render(<ClaudeHookForm store={store} file={file} api={api} line={opts.line} skill={opts.skill} onRaw={onRaw} />);
  return { store, api, editor, onRaw, doc: () => JSON.parse(store.get().files[file]!.text) as typeof sample };
}

describe('ClaudeHookForm', () => {
  it('lists events, matcher groups and handlers with the fields their type has', async () => {
    await setup();
    const pre = await screen.findByRole('region', { name: 'Event PreToolUse' });
    const h = within(pre).getByLabelText('PreToolUse handler 1.1');
    expect((within(pre).getByLabelText('matcher') as HTMLInputElement).value).toBe('Bash');
    expect((within(h).getByLabelText('type') as HTMLSelectElement).value).toBe('command');
    expect((within(h).getByLabelText('command') as HTMLInputElement).value).toBe('sh .claude/hooks/guard.sh');
    expect(within(h).getByLabelText('if')).toBeTruthy(); // PreToolUse evaluates "if"
    expect(within(h).queryByLabelText('once')).toBeNull(); // not a SKILL.md
    expect(within(h).getByText(/kept as written\): x-note/)).toBeTruthy();
    const stop = screen.getByRole('region', { name: 'Event Stop' });
    expect(within(stop).queryByLabelText('matcher')).toBeNull(); // Stop has no matcher
    expect(within(stop).queryByLabelText('if')).toBeNull();
    expect((within(stop).getByLabelText('prompt') as HTMLTextAreaElement).value).toBe('Did the tests run?');
    expect((within(stop).getByLabelText('timeout') as HTMLInputElement).value).toBe('30');
  });

  it('a field edit writes the hooks back, the other settings untouched; undoable; a draft for the simulation', async () => {
    const { store, api, editor, doc } = await setup();
    const cmd = within(await screen.findByLabelText('PreToolUse handler 1.1')).getByLabelText('command');
    fireEvent.change(cmd, { target: { value: 'sh other.sh' } });
    fireEvent.blur(cmd);
    await waitFor(() => expect(doc().hooks.PreToolUse[0]!.hooks[0]!.command).toBe('sh other.sh'));
    expect(doc().model).toBe('opus');
    expect(doc().permissions).toEqual(sample.permissions);
    expect(doc().hooks.PreToolUse[0]!.hooks[0]!['x-note']).toBe('kept');
    expect(api.editClaudeHooks).toHaveBeenCalledTimes(1);
    await act(() => store.flush());
    expect(editor.setDraft).toHaveBeenLastCalledWith(FILE, store.get().files[FILE]!.text);
    act(() => store.undo(FILE));
    expect(doc().hooks.PreToolUse[0]!.hooks[0]!.command).toBe('sh .claude/hooks/guard.sh');
  });

  it('timeout is written as a number, args one a line, an emptied field is removed', async () => {
    const { doc } = await setup();
    const h = await screen.findByLabelText('PreToolUse handler 1.1');
    const t = within(h).getByLabelText('timeout');
    fireEvent.change(t, { target: { value: '15' } });
    fireEvent.keyDown(t, { key: 'Enter' });
    await waitFor(() => expect(doc().hooks.PreToolUse[0]!.hooks[0]).toMatchObject({ timeout: 15 }));
    const args = within(await screen.findByLabelText('PreToolUse handler 1.1')).getByLabelText('args');
    fireEvent.change(args, { target: { value: '--strict\n\n$TOOL' } });
    fireEvent.blur(args);
    await waitFor(() => expect(doc().hooks.PreToolUse[0]!.hooks[0]).toMatchObject({ args: ['--strict', '$TOOL'] }));
    const m = within(screen.getByRole('region', { name: 'Event PreToolUse' })).getByLabelText('matcher');
    fireEvent.change(m, { target: { value: '' } });
    fireEvent.blur(m);
    await waitFor(() => expect('matcher' in doc().hooks.PreToolUse[0]!).toBe(false));
  });

  it('adds an event, a group and a handler; deletes them', async () => {
    const { doc } = await setup();
    fireEvent.change(await screen.findByLabelText('event to add'), { target: { value: 'Notification' } });
    expect(screen.getByRole('option', { name: 'Notification (not simulated)' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '+ Add event' }));
    await waitFor(() => expect(doc().hooks).toHaveProperty('Notification', [{ matcher: '', hooks: [{ type: 'command', command: 'cat >/dev/null' }] }]));
    expect(Object.keys(doc().hooks)).toEqual(['PreToolUse', 'Stop', 'Notification']);
    const stop = await screen.findByRole('region', { name: 'Event Stop' });
    fireEvent.click(within(stop).getByRole('button', { name: '+ Group' }));
    await waitFor(() => expect(doc().hooks.Stop).toHaveLength(2));
    expect(doc().hooks.Stop[1]).toEqual({ hooks: [{ type: 'command', command: 'cat >/dev/null' }] }); // Stop has no matcher
    fireEvent.click(within(await screen.findByRole('region', { name: 'Event Stop' })).getAllByRole('button', { name: '+ Handler' })[0]!);
    await waitFor(() => expect(doc().hooks.Stop[0]!.hooks).toHaveLength(2));
    fireEvent.click(await screen.findByRole('button', { name: 'delete Stop handler 1.1' }));
    await waitFor(() => expect(doc().hooks.Stop[0]!.hooks).toEqual([{ type: 'command', command: 'cat >/dev/null' }]));
    fireEvent.click(await screen.findByRole('button', { name: 'delete Stop group 2' }));
    await waitFor(() => expect(doc().hooks.Stop).toHaveLength(1));
    fireEvent.click(await screen.findByRole('button', { name: 'delete event Notification' }));
    await waitFor(() => expect(Object.keys(doc().hooks)).toEqual(['PreToolUse', 'Stop']));
  });

  it('switching the type shows that type\'s field', async () => {
    const { doc } = await setup();
    const h = await screen.findByLabelText('Stop handler 1.1');
    fireEvent.change(within(h).getByLabelText('type'), { target: { value: 'http' } });
    await waitFor(() => expect(doc().hooks.Stop[0]!.hooks[0]!.type).toBe('http'));
    expect(within(await screen.findByLabelText('Stop handler 1.1')).getByLabelText('url')).toBeTruthy();
  });

  it('shows each diagnostic at its event or handler, on its field', async () => {
    // lines (fake backend): PreToolUse 2, group 3, handler 4; Stop 5, group 6, handler 7
    const ds: Diagnostic[] = [
      { file: FILE, line: 2, column: 5, severity: 'warning', code: 'claude-unknown-event', message: 'about the event' },
      { file: FILE, line: 4, column: 9, severity: 'error', code: 'claude-missing-script', message: 'guard.sh does not exist' },
      { file: FILE, line: 7, column: 9, severity: 'error', code: 'claude-shape', message: '"timeout" is a number of seconds greater than 0' },
    ];
    await setup(JSON.stringify(sample), ds);
    const pre = await screen.findByRole('region', { name: 'Event PreToolUse' });
    expect(pre.querySelector('.cmd-event-head + .file-diags')?.textContent).toContain('about the event');
    const cmd = within(screen.getByLabelText('PreToolUse handler 1.1')).getByText('guard.sh does not exist').closest('[data-field]');
    expect(cmd?.getAttribute('data-field')).toBe('command');
    expect(cmd?.classList.contains('has-error')).toBe(true);
    const timeout = within(screen.getByLabelText('Stop handler 1.1')).getByText(/"timeout" is a number/).closest('[data-field]');
    expect(timeout?.getAttribute('data-field')).toBe('timeout');
  });

  it('a SKILL.md handler has "once"; the handler at the asked line is selected', async () => {
    const { doc } = await setup(JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo' }] }] } }), [], { skill: true, line: 4 });
    const h = await screen.findByLabelText('Stop handler 1.1');
    expect(h.classList.contains('selected')).toBe(true);
    fireEvent.click(within(h).getByLabelText('once'));
    await waitFor(() => expect(doc().hooks.Stop[0]!.hooks[0]).toEqual({ type: 'command', command: 'echo', once: true }));
  });

  it('a hooks value of the wrong shape is shown as such, not a crash', async () => {
    await setup(JSON.stringify({ hooks: { Stop: 3, PreToolUse: [null, { hooks: [7, { type: 'command', command: 'echo' }] }] } }));
    await screen.findByText('Stop is not a list of groups: fix it in the raw view.');
    expect(screen.getByText('Group 1 of PreToolUse is not an object: fix it in the raw view.')).toBeTruthy();
    expect(screen.getByText('Handler 1 is not an object: fix it in the raw view.')).toBeTruthy();
    expect((within(screen.getByLabelText('PreToolUse handler 2.2', { exact: true })).getByLabelText('command') as HTMLInputElement).value).toBe('echo');
  });

  it('a file that does not parse opens raw only, with its diagnostics', async () => {
    const { onRaw } = await setup('{"hooks": [');
    const broken = await screen.findByTestId('claude-form-broken');
    expect(broken.textContent).toContain('not valid JSON');
    fireEvent.click(within(broken).getByRole('button', { name: 'Raw' }));
    expect(onRaw).toHaveBeenCalled();
  });
});

describe('ownDiags', () => {
  const d = (line: number): Diagnostic => ({ file: FILE, line, column: 1, severity: 'error', code: 'x', message: String(line) });
  it('keeps the lines from an item to the next one', () => {
    const lines = { A: 2, 'A/0': 3, 'A/0/0': 4, B: 9 };
    expect(ownDiags([d(1), d(2), d(4), d(6), d(9)], lines, 4).map((x) => x.line)).toEqual([4, 6]);
    expect(ownDiags([d(2), d(3)], lines, 2).map((x) => x.line)).toEqual([2]);
    expect(ownDiags([d(9), d(20)], lines, 9).map((x) => x.line)).toEqual([9, 20]);
    expect(ownDiags([d(9)], lines, undefined)).toEqual([]);
  });
});
