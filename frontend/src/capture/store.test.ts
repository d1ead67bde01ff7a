import { describe, expect, it } from 'vitest';
import { CaptureStore } from './store';

describe('CaptureStore', () => {
  it('opens and closes the panel', () => {
    const c = new CaptureStore();
    c.open();
    expect(c.get().open).toBe(true);
    c.close();
    expect(c.get().open).toBe(false);
  });
});
