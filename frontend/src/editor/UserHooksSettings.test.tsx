import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { UserHooksSettings } from './UserHooksSettings';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('UserHooksSettings', () => {
  it('shows the user-level hooks.yaml and saves the edited path; a refused path says why', async () => {
    const UserHooksFile = vi.fn().mockResolvedValue('/home/me/.jcli/hooks.yaml');
    const SetUserHooksFile = vi.fn().mockResolvedValueOnce({}).mockRejectedValueOnce('user hooks file "x": give an absolute path');
    fakeBackend({ Studio: { UserHooksFile, SetUserHooksFile } });
    render(<UserHooksSettings />);
    const input = await screen.findByLabelText('hooks.yaml');
    expect((input as HTMLInputElement).value).toBe('/home/me/.jcli/hooks.yaml');
    fireEvent.change(input, { target: { value: ' /etc/jcli/hooks.yaml ' } });
    fireEvent.click(screen.getByText('Save user hooks'));
    await screen.findByText('saved: its commands join the trust prompt');
    expect(SetUserHooksFile).toHaveBeenCalledWith('/etc/jcli/hooks.yaml');
    fireEvent.change(input, { target: { value: 'x' } });
    fireEvent.click(screen.getByText('Save user hooks'));
    expect((await screen.findByRole('alert')).textContent).toContain('give an absolute path');
  });

  it('is not shown without the app', async () => {
    const { container } = render(<UserHooksSettings />);
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });
});
