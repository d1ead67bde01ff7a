import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import * as api from '../lib/api';
import { HostBehaviourPick, hostsPrograms } from './HostBehaviourPick';

describe('HostBehaviourPick', () => {
  it('shows the folder setting and writes the other choice', async () => {
    const onState = vi.fn();
    render(<HostBehaviourPick root="/f" onState={onState} onError={() => {}} />);
    const pick = await screen.findByTestId('host-behaviour') as HTMLSelectElement;
    expect(pick.value).toBe('code');
    await act(async () => { fireEvent.change(pick, { target: { value: 'document' } }); });
    expect(await api.hostBehaviour()).toBe('document');
    expect(onState).toHaveBeenCalled();
    await act(async () => { fireEvent.change(pick, { target: { value: 'code' } }); });
    expect(await api.hostBehaviour()).toBe('code');
  });
  it('returns to what it was when the write fails', async () => {
    const spy = vi.spyOn(api, 'setHostBehaviour').mockRejectedValueOnce('disk full');
    const onError = vi.fn();
    render(<HostBehaviourPick root="/g" onState={() => {}} onError={onError} />);
    const pick = await screen.findByTestId('host-behaviour') as HTMLSelectElement;
    await act(async () => { fireEvent.change(pick, { target: { value: 'document' } }); });
    expect(onError).toHaveBeenCalledWith('disk full');
    expect(pick.value).toBe('code');
    spy.mockRestore();
  });
  it('applies only to folders with jcli or PicoClaw hooks', () => {
    expect(hostsPrograms([{ system: 'command' }])).toBe(true);
    expect(hostsPrograms([{ system: 'claude-code' }, { system: 'process' }])).toBe(true);
    expect(hostsPrograms([{ system: 'gemini-cli' }, { system: 'claude-code' }])).toBe(false);
    expect(hostsPrograms([])).toBe(false);
  });
});
