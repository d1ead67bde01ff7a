import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { ClaudeUserSettings } from './ClaudeUserSettings';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('ClaudeUserSettings', () => {
  it('shows the user-level settings.json and saves the edited path; a refused path says why', async () => {
    const ClaudeUserSettingsFn = vi.fn().mockResolvedValue('/home/me/.claude/settings.json');
    const SetClaudeUserSettings = vi.fn().mockResolvedValueOnce({}).mockResolvedValueOnce({}).mockRejectedValueOnce('claude code user settings "x": give an absolute path');
    fakeBackend({ Studio: { ClaudeUserSettings: ClaudeUserSettingsFn, SetClaudeUserSettings } });
    render(<ClaudeUserSettings />);
    const input = await screen.findByLabelText('settings.json');
    expect((input as HTMLInputElement).value).toBe('/home/me/.claude/settings.json');
    fireEvent.change(input, { target: { value: ' /etc/claude/settings.json ' } });
    fireEvent.click(screen.getByText('Save Claude Code settings'));
    await screen.findByText(/saved: its hooks run in every folder/);
    expect(SetClaudeUserSettings).toHaveBeenCalledWith('/etc/claude/settings.json');
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.click(screen.getByText('Save Claude Code settings'));
    await screen.findByText('saved: no user-level Claude Code settings');
    expect(SetClaudeUserSettings).toHaveBeenLastCalledWith('');
    fireEvent.change(input, { target: { value: 'x' } });
    fireEvent.click(screen.getByText('Save Claude Code settings'));
    expect((await screen.findByRole('alert')).textContent).toContain('give an absolute path');
  });

  it('is not shown without the app', async () => {
    const { container } = render(<ClaudeUserSettings />);
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });
});
