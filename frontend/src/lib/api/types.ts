// The view contract of docs/trace-view.md, as TypeScript types. Keep in sync with app/services/bind.
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
  /** The folder's executable hooks and whether it is trusted to run them. Older backends omit it. */
  exec?: ExecState;
  /** Orders the snapshots: it grows with each one (the mock omits it). */
  seq?: number;
}

/** The newer of two snapshots of the backend's state (by seq): a call's answer can arrive after the event of a newer one. */
export function newer<T extends { seq?: number }>(prev: T | null, next: T): T {
  return prev?.seq !== undefined && next.seq !== undefined && next.seq < prev.seq ? prev : next;
}

// ---- executable hooks (issue 9; process and request hooks of issues 10/11 use the same shapes) ----
export type HookSystem = 'command' | 'process' | 'request' | 'claude-code' | (string & {});
/** Engine points where executable hooks fire (design-hooks.md's flow). */
export type HookPoint =
  | 'session_start' | 'before_send' | 'after_send' | 'before_llm' | 'after_llm' | 'before_tool' | 'approve_tool'
  | 'after_tool' | 'after_tools' | 'stop' | 'before_compact' | 'after_compact' | 'session_end';
export const HOOK_POINTS: readonly HookPoint[] = [
  'session_start', 'before_send', 'after_send', 'before_llm', 'after_llm', 'before_tool', 'approve_tool', 'after_tool', 'after_tools',
  'stop', 'before_compact', 'after_compact', 'session_end',
];
export type HookOutcome = 'ok' | 'modified' | 'error' | 'timeout' | 'skipped' | 'denied' | 'stopped' | 'blocked' | 'asked';
/** One invocation of an executable hook (engine.HookCall). */
export interface HookCall {
  system: HookSystem; event: string; point: HookPoint; hook: string; source?: string; outcome: HookOutcome;
  /** exactly what the hook received (stdin JSON, JSON-RPC request) */
  input?: unknown;
  /** what it answered, when JSON */
  output?: unknown;
  /** what it printed, when not JSON */
  output_text?: string;
  stderr?: string; exit_code?: number; rpc_error?: string; error?: string;
  duration_ms: number; reused?: boolean; notify?: boolean;
  changes?: string[]; warnings?: string[]; notice?: string; truncated?: boolean;
  /** what the other host behaviour (the program's code or its document) would do with this call */
  other?: string;
}
/** An executable hook as declared (engine.HookInfo). */
export interface HookInfo { system: HookSystem; event: string; hook: string; skill?: string; source: string; detail?: string }
/** One command that would run, for the trust prompt. */
export interface ExecCommand { source: string; event: string; hook: string; skill?: string; command: string; dir: string }
export interface ExecState {
  present: boolean; trusted: boolean; changed: boolean; files: string[]; commands: ExecCommand[]; hooks: HookInfo[]; error?: string;
}
/** One executable hook's counters over a run (engine.HookMetric). */
export interface HookMetric { system: HookSystem; event: string; hook: string; source?: string; runs: number; successes: number; failures: number; skips: number; total_ms: number }
export interface ExecRun { ran: boolean; not_run?: string; hooks: HookInfo[]; metrics?: HookMetric[]; duration_ms: number }
/** A simulation with executable hooks while it runs in the background. */
export interface SimProgress {
  active: boolean; file: string; started_ms: number; elapsed_ms: number; steps: number; hook_calls: number;
  point?: string; last?: string; status?: string;
}

export type Origin = 'system_prompt' | 'history' | 'user_input' | 'hook' | 'prompt' | 'assistant' | 'tool' | 'compaction';
export type PromptName = 'planning' | 'first_step' | 'agent_loop';
export type Phase = 'direct' | 'planning' | 'agent';
export type ToolStatus = 'skipped' | 'denied' | 'responded' | 'approved';
export interface ToolCall {
  id: string; name: string; arguments?: Record<string, unknown>; result: string; error?: string;
  /** what an executable hook made of the call, and which hook */
  status?: ToolStatus; by?: string;
  /** the arguments before a hook rewrote them */
  original_arguments?: Record<string, unknown>;
}
export interface Message {
  id: number; role: string; content: string; origin: Origin;
  history_of?: Origin;
  hook?: string; skill?: string; timing?: Timing; persistent?: boolean;
  prompt?: PromptName; tool?: string; tool_call_id?: string; tool_calls?: ToolCall[];
  request: number;
  created: number;
  removed: number | null;
  tokens: number;
  /** the executable hook system that added (origin hook) or last rewrote (any other origin) this message */
  system?: HookSystem;
  edited_by?: string;
  /** a tool message that is the hook's words in place of a tool that never ran */
  in_place?: boolean;
  /** index of that hook call in the run */
  hook_call?: number;
  /** the message's place in its request's list when a hook replaced a message in place (absent: the id) */
  pos?: number;
  /** steps [from, to) during which a call-only hook change took it out of the list (to -1: never back) */
  hidden?: [number, number][];
}
export type StepKind = 'build_messages' | 'inject' | 'remove' | 'inject_prompt' | 'remove_prompt' | 'llm_call' | 'append' | 'tool_call' | 'yield' | 'reply'
  | 'hook_call' | 'restore' | 'compact';
export interface Step {
  index: number; kind: StepKind; request: number; phase?: Phase; round: number | null;
  timing?: Timing; checkpoint?: number; prompt?: string; tool?: string;
  call: number | null;
  hooks?: string[];
  yield?: number;
  added: number[]; removed: number[];
  /** hook_call steps: the invocation and its index in the run */
  hook_call?: HookCall; hook_call_index?: number;
}
export interface LLMCall {
  index: number; request: number; phase: Phase; round: number | null; step: number; content: string;
  tool_calls?: ToolCall[]; need_tool?: boolean; error?: string; tokens: number;
  /** set when executable hooks are loaded */
  model?: string; added_tools?: string[]; original_content?: string; warning?: string;
}
export interface RequestInfo {
  index: number; user: string; enabled_skills: string[] | null; calls: number[]; yielded: string[]; reply: string;
  first_step: number; last_step: number;
  /** 'stopped' when a hook ended the request */
  status?: 'stopped'; stopped_by?: string;
}
/** hooks × LLM calls; systems[h] names the executable hook system of row h ("" or absent: a prompt hook) */
export interface Matrix { hooks: string[]; systems?: string[]; copies: number[][]; tokens: number[][]; totals: number[] }
export interface CallChange { call: number; added: number; removed: number; changed: number; summary: string }
export type TraceStatus = 'ok' | 'error' | 'cancelled' | 'max_rounds' | 'invalid' | 'none' | 'stopped' | 'running';
export interface TraceView {
  revision: number; scenario: string; file: string; status: TraceStatus; error?: string;
  diagnostics: Diagnostic[];
  hooks: Hook[]; messages: Message[]; steps: Step[]; calls: LLMCall[]; requests: RequestInfo[]; matrix: Matrix;
  changes: CallChange[];
  /** Unsaved editor text went into this simulation. */
  draft?: boolean;
  /** The selected scenario's tool names (suggestions for tool_filter). */
  tools?: string[];
  /** Whether the folder's executable hooks ran, and if not why. Older backends omit it. */
  exec?: ExecRun;
  /** A simulation with executable hooks runs in the background; its result follows as studio:trace. */
  pending?: boolean;
}

/** Events the backend emits, with their payloads. */
export interface StudioEvents {
  'studio:state': StudioState;
  'studio:trace': TraceView;
  'studio:progress': SimProgress;
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
  // executable hooks (issue 9)
  TrustFolder?(): Promise<StudioState>;
  UntrustFolder?(): Promise<StudioState>;
  HostBehaviour?(): Promise<HostBehaviour>;
  SetHostBehaviour?(mode: HostBehaviour): Promise<StudioState>;
  CancelSimulation?(): Promise<void>;
  Progress?(): Promise<SimProgress>;
}

/** hostmode.Mode: where a hosted program's code and its document disagree, which one runs */
export type HostBehaviour = 'code' | 'document';

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
