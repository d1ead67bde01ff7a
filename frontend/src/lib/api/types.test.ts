import { describe, expect, it } from 'vitest';
import { hookOp, type HookOp } from './types';
import { commandHookOp, type CommandHookOp } from './configs';

// What Go decodes from the JSON the form used to send (absent fields at their zero value) is what
// the generated struct now carries: the same op on the wire.
describe('ops on the wire', () => {
  const hook = { name: 'n', file: 'n.md', timing: 'after_user_input', role: 'system', persistent: false } as const;
  it.each<[HookOp, object]>([
    [{ kind: 'add', hook }, { kind: 'add', index: 0, to: 0, name: '', fields: {}, hook }],
    [{ kind: 'update', index: 2, fields: { role: 'user', tool_filter: null } }, { kind: 'update', index: 2, to: 0, name: '', fields: { role: 'user', tool_filter: null } }],
    [{ kind: 'rename', index: 1, name: 'x' }, { kind: 'rename', index: 1, to: 0, name: 'x', fields: {} }],
    [{ kind: 'duplicate', index: 1 }, { kind: 'duplicate', index: 1, to: 0, name: '', fields: {} }],
    [{ kind: 'move', index: 3, to: 0 }, { kind: 'move', index: 3, to: 0, name: '', fields: {} }],
    [{ kind: 'delete', index: 4 }, { kind: 'delete', index: 4, to: 0, name: '', fields: {} }],
  ])('hooks.json %o', (op, wire) => {
    expect(hookOp(op)).toEqual(wire);
  });

  it.each<[CommandHookOp, object]>([
    [{ kind: 'set', event: 'pre_tool', index: 1, key: 'timeout', value: '5' }, { kind: 'set', event: 'pre_tool', index: 1, to: 0, key: 'timeout', value: '5', delete: false, fields: {} }],
    [{ kind: 'set', event: 'pre_tool', index: 0, key: 'filter', value: '', delete: true }, { kind: 'set', event: 'pre_tool', index: 0, to: 0, key: 'filter', value: '', delete: true, fields: {} }],
    [{ kind: 'add', event: 'stop', fields: { command: 'true' } }, { kind: 'add', event: 'stop', index: 0, to: 0, key: '', value: '', delete: false, fields: { command: 'true' } }],
    [{ kind: 'move', event: 'stop', index: 2, to: 1 }, { kind: 'move', event: 'stop', index: 2, to: 1, key: '', value: '', delete: false, fields: {} }],
  ])('hooks.yaml %o', (op, wire) => {
    expect(commandHookOp(op)).toEqual(wire);
  });
});
