// npm run bench: a 1,000-call capture opened in the History's read-only run view, against a
// simulated run of the same number of calls (jsdom: render and re-render work, no layout).
// Both views are what the app's History hands over for a stored run (studio.RunView), written by
// the Go side: HOOKSTUDIO_BENCH_VIEWS=DIR names a folder holding them, else this runs
// `go test -run TestWriteBenchViews ./app/capture` once to write them (app/capture/benchviews_test.go).
import { bench, describe } from 'vitest';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceView } from '../lib/api';
import type { RunSummary } from '../lib/api/history';
import { ReadOnlyRun } from '../history/ReadOnlyRun';
import { MessageList } from '../components/MessageList';
import { sourceOf } from '../paged/local';
import { skillColors } from '../components/util';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
const color = skillColors([]);

function viewsDir(): string {
  const given = process.env.HOOKSTUDIO_BENCH_VIEWS;
  if (given && existsSync(join(given, 'capture-1000.json'))) return given;
  const dir = given ?? mkdtempSync(join(tmpdir(), 'capture-bench-'));
  const repo = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync('go', ['test', '-count=1', '-run', 'TestWriteBenchViews', './app/capture'], { cwd: repo, env: { ...process.env, HOOKSTUDIO_BENCH_VIEWS: dir }, stdio: 'inherit' });
  return dir;
}

const dir = viewsDir();
const text: Record<string, string> = {
  capture: readFileSync(join(dir, 'capture-1000.json'), 'utf8'),
  simulated: readFileSync(join(dir, 'simulated-1000.json'), 'utf8'),
};
/** a fresh view each time: opening includes parsing and the per-view indexes */
const load = (kind: string): TraceView => JSON.parse(text[kind]!) as TraceView;
const summary = (v: TraceView, kind: string): RunSummary => ({
  id: 1, scenario: v.scenario, scenario_file: v.file, scenario_hash: '', backend: kind === 'capture' ? 'capture:anthropic' : 'mock',
  source: kind === 'capture' ? 'capture' : 'cli', status: 'ok', started: '2026-11-25T14:00:00Z', ended: '2026-11-25T14:10:00Z', wall_ms: 600_000,
  steps: v.steps.length, llm_calls: v.calls.length, tokens_in: 0, tokens_out: 0, max_prompt_tokens: 0,
} as RunSummary);

function mount() {
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  return { host, root, done: () => { act(() => root.unmount()); host.remove(); } };
}

/** open: JSON to the read-only run view painted (steps, flow, message list, bottom panel) */
function open(kind: string): number {
  const t0 = performance.now();
  const view = load(kind);
  const m = mount();
  act(() => m.root.render(<ReadOnlyRun run={summary(view, kind)} source={sourceOf(view)} color={color} onBack={() => {}} onLive={() => {}} />));
  const ms = performance.now() - t0;
  m.done();
  return ms;
}

/** walk: the message list moved to 100 calls spread over the run, as jumping from call to call does; ms per move */
function walk(kind: string): number {
  const view = load(kind);
  const m = mount();
  const at = (c: number) => view.calls[c]!.step;
  act(() => m.root.render(<MessageList source={sourceOf(view)} cursor={at(0)} color={color} />));
  const moves = 100;
  const t0 = performance.now();
  for (let k = 1; k <= moves; k++) {
    const c = Math.floor((k * (view.calls.length - 1)) / moves);
    act(() => m.root.render(<MessageList source={sourceOf(view)} cursor={at(c)} color={color} />));
  }
  const ms = (performance.now() - t0) / moves;
  m.done();
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// printed figures: medians of 9 runs each, capture beside simulated
{
  for (const kind of ['capture', 'simulated']) { open(kind); walk(kind); } // warm-up (JIT)
  const rows = ['capture', 'simulated'].map((kind) => {
    const v = load(kind);
    return { kind, calls: v.calls.length, messages: v.messages.length, steps: v.steps.length,
      open: median(Array.from({ length: 9 }, () => open(kind))), walk: median(Array.from({ length: 9 }, () => walk(kind))) };
  });
  const [c, s] = rows as [typeof rows[0], typeof rows[0]];
  console.log('\n[bench] 1,000-call runs in the read-only run view (jsdom, medians of 9):');
  for (const r of rows) {
    console.log(`  ${r.kind.padEnd(9)} ${r.calls} calls, ${r.messages} messages, ${r.steps} steps: open ${r.open.toFixed(1)} ms, jump to a call ${r.walk.toFixed(2)} ms`);
  }
  console.log(`  capture / simulated: open ${(c.open / s.open).toFixed(2)}×, jump ${(c.walk / s.walk).toFixed(2)}×\n`);
}

describe('1,000-call runs in the read-only run view', () => {
  for (const kind of ['capture', 'simulated']) {
    bench(`${kind}: open`, () => { open(kind); }, { iterations: 10, time: 2000 });
    bench(`${kind}: 100 jumps from call to call`, () => { walk(kind); }, { iterations: 5, time: 2000 });
  }
});
