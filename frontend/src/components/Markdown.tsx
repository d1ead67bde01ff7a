// Markdown through `marked`, sanitised by DOMPurify before it reaches the DOM.
import { Marked } from 'marked';
import DOMPurify from 'dompurify';
import { memo, useMemo } from 'react';

const md = new Marked({ gfm: true, breaks: true, async: false });

export function renderMarkdown(src: string): string {
  const html = md.parse(src, { async: false });
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'img', 'iframe', 'form', 'input'], FORBID_ATTR: ['style'] });
}

export const Markdown = memo(function Markdown({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return <div className={`md ${className ?? ''}`} dangerouslySetInnerHTML={{ __html: html }} />;
});
