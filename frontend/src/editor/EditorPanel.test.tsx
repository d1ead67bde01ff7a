// The editor inside the app, on the fixture backend: saved vs unsaved indicators, preview, Ctrl+S,
// undo with Ctrl+Z, a new skill and a new hook.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { readMockFile, resetMockBackend, writeMockFile } from '../lib/api';
import { App } from '../App';
import { configApi } from '../lib/api/configs';

beforeEach(() => resetMockBackend());
afterEach(() => { resetMockBackend(); vi.restoreAllMocks(); });

const HOOKS = 'demo/hooks/hooks.json';

async function openEditor() {
  render(<App />);
  await screen.findByTestId('step-0');
  fireEvent.click(screen.getByLabelText('edit skill demo'));
  // the editor (CodeMirror) is loaded on first use: give a busy machine time
  await screen.findByTestId('editor');
  await screen.findByTestId('hook-row-user-context');
}

describe('Editor in the app', () => {
  it('marks unsaved edits everywhere, previews them, and clears the marks on Ctrl+S', async () => {
    await openEditor();
    expect(screen.queryByTestId('unsaved-count')).toBeNull();
    expect(screen.queryByTestId('draft-preview')).toBeNull();
    fireEvent.change(screen.getByLabelText('role'), { target: { value: 'user' } });
    // tab dot, panel count, top bar count
    await waitFor(() => expect(within(screen.getByTestId('tab-hooks.json')).getByLabelText('unsaved')).toBeTruthy());
    expect(screen.getByTestId('unsaved-count').textContent).toBe('1 unsaved');
    expect(screen.getByTestId('topbar-unsaved').textContent).toContain('1 unsaved');
    // the simulator says it shows the draft
    await screen.findByTestId('draft-preview');
    expect(screen.getByTestId('draft-preview').textContent).toBe('preview of unsaved edits');
    expect(JSON.parse(readMockFile(HOOKS)!).hooks[0].role).toBe('system');

    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(screen.queryByTestId('unsaved-count')).toBeNull());
    expect(screen.queryByTestId('topbar-unsaved')).toBeNull();
    expect(within(screen.getByTestId('tab-hooks.json')).queryByLabelText('unsaved')).toBeNull();
    expect(JSON.parse(readMockFile(HOOKS)!).hooks[0].role).toBe('user');
    await waitFor(() => expect(screen.queryByTestId('draft-preview')).toBeNull());
    expect(screen.getByTestId('toast').textContent).toContain('Saved hooks.json');
  });

  it('Ctrl+Z inside the editor undoes, Ctrl+Y redoes', async () => {
    await openEditor();
    fireEvent.change(screen.getByLabelText('role'), { target: { value: 'user' } });
    await waitFor(() => expect((screen.getByLabelText('role') as HTMLSelectElement).value).toBe('user'));
    const row = screen.getByTestId('hook-row-user-context');
    fireEvent.keyDown(row, { key: 'z', ctrlKey: true });
    await waitFor(() => expect((screen.getByLabelText('role') as HTMLSelectElement).value).toBe('system'));
    expect(screen.queryByTestId('unsaved-count')).toBeNull();
    fireEvent.keyDown(screen.getByTestId('hook-row-user-context'), { key: 'y', ctrlKey: true });
    await waitFor(() => expect((screen.getByLabelText('role') as HTMLSelectElement).value).toBe('user'));
  });

  it('shows the token count of the hook from the simulation', async () => {
    await openEditor();
    const tokens = await screen.findByTestId('prompt-tokens');
    expect(tokens.textContent).toMatch(/^\d[\d,]* tokens$/);
  });

  it('creates a skill and a hook in it', async () => {
    render(<App />);
    await screen.findByTestId('step-0');
    fireEvent.click(screen.getByText('New skill…'));
    fireEvent.change(screen.getByLabelText('new skill name'), { target: { value: 'fresh' } });
    fireEvent.click(screen.getByText('Create'));
    await screen.findByTestId('editor');
    expect(await screen.findByText(/no hooks yet/)).toBeTruthy();
    fireEvent.click(screen.getByText('+ New hook'));
    await screen.findByTestId('hook-row-hook-1');
    await screen.findByTestId('tab-hook-1.md');
    expect(screen.getByTestId('unsaved-count').textContent).toBe('2 unsaved');
    // no token count yet: the hook is not in the simulation
    expect(screen.getByTestId('prompt-tokens').textContent).toBe('— tokens');
    fireEvent.keyDown(window, { key: 'S', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(screen.queryByTestId('unsaved-count')).toBeNull());
    expect(JSON.parse(readMockFile('fresh/hooks/hooks.json')!).hooks[0].name).toBe('hook-1');
    expect(readMockFile('fresh/hooks/hook-1.md')).toBe('');
  });

  it('a change on disk while unsaved offers the conflict', async () => {
    await openEditor();
    fireEvent.change(screen.getByLabelText('role'), { target: { value: 'user' } });
    await screen.findByTestId('unsaved-count');
    act(() => writeMockFile(HOOKS, '{"hooks": []}\n'));
    await screen.findByTestId('conflict');
    expect(screen.getByText('Keep mine')).toBeTruthy();
  });

  it("opens a skill that is another agent's plugin on its hooks file (the backend's kind), raw, without seed 000's hooks.json", async () => {
    const file = 'demo/hooks.json';
    writeMockFile(file, '{"version": 1, "hooks": {}}\n');
    vi.spyOn(configApi, 'hookFiles').mockResolvedValue([{ file, kind: 'copilot-hooks', exists: true }]);
    render(<App />);
    await screen.findByTestId('step-0');
    fireEvent.click(screen.getByLabelText('edit skill demo'));
    await screen.findByTestId('config-editor');
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('"version": 1'));
    expect(screen.queryByRole('button', { name: '+ New hook' })).toBeNull();
    expect(screen.queryByTestId('hook-row-user-context')).toBeNull();
    expect(screen.queryByTestId('tab-hooks.json')?.getAttribute('title')).not.toBe(HOOKS);
  });

  it("creates an agent's hook file from the offer (Ctrl+Shift+N), with its starter, and opens it raw", async () => {
    const file = '.codex/hooks.json', starter = '{\n  "hooks": {}\n}\n';
    vi.spyOn(configApi, 'newHookFiles').mockResolvedValue([
      { file: '.claude/settings.json', kind: 'claude-settings', system: 'claude-code', label: 'Claude Code' },
      { file, kind: 'codex-hooks', system: 'codex', label: 'Codex' },
    ]);
    const create = vi.spyOn(configApi, 'createHookFile').mockImplementation(async (f) => {
      writeMockFile(f, starter);
      return { file: f, content: starter, hash: 'h', exists: true };
    });
    render(<App />);
    await screen.findByTestId('step-0');
    fireEvent.keyDown(window, { key: 'N', ctrlKey: true, shiftKey: true });
    // the folder's editor opens on the offer, its first item focused for the keyboard
    const first = await screen.findByTestId('new-file-.claude/settings.json');
    await waitFor(() => expect(document.activeElement).toBe(first));
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    const codex = screen.getByTestId(`new-file-${file}`);
    expect(document.activeElement).toBe(codex);
    fireEvent.click(codex);
    expect(create).toHaveBeenCalledWith(file);
    await screen.findByTestId('config-editor');
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('"hooks": {}'));
    expect(screen.getByTestId('config-pane').getAttribute('aria-label')).toBe(`Config ${file}`);
    expect(screen.queryByText('new file')).toBeNull();
    expect(screen.queryByTestId('unsaved-count')).toBeNull();
  });
});

