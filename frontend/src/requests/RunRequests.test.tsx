import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { RunRequests } from './RunRequests';
import { fakeBackend, removeFakeBackend } from '../lib/api/fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('RunRequests', () => {
  it('charts a stored run\'s usage per model and lists its executable hooks\' metrics', async () => {
    const Run = vi.fn().mockResolvedValue({
      rows: [],
      usage: [
        { model: 'mock', requests: 3, successes: 2, failures: 1, attempts: 4, prompt_tokens: 300, completion_tokens: 100, thinking_tokens: 0, cached_tokens: 0 },
        { model: 'gpt-x', requests: 1, successes: 1, failures: 0, attempts: 1, prompt_tokens: 100, completion_tokens: 0, thinking_tokens: 0, cached_tokens: 0 },
      ],
      exec_hooks: [{ system: 'request', hook: 'audit', executions: 3, successes: 2, failures: 1, skipped: 0, total_duration_ms: 12.25 }],
    });
    fakeBackend({ Studio: {}, Requests: { Run } });
    render(<RunRequests runId={7} />);
    const mock = await screen.findByTestId('usage-mock');
    expect(Run).toHaveBeenCalledWith(7);
    expect(mock.textContent).toContain('3 req · 2 ok · 1 failed · 4 attempts');
    // bars scale to the largest model: mock's prompt 300 of 400 tokens
    expect((mock.querySelector('.req-part-prompt') as HTMLElement).style.width).toBe('75%');
    expect((screen.getByTestId('usage-gpt-x').querySelector('.req-part-prompt') as HTMLElement).style.width).toBe('25%');
    const table = screen.getByRole('table', { name: 'Executable hooks — run #7' });
    expect(table.textContent).toContain('audit');
    expect(table.textContent).toContain('12.3');
  });

  it('shows nothing for a run without request hooks or without the app', async () => {
    const { container } = render(<RunRequests runId={1} />);
    await new Promise((r) => setTimeout(r, 10));
    expect(container.textContent).toBe('');
  });
});
