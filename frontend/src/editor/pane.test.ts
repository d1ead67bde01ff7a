import { describe, expect, it } from 'vitest';
import { EditorPaneStore } from './pane';

describe('EditorPaneStore', () => {
  it('opens a skill, asks for new hooks, closes', () => {
    const p = new EditorPaneStore();
    p.edit('demo');
    p.newHook('demo');
    p.newHook('demo');
    expect(p.get()).toMatchObject({ editing: 'demo', newHookRequest: 2 });
    p.close();
    expect(p.get().editing).toBeNull();
  });

  it("opens an executable hook's config at its line, a folder hook beside the first skill", () => {
    const p = new EditorPaneStore();
    p.openExecHook({ system: 'command', event: 'pre_tool', hook: 'guard', skill: 'guard-rails', source: 'guard-rails/hooks/hooks.yaml:12' }, 'demo');
    expect(p.get()).toMatchObject({ editing: 'guard-rails', openConfig: { file: 'guard-rails/hooks/hooks.yaml', line: 12 } });
    p.openExecHook({ system: 'command', event: 'stop', hook: 'notify', source: '.jcli/hooks.yaml' }, 'demo');
    expect(p.get()).toMatchObject({ editing: 'demo', openConfig: { file: '.jcli/hooks.yaml', line: undefined } });
    p.openExecHook({ system: 'claude-code', event: 'Stop', hook: 'h', source: '.claude/settings.json:4' }, undefined);
    expect(p.get().editing).toBe('');
    p.close();
    expect(p.get().openConfig).toBeUndefined();
  });

  it("asks for the offer of new hook files in the editor open now, else the folder's", () => {
    const p = new EditorPaneStore();
    p.newFile();
    expect(p.get()).toMatchObject({ editing: '', newFileRequest: 1 });
    p.edit('demo');
    p.newFile();
    expect(p.get()).toMatchObject({ editing: 'demo', newFileRequest: 1 });
    // an editor opened later does not repeat the requests made for this one
    p.close();
    p.edit('other');
    expect(p.get()).toMatchObject({ editing: 'other', newFileRequest: 0, newHookRequest: 0 });
  });
});
