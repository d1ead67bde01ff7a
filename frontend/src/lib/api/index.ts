// The only module that touches the Wails bindings (window.go.bind.Studio, window.runtime).
// Without them (plain `vite dev`/`vite preview`) it falls back to a fixture-backed mock.
import { binding, runtime } from './wails';
import { createMockBackend } from './mock';
import type { FileSnapshot, HookOp, HooksEdit, HostBehaviour, MergeResult, SaveResult, SimProgress, StudioBinding, StudioEventName, StudioEvents, StudioState, TraceView } from './types';

export * from './types';
export { messagesAt, rowsAt, listAt, carriedIn, LIST_CACHE_STEPS, tag, totalTokens, stepLabel, messageById } from './messages';
export type { MessageRow, ListAt } from './messages';

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

// ---- editing (issue 4) ----
type EditMethod = 'SetDraft' | 'DiscardDraft' | 'OpenFile' | 'InspectHooks' | 'EditHooks' | 'SaveFile' | 'MergeFile' | 'CreateSkill' | 'ExportSkill' | 'HooksJSONText' | 'ImportSkills' | 'HooksSchema';
type ExecMethod = 'TrustFolder' | 'UntrustFolder' | 'HostBehaviour' | 'SetHostBehaviour' | 'CancelSimulation' | 'Progress';
function method<M extends EditMethod | ExecMethod>(name: M): NonNullable<StudioBinding[M]> {
  const s = studio();
  const f = s[name];
  if (typeof f !== 'function') {
    const missing = () => Promise.reject(`the backend has no ${name} yet (update Hook Studio)`);
    return missing as unknown as NonNullable<StudioBinding[M]>;
  }
  return (f as (...a: unknown[]) => unknown).bind(s) as NonNullable<StudioBinding[M]>;
}
/** True when the backend offers the editor's methods. */
export function canEdit(): boolean {
  const s = studio();
  return typeof s.OpenFile === 'function' && typeof s.EditHooks === 'function' && typeof s.SaveFile === 'function';
}
export const setDraft = (file: string, content: string): Promise<TraceView> => method('SetDraft')(file, content);
export const discardDraft = (file: string): Promise<TraceView> => method('DiscardDraft')(file);
export const openFile = (file: string): Promise<FileSnapshot> => method('OpenFile')(file);
export const inspectHooks = (file: string, text: string): Promise<HooksEdit> => method('InspectHooks')(file, text);
export const editHooks = (file: string, text: string, op: HookOp): Promise<HooksEdit> => method('EditHooks')(file, text, op);
export const saveFile = (file: string, text: string, baseHash: string): Promise<SaveResult> => method('SaveFile')(file, text, baseHash);
export const mergeFile = (file: string, base: string, mine: string, theirs: string): Promise<MergeResult> => method('MergeFile')(file, base, mine, theirs);
export const createSkill = (name: string): Promise<StudioState> => method('CreateSkill')(name);
export const exportSkill = (skill: string, zip: boolean): Promise<string> => method('ExportSkill')(skill, zip);
export const hooksJSONText = (skill: string): Promise<string> => method('HooksJSONText')(skill);
export const importSkills = (): Promise<StudioState> => method('ImportSkills')();
export const hooksSchema = (): Promise<string> => method('HooksSchema')();

// ---- executable hooks (issue 9) ----
/** Trust the open folder's executable hooks (the commands StudioState.exec lists) and simulate with them. */
export const trustFolder = (): Promise<StudioState> => method('TrustFolder')();
/** Forget the open folder's trust: prompt hooks only. */
export const untrustFolder = (): Promise<StudioState> => method('UntrustFolder')();
/** What the folder's hosted hook systems follow where a program's code and its document disagree. */
export const hostBehaviour = (): Promise<HostBehaviour> => method('HostBehaviour')();
/** Write the folder's setting (.hookstudio/settings.yaml) and simulate again. */
export const setHostBehaviour = (mode: HostBehaviour): Promise<StudioState> => method('SetHostBehaviour')(mode);
/** Stop the simulation running in the background; what it recorded is shown, status cancelled. */
export const cancelSimulation = (): Promise<void> => method('CancelSimulation')();
export const getProgress = (): Promise<SimProgress> => method('Progress')();

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

/** Test/dev hook: change a file on the fallback backend's in-memory disk (undefined deletes it). */
export function writeMockFile(file: string, text: string | undefined): void {
  mockBackend().writeDisk(file, text);
}
/** Test/dev hook: a file as the fallback backend's disk holds it. */
export function readMockFile(file: string): string | undefined {
  return mockBackend().files.get(file);
}

/** Reset the fallback backend (tests). */
export function resetMockBackend(search = ''): void {
  mock = createMockBackend(search);
}
