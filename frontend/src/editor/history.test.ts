import { describe, expect, it } from 'vitest';
import {
  actionNames, addHook, applyMerge, canRedo, canUndo, COALESCE_MS, deleteHook, duplicateHook, getAction, moveHook, record, redo, renameHook,
  runAction, takeDisk, typeText, undo, updateHook, type ActionSpec, type Histories,
} from './history';
import { fakeApi, HOOKS, sampleDisk } from './testApi';

const names = (t: string) => (JSON.parse(t) as { hooks: { name: string }[] }).hooks.map((h) => h.name);

describe('history stacks', () => {
  const e = (before: string, after: string, at = 0, action = 'x') => ({ action, label: action, before, after, group: 0, at });
  it('undo returns the text before, redo the text after', () => {
    let h: Histories = {};
    h = record(h, 'a', e('1', '2'));
    h = record(h, 'a', e('2', '3', 5000));
    const u = undo(h, 'a')!;
    expect(u.text).toBe('2');
    expect(canRedo(u.histories, 'a')).toBe(true);
    const u2 = undo(u.histories, 'a')!;
    expect(u2.text).toBe('1');
    expect(undo(u2.histories, 'a')).toBeNull();
    const r = redo(u2.histories, 'a')!;
    expect(r.text).toBe('2');
  });
  it('a new action clears redo', () => {
    let h: Histories = record({}, 'a', e('1', '2'));
    h = undo(h, 'a')!.histories;
    expect(canRedo(h, 'a')).toBe(true);
    h = record(h, 'a', e('1', 'x'));
    expect(canRedo(h, 'a')).toBe(false);
  });
  it('stacks are per file and survive switching between files', () => {
    let h: Histories = record({}, 'a', e('a0', 'a1'));
    h = record(h, 'b', e('b0', 'b1'));
    const ub = undo(h, 'b')!;
    expect(ub.text).toBe('b0');
    expect(canUndo(ub.histories, 'a')).toBe(true);
    expect(undo(ub.histories, 'a')!.text).toBe('a0');
  });
  it('typing coalesces within the window, not across it', () => {
    let h: Histories = record({}, 'a', e('', 'h', 0, 'text.type'), true);
    h = record(h, 'a', e('h', 'he', 200, 'text.type'), true);
    expect(h.a!.undo).toHaveLength(1);
    h = record(h, 'a', e('he', 'hey', 200 + COALESCE_MS + 1, 'text.type'), true);
    expect(h.a!.undo).toHaveLength(2);
    expect(undo(h, 'a')!.text).toBe('he');
  });
  it('no-op edits are not recorded', () => {
    expect(record({}, 'a', e('same', 'same'))).toEqual({});
  });
});

describe('registered actions', () => {
  const actions: [ActionSpec<never>, unknown, (before: string, after: string) => void][] = [
    [addHook as ActionSpec<never>, { hook: { name: 'delta', file: 'delta.md', timing: 'after_user_input', role: 'system', persistent: false }, prompt: '' }, (_b, a) => expect(names(a)).toEqual(['alpha', 'beta', 'gamma', 'delta'])],
    [updateHook as ActionSpec<never>, { index: 0, fields: { role: 'user' } }, (_b, a) => expect(JSON.parse(a).hooks[0].role).toBe('user')],
    [renameHook as ActionSpec<never>, { index: 1, name: 'b2' }, (_b, a) => expect(names(a)[1]).toBe('b2')],
    [duplicateHook as ActionSpec<never>, { index: 0 }, (_b, a) => expect(names(a)).toEqual(['alpha', 'alpha-copy', 'beta', 'gamma'])],
    [moveHook as ActionSpec<never>, { index: 2, to: 0 }, (_b, a) => expect(names(a)).toEqual(['gamma', 'alpha', 'beta'])],
    [deleteHook as ActionSpec<never>, { index: 1 }, (_b, a) => expect(names(a)).toEqual(['alpha', 'gamma'])],
    [typeText as ActionSpec<never>, { text: '{"hooks": []}' }, (_b, a) => expect(a).toBe('{"hooks": []}')],
    [takeDisk as ActionSpec<never>, { text: 'disk' }, (_b, a) => expect(a).toBe('disk')],
    [applyMerge as ActionSpec<never>, { text: 'merged' }, (_b, a) => expect(a).toBe('merged')],
  ];
  it('every registered action is covered here', () => {
    expect(actionNames().sort()).toEqual(actions.map(([a]) => a.name).sort());
    expect(getAction('hooks.move')).toBe(moveHook);
  });
  it.each(actions.map((a) => [a[0].name, ...a] as const))('%s is undoable and redoable', async (_n, action, params, check) => {
    const disk = sampleDisk();
    const api = fakeApi(disk);
    const texts = { [HOOKS]: disk[HOOKS]! };
    const r = await runAction(action, params as never, { file: HOOKS, texts, api }, {});
    const after = r.texts[HOOKS]!;
    check(texts[HOOKS]!, after);
    expect(r.changed).toContain(HOOKS);
    const u = undo(r.histories, HOOKS)!;
    expect(u.text).toBe(disk[HOOKS]);
    expect(u.entry.action).toBe(action.name);
    expect(redo(u.histories, HOOKS)!.text).toBe(after);
  });
  it('adding a hook with a prompt records the new prompt file on its own stack', async () => {
    const disk = sampleDisk();
    const r = await runAction(addHook, { hook: { name: 'd', file: 'd.md', timing: 'after_user_input', role: 'system', persistent: false }, prompt: 'Hi' }, { file: HOOKS, texts: { [HOOKS]: disk[HOOKS]! }, api: fakeApi(disk) }, {});
    expect(r.changed).toEqual([HOOKS, 'demo/hooks/d.md']);
    expect(r.texts['demo/hooks/d.md']).toBe('Hi');
    expect(r.histories['demo/hooks/d.md']!.undo[0]!.group).toBe(r.histories[HOOKS]!.undo[0]!.group);
  });
  it('a rejected operation records nothing', async () => {
    const disk = sampleDisk();
    await expect(runAction(renameHook, { index: 0, name: 'beta' }, { file: HOOKS, texts: { [HOOKS]: disk[HOOKS]! }, api: fakeApi(disk) }, {})).rejects.toMatch(/duplicate-name/);
  });
});
