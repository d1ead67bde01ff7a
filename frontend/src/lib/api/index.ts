// The simulator's and the editor's calls to the bound Studio service (the generated bindings of
// wails.ts); without the Go backend (plain `vite dev`/`vite preview`, tests) a fixture-backed mock.
import { hasBackend, on, Studio } from './wails';
import { createMockBackend } from './mock';
import { hookOp } from './types';
import type { FileSnapshot, HookOp, HooksEdit, HostBehaviour, MergeResult, SaveResult, SimProgress, StudioEventName, StudioEvents, StudioState, TraceView } from './types';

export * from './types';
export { hasBackend } from './wails';
export { messagesAt, rowsAt, listAt, carriedIn, LIST_CACHE_STEPS, tag, totalTokens, stepLabel, messageById } from './messages';
export type { MessageRow, ListAt } from './messages';
export { systemAgent, systemLabel } from './systems';
export { subagentOf, subagentsOfCall, subagentLabel } from './subagents';
export type { NestedRun, Subagent } from './subagents';

/** The Studio methods this module calls, in the frontend's types: the bound service or the mock. */
export interface StudioBinding {
  State(): Promise<StudioState>;
  OpenFolder(path: string): Promise<StudioState>;
  ChooseFolder(): Promise<StudioState>;
  SelectScenario(file: string): Promise<TraceView>;
  SetSkillEnabled(skill: string, enabled: boolean): Promise<TraceView>;
  Trace(): Promise<TraceView>;
  // editing (issue 4)
  SetDraft(file: string, content: string): Promise<TraceView>;
  DiscardDraft(file: string): Promise<TraceView>;
  OpenFile(file: string): Promise<FileSnapshot>;
  InspectHooks(file: string, text: string): Promise<HooksEdit>;
  EditHooks(file: string, text: string, op: HookOp): Promise<HooksEdit>;
  SaveFile(file: string, text: string, baseHash: string): Promise<SaveResult>;
  MergeFile(file: string, base: string, mine: string, theirs: string): Promise<MergeResult>;
  CreateSkill(name: string): Promise<StudioState>;
  ExportSkill(skill: string, zip: boolean): Promise<string>;
  HooksJSONText(skill: string): Promise<string>;
  ImportSkills(): Promise<StudioState>;
  HooksSchema(): Promise<string>;
  // executable hooks (issue 9)
  TrustFolder(): Promise<StudioState>;
  UntrustFolder(): Promise<StudioState>;
  HostBehaviour(): Promise<HostBehaviour>;
  SetHostBehaviour(mode: HostBehaviour): Promise<StudioState>;
  CancelSimulation(): Promise<void>;
  Progress(): Promise<SimProgress>;
}

// The generated functions answer in the generated types; these are the same values, read with
// what types.ts adds (enum values, nulls).
const bound: StudioBinding = {
  State: () => Studio.State() as Promise<StudioState>,
  OpenFolder: (path) => Studio.OpenFolder(path) as Promise<StudioState>,
  ChooseFolder: () => Studio.ChooseFolder() as Promise<StudioState>,
  SelectScenario: (file) => Studio.SelectScenario(file) as Promise<TraceView>,
  SetSkillEnabled: (skill, enabled) => Studio.SetSkillEnabled(skill, enabled) as Promise<TraceView>,
  Trace: () => Studio.Trace() as Promise<TraceView>,
  SetDraft: (file, content) => Studio.SetDraft(file, content) as Promise<TraceView>,
  DiscardDraft: (file) => Studio.DiscardDraft(file) as Promise<TraceView>,
  OpenFile: (file) => Studio.OpenFile(file),
  InspectHooks: (file, text) => Studio.InspectHooks(file, text) as Promise<HooksEdit>,
  EditHooks: (file, text, op) => Studio.EditHooks(file, text, hookOp(op)) as Promise<HooksEdit>,
  SaveFile: (file, text, baseHash) => Studio.SaveFile(file, text, baseHash) as Promise<SaveResult>,
  MergeFile: (file, base, mine, theirs) => Studio.MergeFile(file, base, mine, theirs),
  CreateSkill: (name) => Studio.CreateSkill(name) as Promise<StudioState>,
  ExportSkill: (skill, zip) => Studio.ExportSkill(skill, zip),
  HooksJSONText: (skill) => Studio.HooksJSONText(skill),
  ImportSkills: () => Studio.ImportSkills() as Promise<StudioState>,
  HooksSchema: () => Studio.HooksSchema(),
  TrustFolder: () => Studio.TrustFolder() as Promise<StudioState>,
  UntrustFolder: () => Studio.UntrustFolder() as Promise<StudioState>,
  HostBehaviour: () => Studio.HostBehaviour() as Promise<HostBehaviour>,
  SetHostBehaviour: (mode) => Studio.SetHostBehaviour(mode) as Promise<StudioState>,
  CancelSimulation: () => Studio.CancelSimulation(),
  Progress: () => Studio.Progress(),
};

let mock: ReturnType<typeof createMockBackend> | undefined;
function mockBackend() {
  mock ??= createMockBackend(typeof location === 'undefined' ? '' : location.search);
  return mock;
}

function studio(): StudioBinding {
  return hasBackend() ? bound : mockBackend().binding;
}

export const getState = (): Promise<StudioState> => studio().State();
export const openFolder = (path: string): Promise<StudioState> => studio().OpenFolder(path);
export const chooseFolder = (): Promise<StudioState> => studio().ChooseFolder();
export const selectScenario = (file: string): Promise<TraceView> => studio().SelectScenario(file);
export const setSkillEnabled = (skill: string, enabled: boolean): Promise<TraceView> => studio().SetSkillEnabled(skill, enabled);
export const getTrace = (): Promise<TraceView> => studio().Trace();

// ---- editing (issue 4) ----
export const setDraft = (file: string, content: string): Promise<TraceView> => studio().SetDraft(file, content);
export const discardDraft = (file: string): Promise<TraceView> => studio().DiscardDraft(file);
export const openFile = (file: string): Promise<FileSnapshot> => studio().OpenFile(file);
export const inspectHooks = (file: string, text: string): Promise<HooksEdit> => studio().InspectHooks(file, text);
export const editHooks = (file: string, text: string, op: HookOp): Promise<HooksEdit> => studio().EditHooks(file, text, op);
export const saveFile = (file: string, text: string, baseHash: string): Promise<SaveResult> => studio().SaveFile(file, text, baseHash);
export const mergeFile = (file: string, base: string, mine: string, theirs: string): Promise<MergeResult> => studio().MergeFile(file, base, mine, theirs);
export const createSkill = (name: string): Promise<StudioState> => studio().CreateSkill(name);
export const exportSkill = (skill: string, zip: boolean): Promise<string> => studio().ExportSkill(skill, zip);
export const hooksJSONText = (skill: string): Promise<string> => studio().HooksJSONText(skill);
export const importSkills = (): Promise<StudioState> => studio().ImportSkills();
export const hooksSchema = (): Promise<string> => studio().HooksSchema();

// ---- executable hooks (issue 9) ----
/** Trust the open folder's executable hooks (the commands StudioState.exec lists) and simulate with them. */
export const trustFolder = (): Promise<StudioState> => studio().TrustFolder();
/** Forget the open folder's trust: prompt hooks only. */
export const untrustFolder = (): Promise<StudioState> => studio().UntrustFolder();
/** What the folder's hosted hook systems follow where a program's code and its document disagree. */
export const hostBehaviour = (): Promise<HostBehaviour> => studio().HostBehaviour();
/** Write the folder's setting (.hookstudio/settings.yaml) and simulate again. */
export const setHostBehaviour = (mode: HostBehaviour): Promise<StudioState> => studio().SetHostBehaviour(mode);
/** Stop the simulation running in the background; what it recorded is shown, status cancelled. */
export const cancelSimulation = (): Promise<void> => studio().CancelSimulation();
export const getProgress = (): Promise<SimProgress> => studio().Progress();

/** Listen to a backend event; returns the function that stops listening. */
export function subscribe<E extends StudioEventName>(event: E, cb: (payload: StudioEvents[E]) => void): () => void {
  return hasBackend() ? on(event, cb) : mockBackend().on(event, cb as (p: unknown) => void);
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
