// Executable hook invocations as the view carries them (hook_call steps), and what the UI derives
// from them: outcome tones, the effect of a step on the message list, the tool call or LLM call a
// hook acted on, per-hook lanes for the lifetime timeline, per-hook counters. Works for every hook
// system (command, process, request): only the HookCall list is read.
import type { HookCall, HookMetric, HookOutcome, LLMCall, Message, Step, ToolCall, TraceView } from '../lib/api';
import { messageById, systemLabel } from '../lib/api';

/** A hook taking at least this long is flagged as slow. */
export const SLOW_MS = 1000;

export const isFailure = (hc: Pick<HookCall, 'outcome'>) => hc.outcome === 'error' || hc.outcome === 'timeout';
export const isSlow = (hc: Pick<HookCall, 'duration_ms'>) => hc.duration_ms >= SLOW_MS;

export type Tone = 'ok' | 'changed' | 'blocked' | 'asked' | 'fail';
/** How an outcome reads at a glance: fine, changed something, blocked the flow, handed the decision to the user, failed. */
export function outcomeTone(o: HookOutcome): Tone {
  switch (o) {
    case 'ok': return 'ok';
    case 'modified': return 'changed';
    case 'skipped': case 'denied': case 'stopped': case 'blocked': return 'blocked';
    case 'asked': return 'asked';
    case 'error': case 'timeout': return 'fail';
    default: return 'ok'; // an outcome a newer backend added
  }
}


/** "3.4 ms", "1.45 s" */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10000 ? 1 : 2)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  return `${ms.toFixed(1)} ms`;
}

/** JSON pretty-printed; a string holding JSON is parsed first; anything else as text. */
export function pretty(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') {
    try { return JSON.stringify(JSON.parse(v), null, 2); } catch { return v; }
  }
  return JSON.stringify(v, null, 2);
}

/** The breakpoint key of an executable hook: "system/hook". */
export const execHookKey = (hc: Pick<HookCall, 'system' | 'hook'>) => `${hc.system}/${hc.hook}`;
/** "cmd pre_tool_execution guard", "Gemini CLI AfterAgent ask-for-tests": the system as its badge names it */
export const hookCallTitle = (hc: Pick<HookCall, 'system' | 'event' | 'hook'>) => `${systemLabel(hc.system)} ${hc.event} ${hc.hook}`;

export interface HookCallEntry { step: number; index: number; request: number; call: HookCall }

const entriesCache = new WeakMap<TraceView, HookCallEntry[]>();
/** Every hook invocation of the run, once each (a retry_feedback step repeats its call), in step order. */
export function hookCallsOf(view: TraceView): HookCallEntry[] {
  let out = entriesCache.get(view);
  if (out) return out;
  out = [];
  const seen = new Set<number>();
  for (const s of view.steps) {
    if (s.kind !== 'hook_call' || !s.hook_call) continue;
    const index = s.hook_call_index ?? s.index;
    if (seen.has(index)) continue;
    seen.add(index);
    out.push({ step: s.index, index, request: s.request, call: s.hook_call });
  }
  entriesCache.set(view, out);
  return out;
}

export interface Replacement { before: Message; after: Message }
export interface StepDiff { added: Message[]; removed: Message[]; replaced: Replacement[] }

const place = (m: Message) => m.pos ?? m.id;
/** What a step did to the message list: added, removed, and replaced (removed + added at the same place). */
export function stepDiff(view: TraceView, step: Step): StepDiff {
  const added = step.added.map((id) => messageById(view, id)).filter((m): m is Message => !!m);
  const removed = step.removed.map((id) => messageById(view, id)).filter((m): m is Message => !!m);
  const replaced: Replacement[] = [];
  const rest = [...added];
  const gone: Message[] = [];
  for (const r of removed) {
    const k = rest.findIndex((a) => place(a) === place(r));
    if (k >= 0) replaced.push({ before: r, after: rest.splice(k, 1)[0]! });
    else gone.push(r);
  }
  return { added: rest, removed: gone, replaced };
}

/** The tool call a tool-point hook acted on: the next tool_call step (before/approve) or the last one (after). */
export function toolCallOfStep(view: TraceView, step: Step): ToolCall | undefined {
  const p = step.hook_call?.point;
  if (p !== 'before_tool' && p !== 'approve_tool' && p !== 'after_tool') return undefined;
  const dir = p === 'after_tool' ? -1 : 1;
  for (let i = step.index + dir; i >= 0 && i < view.steps.length; i += dir) {
    const s = view.steps[i]!;
    if (s.request !== step.request) break;
    if (s.kind === 'llm_call') break;
    if (s.kind !== 'tool_call') continue;
    const msg = s.added.map((id) => messageById(view, id)).find((m) => m?.origin === 'tool');
    const id = msg?.tool_call_id;
    for (const c of view.calls) {
      if (c.request !== step.request) continue;
      const tc = c.tool_calls?.find((t) => t.id === id);
      if (tc) return tc;
    }
    return undefined;
  }
  return undefined;
}

/** The LLM call an LLM-point hook acted on: the next llm_call step (before) or the last one (after). */
export function llmCallOfStep(view: TraceView, step: Step): LLMCall | undefined {
  const p = step.hook_call?.point;
  if (p !== 'before_llm' && p !== 'after_llm') return undefined;
  const dir = p === 'after_llm' ? -1 : 1;
  for (let i = step.index + dir; i >= 0 && i < view.steps.length; i += dir) {
    const s = view.steps[i]!;
    if (s.request !== step.request) break;
    if (s.kind === 'llm_call' && s.call !== null) return view.calls[s.call];
  }
  return undefined;
}

export interface Lane { key: string; system: string; hook: string; entries: HookCallEntry[] }
/** One lane per hook (system/hook), process hooks first, each in order of first appearance. */
export function lanesOf(view: TraceView): Lane[] {
  const byKey = new Map<string, Lane>();
  for (const e of hookCallsOf(view)) {
    const key = execHookKey(e.call);
    let l = byKey.get(key);
    if (!l) { l = { key, system: e.call.system, hook: e.call.hook, entries: [] }; byKey.set(key, l); }
    l.entries.push(e);
  }
  const lanes = [...byKey.values()];
  const rank = (s: string) => (s === 'process' ? 0 : s === 'command' ? 1 : 2);
  return lanes.sort((a, b) => rank(a.system) - rank(b.system));
}

/** Per-hook counters (seed 001's list) computed from the invocations, for backends that send none. */
export function metricsOf(view: TraceView): HookMetric[] {
  if (view.exec?.metrics && view.exec.metrics.length > 0) return view.exec.metrics;
  const byKey = new Map<string, HookMetric>();
  for (const { call } of hookCallsOf(view)) {
    if (call.notify) continue;
    const key = `${call.system}/${call.event}/${call.hook}`;
    let m = byKey.get(key);
    if (!m) { m = { system: call.system, event: call.event, hook: call.hook, runs: 0, successes: 0, failures: 0, skips: 0, total_ms: 0 }; byKey.set(key, m); }
    m.runs++;
    m.total_ms += call.duration_ms;
    if (isFailure(call)) m.failures++;
    else m.successes++;
  }
  return [...byKey.values()];
}

/** The system_message notices of a view, in order. */
export function noticesOf(view: TraceView): { step: number; hook: string; text: string }[] {
  return hookCallsOf(view).filter((e) => e.call.notice).map((e) => ({ step: e.step, hook: hookCallTitle(e.call), text: e.call.notice! }));
}
