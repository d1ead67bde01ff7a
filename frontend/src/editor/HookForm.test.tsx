import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { HookForm } from './HookForm';
import { EditorStore } from './store';
import { useEditorSnapshot } from './useEditorSnapshot';
import { fakeApi, HOOKS, sampleDisk } from './testApi';

function Harness({ store, tools = ['read_file', 'write_file'] }: { store: EditorStore; tools?: string[] }) {
  const snap = useEditorSnapshot(store);
  const [sel, setSel] = useState(0);
  return <HookForm store={store} file={HOOKS} parsed={snap.hooks[HOOKS]} selected={sel} onSelect={setSel} tools={tools} color="red" />;
}

async function setup() {
  const disk = sampleDisk();
  const api = fakeApi(disk);
  const store = new EditorStore(api);
  await store.open(HOOKS);
  render(<Harness store={store} />);
  await screen.findByTestId('hook-row-alpha');
  return { disk, api, store };
}
const text = (store: EditorStore) => store.get().files[HOOKS]!.text;
const names = (store: EditorStore) => (JSON.parse(text(store)) as { hooks: { name: string }[] }).hooks.map((h) => h.name);

describe('HookForm', () => {
  it('editing a field calls EditHooks with an update op, then SetDraft with the new text', async () => {
    const { api, store } = await setup();
    fireEvent.change(screen.getByLabelText('role'), { target: { value: 'user' } });
    await waitFor(() => expect(api.editHooks).toHaveBeenCalledWith(HOOKS, expect.any(String), { kind: 'update', index: 0, fields: { role: 'user' } }));
    await act(() => store.flush());
    expect(api.setDraft).toHaveBeenLastCalledWith(HOOKS, text(store));
    expect(JSON.parse(text(store)).hooks[0].role).toBe('user');
    expect(api.editHooks.mock.invocationCallOrder[0]).toBeLessThan(api.setDraft.mock.invocationCallOrder[0]!);
  });

  it('renaming commits on Enter as a rename op', async () => {
    const { api, store } = await setup();
    const name = screen.getByLabelText('name');
    fireEvent.change(name, { target: { value: 'first' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(api.editHooks).toHaveBeenCalledWith(HOOKS, expect.any(String), { kind: 'rename', index: 0, name: 'first' }));
    await waitFor(() => expect(names(store)[0]).toBe('first'));
  });

  it('timing offers the five checkpoints and persistent toggles', async () => {
    const { api } = await setup();
    const timing = screen.getByLabelText('timing') as HTMLSelectElement;
    expect([...timing.options].map((o) => o.textContent)).toEqual(['① after_user_input', '② before_planning', '③ before_each_agent', '④ before_first_agent', '⑤ after_tool_call']);
    fireEvent.click(screen.getByLabelText('persistent'));
    await waitFor(() => expect(api.editHooks).toHaveBeenCalledWith(HOOKS, expect.any(String), { kind: 'update', index: 0, fields: { persistent: true } }));
  });

  it('shows diagnostics at their field: pile-up under persistent, missing file under file', async () => {
    await setup();
    fireEvent.click(screen.getByTestId('hook-row-beta'));
    const persistent = await waitFor(() => document.querySelector('[data-field="persistent"] .field-input')!);
    expect(within(persistent as HTMLElement).getByText(/piles up/)).toBeTruthy();
    expect(document.querySelector('[data-field="name"] .field-diags')).toBeNull();
    fireEvent.click(screen.getByTestId('hook-row-gamma'));
    await waitFor(() => expect(document.querySelector('[data-field="file"] [data-code="missing-file"]')).not.toBeNull());
    expect(document.querySelector('[data-field="file"]')!.className).toContain('has-error');
    expect(document.querySelector('[data-field="persistent"] .field-diags')).toBeNull();
  });

  it('tool_filter chips: suggestions from the trace, add and remove', async () => {
    const { api } = await setup();
    fireEvent.click(screen.getByTestId('hook-row-gamma'));
    await screen.findByText('read_file', { selector: '.tchip' });
    const opts = [...document.querySelectorAll('datalist option')].map((o) => (o as HTMLOptionElement).value);
    expect(opts).toEqual(['write_file']);
    fireEvent.change(screen.getByLabelText('add a tool to tool_filter'), { target: { value: 'write_file' } });
    await waitFor(() => expect(api.editHooks).toHaveBeenCalledWith(HOOKS, expect.any(String), { kind: 'update', index: 2, fields: { tool_filter: ['read_file', 'write_file'] } }));
    fireEvent.click(await screen.findByLabelText('remove read_file'));
    await waitFor(() => expect(api.editHooks).toHaveBeenLastCalledWith(HOOKS, expect.any(String), { kind: 'update', index: 2, fields: { tool_filter: ['write_file'] } }));
  });

  it('reorders with the buttons and by drag, duplicates, deletes after confirmation', async () => {
    const { api, store } = await setup();
    fireEvent.click(screen.getByLabelText('move alpha down'));
    await waitFor(() => expect(names(store)).toEqual(['beta', 'alpha', 'gamma']));
    expect(api.editHooks).toHaveBeenLastCalledWith(HOOKS, expect.any(String), { kind: 'move', index: 0, to: 1 });

    const gamma = await screen.findByTestId('hook-row-gamma');
    fireEvent.dragStart(gamma, { dataTransfer: { setData: () => {}, effectAllowed: '' } });
    fireEvent.dragOver(screen.getByTestId('hook-row-beta'));
    fireEvent.drop(screen.getByTestId('hook-row-beta'));
    await waitFor(() => expect(names(store)).toEqual(['gamma', 'beta', 'alpha']));

    fireEvent.click(screen.getByLabelText('duplicate beta'));
    await waitFor(() => expect(names(store)).toEqual(['gamma', 'beta', 'beta-copy', 'alpha']));

    fireEvent.click(screen.getByLabelText('delete gamma'));
    expect(names(store)).toHaveLength(4); // asks first
    fireEvent.click(within(screen.getByRole('group', { name: 'confirm delete' })).getByText('Delete'));
    await waitFor(() => expect(names(store)).toEqual(['beta', 'beta-copy', 'alpha']));

    // and every one of them undoes
    for (let i = 0; i < 4; i++) act(() => store.undo(HOOKS));
    await waitFor(() => expect(names(store)).toEqual(['alpha', 'beta', 'gamma']));
  });

  it('a rejected edit (duplicate name) is shown and changes nothing', async () => {
    const { store } = await setup();
    const before = text(store);
    const name = screen.getByLabelText('name');
    fireEvent.change(name, { target: { value: 'beta' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    await waitFor(() => expect(store.get().toast?.text).toMatch(/duplicate-name/));
    expect(text(store)).toBe(before);
  });
});
