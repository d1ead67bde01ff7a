// Tests: the Ops service faked — calls recorded, events pushed by the test.
import { vi } from 'vitest';
import type { OpsEvents } from '../lib/api/ops';
import type { OpsApi } from './store';

export function fakeOps() {
  const listeners = new Map<string, (p: unknown) => void>();
  const api = {
    hasOps: () => true,
    startControlledRun: vi.fn(() => Promise.resolve()),
    pauseRun: vi.fn(() => Promise.resolve()),
    resumeRun: vi.fn(() => Promise.resolve()),
    cancelControlledRun: vi.fn(() => Promise.resolve()),
    decideApproval: vi.fn((): Promise<void> => Promise.resolve()),
    onOpsEvent: (name: string, cb: (p: unknown) => void) => { listeners.set(name, cb); return () => { listeners.delete(name); }; },
  };
  const emit = <E extends keyof OpsEvents>(name: E, p: OpsEvents[E]) => listeners.get(name)?.(p);
  return { api: api as unknown as OpsApi & typeof api, emit, listeners };
}
