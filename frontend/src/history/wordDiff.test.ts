import { describe, expect, it } from 'vitest';
import { wordDiff } from './wordDiff';

describe('wordDiff', () => {
  it('marks inserted and deleted words, keeps the rest', () => {
    const d = wordDiff('read the whole file first', 'read the rest of the file first');
    expect(d.filter((p) => p.op === 'del').map((p) => p.text.trim())).toEqual(['whole']);
    expect(d.filter((p) => p.op === 'ins').map((p) => p.text).join('')).toContain('rest of the');
    expect(d.filter((p) => p.op !== 'ins').map((p) => p.text).join('')).toBe('read the whole file first');
    expect(d.filter((p) => p.op !== 'del').map((p) => p.text).join('')).toBe('read the rest of the file first');
  });
  it('equal texts are one piece; empty sides work', () => {
    expect(wordDiff('a b', 'a b')).toEqual([{ text: 'a b', op: 'same' }]);
    expect(wordDiff('', 'new')).toEqual([{ text: 'new', op: 'ins' }]);
    expect(wordDiff('old', '')).toEqual([{ text: 'old', op: 'del' }]);
  });
});
