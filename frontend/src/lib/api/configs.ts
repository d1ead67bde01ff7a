// Hook configs besides hooks.json (issues 9 and 10): jcli's hooks.yaml, PicoClaw's picoclaw.json,
// request-hooks.yaml, the root's .jcli/.picoclaw/.hookstudio files and hook scripts. Lint with the
// backend's validators, list a skill's hooks/ folder, and the hooks.yaml form's parse and edit.
import { binding } from './wails';
import type { Diagnostic } from './types';

export type ConfigKind = 'hooks-json' | 'hooks-yaml' | 'hook-yaml' | 'picoclaw' | 'request-hooks' | 'claude-settings' | 'claude-skill' | 'prompt' | 'scenario' | 'text';
export interface HookFile { file: string; kind: ConfigKind; exists: boolean }

/** hookstudio/app/services/edit.CommandHook: one hook of a hooks.yaml as written. */
export interface CommandHook { index: number; line: number; fields: Record<string, string>; filter: Record<string, string>; unknown: string[] }
export interface CommandEvent { event: string; line: number; hooks: CommandHook[] }
export interface CommandHooksEdit { text: string; editable: boolean; error?: string; events: CommandEvent[]; diagnostics: Diagnostic[] }
export type CommandHookOp =
  | { kind: 'set'; event: string; index: number; key: string; value: string; delete?: boolean }
  | { kind: 'add'; event: string; fields: Record<string, string> }
  | { kind: 'delete'; event: string; index: number }
  | { kind: 'move'; event: string; index: number; to: number };

/** An event Claude Code knows (studio.ClaudeEventInfo): whether it fires in the simulated agent, has a matcher, reads "if". */
export interface ClaudeEventInfo { name: string; fires: boolean; matcher: boolean; if: boolean }
/** A Claude Code handler as written (type, command, args, prompt, url, timeout, if, once, and anything else kept). */
export type ClaudeHandler = Record<string, unknown>;
/** A matcher group: its matcher (absent: every one) and its handlers; other keys kept as written. */
export interface ClaudeGroup { matcher?: string; hooks: ClaudeHandler[]; [key: string]: unknown }
export type ClaudeHooks = Record<string, ClaudeGroup[]>;
/** studio.ClaudeHooksEdit: the hooks of a settings.json / hooks.json / SKILL.md text, lines by "Event", "Event/g", "Event/g/h". */
export interface ClaudeHooksEdit {
  text: string; editable: boolean; error?: string; hooks: ClaudeHooks; lines: Record<string, number>;
  events: ClaudeEventInfo[]; diagnostics: Diagnostic[];
}
/** The calls the Claude Code form makes (a prop, so tests can fake it). */
export interface ClaudeApi {
  inspectClaudeHooks(file: string, text: string): Promise<ClaudeHooksEdit>;
  editClaudeHooks(file: string, text: string, hooks: ClaudeHooks): Promise<ClaudeHooksEdit>;
}

/** A kind of file the hook systems read (the backend's registry.FileKind); patterns are regular expressions over
 *  root-relative paths, tried in order. A kind only the folder can tell (a plugin's files) has none. */
export interface FileKind { kind: string; system: string; role: string; level: string; patterns: string[]; schema: boolean }

interface ConfigBinding {
  FileKinds?(): Promise<FileKind[]>;
  LintFile?(file: string, text: string): Promise<Diagnostic[]>;
  HookFiles?(skill: string): Promise<HookFile[]>;
  InspectCommandHooks?(file: string, text: string): Promise<CommandHooksEdit>;
  EditCommandHooks?(file: string, text: string, op: CommandHookOp): Promise<CommandHooksEdit>;
  ConfigSchema?(kind: string): Promise<string>;
  UserHooksFile?(): Promise<string>;
  SetUserHooksFile?(file: string): Promise<unknown>;
  ClaudeUserSettings?(): Promise<string>;
  InspectClaudeHooks?(file: string, text: string): Promise<ClaudeHooksEdit>;
  EditClaudeHooks?(file: string, text: string, hooks: string): Promise<ClaudeHooksEdit>;
  SetClaudeUserSettings?(file: string): Promise<unknown>;
}

/** The calls the config editor makes; components take it as a prop so tests can fake it. */
export interface ConfigApi {
  lintFile(file: string, text: string): Promise<Diagnostic[]>;
  hookFiles(skill: string): Promise<HookFile[]>;
  inspectCommandHooks(file: string, text: string): Promise<CommandHooksEdit>;
  editCommandHooks(file: string, text: string, op: CommandHookOp): Promise<CommandHooksEdit>;
  configSchema(kind: string): Promise<string>;
}

const b = (): ConfigBinding | undefined => binding() as ConfigBinding | undefined;
const missing = (name: string) => Promise.reject(`the backend has no ${name} yet (update Hook Studio)`);

let kinds: { kind: ConfigKind; res: RegExp[] }[] = [];
/** Match files against these kinds from now on (the backend's FileKinds; tests give the fixture). */
export function setFileKinds(list: FileKind[]) {
  kinds = list.map((k) => ({ kind: k.kind as ConfigKind, res: k.patterns.map((p) => new RegExp(p)) }));
}
let loading: Promise<void> | null = null;
/** Read the backend's file kinds (its hook-system registry) once; without the backend there are none (yet). */
export function loadFileKinds(): Promise<void> {
  const f = b()?.FileKinds;
  if (!f) return Promise.resolve();
  loading ??= f.call(b()).then(setFileKinds, () => { loading = null; });
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
  lintFile: (file, text) => (b()?.LintFile ? b()!.LintFile!(file, text) : Promise.resolve([])),
  // the editor lists files before it names one: the file kinds are read by then
  hookFiles: (skill) => (b()?.HookFiles ? loadFileKinds().then(() => b()!.HookFiles!(skill)) : Promise.resolve([])),
  inspectCommandHooks: (file, text) => (b()?.InspectCommandHooks ? b()!.InspectCommandHooks!(file, text) : missing('InspectCommandHooks')),
  editCommandHooks: (file, text, op) => (b()?.EditCommandHooks ? b()!.EditCommandHooks!(file, text, op) : missing('EditCommandHooks')),
  configSchema: (kind) => (b()?.ConfigSchema ? b()!.ConfigSchema!(kind) : missing('ConfigSchema')),
};

export const claudeApi: ClaudeApi = {
  inspectClaudeHooks: (file, text) => (b()?.InspectClaudeHooks ? b()!.InspectClaudeHooks!(file, text) : missing('InspectClaudeHooks')),
  editClaudeHooks: (file, text, hooks) => (b()?.EditClaudeHooks ? b()!.EditClaudeHooks!(file, text, JSON.stringify(hooks)) : missing('EditClaudeHooks')),
};

/** The settings' user-level jcli hooks.yaml ("" none); null without the app (nothing to set). */
export function userHooksFile(): Promise<string | null> {
  const f = b()?.UserHooksFile;
  return f ? f.call(b()) : Promise.resolve(null);
}
/** Change the user-level hooks.yaml ("" none): an absolute path; the folder is re-read. */
export function setUserHooksFile(file: string): Promise<unknown> {
  const f = b()?.SetUserHooksFile;
  return f ? f.call(b(), file) : missing('SetUserHooksFile');
}

/** The settings' Claude Code user-level settings.json ("" none); null without the app. */
export function claudeUserSettings(): Promise<string | null> {
  const f = b()?.ClaudeUserSettings;
  return f ? f.call(b()) : Promise.resolve(null);
}
/** Change Claude Code's user-level settings.json ("" none): an absolute path; the folder is re-read. */
export function setClaudeUserSettings(file: string): Promise<unknown> {
  const f = b()?.SetClaudeUserSettings;
  return f ? f.call(b(), file) : missing('SetClaudeUserSettings');
}
