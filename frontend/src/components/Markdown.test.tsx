import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { isPlainText, Markdown, markdownCache, MARKDOWN_CACHE_LIMIT, MARKDOWN_CACHE_MAX_CHARS, renderMarkdown } from './Markdown';

describe('renderMarkdown cache', () => {
  beforeEach(() => markdownCache.clear());
  afterEach(() => { markdownCache.limit = MARKDOWN_CACHE_LIMIT; });

  it('shows a custom tag such as Claude Code\'s <system-reminder> as the text the model reads', () => {
    const { container } = render(<Markdown text={'<system-reminder>\nPostToolUse:Edit hook additional context: run the tests\n</system-reminder>'} />);
    expect(container.textContent).toContain('<system-reminder>');
    expect(container.textContent).toContain('</system-reminder>');
    expect(container.textContent).toContain('hook additional context: run the tests');
    expect(container.querySelector('system-reminder')).toBeNull();
  });

  it('renders the same HTML from the cache as freshly', () => {
    const src = '## Plan\n- read **main.go**\n\n```go\nfunc main() {}\n```';
    const fresh = renderMarkdown(src);
    expect(markdownCache.has(src)).toBe(true);
    expect(renderMarkdown(src)).toBe(fresh);
    markdownCache.clear();
    expect(renderMarkdown(src)).toBe(fresh);
    expect(fresh).toContain('<strong>main.go</strong>');
  });

  it('sanitises what it caches', () => {
    const html = renderMarkdown('hi <img src=x onerror="alert(1)"><script>alert(2)</script><iframe></iframe> <b style="color:red">b</b>');
    expect(html).not.toMatch(/<img|<script|<iframe|onerror|style=/);
    expect(renderMarkdown('hi <img src=x onerror="alert(1)"><script>alert(2)</script><iframe></iframe> <b style="color:red">b</b>')).toBe(html);
  });

  it('is bounded, dropping the least recently used content first', () => {
    expect(MARKDOWN_CACHE_LIMIT).toBeGreaterThanOrEqual(500); // enough for scrolling back and forth
    const n = (markdownCache.limit = 50); // a small bound: sanitising in jsdom is slow
    for (let i = 0; i < n; i++) renderMarkdown(`message ${i}`);
    expect(markdownCache.size).toBe(n);
    renderMarkdown('message 0'); // used again: now the most recent
    renderMarkdown('one more');
    expect(markdownCache.size).toBe(n);
    expect(markdownCache.has('message 0')).toBe(true);
    expect(markdownCache.has('message 1')).toBe(false); // the oldest went
    expect(markdownCache.has('one more')).toBe(true);
    for (let i = 0; i < 2 * n; i++) renderMarkdown(`other ${i}`);
    expect(markdownCache.size).toBe(n);
    markdownCache.limit = 10; // lowering the bound trims at once, oldest first
    expect(markdownCache.size).toBe(10);
    expect(markdownCache.has(`other ${2 * n - 1}`)).toBe(true);
    expect(markdownCache.has(`other ${2 * n - 11}`)).toBe(false);
  });

  it('does not keep very long contents', () => {
    const long = 'x'.repeat(MARKDOWN_CACHE_MAX_CHARS + 1);
    expect(renderMarkdown(long)).toContain('xxx');
    expect(markdownCache.has(long)).toBe(false);
  });

  it('the component renders the cached HTML', () => {
    const { container } = render(<Markdown text={'a `code` b'} />);
    expect(container.querySelector('.md code')?.textContent).toBe('code');
    expect(markdownCache.has('a `code` b')).toBe(true);
  });
});

describe('plain text fast path', () => {
  const plain = [
    'contents of f12.go',
    'Check the result above before the next call.',
    'Short note.',
    '用户更喜欢简短的回答。请先给结论，再给理由。',
    'Remember: the user works on project Atlas.'.replace(':', ','),
    'a "quoted" and \'single\' (paren) / slash, semi; question? a-b a+b a=b',
    'Ünïcödé café naïve',
    'x',
  ];
  const notPlain = [
    '', ' leading space', 'trailing space ', '- list', '+ list', '= x', '1. ordered', '2) ordered', '# heading',
    '**bold**', '_em_', '`code`', 'a <b>tag</b>', 'a & b', 'see http://x.y', 'see www.example.com', 'mail a@b.c',
    'two\nlines', 'tab\there', 'nbsp\u00a0inside', 'ideographic\u3000space', 'zero\u200bwidth', '---', '[link](x)', '~~strike~~', 'a | b', 'a\\b', 'x'.repeat(2001),
  ];

  it('recognises plain single lines only', () => {
    for (const t of plain) expect(isPlainText(t), t).toBe(true);
    for (const t of notPlain) expect(isPlainText(t), t).toBe(false);
  });

  it('renders plain text exactly as marked + DOMPurify would', () => {
    const dom = (html: string) => { const d = document.createElement('div'); d.innerHTML = html; return d; };
    const chars = 'abcXYZ019 ,.;?\'"()/=+-éü中文。，😀';
    const samples = [...plain];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    while (samples.length < 300) {
      const t = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => chars[Math.floor(rnd() * chars.length)]).join('');
      if (isPlainText(t)) samples.push(t);
    }
    for (const t of samples) {
      const { container, unmount } = render(<Markdown text={t} />);
      const want = dom(renderMarkdown(t));
      const got = container.querySelector('.md')!;
      // same elements and text; marked leaves a trailing newline text node, which renders as nothing
      expect(got.innerHTML, t).toBe(want.innerHTML.trim());
      unmount();
    }
  });
});
