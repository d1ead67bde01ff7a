import { describe, expect, it } from 'vitest';
import { configKind } from './configs';

describe('configKind', () => {
  it('names every hook config as the backend does, jcli\'s HOOK.yaml included', () => {
    expect(configKind('.jcli/hooks.yaml')).toBe('hooks-yaml');
    expect(configKind('guard-rails/hooks/hooks.yaml')).toBe('hooks-yaml');
    expect(configKind('.jcli/hooks/guard/HOOK.yaml')).toBe('hook-yaml');
    expect(configKind('.jcli/hooks/guard/HOOK.yml')).toBe('hook-yaml');
    expect(configKind('.jcli/hooks/a/b/HOOK.yaml')).toBe('text');
    expect(configKind('.jcli/hooks/.hidden/HOOK.yaml')).toBe('text');
    expect(configKind('plugin-tools/hooks/picoclaw.json')).toBe('picoclaw');
  });
  it('names Claude Code\'s project files as studio.ConfigKind does; a plugin\'s hooks.json needs the backend\'s kind', () => {
    expect(configKind('.claude/settings.json')).toBe('claude-settings');
    expect(configKind('.claude/settings.local.json')).toBe('claude-settings');
    expect(configKind('.claude/skills/review/SKILL.md')).toBe('claude-skill');
    expect(configKind('.claude/skills/.hidden/SKILL.md')).toBe('prompt');
    expect(configKind('.claude/skills/a/b/SKILL.md')).toBe('prompt');
    expect(configKind('.claude/hooks/guard.sh')).toBe('text');
    expect(configKind('plug/hooks/hooks.json')).toBe('hooks-json');
  });
});
