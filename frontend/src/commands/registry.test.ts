import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRegistry, isTyping, keyLabel, matches, parseKey, type Command } from './registry';

const key = (k: string, mods: Partial<Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>> = {}, target: EventTarget = document.body) => {
  const e = new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true, ...mods });
  Object.defineProperty(e, 'target', { value: target });
  return e;
};

afterEach(() => { document.body.innerHTML = ''; });

describe('keys', () => {
  type Mods = Partial<Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>>;
  it.each<[string, string, Mods, boolean]>([
    ['F10', 'F10', {}, true],
    ['F10', 'F10', { shiftKey: true }, false],
    ['Shift+F10', 'F10', { shiftKey: true }, true],
    ['Mod+Shift+F5', 'F5', { ctrlKey: true, shiftKey: true }, true],
    ['Mod+Shift+F5', 'F5', { metaKey: true, shiftKey: true }, true],
    ['Mod+R', 'r', { ctrlKey: true }, true],
    ['Mod+R', 'R', { ctrlKey: true, shiftKey: true }, false],
    ['Mod+Shift+F', 'F', { ctrlKey: true, shiftKey: true }, true],
    ['Ctrl+H', 'h', { ctrlKey: true }, true],
    ['Ctrl+H', 'h', { metaKey: true }, false], // ⌘H hides the window on macOS
    ['Ctrl+H', 'h', { ctrlKey: true, altKey: true }, false],
    ['?', '?', { shiftKey: true }, true], // typed with Shift
    ['?', '?', { ctrlKey: true }, false],
    ['Esc', 'Escape', {}, true],
    ['Home', 'Home', { ctrlKey: true }, false],
  ])('%s on key %s with %j: %s', (spec, k, mods, want) => {
    expect(matches(key(k, mods), parseKey(spec))).toBe(want);
  });

  it('refuses an unknown modifier, and shows Mod as Ctrl', () => {
    expect(() => parseKey('Cmd+S')).toThrow(/unknown modifier "Cmd"/);
    expect(keyLabel('Mod+Shift+S')).toBe('Ctrl+Shift+S');
  });

  it('knows a text field from a checkbox', () => {
    const text = document.createElement('input');
    const box = document.createElement('input');
    box.type = 'checkbox';
    const div = document.createElement('div');
    div.contentEditable = 'true';
    Object.defineProperty(div, 'isContentEditable', { value: true });
    expect([isTyping(text), isTyping(box), isTyping(div), isTyping(document.createElement('textarea')), isTyping(document.body)]).toEqual([true, false, true, true, false]);
  });
});

describe('CommandRegistry', () => {
  const field = () => document.body.appendChild(document.createElement('input'));

  it('runs the first command whose key matches and that applies now, and prevents the default', () => {
    const a = vi.fn(), b = vi.fn();
    let open = false;
    const r = new CommandRegistry([
      { id: 'a', label: 'A', group: 'g', keys: ['F5'], when: () => open, run: a },
      { id: 'b', label: 'B', group: 'g', keys: ['F5'], run: b },
    ]);
    const e = key('F5');
    expect(r.handle(e)).toBe(true);
    expect([a.mock.calls.length, b.mock.calls.length, e.defaultPrevented]).toEqual([0, 1, true]);
    open = true;
    r.handle(key('F5'));
    expect(a).toHaveBeenCalledTimes(1);
    const none = key('F6');
    expect(r.handle(none)).toBe(false);
    expect(none.defaultPrevented).toBe(false);
  });

  it('in a text field: only commands marked typing, and never a plain character', () => {
    const help = vi.fn(), step = vi.fn();
    const r = new CommandRegistry([
      { id: 'help', label: 'Help', group: 'g', keys: ['?', 'F1'], typing: true, run: help },
      { id: 'step', label: 'Step', group: 'g', keys: ['F10'], run: step },
    ]);
    const input = field();
    r.handle(key('?', { shiftKey: true }, input));
    r.handle(key('F10', {}, input));
    expect([help.mock.calls.length, step.mock.calls.length]).toEqual([0, 0]);
    r.handle(key('F1', {}, input));
    r.handle(key('?', { shiftKey: true }));
    expect(help).toHaveBeenCalledTimes(2);
  });

  it('lists a widget\'s key without handling it', () => {
    const r = new CommandRegistry([{ id: 'complete', label: 'Complete', group: 'Editor', keys: ['Ctrl+Space'] }]);
    expect(r.handle(key(' ', { ctrlKey: true }))).toBe(false);
    expect(r.groups()).toEqual([{ group: 'Editor', commands: [r.byId('complete')] }]);
  });

  it('runs an early command before the focused element, once, and stops listening when undone', () => {
    const early = vi.fn(), late = vi.fn(), element = vi.fn();
    const r = new CommandRegistry([
      { id: 'save', label: 'Save', group: 'g', keys: ['Mod+S'], early: true, typing: true, run: early },
      { id: 'save-late', label: 'Save (late)', group: 'g', keys: ['Mod+S'], typing: true, run: late },
      { id: 'step', label: 'Step', group: 'g', keys: ['F10'], run: late },
    ]);
    const off = r.listen(window);
    const input = field();
    input.addEventListener('keydown', (e) => element(e.defaultPrevented));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true }));
    expect([early.mock.calls.length, late.mock.calls.length]).toEqual([1, 0]); // taken once, early
    expect(element).toHaveBeenCalledWith(true); // the element saw it handled
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F10', bubbles: true, cancelable: true }));
    expect(late).toHaveBeenCalledTimes(1);
    off();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F10', bubbles: true, cancelable: true }));
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('refuses one id twice and groups commands in order', () => {
    const c = (id: string, group: string): Command => ({ id, label: id, group, keys: [] });
    expect(() => new CommandRegistry([c('x', 'g'), c('x', 'g')])).toThrow(/registered twice/);
    const r = new CommandRegistry([c('a', 'one'), c('b', 'two'), c('c', 'one')]);
    expect(r.groups().map((g) => [g.group, g.commands.map((x) => x.id)])).toEqual([['one', ['a', 'c']], ['two', ['b']]]);
  });
});
