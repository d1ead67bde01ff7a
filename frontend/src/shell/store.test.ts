import { afterEach, describe, expect, it } from 'vitest';
import { ShellStore } from './store';

afterEach(() => { localStorage.clear(); document.documentElement.removeAttribute('data-theme'); });

describe('ShellStore', () => {
  it('opens and closes the help, shows and dismisses an error', () => {
    const s = new ShellStore();
    s.openHelp();
    expect(s.get().help).toBe(true);
    s.closeHelp();
    s.fail(new Error('boom'));
    expect(s.get()).toMatchObject({ help: false, error: 'Error: boom' });
    s.dismissError();
    expect(s.get().error).toBeNull();
  });

  it('remembers the theme and puts it on the document', () => {
    const s = new ShellStore();
    expect(s.get().theme).toBe('system');
    s.setTheme('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(new ShellStore().get().theme).toBe('dark');
    s.setTheme('system');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });
});
