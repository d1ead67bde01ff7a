// Breakpoints as the debugger names them ("checkpoint:3", "call:*", "exec:command/guard"), and which
// one stops at a step: the same rules the Go side follows for a stored run served in pages
// (studio.HitAt), so a continue stops at the same step whichever side looks for it.
import type { Step } from './types';

export type Breakpoint =
  | { kind: 'checkpoint'; key: number } // 1..5 = ①..⑤: stops at inject steps of that checkpoint
  | { kind: 'hook'; key: string } // "skill/name": stops where that hook's message is injected
  | { kind: 'call'; key: number | '*' } // an LLM call index, or every LLM call
  // executable hooks: an event (an engine point like "before_tool", or a native event or method
  // like "pre_tool_execution" / "hook.before_llm"), or one hook ("system/name", e.g. "command/guard")
  | { kind: 'event'; key: string }
  | { kind: 'exec'; key: string };

export type BreakpointId = string;
export const bpId = (b: Breakpoint): BreakpointId => `${b.kind}:${b.key}`;

export function parseBpId(id: BreakpointId): Breakpoint | null {
  const i = id.indexOf(':');
  const kind = id.slice(0, i), key = id.slice(i + 1);
  if (kind === 'checkpoint') return { kind, key: Number(key) };
  if (kind === 'hook') return { kind, key };
  if (kind === 'call') return { kind, key: key === '*' ? '*' : Number(key) };
  if (kind === 'event' || kind === 'exec') return key ? { kind, key } : null;
  return null;
}

/** The breakpoint that stops at step s, or null. */
export function hitAt(step: Step | undefined, breakpoints: readonly BreakpointId[]): BreakpointId | null {
  if (!step || breakpoints.length === 0) return null;
  for (const id of breakpoints) {
    const b = parseBpId(id);
    if (!b) continue;
    switch (b.kind) {
      case 'checkpoint':
        if (step.kind === 'inject' && step.checkpoint === b.key) return id;
        break;
      case 'hook':
        if (step.kind === 'inject' && step.hooks?.includes(b.key)) return id;
        break;
      case 'call':
        if (step.kind === 'llm_call' && (b.key === '*' || step.call === b.key)) return id;
        break;
      case 'event':
        // Claude Code names a tool event with the tool ("PreToolUse:Bash"): the bare event breaks on every tool
        if (step.kind === 'hook_call' && step.hook_call && (step.hook_call.point === b.key || step.hook_call.event === b.key || step.hook_call.event.startsWith(`${b.key}:`))) return id;
        break;
      case 'exec':
        if (step.kind === 'hook_call' && step.hook_call && `${step.hook_call.system}/${step.hook_call.hook}` === b.key) return id;
        break;
    }
  }
  return null;
}
