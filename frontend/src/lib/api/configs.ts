// Hook configs besides hooks.json (issues 9 and 10): jcli's hooks.yaml, PicoClaw's picoclaw.json,
// request-hooks.yaml, the root's .jcli/.picoclaw/.hookstudio files and hook scripts. Lint with the
// backend's validators, list a skill's hooks/ folder, and the hooks.yaml form's parse and edit.
import type { edit, registry, studio } from './models';
import type { Diagnostic, Refine } from './types';
import { rawJSON } from './types';
import { hasBackend, Studio } from './wails';

/** A file's kind: the host's (prompt, scenario, text) or one a hook system registers (FileKinds); the ones the
 *  editor has a form for are named, any other is the registry's. */
export type ConfigKind = 'hooks-json' | 'hooks-yaml' | 'hook-yaml' | 'picoclaw' | 'request-hooks' | 'claude-settings' | 'claude-skill' | 'prompt' | 'scenario' | 'text' | (string & {});
export type HookFile = Refine<studio.HookFile, { kind: ConfigKind }>;

/** app/services/edit.CommandHook: one hook of a hooks.yaml as written. */
export type CommandHook = edit.CommandHook;
export type CommandEvent = edit.CommandEvent;
export type CommandHooksEdit = Refine<studio.CommandHooksEdit, { diagnostics: Diagnostic[] }>;
/** An edit of a hooks.yaml, as the form makes it; edit.CommandHookOp on the wire (commandHookOp). */
export type CommandHookOp =
  | { kind: 'set'; event: string; index: number; key: string; value: string; delete?: boolean }
  | { kind: 'add'; event: string; fields: Record<string, string> }
  | { kind: 'delete'; event: string; index: number }
  | { kind: 'move'; event: string; index: number; to: number };
/** The Go struct the binding takes: every field, the ones an op does not use at their zero value (as JSON leaves them). */
export function commandHookOp(op: CommandHookOp): edit.CommandHookOp {
  const zero: edit.CommandHookOp = { kind: op.kind, event: op.event, index: 0, to: 0, key: '', value: '', delete: false, fields: {} };
  switch (op.kind) {
    case 'set': return { ...zero, index: op.index, key: op.key, value: op.value, delete: op.delete ?? false };
    case 'add': return { ...zero, fields: op.fields };
    case 'delete': return { ...zero, index: op.index };
    case 'move': return { ...zero, index: op.index, to: op.to };
  }
}

/** An event Claude Code knows: whether it fires in the simulated agent, has a matcher, reads "if". */
export type ClaudeEventInfo = studio.ClaudeEventInfo;
/** A Claude Code handler as written (type, command, args, prompt, url, timeout, if, once, and anything else kept). */
export type ClaudeHandler = Record<string, unknown>;
/** A matcher group: its matcher (absent: every one) and its handlers; other keys kept as written. */
export interface ClaudeGroup { matcher?: string; hooks: ClaudeHandler[]; [key: string]: unknown }
export type ClaudeHooks = Record<string, ClaudeGroup[]>;
/** studio.ClaudeHooksEdit: the hooks of a settings.json / hooks.json / SKILL.md text (JSON in Go), lines by "Event", "Event/g", "Event/g/h". */
export type ClaudeHooksEdit = Refine<studio.ClaudeHooksEdit, { hooks: ClaudeHooks; diagnostics: Diagnostic[] }>;
/** The calls the Claude Code form makes (a prop, so tests can fake it). */
export interface ClaudeApi {
  inspectClaudeHooks(file: string, text: string): Promise<ClaudeHooksEdit>;
  editClaudeHooks(file: string, text: string, hooks: ClaudeHooks): Promise<ClaudeHooksEdit>;
}

/** A kind of file the hook systems read (the backend's registry.FileKind): patterns are regular expressions over
 *  root-relative paths, tried in order; a kind only the folder can tell (a plugin's files) has none. */
export type FileKind = registry.FileKind;

/** The calls the config editor makes; components take it as a prop so tests can fake it. */
export interface ConfigApi {
  lintFile(file: string, text: string): Promise<Diagnostic[]>;
  hookFiles(skill: string): Promise<HookFile[]>;
  inspectCommandHooks(file: string, text: string): Promise<CommandHooksEdit>;
  editCommandHooks(file: string, text: string, op: CommandHookOp): Promise<CommandHooksEdit>;
  configSchema(kind: string): Promise<string>;
  /** the hook systems' starter files the open folder lacks (.codex/hooks.json, .gemini/settings.json, …) */
  newHookFiles(): Promise<NewHookFile[]>;
  /** create one of newHookFiles with its starter text (never over an existing file) */
  createHookFile(file: string): Promise<studio.FileSnapshot>;
}

/** A hook system's starter file the editor offers to create (registry.NewFile): its path, kind and system. */
export type NewHookFile = registry.NewFile;

const needsApp = (what: string) => Promise.reject(`${what} needs the Hook Studio backend`);

let kinds: { kind: ConfigKind; res: RegExp[]; schema: boolean }[] = [];
/** Match files against these kinds from now on (the backend's FileKinds; tests give the fixture). */
export function setFileKinds(list: FileKind[]) {
  kinds = list.map((k) => ({ kind: k.kind, res: k.patterns.map((p) => new RegExp(p)), schema: k.schema }));
}
/** Whether the registry has a JSON Schema of kind (ConfigSchema gives it) for the raw view's completion. */
export const hasSchema = (kind: ConfigKind): boolean => kinds.some((k) => k.kind === kind && k.schema);
let loading: Promise<void> | null = null;
/** Read the backend's file kinds (its hook-system registry) once; without the backend there are none (yet). */
export function loadFileKinds(): Promise<void> {
  if (!hasBackend()) return Promise.resolve();
  loading ??= Studio.FileKinds().then(setFileKinds, () => { loading = null; });
  return loading;
}
void loadFileKinds();

/** The kind of a root-relative file by the backend's file kinds (a plugin's hooks/hooks.json needs the backend's
 *  HookFile.kind: only the folder tells it from seed 000's); else scenario, prompt (.md) or text. */
export function configKind(file: string): ConfigKind {
  const k = kinds.find((k) => k.res.some((re) => re.test(file)));
  if (k) return k.kind;
  if (file.includes('/scenarios/')) return 'scenario';
  if (file.endsWith('.md')) return 'prompt';
  return 'text';
}

export const configApi: ConfigApi = {
  // without the backend (vite dev, tests) there is nothing to lint and no folder to list
  lintFile: (file, text) => (hasBackend() ? Studio.LintFile(file, text) as Promise<Diagnostic[]> : Promise.resolve([])),
  // the editor lists files before it names one: the file kinds are read by then
  hookFiles: (skill) => (hasBackend() ? loadFileKinds().then(() => Studio.HookFiles(skill) as Promise<HookFile[]>) : Promise.resolve([])),
  inspectCommandHooks: (file, text) => (hasBackend() ? Studio.InspectCommandHooks(file, text) as Promise<CommandHooksEdit> : needsApp('a hooks.yaml form')),
  editCommandHooks: (file, text, op) => (hasBackend() ? Studio.EditCommandHooks(file, text, commandHookOp(op)) as Promise<CommandHooksEdit> : needsApp('a hooks.yaml form')),
  configSchema: (kind) => (hasBackend() ? Studio.ConfigSchema(kind) : needsApp("a config's schema")),
  newHookFiles: () => (hasBackend() ? Studio.NewHookFiles() : Promise.resolve([])),
  createHookFile: (file) => (hasBackend() ? Studio.CreateHookFile(file) : needsApp('a new hook file')),
};

export const claudeApi: ClaudeApi = {
  inspectClaudeHooks: (file, text) => (hasBackend() ? rawJSON<ClaudeHooksEdit>(Studio.InspectClaudeHooks(file, text)) : needsApp('the Claude Code form')),
  editClaudeHooks: (file, text, hooks) => (hasBackend() ? rawJSON<ClaudeHooksEdit>(Studio.EditClaudeHooks(file, text, JSON.stringify(hooks))) : needsApp('the Claude Code form')),
};

/** The settings' user-level jcli hooks.yaml ("" none); null without the app (nothing to set). */
export function userHooksFile(): Promise<string | null> {
  return hasBackend() ? Studio.UserHooksFile() : Promise.resolve(null);
}
/** Change the user-level hooks.yaml ("" none): an absolute path; the folder is re-read. */
export function setUserHooksFile(file: string): Promise<unknown> {
  return hasBackend() ? Studio.SetUserHooksFile(file) : needsApp('the user-level hooks.yaml');
}

/** The settings' Claude Code user-level settings.json ("" none); null without the app. */
export function claudeUserSettings(): Promise<string | null> {
  return hasBackend() ? Studio.ClaudeUserSettings() : Promise.resolve(null);
}
/** Change Claude Code's user-level settings.json ("" none): an absolute path; the folder is re-read. */
export function setClaudeUserSettings(file: string): Promise<unknown> {
  return hasBackend() ? Studio.SetClaudeUserSettings(file) : needsApp("Claude Code's user-level settings");
}

/** An agent CLI's user-level hook file (Gemini CLI's settings.json) or folder (Copilot CLI's hooks). */
export type AgentUserFile = studio.UserFile;

/** The agent CLIs' user-level hook files the settings name; null without the app. */
export function agentUserFiles(): Promise<AgentUserFile[] | null> {
  return hasBackend() ? Studio.UserFiles() : Promise.resolve(null);
}
/** Change an agent CLI's user-level hook file or folder ("" none): an absolute path; the folder is re-read. */
export function setAgentUserFile(system: string, file: string): Promise<unknown> {
  return hasBackend() ? Studio.SetUserFile(system, file) : needsApp("an agent CLI's user-level hooks");
}
