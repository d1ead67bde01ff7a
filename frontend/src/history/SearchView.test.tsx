import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { resetSearchMock, type SearchHit } from '../lib/api/search';
import { SearchStore } from './searchStore';
import { hitPlace, SearchView } from './SearchView';

let mock: ReturnType<typeof resetSearchMock>;

const hit = (i: number, over: Partial<SearchHit> = {}): SearchHit => ({
  key: `run:${i}`, source: 'session', run: i, file: `/home/user/.claude/projects/p/s${i}.jsonl`, agent: 'claude-code', version: '2.1.332',
  project: '/home/user/project', title: 'clean the build folder', started: '2026-11-26T09:00:00Z', kind: 'message', role: 'tool', origin: 'tool',
  call: 2, message: 14, step: 12, hook: './hooks/guard.sh', event: 'PreToolUse:Bash', outcome: 'blocked', tool: 'Bash', count: 1, rank: -3,
  snippet: [{ text: 'Blocked: ' }, { text: 'rm -rf', hit: true }, { text: ' deletes for good' }], ...over,
});

let store: SearchStore;
beforeEach(() => { mock = resetSearchMock(); store = new SearchStore(); });
afterEach(() => { resetSearchMock(); vi.useRealTimers(); });

const shown = () => [...document.querySelectorAll<HTMLElement>('.hits > .hit')];
const type = (text: string) => fireEvent.change(screen.getByTestId('search-input'), { target: { value: text } });

describe('SearchView', () => {
  it('starts with what it searches and examples; an example runs; hits show where they are, what, and the matched words', async () => {
    mock.setHits([hit(3), hit(4, { kind: 'answer', role: 'assistant', origin: 'assistant', call: 3, message: -1, hook: '', event: '', outcome: '', tool: '',
      snippet: [{ text: 'I will not run ' }, { text: 'rm -rf', hit: true }] })]);
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    expect(screen.getByTestId('search-empty').textContent).toContain('Search every run and session');
    fireEvent.click(screen.getByText('outcome:blocked'));
    await waitFor(() => expect(shown()).toHaveLength(1));
    const first = within(shown()[0]!);
    expect(first.getByText('#3')).toBeTruthy();
    expect(first.getByText('claude-code 2.1.332')).toBeTruthy();
    expect(first.getByText("call #3 · message 14 · Bash's result")).toBeTruthy();
    expect(first.getByText('PreToolUse:Bash')).toBeTruthy();
    expect(first.getByText('blocked')).toBeTruthy();
    expect(shown()[0]!.querySelector('mark')!.textContent).toBe('rm -rf');
    expect(screen.getByTestId('search-status').textContent).toContain('1 hit');
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(2));
    expect(mock.queries.at(-1)!.text).toBe('rm');
  });

  it('sends the filters, says when nothing passes them, and clears them', async () => {
    mock.setHits([hit(1)]);
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('Agent'), { target: { value: 'codex' } });
    await waitFor(() => expect(screen.getByTestId('search-none').textContent).toContain('No hit passes the filters'));
    fireEvent.change(screen.getByLabelText('Outcome'), { target: { value: 'blocked' } });
    fireEvent.change(screen.getByLabelText('From date'), { target: { value: '2026-11-01' } });
    await waitFor(() => expect(mock.queries.at(-1)).toMatchObject({ text: 'rm', agent: 'codex', outcome: 'blocked', since: '2026-11-01', limit: 50, offset: 0 }));
    fireEvent.click(within(screen.getByTestId('search-none')).getByText('clear them'));
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(mock.queries.at(-1)).toMatchObject({ text: 'rm', agent: '', outcome: '', since: '' });
  });

  it('shows a search the backend refuses as an error, and no hits', async () => {
    mock.setHits([hit(1)]);
    mock.setError('bad search: OR stands between two words');
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    type('OR rm');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('OR stands between two words'));
    expect(shown()).toHaveLength(0);
    mock.setError(null);
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('pages: a page of hits, then the next after them', async () => {
    mock.setHits(Array.from({ length: 60 }, (_, i) => hit(i + 1)));
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(50));
    expect(screen.getByTestId('search-more').textContent).toContain('50 of 60');
    fireEvent.click(screen.getByTestId('search-more'));
    await waitFor(() => expect(shown()).toHaveLength(60));
    expect(mock.queries.at(-1)!.offset).toBe(50);
    expect(screen.queryByTestId('search-more')).toBeNull();
  });

  it("keeps a pasted file's lines apart (a phrase each on the Go side)", async () => {
    mock.setHits([]);
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    type('package config\nconst Limit = 40');
    await waitFor(() => expect(mock.queries.at(-1)?.text).toBe('package config\nconst Limit = 40'));
    expect((screen.getByTestId('search-input') as HTMLTextAreaElement).rows).toBe(2);
  });

  it('opens a hit by click, or by the arrow keys and Enter', async () => {
    mock.setHits([hit(1), hit(2), hit(3)]);
    const onOpen = vi.fn();
    render(<SearchView store={store} onBack={() => {}} onOpen={onOpen} importing={null} />);
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(3));
    const box = screen.getByTestId('search-input');
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    fireEvent.keyDown(box, { key: 'ArrowDown' }); // stays on the last
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(shown()[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ run: 2 }));
    fireEvent.click(shown()[2]!);
    expect(onOpen).toHaveBeenLastCalledWith(expect.objectContaining({ run: 3 }));
  });

  it('says how far the index is, and searches again when it is done', async () => {
    mock.setHits([]);
    const undo = store.connect();
    mock.setStatus({ done: 2, total: 9, indexed: 2, running: true });
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={null} />);
    type('rm');
    await waitFor(() => expect(screen.getByTestId('search-none').textContent).toContain('being built (2 of 9)'));
    expect(screen.getByTestId('search-status').textContent).toContain('indexing 3 of 9');
    const asked = mock.queries.length;
    mock.setHits([hit(1)]);
    act(() => mock.emit({ done: 9, total: 9, indexed: 9, running: false }));
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(mock.queries.length).toBe(asked + 1);
    expect(screen.getByTestId('search-status').textContent).toContain('9 runs and sessions indexed');
    undo();
    expect(mock.listeners.size).toBe(0);
  });

  it('a hit not imported yet shows its import progress', async () => {
    const h = hit(0, { run: 0, source: 'disk', key: 'file:/s.jsonl', file: '/s.jsonl', started: '0001-01-01T00:00:00Z' });
    mock.setHits([h]);
    render(<SearchView store={store} onBack={() => {}} onOpen={() => {}} importing={{ file: '/s.jsonl', read: 5, total: 10 }} />);
    type('rm');
    await waitFor(() => expect(shown()).toHaveLength(1));
    expect(within(shown()[0]!).getByText('not imported')).toBeTruthy();
    expect(shown()[0]!.querySelector('.when')).toBeNull(); // a transcript that tells no time: none shown
    expect((within(shown()[0]!).getByLabelText('Importing s.jsonl') as HTMLProgressElement).value).toBe(5);
  });
});

describe('hitPlace', () => {
  it('names the call, the message and what the hit is', () => {
    expect(hitPlace(hit(1))).toBe("call #3 · message 14 · Bash's result");
    expect(hitPlace(hit(1, { kind: 'hook', message: -1, call: -1 }))).toBe('hook run');
    expect(hitPlace(hit(1, { kind: 'tool_call', message: -1, tool: 'Read' }))).toBe('call #3 · tool call Read');
    expect(hitPlace(hit(1, { kind: 'message', tool: '', role: 'user', message: 1, call: 0 }))).toBe('call #1 · message 1 · user message');
  });
});
