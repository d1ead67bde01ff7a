import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { PolicySettings } from './PolicySettings';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('PolicySettings', () => {
  it('shows the settings\' request policy and saves the edited one', async () => {
    const Policy = vi.fn().mockResolvedValue({ rate_limit_per_minute: 30, deny: ['gpt-4o*'] });
    const SetPolicy = vi.fn().mockResolvedValue(undefined);
    fakeBackend({ Studio: {}, Requests: { Policy, SetPolicy } });
    render(<PolicySettings />);
    const rate = await screen.findByLabelText('Requests per minute');
    expect((rate as HTMLInputElement).value).toBe('30');
    expect((screen.getByLabelText('Deny models') as HTMLInputElement).value).toBe('gpt-4o*');
    fireEvent.change(screen.getByLabelText('Allow models'), { target: { value: 'mock, gpt-*' } });
    fireEvent.change(screen.getByLabelText('Token quota'), { target: { value: '5000' } });
    fireEvent.click(screen.getByText('Save policy'));
    await screen.findByText('saved: the next run uses it');
    expect(SetPolicy).toHaveBeenCalledWith({ rate_limit_per_minute: 30, token_quota: 5000, allow: ['mock', 'gpt-*'], deny: ['gpt-4o*'] });
    fireEvent.change(screen.getByLabelText('Token quota'), { target: { value: 'lots' } });
    fireEvent.click(screen.getByText('Save policy'));
    await screen.findByText('rate limit and quota are whole numbers');
    expect(SetPolicy).toHaveBeenCalledTimes(1);
  });

  it('is not shown without the app', async () => {
    const { container } = render(<PolicySettings />);
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });
});
