import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AgentUserFiles } from './AgentUserFiles';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('AgentUserFiles', () => {
  it('shows one form per agent CLI and saves each path under its system; a refused path says why', async () => {
    const UserFiles = vi.fn().mockResolvedValue([
      { system: 'codex', title: "Codex CLI's hooks", usage: "Codex's user config.toml", file: '', folder: false, name: 'config.toml' },
      { system: 'gemini-cli', title: "Gemini CLI's hooks", usage: "Gemini CLI's user-level settings.json", file: '/home/me/.gemini/settings.json', folder: false, name: 'settings.json' },
      { system: 'copilot-cli', title: "Copilot CLI's hooks", usage: "Copilot CLI's user-level hooks folder", file: '', folder: true, name: 'hooks folder' },
    ]);
    const SetUserFile = vi.fn().mockResolvedValueOnce({}).mockResolvedValueOnce({}).mockRejectedValueOnce('copilot user folder "x": give an absolute path');
    fakeBackend({ Studio: { UserFiles, SetUserFile } });
    render(<AgentUserFiles />);
    const gemini = await screen.findByLabelText('settings.json');
    expect((gemini as HTMLInputElement).value).toBe('/home/me/.gemini/settings.json');
    // each form names what its agent reads there, as the registry says
    fireEvent.change(screen.getByLabelText('config.toml'), { target: { value: '~/.codex/config.toml' } });
    fireEvent.click(screen.getByText("Save Codex CLI's hooks"));
    await screen.findByText(/saved: its hooks run in every folder/);
    expect(SetUserFile).toHaveBeenCalledWith('codex', '~/.codex/config.toml');
    const copilot = screen.getByLabelText('hooks folder');
    fireEvent.change(copilot, { target: { value: ' /home/me/.copilot/hooks ' } });
    fireEvent.click(screen.getByText("Save Copilot CLI's hooks"));
    await waitFor(() => expect(SetUserFile).toHaveBeenCalledWith('copilot-cli', '/home/me/.copilot/hooks'));
    fireEvent.change(copilot, { target: { value: 'x' } });
    fireEvent.click(screen.getByText("Save Copilot CLI's hooks"));
    expect((await screen.findByRole('alert')).textContent).toContain('give an absolute path');
  });

  it('is not shown without the app', async () => {
    const { container } = render(<AgentUserFiles />);
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });
});
