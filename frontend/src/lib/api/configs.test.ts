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
});
