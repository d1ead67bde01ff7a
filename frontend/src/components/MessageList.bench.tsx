// npm run bench: time to first render of the virtualised message list at a checkpoint with
// 10,000 messages (jsdom; the real-browser figure comes from the end-to-end test).
import { bench, describe } from 'vitest';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { bigTrace } from '../fixtures/big';
import { messagesAt } from '../lib/api';
import { MessageList } from './MessageList';
import { sourceOf } from '../paged/local';
import { skillColors } from './util';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const N = 10_000;
const color = skillColors([]);

function renderOnce(): { ms: number; rendered: number } {
  const view = bigTrace(N); // fresh view: includes building the per-request index
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const t0 = performance.now();
  act(() => root.render(<MessageList source={sourceOf(view)} cursor={view.calls[0]!.step} color={color} />));
  const ms = performance.now() - t0;
  const rendered = host.querySelectorAll('article.msg').length;
  act(() => root.unmount());
  host.remove();
  return { ms, rendered };
}

// a printed figure: median of 15 first renders
{
  renderOnce(); // warm-up (JIT)
  const runs = Array.from({ length: 15 }, renderOnce);
  const sorted = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  console.log(
    `\n[bench] message list, ${N.toLocaleString('en-US')} messages: first render ${median.toFixed(1)} ms median ` +
      `(min ${sorted[0]!.toFixed(1)}, max ${sorted[sorted.length - 1]!.toFixed(1)}; ${runs[0]!.rendered} cards in the DOM; jsdom)\n`,
  );
}

describe(`message list with ${N} messages`, () => {
  const view = bigTrace(N);
  bench('messagesAt (indexed filter)', () => {
    messagesAt(view, view.calls[0]!.step);
  });
  bench('first render of the virtualised list (fresh trace)', () => {
    renderOnce();
  }, { iterations: 20, time: 2000 });
});
