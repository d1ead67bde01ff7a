import { describe, expect, it } from 'vitest';
import { lineDiff } from './diff';

describe('lineDiff', () => {
  it.each([
    [['a'], ['a'], [' a']],
    [['memory ×2'], ['memory ×1'], ['-memory ×2', '+memory ×1']],
    [['#2 h.user', '#6 hook:x', '#4 h.assistant'], ['#2 h.user', '#4 h.assistant', '#6 hook:x'], [' #2 h.user', '-#6 hook:x', ' #4 h.assistant', '+#6 hook:x']],
    [[], ['memory'], ['+memory']],
    [['memory', 'plan'], [], ['-memory', '-plan']],
  ])('%j vs %j', (want, got, out) => {
    expect(lineDiff(want, got).map((l) => l.op + l.text)).toEqual(out);
  });
});
