import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConfigPane } from './ConfigPane';
import { EditorStore } from './store';
import { fakeApi } from './testApi';
import type { ClaudeApi, ConfigApi } from '../lib/api/configs';
import type { Diagnostic } from '../lib/api';

function configApi(diags: Diagnostic[]): ConfigApi & { lintFile: ReturnType<typeof vi.fn>; configSchema: ReturnType<typeof vi.fn> } {
  return {
    lintFile: vi.fn(async () => diags),
    hookFiles: vi.fn(async () => []),
    newHookFiles: vi.fn(async () => []),
    createHookFile: vi.fn(async () => { throw new Error('not here'); }),
    configSchema: vi.fn(async () => '{"properties": {}, "$defs": {}}'),
    inspectCommandHooks: vi.fn(async (_f: string, text: string) => ({ text, editable: true, events: [], diagnostics: [] })),
    editCommandHooks: vi.fn(async () => { throw new Error('not here'); }),
  };
}

describe('ConfigPane', () => {
  it('lints a picoclaw.json raw with the backend diagnostics, with its schema for completion', async () => {
    const file = 'demo/hooks/picoclaw.json';
    const store = new EditorStore(fakeApi({ [file]: '{"hooks": 3}' }));
    const d: Diagnostic = { file, line: 1, column: 11, severity: 'error', code: 'wrong-type', message: 'hooks must be an object' };
    const api = configApi([d]);
    render(<ConfigPane store={store} file={file} api={api} />);
    await screen.findByTestId('config-editor');
    await screen.findByText(/hooks must be an object/);
    expect(api.lintFile).toHaveBeenCalledWith(file, '{"hooks": 3}');
    expect(api.configSchema).toHaveBeenCalledWith('picoclaw');
    expect(screen.queryByRole('button', { name: 'Raw YAML' })).toBeNull();
  });

  it('opens a hooks.yaml in the form, Raw YAML shows the text; a script opens raw without lint', async () => {
    const file = 'demo/hooks/hooks.yaml';
    const store = new EditorStore(fakeApi({ [file]: 'stop: []\n', 'demo/hooks/run.sh': 'echo hi\n' }));
    const api = configApi([]);
    const { unmount } = render(<ConfigPane store={store} file={file} api={api} />);
    await screen.findByText(/No command hooks yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Raw YAML' }));
    await screen.findByTestId('config-editor');
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('stop: []'));
    unmount();
    render(<ConfigPane store={store} file="demo/hooks/run.sh" api={api} />);
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('echo hi'));
  });

  it('opens Claude Code settings in their form, a plugin\'s hooks.json by the kind the backend gave; Raw JSON is linted', async () => {
    const settings = '.claude/settings.json', plugin = 'plug/hooks/hooks.json';
    const text = '{"hooks": {"Stop": []}}';
    const store = new EditorStore(fakeApi({ [settings]: text, [plugin]: text }));
    const d: Diagnostic = { file: settings, line: 1, column: 12, severity: 'warning', code: 'claude-unknown-event', message: '"Stp" is not a Claude Code hook event' };
    const api = configApi([d]);
    const claude: ClaudeApi = {
      inspectClaudeHooks: vi.fn(async (_f: string, t: string) => ({ text: t, editable: true, hooks: {}, lines: {}, events: [], diagnostics: [] })),
      editClaudeHooks: vi.fn(async () => { throw new Error('not here'); }),
    };
    const { unmount } = render(<ConfigPane store={store} file={settings} api={api} claude={claude} />);
    await screen.findByText(/No Claude Code hooks yet/);
    fireEvent.click(screen.getByRole('button', { name: 'Raw JSON' }));
    await screen.findByTestId('config-editor');
    await screen.findByText(/is not a Claude Code hook event/);
    unmount();
    render(<ConfigPane store={store} file={plugin} api={api} claude={claude} kind="claude-settings" />);
    await screen.findByTestId('claude-form');
    expect(claude.inspectClaudeHooks).toHaveBeenCalledWith(plugin, text);
  });

  it("opens another agent's hook file raw (Gemini CLI's settings, a Copilot CLI hooks file) with its kind's schema and the lint", async () => {
    const gemini = '.gemini/settings.json', copilot = '.github/hooks/guard.json';
    const store = new EditorStore(fakeApi({ [gemini]: '{"hooks": {"PreToolUse": []}}', [copilot]: '{"version": 1, "hooks": {}}' }));
    const d: Diagnostic = { file: gemini, line: 1, column: 12, severity: 'warning', code: 'gemini-other-agent-event', message: '"PreToolUse" is Claude Code\'s event: Gemini CLI calls it BeforeTool' };
    const api = configApi([d]);
    const { unmount } = render(<ConfigPane store={store} file={gemini} api={api} />);
    await screen.findByTestId('config-editor');
    await screen.findByText(/Gemini CLI calls it BeforeTool/);
    expect(api.configSchema).toHaveBeenCalledWith('gemini-settings');
    expect(screen.queryByRole('button', { name: 'Form' })).toBeNull();
    unmount();
    render(<ConfigPane store={store} file={copilot} api={configApi([])} />);
    await screen.findByTestId('config-editor');
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('"version": 1'));
  });

  it("opens Codex's and Qwen Code's hook files raw: hooks.json and settings.json with their schema, config.toml as text, each linted by the backend", async () => {
    const hooks = '.codex/hooks.json', toml = '.codex/config.toml', qwen = '.qwen/settings.json';
    const store = new EditorStore(fakeApi({ [hooks]: '{"hooks": {}}', [toml]: '[hooks]\n', [qwen]: '{"hooks": {}}' }));
    const d: Diagnostic = { file: toml, line: 3, column: 1, severity: 'warning', code: 'codex-untrusted', message: 'Codex skips this hook until it is trusted: run /hooks in codex' };
    const api = configApi([d]);
    const first = render(<ConfigPane store={store} file={toml} api={api} />);
    await screen.findByText(/Codex skips this hook until it is trusted/);
    expect(api.lintFile).toHaveBeenCalledWith(toml, '[hooks]\n');
    expect(api.configSchema).not.toHaveBeenCalled();
    first.unmount();
    const capi = configApi([]);
    const second = render(<ConfigPane store={store} file={hooks} api={capi} />);
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('"hooks"'));
    await waitFor(() => expect(capi.configSchema).toHaveBeenCalledWith('codex-hooks'));
    second.unmount();
    const qapi = configApi([]);
    render(<ConfigPane store={store} file={qwen} api={qapi} />);
    await screen.findByTestId('config-editor');
    await waitFor(() => expect(qapi.configSchema).toHaveBeenCalledWith('qwen-settings'));
  });

  it('asks no schema of a kind the registry has none for (Claude Code settings, a script)', async () => {
    const store = new EditorStore(fakeApi({ 'demo/hooks/run.sh': 'echo hi\n' }));
    const api = configApi([]);
    render(<ConfigPane store={store} file="demo/hooks/run.sh" api={api} />);
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toContain('echo hi'));
    expect(api.configSchema).not.toHaveBeenCalled();
  });
});
