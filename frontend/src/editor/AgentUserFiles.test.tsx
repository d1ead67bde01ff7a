import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AgentUserFiles } from './AgentUserFiles';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('AgentUserFiles', () => {
  it('shows one form per agent CLI and saves each path under its system; a refused path says why', async () => {
    const UserFiles = vi.fn().mockResolvedValue([
      { system: 'gemini-cli', title: "Gemini CLI's hooks", usage: "Gemini CLI's user-level settings.json", file: '/home/me/.gemini/settings.json', folder: false },
      { system: 'copilot-cli', title: "Copilot CLI's hooks", usage: "Copilot CLI's user-level hooks folder", file: '', folder: true },
    ]);
    const SetUserFile = vi.fn().mockResolvedValueOnce({}).mockRejectedValueOnce('copilot user folder "x": give an absolute path');
    fakeBackend({ Studio: { UserFiles, SetUserFile } });
    render(<AgentUserFiles />);
    const gemini = await screen.findByLabelText('settings.json');
    expect((gemini as HTMLInputElement).value).toBe('/home/me/.gemini/settings.json');
    const copilot = screen.getByLabelText('hooks folder');
    fireEvent.change(copilot, { target: { value: ' /home/me/.copilot/hooks ' } });
    fireEvent.click(screen.getByText("Save Copilot CLI's hooks"));
    await screen.findByText(/saved: its hooks run in every folder/);
    expect(SetUserFile).toHaveBeenCalledWith('copilot-cli', '/home/me/.copilot/hooks');
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
