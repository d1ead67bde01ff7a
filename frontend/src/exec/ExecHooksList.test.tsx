import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { HookInfo } from '../lib/api';
import { ExecHooksList } from './ExecHooksList';

const inline = `printf '%s\\n' '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}'`;
const hooks: HookInfo[] = [
  { system: 'claude-code', event: 'PreToolUse', hook: 'guard.sh', skill: 'claude-guard', source: 'claude-guard/hooks/hooks.json:6', detail: 'Bash · ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh' },
  // Claude Code names an inline command by the command line cut to 48 characters
  { system: 'claude-code', event: 'PreToolUse', hook: `${inline.slice(0, 47)}…`, skill: 'claude-guard', source: 'claude-guard/hooks/hooks.json:14', detail: `Write · ${inline}` },
];

describe('ExecHooksList', () => {
  it('names a hook by its script or its command cut, the whole command in its tooltip, and opens its config', () => {
    const onOpen = vi.fn();
    render(<ExecHooksList hooks={hooks} breakpoints={[]} notRun="folder not trusted" onToggleBreakpoint={() => {}} onOpen={onOpen} />);
    const names = [...document.querySelectorAll('.exec-hook .hook-name')] as HTMLElement[];
    expect(names.map((n) => n.textContent)).toEqual(['guard.sh', hooks[1]!.hook]);
    expect(names[1]!.title).toBe(`Write · ${inline}\nedit claude-guard/hooks/hooks.json:14`);
    fireEvent.click(names[1]!);
    expect(onOpen).toHaveBeenCalledWith(hooks[1]);
    expect(screen.getAllByText('not run')).toHaveLength(2);
  });
});
