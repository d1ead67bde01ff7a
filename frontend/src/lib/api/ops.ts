// The bound Ops service (seed 002): the controlled run — the selected scenario on the mock with its
// event stream, pause/resume/cancel and approvals the user answers — and the events of stored runs.
// Without the Go backend every call rejects: there is nothing to run.
import type { events, studio } from './models';
import type { HookOutcome, HookSystem, Refine, TraceView } from './types';
import { hasBackend, on, Ops } from './wails';

/** An app/agent/events.Type, Shannon's names. */
export type RunEventType =
  | 'WORKFLOW_STARTED' | 'WORKFLOW_COMPLETED' | 'WORKFLOW_FAILED' | 'AGENT_STARTED' | 'AGENT_COMPLETED'
  | 'AGENT_THINKING' | 'TOOL_INVOKED' | 'TOOL_OBSERVATION' | 'ERROR_OCCURRED' | 'WORKFLOW_PAUSED'
  | 'WORKFLOW_RESUMED' | 'WORKFLOW_CANCELLED' | 'APPROVAL_REQUESTED' | 'APPROVAL_DECISION'
  | 'LLM_PROMPT' | 'LLM_PARTIAL' | 'LLM_OUTPUT' | 'BUDGET_THRESHOLD' | 'HEARTBEAT';

/** app/agent/events.Event; step: the trace step the event belongs to (-1 none); timestamp RFC 3339 */
export type RunEvent = Refine<events.Event, { type: RunEventType; timestamp: string; payload?: Record<string, unknown> }>;

/** studio.PendingApproval: the exact tool call, why, the deadline (RFC 3339) the countdown runs to, and
 * what the executable hooks answered about the call before you are asked (hooks). */
export type HookAnswer = Refine<events.HookAnswer, { system: HookSystem; outcome: HookOutcome }>;
export type PendingApproval = Refine<studio.PendingApproval, { arguments: Record<string, unknown> | null; deadline: string; hooks?: HookAnswer[] }>;

// The run:* events' payloads (events are not bindings, so not generated).

/** studio.ApprovalDone */
export interface ApprovalDone { id: string; approved: boolean; feedback?: string; timed_out?: boolean }

/** studio.RunControl; hooks_not_run: why the folder's executable hooks take no part ("folder not trusted") */
export interface RunControl { running: boolean; paused: boolean; pause_reason?: string; cancelled: boolean; cancel_reason?: string; hooks_not_run?: string }

/** studio.RunEnded */
export interface OpsRunEnded { status: string; error?: string; run_id?: number; view: TraceView }

/** studio.RunWaiting: the run waits for the user at step (the last of view) */
export interface RunWaiting { step: number; reason: 'paused' | 'approval'; view: TraceView }

export interface OpsEvents {
  'run:events': RunEvent[];
  'run:waiting': RunWaiting;
  'run:approval': PendingApproval;
  'run:approval-done': ApprovalDone;
  'run:control': RunControl;
  'run:trace': TraceView;
  'run:ended': OpsRunEnded;
}

function call<T>(fn: () => Promise<T>): Promise<T> {
  return hasBackend() ? fn() : Promise.reject(new Error('controlled runs need the Hook Studio backend'));
}

/** True when the backend offers controlled runs. */
export const hasOps = (): boolean => hasBackend();
export const startControlledRun = (): Promise<void> => call(() => Ops.StartControlledRun());
export const pauseRun = (): Promise<void> => call(() => Ops.PauseRun());
export const resumeRun = (): Promise<void> => call(() => Ops.ResumeRun());
export const cancelControlledRun = (): Promise<void> => call(() => Ops.CancelControlledRun());
export const decideApproval = (approve: boolean, feedback: string): Promise<void> => call(() => Ops.DecideApproval(approve, feedback));
export const pendingApproval = (): Promise<PendingApproval | null> => call(() => Ops.PendingApproval() as Promise<PendingApproval | null>);
export const runEvents = (runID: number): Promise<RunEvent[]> => call(() => Ops.RunEvents(runID) as Promise<RunEvent[]>);

/** Listens to a controlled-run event; returns the function that stops listening. */
export function onOpsEvent<E extends keyof OpsEvents>(event: E, cb: (payload: OpsEvents[E]) => void): () => void {
  return hasBackend() ? on(event, cb) : () => {};
}
