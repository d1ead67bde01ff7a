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
    expect(systemAgent('gemini-cli')).toBe('gemini-cli');
    expect(systemAgent('command')).toBe('');
  });
  it('names a system the backend registers later as it says, one nobody registered by its name', () => {
    expect(systemLabel('codex')).toBe('codex');
    setHookSystems([...written, { name: 'codex', label: 'Codex', title: "Codex's hooks", agent: 'codex' }]);
    expect(systemLabel('codex')).toBe('Codex');
    expect(systemAgent('codex')).toBe('codex');
  });
});
