import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CommandHookForm, fieldOf, hookDiags } from './CommandHookForm';
import { EditorStore } from './store';
import { fakeApi } from './testApi';
import type { CommandEvent, CommandHookOp, CommandHooksEdit, ConfigApi } from '../lib/api/configs';
import type { Diagnostic } from '../lib/api';

const FILE = 'demo/hooks/hooks.yaml';

// A fake backend whose "YAML" is the events as JSON: the form only sees InspectCommandHooks and
// EditCommandHooks, so this checks what it asks for and what it shows.
function fakeConfigApi(diags: Diagnostic[] = []) {
  const inspect = (text: string): CommandHooksEdit => {
    try {
      return { text, editable: true, events: JSON.parse(text) as CommandEvent[], diagnostics: diags };
    } catch {
      return { text, editable: false, error: 'not YAML', events: [], diagnostics: [{ file: FILE, line: 1, column: 1, severity: 'error', code: 'yaml-syntax', message: 'line 1: did not find expected node content' }] };
    }
  };
  const api: ConfigApi = {
    lintFile: vi.fn(async () => diags),
    hookFiles: vi.fn(async () => []),
    newHookFiles: vi.fn(async () => []),
    createHookFile: vi.fn(async () => { throw new Error('not here'); }),
    configSchema: vi.fn(async () => '{}'),
    inspectCommandHooks: vi.fn(async (_f: string, text: string) => inspect(text)),
    editCommandHooks: vi.fn(async (_f: string, text: string, op: CommandHookOp) => {
      const evs = JSON.parse(text) as CommandEvent[];
      let ev = evs.find((e) => e.event === op.event);
      if (op.kind === 'add') {
        if (!ev) { ev = { event: op.event, line: 99, hooks: [] }; evs.push(ev); }
        ev.hooks.push({ index: ev.hooks.length, line: 100, fields: op.fields, filter: {}, unknown: [] });
      } else if (op.kind === 'set') {
        const h = ev!.hooks[op.index]!;
        const [bag, key] = op.key.startsWith('filter.') ? [h.filter, op.key.slice(7)] : [h.fields, op.key];
        if (op.delete) delete bag[key!]; else bag[key!] = op.value;
      } else if (op.kind === 'delete') {
        ev!.hooks.splice(op.index, 1);
      } else {
        const [h] = ev!.hooks.splice(op.index, 1);
        ev!.hooks.splice(op.to, 0, h!);
      }
      ev?.hooks.forEach((h, i) => { h.index = i; });
      return inspect(JSON.stringify(evs));
    }),
  };
  return api as ConfigApi & { [K in keyof ConfigApi]: ReturnType<typeof vi.fn> };
}

const sample: CommandEvent[] = [
  { event: 'pre_tool_execution', line: 1, hooks: [
    { index: 0, line: 2, fields: { name: 'guard', command: 'sh guard.sh', on_error: 'abort' }, filter: { tool_name: 'run_command' }, unknown: ['x-note'] },
    { index: 1, line: 8, fields: { name: 'review', type: 'llm', prompt: 'Review it.' }, filter: {}, unknown: [] },
  ] },
  { event: 'stop', line: 12, hooks: [{ index: 0, line: 13, fields: { command: 'echo done' }, filter: {}, unknown: [] }] },
];

async function setup(text = JSON.stringify(sample), diags: Diagnostic[] = [], line?: number) {
  const editor = fakeApi({ [FILE]: text });
  const store = new EditorStore(editor);
  const api = fakeConfigApi(diags);
  await store.open(FILE);
  const onRaw = vi.fn();
  render(<CommandHookForm store={store} file={FILE} api={api} line={line} onRaw={onRaw} />);
  return { store, api, editor, onRaw };
}
const events = (store: EditorStore) => JSON.parse(store.get().files[FILE]!.text) as CommandEvent[];

describe('CommandHookForm', () => {
  it('lists hooks per event, unnamed ones by event[index], and shows the first hook\'s fields', async () => {
    await setup();
    const pre = await screen.findByRole('region', { name: 'Event pre_tool_execution' });
    expect(within(pre).getByTestId('yaml-row-guard')).toBeTruthy();
    expect(within(pre).getByTestId('yaml-row-review').textContent).toContain('LLM');
    expect(screen.getByTestId('yaml-row-stop[0]')).toBeTruthy();
    expect((screen.getByLabelText('command') as HTMLInputElement).value).toBe('sh guard.sh');
    expect((screen.getByLabelText('filter.tool_name') as HTMLInputElement).value).toBe('run_command');
    expect(screen.getByText(/kept as written\): x-note/)).toBeTruthy();
  });

  it('a field edit is a set op, undoable, and becomes a draft for the simulation', async () => {
    const { store, api, editor } = await setup();
    const cmd = await screen.findByLabelText('command');
    fireEvent.change(cmd, { target: { value: 'sh other.sh' } });
    fireEvent.blur(cmd);
    await waitFor(() => expect(events(store)[0]!.hooks[0]!.fields.command).toBe('sh other.sh'));
    expect(api.editCommandHooks).toHaveBeenCalledWith(FILE, expect.any(String), { kind: 'set', event: 'pre_tool_execution', index: 0, key: 'command', value: 'sh other.sh', delete: false });
    await act(() => store.flush());
    expect(editor.setDraft).toHaveBeenLastCalledWith(FILE, store.get().files[FILE]!.text);
    act(() => store.undo(FILE));
    expect(events(store)[0]!.hooks[0]!.fields.command).toBe('sh guard.sh');
  });

  it('emptying a field deletes it; the filter fields and on_error edit in place', async () => {
    const { store, api } = await setup();
    fireEvent.change(await screen.findByLabelText('on_error'), { target: { value: '' } });
    await waitFor(() => expect(events(store)[0]!.hooks[0]!.fields.on_error).toBeUndefined());
    const f = await screen.findByLabelText('filter.model_prefix');
    fireEvent.change(f, { target: { value: 'gpt-' } });
    fireEvent.keyDown(f, { key: 'Enter' });
    await waitFor(() => expect(events(store)[0]!.hooks[0]!.filter.model_prefix).toBe('gpt-'));
    expect(api.editCommandHooks).toHaveBeenCalledWith(FILE, expect.any(String), expect.objectContaining({ key: 'on_error', delete: true }));
  });

  it('adds a hook to the chosen event, moves within the event and deletes', async () => {
    const { store } = await setup();
    fireEvent.change(await screen.findByLabelText('event of the new hook'), { target: { value: 'session_start' } });
    fireEvent.click(screen.getByRole('button', { name: '+ Add hook' }));
    await waitFor(() => expect(events(store).find((e) => e.event === 'session_start')?.hooks[0]?.fields.name).toBe('session-start-1'));
    fireEvent.click(await screen.findByRole('button', { name: 'move review up' }));
    await waitFor(() => expect(events(store)[0]!.hooks.map((h) => h.fields.name)).toEqual(['review', 'guard']));
    await waitFor(() => expect(screen.getAllByTestId(/^yaml-row-/)[0]!.dataset.testid).toBe('yaml-row-review'));
    fireEvent.click(await screen.findByRole('button', { name: 'delete guard' }));
    await waitFor(() => expect(events(store)[0]!.hooks.map((h) => h.fields.name)).toEqual(['review']));
  });

  it('shows a hook\'s diagnostics inline, on its field', async () => {
    const d: Diagnostic = { file: FILE, line: 3, column: 5, severity: 'error', code: 'bad-value', message: 'pre_tool_execution[0].on_error must be skip or abort' };
    await setup(JSON.stringify(sample), [d]);
    const row = await screen.findByTestId('yaml-row-guard');
    expect(row.querySelector('.count-err')?.textContent).toContain('1');
    const field = document.querySelector('[data-field="on_error"]')!;
    expect(field.classList.contains('has-error')).toBe(true);
    expect(field.textContent).toContain('must be skip or abort');
  });

  it('selects the hook at the line the skills panel asked for', async () => {
    await setup(JSON.stringify(sample), [], 8);
    await waitFor(() => expect(screen.getByTestId('yaml-row-review').classList.contains('selected')).toBe(true));
    expect((screen.getByLabelText('prompt') as HTMLTextAreaElement).value).toBe('Review it.');
  });

  it('a file that does not parse opens raw only, with its diagnostics', async () => {
    const { onRaw } = await setup('stop: [');
    const broken = await screen.findByTestId('yaml-form-broken');
    expect(broken.textContent).toContain('did not find expected node content');
    fireEvent.click(within(broken).getByRole('button', { name: 'Raw' }));
    expect(onRaw).toHaveBeenCalled();
  });
});

describe('hookDiags / fieldOf', () => {
  const d = (line: number, message: string): Diagnostic => ({ file: FILE, line, column: 1, severity: 'error', code: 'x', message });
  it('keeps a hook\'s lines and finds the field a message is about', () => {
    expect(hookDiags([d(1, 'a'), d(3, 'b'), d(8, 'c')], 2, 8).map((x) => x.message)).toEqual(['b']);
    expect(fieldOf(d(1, 'stop[0].timeout must be a number'))).toBe('timeout');
    expect(fieldOf(d(1, 'stop[0].filter.tool_name is empty'))).toBe('filter.tool_name');
    expect(fieldOf(d(1, 'stop[0] needs a command'))).toBe('command');
    expect(fieldOf(d(1, 'something else'))).toBe('');
  });
});
