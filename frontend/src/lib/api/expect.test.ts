import { afterEach, describe, expect, it, vi } from 'vitest';
import { addExpectation, callState, canAddExpectation, expectationCounts, expectationsOf, resultsForCall } from './expect';
import { results, viewWith } from '../../expect/fixture';
import { fakeBackend, removeFakeBackend } from './fakeBackend';

afterEach(() => {
  removeFakeBackend();
});

describe('expectation results', () => {
  it('reads them from the view, none from an older backend', () => {
    expect(expectationsOf(viewWith())).toHaveLength(3);
    expect(expectationsOf({ ...viewWith(), expectations: undefined } as never)).toEqual([]);
    expect(expectationsOf(null)).toEqual([]);
  });

  it('groups them by call and counts them', () => {
    const v = viewWith();
    expect(resultsForCall(v, 2).map((r) => r.line)).toEqual([12]);
    expect(callState(v, 0)).toBe('pass');
    expect(callState(v, 2)).toBe('fail');
    expect(callState(v, 4)).toBeNull();
    expect(expectationCounts(results)).toEqual({ passed: 2, failed: 1 });
  });
});

describe('addExpectation', () => {
  it('calls window.go.bind.Studio.AddExpectation', async () => {
    const AddExpectation = vi.fn(async () => ({ status: 'saved' as const, hash: 'h', diagnostics: [] }));
    fakeBackend({ Studio: { AddExpectation } });
    expect(canAddExpectation()).toBe(true);
    expect((await addExpectation(2, 7)).status).toBe('saved');
    expect(AddExpectation).toHaveBeenCalledWith(2, 7);
  });

  it('refuses without the backend', async () => {
    expect(canAddExpectation()).toBe(false);
    await expect(addExpectation(0, 0)).rejects.toMatch(/backend/);
  });
});
