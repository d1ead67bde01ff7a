import { afterEach, describe, expect, it } from 'vitest';
import written from '../../fixtures/hook-systems.json';
import { setHookSystems, systemAgent, systemLabel } from './systems';

afterEach(() => setHookSystems(written));

describe('hook systems', () => {
  it('names each system by the registry: the seeds by their badge, the agent CLIs by name with their agent', () => {
    expect(systemLabel('command')).toBe('cmd');
    expect(systemLabel('claude-code')).toBe('Claude Code');
    expect(systemLabel('gemini-cli')).toBe('Gemini CLI');
    expect(systemLabel('copilot-cli')).toBe('Copilot CLI');
    expect(systemLabel('codex')).toBe('Codex');
    expect(systemLabel('qwen-code')).toBe('Qwen Code');
    expect(systemAgent('qwen-code')).toBe('qwen-code');
    expect(systemAgent('gemini-cli')).toBe('gemini-cli');
    expect(systemAgent('command')).toBe('');
  });
  it('names a system the backend registers later as it says, one nobody registered by its name', () => {
    expect(systemLabel('droid')).toBe('droid');
    setHookSystems([...written, { name: 'droid', label: 'Factory Droid', title: "Factory Droid's hooks", agent: 'droid' }]);
    expect(systemLabel('droid')).toBe('Factory Droid');
    expect(systemAgent('droid')).toBe('droid');
  });
});
