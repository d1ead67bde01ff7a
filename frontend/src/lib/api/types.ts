// The view contract of docs/trace-view.md, as TypeScript types. Keep in sync with app/bind.
export type Severity = 'error' | 'warning';
export interface Diagnostic { file: string; line: number; column: number; severity: Severity; code: string; message: string }
export type Timing = 'after_user_input' | 'before_planning' | 'before_each_agent' | 'before_first_agent' | 'after_tool_call';
export interface Hook {
  skill: string; name: string; file: string; timing: Timing; role: 'system' | 'user'; persistent: boolean;
  tool_filter?: string[]; content: string; line: number;
}
export interface Skill {
  name: string; dir: string; has_hooks: boolean; hooks: Hook[]; diagnostics: Diagnostic[]; broken: boolean; enabled: boolean;
  color: string;
}
export interface ScenarioInfo { file: string; name: string; requests: number; diagnostics: Diagnostic[]; valid: boolean }
export interface StudioState {
  root: string; root_missing: boolean; recent: string[]; skills: Skill[]; scenarios: ScenarioInfo[]; selected: string;
  errors: number; warnings: number; diagnostics: Diagnostic[];
  /** A problem worth a banner, e.g. a damaged settings file that was ignored. */
  notice?: string;
  /** Files with unsaved edits that the simulation shows (root-relative). Older backends omit it. */
  drafts?: string[];
}

export type Origin = 'system_prompt' | 'history' | 'user_input' | 'hook' | 'prompt' | 'assistant' | 'tool';
export type PromptName = 'planning' | 'first_step' | 'agent_loop';
export type Phase = 'direct' | 'planning' | 'agent';
export interface ToolCall { id: string; name: string; arguments?: Record<string, unknown>; result: string; error?: string }
export interface Message {
  id: number; role: string; content: string; origin: Origin;
  history_of?: Origin;
  hook?: string; skill?: string; timing?: Timing; persistent?: boolean;
  prompt?: PromptName; tool?: string; tool_call_id?: string; tool_calls?: ToolCall[];
  request: number;
  created: number;
  removed: number | null;
  tokens: number;
}
export type StepKind = 'build_messages' | 'inject' | 'remove' | 'inject_prompt' | 'remove_prompt' | 'llm_call' | 'append' | 'tool_call' | 'yield' | 'reply';
export interface Step {
  index: number; kind: StepKind; request: number; phase?: Phase; round: number | null;
  timing?: Timing; checkpoint?: number; prompt?: string; tool?: string;
  call: number | null;
  hooks?: string[];
  yield?: number;
  added: number[]; removed: number[];
}
export interface LLMCall {
  index: number; request: number; phase: Phase; round: number | null; step: number; content: string;
  tool_calls?: ToolCall[]; need_tool?: boolean; error?: string; tokens: number;
}
export interface RequestInfo {
  index: number; user: string; enabled_skills: string[] | null; calls: number[]; yielded: string[]; reply: string;
  first_step: number; last_step: number;
}
export interface Matrix { hooks: string[]; copies: number[][]; tokens: number[][]; totals: number[] }
export interface CallChange { call: number; added: number; removed: number; changed: number; summary: string }
export type TraceStatus = 'ok' | 'error' | 'cancelled' | 'max_rounds' | 'invalid' | 'none';
export interface TraceView {
  revision: number; scenario: string; file: string; status: TraceStatus; error?: string;
  diagnostics: Diagnostic[];
  hooks: Hook[]; messages: Message[]; steps: Step[]; calls: LLMCall[]; requests: RequestInfo[]; matrix: Matrix;
  changes: CallChange[];
  /** Unsaved editor text went into this simulation. */
  draft?: boolean;
  /** The selected scenario's tool names (suggestions for tool_filter). */
  tools?: string[];
}

/** Events the backend emits, with their payloads. */
export interface StudioEvents {
  'studio:state': StudioState;
  'studio:trace': TraceView;
}
export type StudioEventName = keyof StudioEvents;

/** The bound Go service (window.go.bind.Studio). */
export interface StudioBinding {
  State(): Promise<StudioState>;
  OpenFolder(path: string): Promise<StudioState>;
  ChooseFolder(): Promise<StudioState>;
  SelectScenario(file: string): Promise<TraceView>;
  SetSkillEnabled(skill: string, enabled: boolean): Promise<TraceView>;
  Trace(): Promise<TraceView>;
  // editing (issue 4); optional so that an older backend without them still binds
  SetDraft?(file: string, content: string): Promise<TraceView>;
  DiscardDraft?(file: string): Promise<TraceView>;
  OpenFile?(file: string): Promise<FileSnapshot>;
  InspectHooks?(file: string, text: string): Promise<HooksEdit>;
  EditHooks?(file: string, text: string, op: HookOp): Promise<HooksEdit>;
  SaveFile?(file: string, text: string, baseHash: string): Promise<SaveResult>;
  MergeFile?(file: string, base: string, mine: string, theirs: string): Promise<MergeResult>;
  CreateSkill?(name: string): Promise<StudioState>;
  ExportSkill?(skill: string, zip: boolean): Promise<string>;
  HooksJSONText?(skill: string): Promise<string>;
  ImportSkills?(): Promise<StudioState>;
  HooksSchema?(): Promise<string>;
}

// ---- editing (docs/trace-view.md, "Editing (issue 4)") ----
export interface FileSnapshot { file: string; content: string; hash: string; exists: boolean }
export interface HookFields { name: string; file: string; timing: Timing; role: 'system' | 'user'; persistent: boolean; tool_filter?: string[] }
export type HookOp =
  | { kind: 'add'; hook: HookFields }
  | { kind: 'update'; index: number; fields: { [K in keyof HookFields]?: HookFields[K] | null } & Record<string, unknown> }
  | { kind: 'rename'; index: number; name: string }
  | { kind: 'duplicate'; index: number; name?: string }
  | { kind: 'move'; index: number; to: number }
  | { kind: 'delete'; index: number };
export interface FilePos { line: number; column: number; offset?: number }
export interface HookEntry {
  index: number; name: string; file: string; timing: string; role: string; persistent: boolean; tool_filter?: string[] | null;
  ok: boolean;
  /** where the entry starts; the contract names line/column, the backend also sends pos */
  line?: number; column?: number; pos?: FilePos;
  fields: Record<string, FilePos>;
}
export interface HooksEdit { text: string; entries: HookEntry[]; diagnostics: Diagnostic[] }
export interface SaveResult { status: 'saved' | 'conflict' | 'deleted'; hash: string; theirs?: string; base?: string; diagnostics: Diagnostic[] }
export interface MergeConflict { kind: string; hook?: string; field?: string; line?: number; base?: string; mine?: string; theirs?: string }
export interface MergeResult { text: string; conflicts: MergeConflict[] }

export const TIMING_LABELS: Record<Timing, string> = {
  after_user_input: '① after_user_input',
  before_planning: '② before_planning',
  before_each_agent: '③ before_each_agent',
  before_first_agent: '④ before_first_agent',
  after_tool_call: '⑤ after_tool_call',
};
/** Root-relative path of a skill's hooks.json / one of its prompt files. */
export const hooksPath = (skill: string): string => `${skill}/hooks/hooks.json`;
export const promptPath = (skill: string, file: string): string => `${skill}/hooks/${file}`;
/** The skill a root-relative hooks/ path belongs to. */
export const skillOfPath = (file: string): string => file.split('/')[0] ?? '';

export const TIMINGS: readonly Timing[] = ['after_user_input', 'before_planning', 'before_each_agent', 'before_first_agent', 'after_tool_call'];
export const CHECKPOINT_GLYPHS = ['', '①', '②', '③', '④', '⑤'] as const;
export function checkpointOf(t: Timing): number {
  return TIMINGS.indexOf(t) + 1;
}
export function emptyTrace(): TraceView {
  return {
    revision: 0, scenario: '', file: '', status: 'none', diagnostics: [], hooks: [], messages: [], steps: [], calls: [],
    requests: [], matrix: { hooks: [], copies: [], tokens: [], totals: [] }, changes: [],
  };
}
