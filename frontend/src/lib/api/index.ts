// The only module that touches the Wails bindings (window.go.bind.Studio, window.runtime).
// Without them (plain `vite dev`/`vite preview`) it falls back to a fixture-backed mock.
import { binding, runtime } from './wails';
import { createMockBackend } from './mock';
import type { StudioBinding, StudioEventName, StudioEvents, StudioState, TraceView } from './types';

export * from './types';
export { messagesAt, rowsAt, tag, totalTokens, stepLabel, messageById } from './messages';
export type { MessageRow } from './messages';

let mock: ReturnType<typeof createMockBackend> | undefined;
function mockBackend() {
  mock ??= createMockBackend(typeof location === 'undefined' ? '' : location.search);
  return mock;
}

/** True when running inside the Wails window with the Go backend. */
export function hasBackend(): boolean {
  return binding() !== undefined;
}

function studio(): StudioBinding {
  return binding() ?? mockBackend().binding;
}

export const getState = (): Promise<StudioState> => studio().State();
export const openFolder = (path: string): Promise<StudioState> => studio().OpenFolder(path);
export const chooseFolder = (): Promise<StudioState> => studio().ChooseFolder();
export const selectScenario = (file: string): Promise<TraceView> => studio().SelectScenario(file);
export const setSkillEnabled = (skill: string, enabled: boolean): Promise<TraceView> => studio().SetSkillEnabled(skill, enabled);
export const getTrace = (): Promise<TraceView> => studio().Trace();

/** Listen to a backend event; returns the function that stops listening. */
export function subscribe<E extends StudioEventName>(event: E, cb: (payload: StudioEvents[E]) => void): () => void {
  const rt = runtime();
  if (binding() && rt) {
    const off = rt.EventsOn(event, (...data: unknown[]) => cb(data[0] as StudioEvents[E]));
    return typeof off === 'function' ? off : () => rt.EventsOff(event);
  }
  return mockBackend().on(event, cb as (p: unknown) => void);
}

/** Test/dev hook: push an event through the fallback backend. */
export function emitMockEvent<E extends StudioEventName>(event: E, payload: StudioEvents[E]): void {
  mockBackend().emit(event, payload);
}

/** Reset the fallback backend (tests). */
export function resetMockBackend(search = ''): void {
  mock = createMockBackend(search);
}
