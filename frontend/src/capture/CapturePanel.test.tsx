import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { resetCaptureMock, type createCaptureMock } from '../lib/api/capture';
import { CapturePanel } from './CapturePanel';
import { resetRunMock, saveProfile } from '../lib/api/run';
import { renderInApp } from '../app/testing';
import { createApp } from '../app/stores';

let mock: ReturnType<typeof createCaptureMock>;
beforeEach(() => { mock = resetCaptureMock(); });
afterEach(() => { resetCaptureMock(); });

describe('CapturePanel', () => {
  it('starts from an answers file, shows the lines to paste, lists requests with their hooks, keeps the capture', async () => {
    const onOpenHistory = vi.fn();
    render(<CapturePanel onClose={() => {}} onOpenHistory={onOpenHistory} />);
    const start = await screen.findByTestId('capture-start') as HTMLButtonElement;
    expect(start.disabled).toBe(true); // no answers file yet
    fireEvent.change(screen.getByTestId('capture-answers'), { target: { value: '/tmp/answers.yaml' } });
    await act(async () => { fireEvent.click(start); });
    expect(screen.getByTestId('capture-status').textContent).toContain('listening on http://127.0.0.1:');
    // Claude Code's recipe first, for this capture's URL, its trap beside it
    const url = screen.getByTestId('capture-status').textContent!.replace('● listening on ', '');
    expect(screen.getByTestId('capture-line-0').textContent).toBe(`export ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=capture CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`);
    expect(screen.getByTestId('capture-line-1').textContent).toBe('claude -p "clean the build folder"');
    expect(screen.getByTestId('capture-trap').textContent).toContain('Hook did not run?');
    // each agent of the table can be picked; the generic client lines stay
    const agents = [...(screen.getByTestId('capture-agent') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(agents).toEqual(['Claude Code', 'Codex CLI', 'Gemini CLI', 'GitHub Copilot CLI', 'Qwen Code', 'opencode', 'Factory Droid', 'Cline', 'Any Anthropic or OpenAI client (an SDK script)']);
    fireEvent.change(screen.getByTestId('capture-agent'), { target: { value: 'gemini-cli' } });
    expect(screen.getByTestId('capture-file').textContent).toContain('"selectedType": "gemini-api-key"');
    expect(screen.getByTestId('capture-recipe').textContent).toContain('Add to ~/.gemini/settings.json');
    expect(screen.getByTestId('capture-line-0').textContent).toContain(`GOOGLE_GEMINI_BASE_URL=${url} `);
    expect(screen.getByTestId('capture-trap').textContent).toContain('--skip-trust');
    fireEvent.change(screen.getByTestId('capture-agent'), { target: { value: '' } });
    expect(screen.getByTestId('capture-line-0').textContent).toMatch(/^ANTHROPIC_BASE_URL=http:\/\/127\.0\.0\.1:\d+ /);
    expect(screen.getByTestId('capture-line-1').textContent).toMatch(/^OPENAI_BASE_URL=.*\/v1 /);
    act(() => mock.call({ n: 0, api: 'anthropic', path: '/v1/messages?beta=true', status: 200, messages: 9, input_tokens: 2906, hooks: ['PreToolUse:Bash'], answer: 'The hook blocked it.', agent: 'claude-code' }));
    const row = screen.getByTestId('capture-call-0');
    expect(row.textContent).toContain('PreToolUse:Bash');
    expect(row.textContent).toContain('claude-code');
    expect(row.textContent).toContain('2,906');
    await act(async () => { fireEvent.click(screen.getByTestId('capture-stop')); });
    expect(screen.getByTestId('capture-kept').textContent).toContain('run #1');
    fireEvent.click(screen.getByText('Open in History'));
    expect(onOpenHistory).toHaveBeenCalledWith(1);
  });

  it('says what is wrong with the port, and shows the backend\'s refusal', async () => {
    render(<CapturePanel onClose={() => {}} onOpenHistory={() => {}} />);
    fireEvent.change(await screen.findByTestId('capture-answers'), { target: { value: '/a.yaml' } });
    fireEvent.change(screen.getByLabelText('Port'), { target: { value: '70000' } });
    fireEvent.click(screen.getByTestId('capture-start'));
    expect(screen.getByRole('alert').textContent).toContain('port 70000');
    fireEvent.change(screen.getByLabelText('Port'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('capture-answers'), { target: { value: '   ' } });
    expect((screen.getByTestId('capture-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a manual capture: the waiting request shows its last messages, the answer goes back as text or a tool call', async () => {
    render(<CapturePanel onClose={() => {}} onOpenHistory={() => {}} />);
    fireEvent.click(await screen.findByTestId('capture-manual'));
    await act(async () => { fireEvent.click(screen.getByTestId('capture-start')); });
    act(() => mock.wait({ n: 0, api: 'anthropic', model: 'claude-x', stream: true, tools: ['Bash', 'Read'], messages: [
      { role: 'user', content: 'clean the build', origin: 'user_input' },
      { role: 'user', content: 'UserPromptSubmit hook success: the build folder is shared', origin: 'hook', hook: 'UserPromptSubmit' },
    ] }));
    const pending = screen.getByTestId('capture-pending');
    expect(pending.textContent).toContain('Request #1 waits for your answer');
    expect(pending.textContent).toContain('hook UserPromptSubmit');
    fireEvent.change(screen.getByTestId('capture-tool'), { target: { value: 'Bash' } });
    fireEvent.change(screen.getByTestId('capture-args'), { target: { value: '{"command": ' } });
    fireEvent.click(screen.getByTestId('capture-send'));
    expect(screen.getByRole('alert').textContent).toContain('not JSON');
    fireEvent.change(screen.getByTestId('capture-args'), { target: { value: '{"command": "ls"}' } });
    await act(async () => { fireEvent.click(screen.getByTestId('capture-send')); });
    expect(mock.replies).toEqual([{ n: 0, answer: { content: undefined, tool_calls: [{ name: 'Bash', arguments: { command: 'ls' } }] } }]);
    expect(screen.queryByTestId('capture-pending')).toBeNull();
  });

  it('forwards to a model profile: the profile is picked from the list, only its API\'s line is shown, the progress names it', async () => {
    resetRunMock();
    render(<CapturePanel onClose={() => {}} onOpenHistory={() => {}} />);
    fireEvent.click(await screen.findByTestId('capture-mode-profile'));
    expect(await screen.findByTestId('capture-no-profiles')).toBeTruthy();
    expect((screen.getByTestId('capture-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('starts a forward with the picked profile', async () => {
    resetRunMock();
    await saveProfile({ name: 'claude', provider: 'anthropic', base_url: 'https://api.anthropic.com', model: 'claude-sonnet-4-5' }, 'sk-x');
    await saveProfile({ name: 'local', provider: 'openai', base_url: 'http://127.0.0.1:11434/v1', model: 'qwen' }, '');
    render(<CapturePanel onClose={() => {}} onOpenHistory={() => {}} />);
    fireEvent.click(await screen.findByTestId('capture-mode-profile'));
    const select = await screen.findByTestId('capture-profile') as HTMLSelectElement;
    await screen.findByText(/local — openai, qwen \(no key\)/);
    expect(select.value).toBe('claude');
    expect(screen.queryByTestId('capture-answers')).toBeNull();
    await act(async () => { fireEvent.click(screen.getByTestId('capture-start')); });
    expect(mock.started).toEqual([{ answers_file: '', port: 0, manual: false, profile: 'claude' }]);
    expect(screen.getByTestId('capture-progress').textContent).toContain('forwarded to profile claude');
    // a forward relays, never translates: only the agents speaking the profile's API
    expect([...(screen.getByTestId('capture-agent') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['claude-code', '']);
    fireEvent.change(screen.getByTestId('capture-agent'), { target: { value: '' } });
    expect(screen.queryByTestId('capture-line-1')).toBeNull();
  });

  it('saves the kept capture as a scenario at the path given, with what it does not replay', async () => {
    render(<CapturePanel onClose={() => {}} onOpenHistory={() => {}} />);
    fireEvent.change(await screen.findByTestId('capture-answers'), { target: { value: '/work/answers.yaml' } });
    await act(async () => { fireEvent.click(screen.getByTestId('capture-start')); });
    act(() => mock.call({ n: 0, api: 'anthropic', path: '/v1/messages', status: 200, messages: 2, input_tokens: 10, hooks: [], answer: 'done' }));
    act(() => mock.call({ n: 1, api: 'anthropic', path: '/v1/messages', status: 529, error: 'overloaded', messages: 4, input_tokens: 20, hooks: [], answer: '' }));
    await act(async () => { fireEvent.click(screen.getByTestId('capture-stop')); });
    fireEvent.click(screen.getByTestId('capture-save-scenario'));
    const path = screen.getByTestId('capture-scenario-path') as HTMLInputElement;
    expect(path.value).toBe('/work/capture-1.yaml');
    fireEvent.change(path, { target: { value: 'replay.yaml' } });
    await act(async () => { fireEvent.click(screen.getByTestId('capture-scenario-save')); });
    expect(screen.getByRole('alert').textContent).toContain('full path');
    fireEvent.change(screen.getByTestId('capture-scenario-path'), { target: { value: '/work/replay.yaml' } });
    await act(async () => { fireEvent.click(screen.getByTestId('capture-scenario-save')); });
    expect(mock.savedScenarios).toEqual([{ runId: 1, path: '/work/replay.yaml' }]);
    const saved = screen.getByTestId('capture-scenario-saved').textContent;
    expect(saved).toContain('hookctl simulate /work/replay.yaml');
    expect(saved).toContain('call #2 is not replayed');
  });

  it('closes on Escape (the capture goes on), also from a field', async () => {
    const app = createApp();
    app.capture.open();
    renderInApp(<CapturePanel onClose={app.capture.close} onOpenHistory={() => {}} />, { app });
    await screen.findByTestId('capture-start');
    fireEvent.keyDown(screen.getByTestId('capture-start'), { key: 'Escape' });
    expect(app.capture.get().open).toBe(false);
  });
});
