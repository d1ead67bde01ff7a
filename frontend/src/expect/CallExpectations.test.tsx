import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { CallDot, CallExpectations, addAndReport } from './CallExpectations';
import { MessageList } from '../components/MessageList';
import { skillColors } from '../components/util';
import { viewWith } from './fixture';
import { messagesAt } from '../lib/api';
import { sourceOf } from '../paged/local';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('CallExpectations', () => {
  it('shows the call’s expectations green or red', () => {
    render(<CallExpectations view={viewWith()} call={2} canAdd={false} />);
    expect(screen.getByTestId('badge-fail').textContent).toContain('sees memory ×2');
    expect(screen.queryByTestId('badge-pass')).toBeNull();
    expect(screen.queryByLabelText(/Message to add/)).toBeNull();
  });

  it('adds an expectation from a message the call receives', async () => {
    const AddExpectation = vi.fn(async () => ({ status: 'saved' as const, hash: 'h', diagnostics: [] }));
    fakeBackend({ Studio: { AddExpectation } });
    const onAdded = vi.fn();
    const view = viewWith();
    render(<CallExpectations view={view} call={0} onAdded={onAdded} />);
    const msgs = messagesAt(view, view.calls[0]!.step);
    const hook = msgs.find((m) => m.hook)!;
    // the call's messages are listed only once asked for (a call can receive 10,000 of them)
    expect(screen.queryByLabelText(/Message to add/)).toBeNull();
    expect(document.querySelectorAll('option')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('exp-pick-open'));
    expect(document.querySelectorAll('option')).toHaveLength(msgs.length + 1);
    fireEvent.change(screen.getByLabelText(/Message to add/), { target: { value: String(hook.id) } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith('Expectation added to the scenario', true));
    expect(AddExpectation).toHaveBeenCalledWith(0, hook.id);
  });

  it('reports a refused add', async () => {
    const AddExpectation = vi.fn(async () => Promise.reject('the file is JSON'));
    fakeBackend({ Studio: { AddExpectation } });
    const onAdded = vi.fn();
    render(<CallExpectations view={viewWith()} call={0} onAdded={onAdded} />);
    fireEvent.click(screen.getByTestId('exp-pick-open'));
    fireEvent.change(screen.getByLabelText(/Message to add/), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith('Not added: the file is JSON', false));
  });
});

describe('CallDot', () => {
  it('is red for a failing call, green for a passing one, absent without expectations', () => {
    const view = viewWith();
    const { container } = render(<><CallDot view={view} call={0} /><CallDot view={view} call={2} /><CallDot view={view} call={4} /></>);
    expect(screen.getByTestId('exp-dot-0').className).toContain('exp-pass');
    expect(screen.getByTestId('exp-dot-2').className).toContain('exp-fail');
    expect(container.querySelectorAll('.exp-dot')).toHaveLength(2);
  });
});

describe('add expectation on a message card', () => {
  it('offers "+ expect" on the messages of an LLM call and writes one for the clicked message', async () => {
    const AddExpectation = vi.fn(async () => ({ status: 'saved' as const, hash: 'h', diagnostics: [] }));
    fakeBackend({ Studio: { AddExpectation } });
    const view = viewWith();
    const onAdded = vi.fn();
    const call = view.calls[1]!;
    render(<MessageList source={sourceOf(view)} cursor={call.step} color={skillColors([])} onAddExpectation={(c, id) => void addAndReport(c, id, onAdded)} />);
    const id = messagesAt(view, call.step)[0]!.id;
    fireEvent.click(await screen.findByTestId(`add-expect-${id}`));
    await waitFor(() => expect(onAdded).toHaveBeenCalledWith('Expectation added to the scenario', true));
    expect(AddExpectation).toHaveBeenCalledWith(1, id);
  });

  it('offers nothing at a step that is not an LLM call', () => {
    const view = viewWith();
    render(<MessageList source={sourceOf(view)} cursor={0} color={skillColors([])} onAddExpectation={() => {}} />);
    expect(screen.queryAllByText('+ expect')).toHaveLength(0);
  });
});
