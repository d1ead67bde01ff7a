import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { HookCall, Step, TraceView } from '../lib/api';
import { currentRequests, requestsOf, type RequestContext, type RequestRow } from '../lib/api/requests';
import { RequestInspector, statusOf } from './RequestInspector';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

const T = (ms: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0, ms)).toISOString();

function ctx(call: number, over: Partial<RequestContext>): RequestContext {
  return {
    request_id: `req-${call}`, route: 'mock.chat', model: 'mock', is_streaming: false, current_credential_id: 'mock',
    current_credential_email: '', attempts: [], usage_metadata: null, start_time: T(call * 100), first_byte_time: null,
    end_time: null, success: false, error: '', http_status: 0, call, request: 0, phase: call === 0 ? 'planning' : 'agent', round: call - 1,
    ...over,
  };
}

function step(index: number, event: string, hook: string, input: RequestContext, outcome: HookCall['outcome'] = 'ok'): Step {
  return {
    index, kind: 'hook_call', request: 0, round: null, call: null, added: [], removed: [],
    hook_call: { system: 'request', event, point: event === 'request_start' ? 'before_llm' : 'after_llm', hook, outcome, input, duration_ms: 1.5 },
  };
}

// A retried planning request (429, then 200) and a denied agent request.
const retried = ctx(0, {
  attempts: [
    { cred_id: 'mock', email_masked: '', status_code: 429, reason: 'rate limited', timestamp: T(10) },
    { cred_id: 'mock', email_masked: '', status_code: 200, timestamp: T(60) },
  ],
  first_byte_time: T(70), end_time: T(80), success: true, http_status: 200,
  usage_metadata: { prompt_tokens: 120, completion_tokens: 7, thinking_tokens: 0, cached_tokens: 0, total_tokens: 127, counted: true },
});
const denied = ctx(1, { end_time: T(120), http_status: 403, error: 'request denied by policy (403): model mock is denied' });
const view = {
  steps: [
    { index: 0, kind: 'build_messages', request: 0, round: null, call: null, added: [], removed: [] },
    step(1, 'request_start', 'policy', ctx(0, {})),
    step(2, 'request_end', 'usage_stats', retried),
    step(3, 'request_end', 'audit', retried, 'timeout'),
    step(4, 'request_start', 'policy', ctx(1, {}), 'denied'),
    step(5, 'request_end', 'usage_stats', denied),
    { index: 6, kind: 'hook_call', request: 0, round: null, call: null, added: [], removed: [],
      hook_call: { system: 'command', event: 'pre_llm_request', point: 'before_llm', hook: 'other', outcome: 'ok', input: { call: 0 }, duration_ms: 1 } },
  ],
} as unknown as TraceView;

afterEach(() => {
  removeFakeBackend();
});

describe('requestsOf', () => {
  it('gathers one row per request with its end context and every request hook, and the usage per model', () => {
    const { rows, usage } = requestsOf(view);
    expect(rows.map((r) => r.call)).toEqual([0, 1]);
    const [first, second] = rows as [RequestRow, RequestRow];
    expect(first.context?.attempts.map((a) => a.status_code)).toEqual([429, 200]);
    expect(first.hooks.map((h) => `${h.hook}:${h.outcome}:${h.step}`)).toEqual(['policy:ok:1', 'usage_stats:ok:2', 'audit:timeout:3']);
    expect(statusOf(first)).toEqual({ text: '200', ok: true });
    expect(statusOf(second)).toEqual({ text: 'denied 403', ok: false });
    expect(usage).toEqual([{ model: 'mock', requests: 2, successes: 1, failures: 1, attempts: 2, prompt_tokens: 120, completion_tokens: 7, thinking_tokens: 0, cached_tokens: 0 }]);
  });

  it('asks the bound Requests service when the app is there', async () => {
    const Current = vi.fn().mockResolvedValue({ rows: [], usage: [] });
    fakeBackend({ Studio: {}, Requests: { Current } });
    await expect(currentRequests(view)).resolves.toEqual({ rows: [], usage: [] });
    expect(Current).toHaveBeenCalledOnce();
  });
});

describe('RequestInspector', () => {
  it('lists each request with status, attempts, timing and tokens; a row opens its attempts and hooks', async () => {
    const onJump = vi.fn();
    render(<RequestInspector view={view} onJump={onJump} />);
    const row0 = screen.getByTestId('request-row-0');
    expect(row0.textContent).toContain('R1 planning');
    expect(row0.textContent).toContain('1 retry');
    expect(row0.textContent).toContain('80 ms');
    expect(row0.textContent).toContain('120 / 7');
    expect(row0.querySelectorAll('.req-tick-bad')).toHaveLength(1);
    expect(screen.getByTestId('request-row-1').textContent).toContain('denied 403');
    expect(screen.getByRole('table', { name: 'Usage per model' }).textContent).toContain('mock');

    fireEvent.click(row0);
    const detail = await screen.findByTestId('request-detail');
    const attempts = screen.getByRole('table', { name: 'Attempts' });
    expect(attempts.textContent).toContain('429');
    expect(attempts.textContent).toContain('rate limited');
    expect(attempts.textContent).toContain('+10 ms');
    expect(detail.textContent).toContain('120 prompt');
    fireEvent.click(screen.getByTestId('request-hook-3'));
    expect(onJump).toHaveBeenCalledWith(3);
  });

  it('says how to get requests when none went through request hooks', async () => {
    render(<RequestInspector view={{ steps: [] } as unknown as TraceView} onJump={() => {}} />);
    await waitFor(() => expect(screen.getByText(/No model request went through request hooks/)).toBeTruthy());
  });
});

describe('OtlpExport', () => {
  it('sends the scenario\'s newest run to the collector the user names, and remembers it', async () => {
    const ExportOTLP = vi.fn().mockResolvedValue(42);
    fakeBackend({ Studio: {}, Requests: { Current: vi.fn().mockResolvedValue(requestsOf(view)), ExportOTLP } });
    render(<RequestInspector view={{ ...view, scenario: 'retried' } as TraceView} onJump={() => {}} />);
    const input = screen.getByLabelText('OpenTelemetry collector URL');
    fireEvent.change(input, { target: { value: 'http://collector:4318' } });
    fireEvent.click(screen.getByText('Send run'));
    await screen.findByText('run #42 sent');
    expect(ExportOTLP).toHaveBeenCalledWith('retried', 'http://collector:4318');
    expect(localStorage.getItem('hookstudio.otlpEndpoint')).toBe('http://collector:4318');
    ExportOTLP.mockRejectedValueOnce(new Error('otlp export: refused'));
    fireEvent.click(screen.getByText('Send run'));
    await screen.findByText('otlp export: refused');
  });
});
