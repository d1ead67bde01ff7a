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
}

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
