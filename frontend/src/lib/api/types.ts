// The view contract of docs/trace-view.md as the frontend reads it: the interfaces Wails generates
// from the bound Go types (wailsjs/go/models.ts, `make bindings`), with what a Go type cannot tell
// the generator written over them — the values of Go's string enums, pointers that arrive as null,
// json.RawMessage (any JSON) and time.Time (an RFC 3339 string). Refine only replaces fields the
// generated type has, so a field renamed or removed in Go fails the type check here.
import type { diag, edit, engine, loop, skills, studio } from './models';

/** G with the fields of R in R's types; a key of R that G lacks does not compile. */
export type Refine<G, R extends { [K in keyof R]: K extends keyof G ? unknown : never }> = Omit<G, keyof R> & R;

export type Severity = 'error' | 'warning';
export type Diagnostic = Refine<diag.Diagnostic, { severity: Severity }>;
export type Timing = 'after_user_input' | 'before_planning' | 'before_each_agent' | 'before_first_agent' | 'after_tool_call';
export type Role = 'system' | 'user';
export type Hook = Refine<skills.Hook, { timing: Timing; role: Role }>;
export type Skill = Refine<studio.SkillInfo, { hooks: Hook[]; diagnostics: Diagnostic[] }>;
export type ScenarioInfo = Refine<studio.ScenarioInfo, { diagnostics: Diagnostic[] }>;

// ---- executable hooks (issue 9; process and request hooks of issues 10/11 use the same shapes) ----
export type HookSystem = 'command' | 'process' | 'request' | 'claude-code' | 'gemini-cli' | 'copilot-cli' | (string & {});
/** Engine points where executable hooks fire (design-hooks.md's flow). */
export type HookPoint =
  | 'session_start' | 'before_send' | 'after_send' | 'before_llm' | 'after_llm' | 'before_tool' | 'approve_tool'
  | 'after_tool' | 'after_tools' | 'stop' | 'before_compact' | 'after_compact' | 'session_end';
export const HOOK_POINTS: readonly HookPoint[] = [
  'session_start', 'before_send', 'after_send', 'before_llm', 'after_llm', 'before_tool', 'approve_tool', 'after_tool', 'after_tools',
  'stop', 'before_compact', 'after_compact', 'session_end',
];
export type HookOutcome = 'ok' | 'modified' | 'error' | 'timeout' | 'skipped' | 'denied' | 'stopped' | 'blocked' | 'asked';
/** One invocation of an executable hook. input: exactly what the hook received (stdin JSON,
 *  JSON-RPC request); output: what it answered, when JSON (both json.RawMessage in Go). */
export type HookCall = Refine<engine.HookCall, { system: HookSystem; point: HookPoint; outcome: HookOutcome; input?: unknown; output?: unknown }>;
/** An executable hook as declared. */
export type HookInfo = Refine<engine.HookInfo, { system: HookSystem }>;
/** One command that would run, for the trust prompt. */
export type ExecCommand = studio.ExecCommand;
export type ExecState = Refine<studio.ExecState, { hooks: HookInfo[] }>;
/** One executable hook's counters over a run. */
export type HookMetric = Refine<engine.HookMetric, { system: HookSystem }>;
export type ExecRun = Refine<studio.ExecRun, { hooks: HookInfo[]; metrics: HookMetric[] | null }>;
/** A simulation with executable hooks while it runs in the background. */
export type SimProgress = studio.Progress;

export type StudioState = Refine<studio.State, {
  skills: Skill[]; scenarios: ScenarioInfo[]; diagnostics: Diagnostic[];
  /** files with unsaved edits that the simulation shows (root-relative); a Go nil slice is null */
  drafts: string[] | null;
  exec: ExecState;
}>;

/** An answer holding a json.RawMessage: Wails types it as its bytes (number[]), it arrives as the JSON value it holds. */
export function rawJSON<T>(answer: Promise<unknown>): Promise<T> {
  return answer as Promise<T>;
}

/** The newer of two snapshots of the backend's state (by seq): a call's answer can arrive after the event of a newer one. */
export function newer<T extends { seq?: number }>(prev: T | null, next: T): T {
  return prev?.seq !== undefined && next.seq !== undefined && next.seq < prev.seq ? prev : next;
}

/** agent_context: context an agent CLI adds of its own around the prompt (a piece of its request model) */
export type Origin = 'system_prompt' | 'history' | 'user_input' | 'hook' | 'prompt' | 'assistant' | 'tool' | 'compaction' | 'agent_context';
export type PromptName = 'planning' | 'first_step' | 'agent_loop';
export type Phase = 'direct' | 'planning' | 'agent';
export type ToolStatus = 'skipped' | 'denied' | 'responded' | 'approved';
/** status: what an executable hook made of the call (by: which hook); original_arguments: before a hook rewrote them */
export type ToolCall = Refine<engine.ToolCall, { arguments?: Record<string, unknown>; status?: ToolStatus; original_arguments?: Record<string, unknown> }>;
/** removed: the step that took it out (null: never); hidden: steps [from, to) a call-only hook change took it out of the list */
export type Message = Refine<studio.Message, {
  origin: Origin; history_of?: Origin; timing?: Timing; prompt?: PromptName; tool_calls?: ToolCall[];
  system?: HookSystem; removed: number | null; hidden?: [number, number][];
}>;
export type StepKind = 'build_messages' | 'inject' | 'remove' | 'inject_prompt' | 'remove_prompt' | 'llm_call' | 'append' | 'tool_call' | 'yield' | 'reply'
  | 'hook_call' | 'restore' | 'compact';
export type Step = Refine<engine.Step, { kind: StepKind; phase?: Phase; round: number | null; timing?: Timing; call: number | null; hook_call?: HookCall }>;
export type LLMCall = Refine<studio.Call, { phase: Phase; round: number | null; tool_calls?: ToolCall[] }>;
/** enabled_skills null: every skill; status 'stopped' when a hook ended the request */
export type RequestInfo = Refine<engine.RequestInfo, { enabled_skills: string[] | null; status?: 'stopped' }>;
/** hooks × LLM calls; systems[h] names the executable hook system of row h ("" a prompt hook) */
export type Matrix = studio.Matrix;
export type CallChange = studio.CallChange;
export type TraceStatus = 'ok' | 'error' | 'cancelled' | 'max_rounds' | 'invalid' | 'none' | 'stopped' | 'running';

/** One check of one expectation on one call (or request, or run); request/call null when not about one. */
export type ExpectationResult = Refine<import('./models').expect.Result, { request: number | null; call: number | null }>;

// ---- the loop a run is drawn on (app/agents/loop): its agent's, or seed 000's ----
export type FlowNodeKind = 'event' | 'step' | 'decision' | 'terminal';
export type FlowSide = 'right' | 'left' | 'top' | 'bottom';
/** events: the agent's hook events that fire at the node (native names); points: the engine points placed there */
export type FlowNode = Refine<loop.Node, { kind: FlowNodeKind; points?: HookPoint[] }>;
export type FlowEdge = Refine<loop.Edge, { exit: FlowSide; enter: FlowSide }>;
export type FlowLoop = Refine<loop.Loop, { nodes: FlowNode[]; edges: FlowEdge[] }>;
/** steps[i]: the index in loop.nodes of step i's node, -1 none */
export type Flow = Refine<loop.Flow, { loop: FlowLoop }>;

/** Where a run's request model came from: calibrated (the CLI's words, in the data folder), bundled (its shape:
 *  placeholders of the right size), none (the agent's loop without its own words). */
export type RequestModelKind = 'calibrated' | 'bundled' | 'none';
/** The agent CLI version a run is (its renderings, its loop and request). */
export type RunAgent = Refine<engine.Agent, { request?: RequestModelKind }>;
/** What of an agent's call is whose: its own system prompt and context, its tools' definitions, the hooks' words, the conversation. */
export type TokenSplit = studio.TokenSplit;

export type TraceView = Refine<studio.TraceView, {
  status: TraceStatus; diagnostics: Diagnostic[]; hooks: Hook[]; messages: Message[]; steps: Step[]; calls: LLMCall[];
  requests: RequestInfo[]; exec: ExecRun; expectations: ExpectationResult[] | null; flow: Flow; agent?: RunAgent;
}>;

/** Events the backend emits, with their payloads. */
export interface StudioEvents {
  'studio:state': StudioState;
  'studio:trace': TraceView;
  'studio:progress': SimProgress;
}
export type StudioEventName = keyof StudioEvents;

/** hostmode.Mode: where a hosted program's code and its document disagree, which one runs */
export type HostBehaviour = 'code' | 'document';

// ---- editing (docs/trace-view.md, "Editing (issue 4)") ----
export type FileSnapshot = studio.FileSnapshot;
export type HookFields = Refine<edit.Hook, { timing: Timing; role: Role }>;
/** An edit of a hooks.json, as the form makes it; studio.HookOp on the wire (hookOp). */
export type HookOp =
  | { kind: 'add'; hook: HookFields }
  | { kind: 'update'; index: number; fields: { [K in keyof HookFields]?: HookFields[K] | null } & Record<string, unknown> }
  | { kind: 'rename'; index: number; name: string }
  | { kind: 'duplicate'; index: number; name?: string }
  | { kind: 'move'; index: number; to: number }
  | { kind: 'delete'; index: number };
/** The Go struct the binding takes: every field, the ones an op does not use at their zero value (as JSON leaves them). */
export function hookOp(op: HookOp): studio.HookOp {
  const zero: studio.HookOp = { kind: op.kind, index: 0, to: 0, name: '', fields: {} };
  switch (op.kind) {
    case 'add': return { ...zero, hook: op.hook };
    case 'update': return { ...zero, index: op.index, fields: op.fields };
    case 'rename': return { ...zero, index: op.index, name: op.name };
    case 'duplicate': return { ...zero, index: op.index, name: op.name ?? '' };
    case 'move': return { ...zero, index: op.index, to: op.to };
    case 'delete': return { ...zero, index: op.index };
  }
}
export type FilePos = skills.Pos;
export type HookEntry = skills.Entry;
export type HooksEdit = Refine<studio.HooksEdit, { diagnostics: Diagnostic[] }>;
export type SaveResult = Refine<studio.SaveResult, { status: 'saved' | 'conflict' | 'deleted'; diagnostics: Diagnostic[] }>;
export type MergeConflict = edit.Conflict;
export type MergeResult = studio.MergeResult;

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
/** No loop: what a view without steps is drawn on (never shown: the flowchart needs a step). */
export function emptyFlow(): Flow {
  const origin = { x: 0, y: 0 };
  return {
    loop: { id: '', title: '', title_at: origin, width: 0, height: 0, node_height: 30, frame: { x: 0, y: 0, w: 0, h: 0, label: '', label_at: origin },
      nodes: [], edges: [], elsewhere: [], sources: [] },
    why: '', steps: [],
  };
}
export function emptyTrace(): TraceView {
  return {
    revision: 0, scenario: '', file: '', status: 'none', diagnostics: [], hooks: [], messages: [], steps: [], calls: [],
    requests: [], matrix: { hooks: [], systems: [], copies: [], tokens: [], totals: [] }, changes: [], tools: [], draft: false,
    exec: { ran: false, hooks: [], metrics: null, duration_ms: 0 }, pending: false, expectations: null, flow: emptyFlow(),
  };
}
