// Markdown through `marked`, sanitised by DOMPurify before it reaches the DOM.
// Parsing + sanitising costs far more than rendering the result, and a checkpoint often holds
// thousands of identical hook messages, so the sanitised HTML is cached by content (LRU, bounded).
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import { memo } from 'react';

const md = new Marked({ gfm: true, breaks: true, async: false });
// A custom tag (its name has a hyphen: Claude Code's <system-reminder>) is text the model reads,
// not markup: shown as written, where the sanitiser would drop it silently.
const CUSTOM_TAG = /<\/?[A-Za-z][\w]*-[\w-]*(?:\s[^<>]*)?>/g;
const escapeTag = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
md.use({ renderer: { html({ text }) { const out = text.replace(CUSTOM_TAG, escapeTag); return out === text ? false : out; } } });

const PURIFY_CONFIG = { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img', 'iframe', 'form', 'input'], FORBID_ATTR: ['style'] };
// A private instance with its configuration parsed once: `sanitize(html, cfg)` re-parses cfg on every call.
let purifier: ReturnType<typeof DOMPurify> | undefined;
function purify(): ReturnType<typeof DOMPurify> {
  if (!purifier) {
    purifier = typeof window === 'undefined' ? DOMPurify : DOMPurify(window);
    purifier.setConfig(PURIFY_CONFIG);
  }
  return purifier;
}

/** Most distinct contents kept; a screenful of cards needs a few dozen, scrolling back a few hundred. */
export const MARKDOWN_CACHE_LIMIT = 2000;
let limit = MARKDOWN_CACHE_LIMIT;
/** Longer contents are not cached (their own size would dominate the cache). */
export const MARKDOWN_CACHE_MAX_CHARS = 20_000;
const cache = new Map<string, string>();

function parse(src: string): string {
  const html = md.parse(src, { async: false });
  return purify().sanitize(html);
}

/** Sanitised HTML of `src`, from the cache when the same content was rendered before. */
export function renderMarkdown(src: string): string {
  const hit = cache.get(src);
  if (hit !== undefined) {
    // refresh: Map keeps insertion order, so the first key is the least recently used
    cache.delete(src);
    cache.set(src, hit);
    return hit;
  }
  const html = parse(src);
  if (src.length <= MARKDOWN_CACHE_MAX_CHARS) {
    cache.set(src, html);
    trim();
  }
  return html;
}

function trim(): void {
  while (cache.size > limit) cache.delete(cache.keys().next().value!);
}

export const markdownCache = {
  get size(): number { return cache.size; },
  /** the bound (MARKDOWN_CACHE_LIMIT); lowering it drops the least recently used entries */
  get limit(): number { return limit; },
  set limit(n: number) { limit = Math.max(0, Math.floor(n)); trim(); },
  has: (src: string): boolean => cache.has(src),
  clear: (): void => cache.clear(),
};

/**
 * Whether `src` is a single line that markdown renders as one plain paragraph: ASCII letters,
 * digits, spaces and punctuation that no markdown, HTML or autolink rule reacts to, any visible
 * non-ASCII character (markdown syntax is all ASCII), and no line start
 * that could open a block (list, heading, rule, indented code). Tool results and hook texts are
 * mostly like this; they skip the parser and the sanitiser (the equivalence is tested).
 */
const PLAIN = /^(?![\s\d+=-])(?:[A-Za-z0-9 ,.;?'"()/=+-]|[^\p{ASCII}\s\p{C}])*(?<!\s)$/u;
export function isPlainText(src: string): boolean {
  return src.length > 0 && src.length <= 2000 && PLAIN.test(src) && !/www\./i.test(src);
}

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  if (isPlainText(text)) return <div className={`md ${className ?? ''}`}><p>{text}</p></div>;
  // renderMarkdown is memoised by content across all cards, so no per-instance useMemo is needed
  const html = renderMarkdown(text);
  return <div className={`md ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
});
