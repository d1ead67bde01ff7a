// Test fixture: the seed diagrams' trace with expectation results on calls #1 and #3.
import seed from '../fixtures/seed-diagrams.json';
import type { TraceView } from '../lib/api';
import type { ExpectationResult } from '../lib/api/expect';

const base = { file: 'demo/scenarios/seed.yaml', column: 7, path: 'expect[0].sees' };

export const results: ExpectationResult[] = [
  { ...base, kind: 'sees', title: 'call #1 (request 1, planning) sees plan-style', request: 0, call: 0, expected: 'sees plan-style', actual: '1 copy: #4 hook:plan-style', pass: true, want: ['plan-style ×1 or more'], got: ['plan-style ×1'], line: 10 },
  { ...base, kind: 'sees', title: 'call #3 (request 1, agent round 1) sees memory ×2', request: 0, call: 2, expected: 'sees memory ×2', actual: '1 copy: #3 hook:memory', pass: false, want: ['memory ×2'], got: ['memory ×1'], at: [2], messages: ['system', 'user', 'hook:memory'], line: 12 },
  { ...base, kind: 'status', title: 'the run ends ok', request: null, call: null, expected: 'status ok', actual: 'status ok', pass: true, want: ['ok'], got: ['ok'], line: 20 },
];

export function viewWith(rs: ExpectationResult[] = results): TraceView {
  return { ...(seed as TraceView), expectations: rs } as TraceView;
}
