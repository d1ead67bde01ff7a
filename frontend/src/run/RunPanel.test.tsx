import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { resetRunMock, type RunMock } from '../lib/api/run';
import { RunPanel } from './RunPanel';
import { renderInApp } from '../app/testing';
import { createApp, type App } from '../app/stores';
import { PausedView, ToolPrompt, describeRequest } from './RunViews';

let mock: RunMock;
beforeEach(() => {
  mock = resetRunMock();
  mock.profiles.set('local', { name: 'local', provider: 'openai', base_url: 'http://127.0.0.1:1/v1', model: 'tiny' });
  mock.keys.set('local', 'k');
});
afterEach(() => { resetRunMock(); });

const scenario = { file: 'a/scenarios/x.yaml', name: 'x', valid: true };
const color = () => 'red';
const calls = (m: string) => mock.calls.filter((c) => c.method === m);
const status = () => screen.getByTestId('run-panel').getAttribute('data-status');

// the drawer in an app, so that its keys are the app's commands
let disconnect = () => {};
afterEach(() => disconnect());
function renderPanel(breakpoints: string[], onOpenHistory?: (id: number) => void): App {
  const app = createApp();
  disconnect = app.run.connect();
  app.run.openPanel();
  renderInApp(<RunPanel store={app.run} breakpoints={breakpoints} scenario={scenario} color={color} onOpenHistory={onOpenHistory} />, { app });
  return app;
}

async function startPaused(breakpoints: string[] = ['call:0']) {
  const onOpenHistory = vi.fn();
  renderPanel(breakpoints, onOpenHistory);
  await waitFor(() => expect((screen.getByTestId('run-start') as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(screen.getByTestId('run-start'));
  await screen.findByTestId('run-paused');
  return { onOpenHistory };
}

describe('RunPanel with the mock backend', () => {
  it('passes the debugger\'s LLM-call breakpoints and pauses showing the exact request', async () => {
    await startPaused(['call:0', 'checkpoint:2']);
    expect(calls('StartRun')[0]!.args[0]).toEqual({ profile: 'local', step: false, breakpoints: [0], max_rounds: 0 });
    expect(screen.getByTestId('run-request').textContent).toContain('"role": "system"');
    expect(screen.getByTestId('run-label').textContent).toContain('live run against local');
    expect(status()).toBe('paused');
  });

  it('Continue resumes; the tool prompt sends the typed result; the end offers save and history', async () => {
    const { onOpenHistory } = await startPaused();
    fireEvent.click(screen.getByText(/Continue/));
    expect(calls('Resume')[0]!.args).toEqual([false]);
    const prompt = await screen.findByTestId('run-tool');
    expect(prompt.textContent).toContain('read_file');
    expect(prompt.textContent).toContain('"path": "main.go"');
    expect(screen.getByTestId('run-stream').textContent).toBe('Reading the file');
    fireEvent.change(screen.getByLabelText('Result to send back'), { target: { value: 'package main' } });
    fireEvent.click(screen.getByText('Send result'));
    expect(calls('AnswerTool')[0]!.args).toEqual(['package main']);
    await screen.findByTestId('run-end');
    expect(screen.getByTestId('run-end-status').getAttribute('data-status')).toBe('ok');
    fireEvent.click(screen.getByText('Save as mock scenario'));
    expect((await screen.findByTestId('run-toast')).textContent).toContain('mock/scenarios/mock-replay.yaml');
    fireEvent.click(screen.getByText('Open in history'));
    expect(onOpenHistory).toHaveBeenCalledWith(1);
  });

  it('Step (F10) resumes with step=true and F5 continues', async () => {
    await startPaused();
    await act(async () => { fireEvent.keyDown(window, { key: 'F10' }); });
    expect(calls('Resume')[0]!.args).toEqual([true]);
    await screen.findByTestId('run-tool');
    fireEvent.click(screen.getByText('Send result'));
    expect(calls('AnswerTool')[0]!.args).toEqual(['']);
    await screen.findByTestId('run-paused'); // step: pauses again before call #2
    expect(screen.getByText('Paused before LLM call #2')).toBeTruthy();
    await act(async () => { fireEvent.keyDown(window, { key: 'F5' }); });
    expect(calls('Resume')[1]!.args).toEqual([false]);
    await screen.findByTestId('run-end');
  });

  it('Cancel calls CancelRun and shows the cancelled status', async () => {
    await startPaused();
    fireEvent.click(screen.getAllByText(/Cancel/)[0]!);
    expect(calls('CancelRun')).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('run-end-status').getAttribute('data-status')).toBe('cancelled'));
  });

  it('shows a retry notice and a start failure', async () => {
    renderPanel([]);
    await waitFor(() => expect((screen.getByTestId('run-start') as HTMLButtonElement).disabled).toBe(false));
    mock.profiles.clear();
    fireEvent.click(screen.getByTestId('run-start'));
    expect((await screen.findByRole('alert')).textContent).toContain('no profile');
    expect(status()).toBe('idle');
    mock.profiles.set('local', { name: 'local', provider: 'openai', base_url: 'http://h/v1', model: 'tiny' });
    fireEvent.click(screen.getByTestId('run-start'));
    act(() => mock.emit('run:retry', { attempt: 2, wait_ms: 1500, error: '429 Too Many Requests' }));
    expect(screen.getByTestId('run-retry').textContent).toContain('retrying in 1.5 s');
  });
});

describe('PausedView and ToolPrompt', () => {
  it('PausedView pretty-prints the body and summarises messages, tools and parameters', () => {
    const onContinue = vi.fn(), onStep = vi.fn(), onCancel = vi.fn();
    const body = JSON.stringify({ model: 'm', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'read_file' } }] });
    render(<PausedView call={1} request={body} onContinue={onContinue} onStep={onStep} onCancel={onCancel} />);
    expect(screen.getByText('Paused before LLM call #2')).toBeTruthy();
    expect(screen.getByTestId('run-request').textContent).toBe(JSON.stringify(JSON.parse(body), null, 2));
    const summary = screen.getByTestId('run-request-summary').textContent;
    expect(summary).toContain('1 messages');
    expect(summary).toContain('tools: read_file');
    expect(summary).toContain('max_tokens 64');
    fireEvent.click(screen.getByText(/Continue/)); fireEvent.click(screen.getByText(/Step/)); fireEvent.click(screen.getByText(/Cancel/));
    expect([onContinue.mock.calls.length, onStep.mock.calls.length, onCancel.mock.calls.length]).toEqual([1, 1, 1]);
  });
  it('describeRequest keeps a body that is not JSON as it is', () => {
    expect(describeRequest('request body unavailable: x')).toEqual({ pretty: 'request body unavailable: x', summary: null });
  });
  it('ToolPrompt sends the text', () => {
    const onSend = vi.fn();
    render(<ToolPrompt tool={{ id: '1', name: 'search_text', arguments: { pattern: 'x' } }} onSend={onSend} />);
    fireEvent.change(screen.getByLabelText('Result to send back'), { target: { value: 'a.go:1:x' } });
    fireEvent.click(screen.getByText('Send result'));
    expect(onSend).toHaveBeenCalledWith('a.go:1:x');
  });
});
