import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { resetRunMock, type RunMock } from '../lib/api/run';
import { SettingsDialog, formToProfile } from './SettingsDialog';

let mock: RunMock;
beforeEach(() => { mock = resetRunMock(); });
afterEach(() => { resetRunMock(); });

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
function fill(values: Record<string, string>) {
  for (const [k, v] of Object.entries(values)) fireEvent.change(field(k), { target: { value: v } });
}
const saves = () => mock.calls.filter((c) => c.method === 'SaveProfile');

describe('SettingsDialog', () => {
  it('adds a profile without a key: SaveProfile gets an empty key', async () => {
    render(<SettingsDialog onClose={() => {}} />);
    fireEvent.click(await screen.findByText('Add endpoint'));
    fill({ Name: 'local', 'Base URL': 'http://127.0.0.1:1/v1', Model: 'm', Temperature: '0.2', 'Max tokens': '256', 'Timeout (s)': '30' });
    fireEvent.click(screen.getByText('Save'));
    await screen.findByTestId('profile-local');
    expect(saves()).toHaveLength(1);
    expect(saves()[0]!.args).toEqual([{ name: 'local', provider: 'openai', base_url: 'http://127.0.0.1:1/v1', model: 'm', temperature: 0.2, max_tokens: 256, timeout: '30s' }, '']);
    expect(within(screen.getByTestId('profile-local')).getByText('no key')).toBeTruthy();
  });

  it('sends the key only when typed, and never shows it back', async () => {
    mock.profiles.set('p', { name: 'p', provider: 'openai', base_url: 'http://h/v1', model: 'm', timeout: '1m30s' });
    mock.keys.set('p', 'sk-old');
    render(<SettingsDialog onClose={() => {}} />);
    fireEvent.click(within(await screen.findByTestId('profile-p')).getByText('Edit'));
    const key = field('API key');
    expect(key.type).toBe('password');
    expect(key.value).toBe('');
    expect(field('Timeout (s)').value).toBe('90');
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.args[1]).toBe('');
    expect(mock.keys.get('p')).toBe('sk-old');
    await waitFor(() => expect(screen.queryByLabelText('API key')).toBeNull());
    fireEvent.click(within(screen.getByTestId('profile-p')).getByText('Edit'));
    fill({ 'API key': 'sk-new-secret' });
    fireEvent.click(screen.getByText('Save'));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]!.args[1]).toBe('sk-new-secret');
    await waitFor(() => expect(screen.queryByLabelText('API key')).toBeNull());
    expect(document.body.innerHTML).not.toContain('sk-new-secret');
    expect(document.body.innerHTML).not.toContain('sk-old');
  });

  it('shows the backend\'s validation error and keeps the form', async () => {
    render(<SettingsDialog onClose={() => {}} />);
    fireEvent.click(await screen.findByText('Add endpoint'));
    fill({ Name: 'bad', 'Base URL': 'ftp://x', Model: 'm' });
    fireEvent.click(screen.getByText('Save'));
    expect((await screen.findByTestId('profile-error')).textContent).toContain('is not an http(s) URL');
    expect(field('Name').value).toBe('bad');
    fill({ Temperature: 'hot' });
    fireEvent.click(screen.getByText('Save'));
    expect((await screen.findByTestId('profile-error')).textContent).toBe('Temperature must be a number.');
  });

  it('tests a connection and shows the result', async () => {
    mock.profiles.set('ok', { name: 'ok', provider: 'openai', base_url: 'http://h/v1', model: 'm' });
    mock.keys.set('ok', 'k');
    mock.profiles.set('nokey', { name: 'nokey', provider: 'anthropic', base_url: 'http://h', model: 'c' });
    render(<SettingsDialog onClose={() => {}} />);
    fireEvent.click(within(await screen.findByTestId('profile-ok')).getByText('Test connection'));
    const ok = await within(screen.getByTestId('profile-ok')).findByTestId('conn-result');
    expect(ok.textContent).toContain('connected');
    expect(ok.textContent).toContain('42 ms');
    expect(ok.textContent).toContain('pong');
    fireEvent.click(within(screen.getByTestId('profile-nokey')).getByText('Test connection'));
    const bad = await within(screen.getByTestId('profile-nokey')).findByTestId('conn-result');
    expect(bad.textContent).toContain('no API key');
    expect(bad.className).toContain('mrun-conn-err');
  });

  it('deletes only after confirmation', async () => {
    mock.profiles.set('gone', { name: 'gone', provider: 'openai', base_url: 'http://h/v1', model: 'm' });
    render(<SettingsDialog onClose={() => {}} />);
    fireEvent.click(within(await screen.findByTestId('profile-gone')).getByText('Delete'));
    expect(mock.calls.some((c) => c.method === 'DeleteProfile')).toBe(false);
    fireEvent.click(within(screen.getByRole('alertdialog')).getByText('Keep'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(within(screen.getByTestId('profile-gone')).getByText('Delete'));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByText('Delete'));
    await waitFor(() => expect(screen.queryByTestId('profile-gone')).toBeNull());
    expect(mock.calls.find((c) => c.method === 'DeleteProfile')?.args).toEqual(['gone']);
  });

  it('formToProfile leaves out empty optional fields', () => {
    expect(formToProfile({ name: ' a ', provider: 'openai', base_url: 'u', model: 'm', temperature: '', max_tokens: '', timeout: '', key: 'x' }))
      .toEqual({ name: 'a', provider: 'openai', base_url: 'u', model: 'm' });
  });
});
