import { describe, expect, it } from 'vitest';
import execFixture from '../fixtures/exec-trace.json';
import type { Step, TraceView } from '../lib/api';
import { messagesAt, rowsAt, stepLabel, tag } from '../lib/api';
import {
  execHookKey, formatMs, hookCallsOf, isFailure, isSlow, lanesOf, llmCallOfStep, metricsOf, noticesOf, outcomeTone, pretty, stepDiff, toolCallOfStep,
} from './hookcalls';

const view = execFixture as unknown as TraceView;
const find = (hook: string, event?: string): Step => view.steps.find((s) => s.hook_call?.hook === hook && (!event || s.hook_call.event === event))!;

describe('hook calls of a view', () => {
  it('lists every invocation once, in step order', () => {
    const all = hookCallsOf(view);
    expect(all.map((e) => `${e.call.system}/${e.call.event}`)).toEqual([
      'process/process.start', 'process/hook.hello', 'command/pre_llm_request', 'process/hook.before_llm', 'command/pre_tool_execution',
      'command/post_llm_response', 'command/post_llm_response', 'process/hook.runtime_event', 'process/process.exit',
    ]);
    expect(hookCallsOf(view)).toBe(all); // cached per view
  });
  it('reads outcome, failure and slowness at a glance', () => {
    expect(outcomeTone('ok')).toBe('ok');
    expect(outcomeTone('modified')).toBe('changed');
    expect(['skipped', 'denied', 'stopped'].map((o) => outcomeTone(o as 'skipped'))).toEqual(['blocked', 'blocked', 'blocked']);
    expect(outcomeTone('timeout')).toBe('fail');
    expect(outcomeTone('blocked')).toBe('blocked'); // Claude Code's exit 2 / decision block
    expect(outcomeTone('asked')).toBe('asked');
    const lint = find('lint').hook_call!;
    expect(isFailure(lint)).toBe(true);
    expect(isSlow(find('branch').hook_call!)).toBe(true);
    expect(isSlow(find('guard').hook_call!)).toBe(false);
    expect(formatMs(3.4)).toBe('3.4 ms');
    expect(formatMs(1450)).toBe('1.45 s');
    expect(formatMs(250)).toBe('250 ms');
  });
  it('pretty-prints input and output, JSON strings included', () => {
    expect(pretty({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(pretty('{"b":2}')).toBe('{\n  "b": 2\n}');
    expect(pretty('not json')).toBe('not json');
    expect(pretty(undefined)).toBe('');
  });
  it('labels steps of the new kinds', () => {
    expect(stepLabel(find('guard'))).toBe('cmd pre_tool_execution guard');
    expect(stepLabel(view.steps.find((s) => s.kind === 'restore')!)).toMatch(/^restore/);
    expect(stepLabel({ ...find('guard'), kind: 'compact' })).toMatch(/compact/);
  });
});

describe('what a hook did', () => {
  it('a system prompt replaced for one call: replaced in place, then restored', () => {
    const branch = find('branch');
    const d = stepDiff(view, branch);
    expect(d.replaced).toHaveLength(1);
    expect(d.replaced[0]!.before.content).toBe('You are careful.');
    expect(d.replaced[0]!.after.content).toContain('git branch: main');
    expect(d.added).toHaveLength(0);
    // the list at the LLM call: the new prompt in the old one's place, first
    const call = view.calls[0]!;
    const list = messagesAt(view, call.step);
    expect(list[0]!.content).toContain('git branch');
    expect(list.filter((m) => m.origin === 'system_prompt')).toHaveLength(1);
    expect(list[0]!.edited_by).toBe('branch');
    // the restore step brings the original back
    const restore = view.steps.find((s) => s.kind === 'restore')!;
    const after = messagesAt(view, restore.index);
    expect(after[0]!.content).toBe('You are careful.');
    const rows = rowsAt(view, restore.index);
    expect(rows.find((r) => r.message.content === 'You are careful.')!.injected).toBe(true);
    expect(rows.find((r) => r.message.content.includes('git branch'))!.removedHere).toBe(true);
    // at the hook's own step the hidden original is a ghost row
    expect(rowsAt(view, branch.index).find((r) => r.message.id === d.replaced[0]!.before.id)!.removedHere).toBe(true);
  });
  it('finds the tool call a tool hook decided and the LLM call an LLM hook acted on', () => {
    const tc = toolCallOfStep(view, find('guard'))!;
    expect(tc).toMatchObject({ name: 'read_file', status: 'skipped', by: 'guard' });
    expect(toolCallOfStep(view, find('branch'))).toBeUndefined();
    expect(llmCallOfStep(view, find('branch'))!.index).toBe(0);
    const polished = llmCallOfStep(view, find('polish'))!;
    expect(polished.index).toBe(2);
    expect(polished.original_content).toBe('done');
    expect(polished.content).toBe('done (checked by polish)');
  });
  it('tags messages added by an executable hook with its system', () => {
    expect(tag({ origin: 'hook', hook: 'x', system: 'command' })).toBe('command:x');
    expect(tag({ origin: 'hook', hook: 'x' })).toBe('hook:x');
  });
});

describe('lanes, metrics, notices', () => {
  it('one lane per hook, process hooks first: the process lifetime from the HookCall list', () => {
    const lanes = lanesOf(view);
    expect(lanes[0]!.key).toBe('process/audit');
    expect(lanes[0]!.entries.map((e) => e.call.event)).toEqual(['process.start', 'hook.hello', 'hook.before_llm', 'hook.runtime_event', 'process.exit']);
    expect(lanes.map((l) => l.key)).toEqual(['process/audit', 'command/branch', 'command/guard', 'command/polish', 'command/lint']);
    expect(execHookKey(find('guard').hook_call!)).toBe('command/guard');
  });
  it('uses the backend metrics, or counts them from the invocations', () => {
    expect(metricsOf(view)).toEqual(view.exec!.metrics);
    const counted = metricsOf({ ...view, exec: { ...view.exec!, metrics: [] } });
    const lint = counted.find((m) => m.hook === 'lint')!;
    expect(lint).toMatchObject({ runs: 1, failures: 1, successes: 0 });
    expect(counted.some((m) => m.event === 'process.start')).toBe(false); // notifications are not runs
  });
  it('collects system_message notices', () => {
    expect(noticesOf(view)).toEqual([{ step: find('guard').index, hook: 'cmd pre_tool_execution guard', text: 'guard skipped read_file' }]);
  });
});
