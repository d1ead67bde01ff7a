// Typed calls for window.go.bind.Ops (seed 002): the controlled run — the selected scenario on the
// mock with its event stream, pause/resume/cancel and approvals the user answers — and the events of
// stored runs. Like index.ts this is one of the only places that touch window.go / window.runtime.
// Without the Go backend every call rejects: there is nothing to run.
import { binding, runtime } from './wails';
import type { TraceView } from './types';

/** An app/agent/events.Type, Shannon's names. */
export type RunEventType =
  | 'WORKFLOW_STARTED' | 'WORKFLOW_COMPLETED' | 'WORKFLOW_FAILED' | 'AGENT_STARTED' | 'AGENT_COMPLETED'
  | 'AGENT_THINKING' | 'TOOL_INVOKED' | 'TOOL_OBSERVATION' | 'ERROR_OCCURRED' | 'WORKFLOW_PAUSED'
  | 'WORKFLOW_RESUMED' | 'WORKFLOW_CANCELLED' | 'APPROVAL_REQUESTED' | 'APPROVAL_DECISION'
  | 'LLM_PROMPT' | 'LLM_PARTIAL' | 'LLM_OUTPUT' | 'BUDGET_THRESHOLD' | 'HEARTBEAT';

/** app/agent/events.Event */
export interface RunEvent {
  seq: number;
  type: RunEventType;
  agent_id: string;
  message: string;
  timestamp: string;
  /** the trace step the event belongs to; -1 none */
  step: number;
  payload?: Record<string, unknown>;
}

/** studio.PendingApproval: the exact tool call, why, and the deadline the countdown runs to. */
export interface PendingApproval {
  id: string;
  tool: string;
  tool_call_id: string;
  arguments: Record<string, unknown> | null;
  reason: string;
  timeout_ms: number;
  /** RFC 3339 */
  deadline: string;
  step: number;
  scenario: string;
}

/** studio.ApprovalDone */
export interface ApprovalDone { id: string; approved: boolean; feedback?: string; timed_out?: boolean }

/** studio.RunControl */
export interface RunControl { running: boolean; paused: boolean; pause_reason?: string; cancelled: boolean; cancel_reason?: string }

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

interface OpsBinding {
  StartControlledRun(): Promise<void>;
  PauseRun(): Promise<void>;
  ResumeRun(): Promise<void>;
  CancelControlledRun(): Promise<void>;
  DecideApproval(approve: boolean, feedback: string): Promise<void>;
  PendingApproval(): Promise<PendingApproval | null>;
  RunEvents(runID: number): Promise<RunEvent[]>;
}

function ops(): OpsBinding | undefined {
  if (!binding()) return undefined;
  return (window.go?.bind as { Ops?: OpsBinding } | undefined)?.Ops;
}

function call<T>(fn: (o: OpsBinding) => Promise<T>): Promise<T> {
  const o = ops();
  return o ? fn(o) : Promise.reject(new Error('controlled runs need the Hook Studio backend'));
}

/** True when the backend offers controlled runs. */
export const hasOps = (): boolean => ops() !== undefined;
export const startControlledRun = (): Promise<void> => call((o) => o.StartControlledRun());
export const pauseRun = (): Promise<void> => call((o) => o.PauseRun());
export const resumeRun = (): Promise<void> => call((o) => o.ResumeRun());
export const cancelControlledRun = (): Promise<void> => call((o) => o.CancelControlledRun());
export const decideApproval = (approve: boolean, feedback: string): Promise<void> => call((o) => o.DecideApproval(approve, feedback));
export const pendingApproval = (): Promise<PendingApproval | null> => call((o) => o.PendingApproval());
export const runEvents = (runID: number): Promise<RunEvent[]> => call((o) => o.RunEvents(runID));

/** Listens to a controlled-run event; returns the function that stops listening. */
export function onOpsEvent<E extends keyof OpsEvents>(event: E, cb: (payload: OpsEvents[E]) => void): () => void {
  const rt = runtime();
  if (!binding() || !rt) return () => {};
  const off = rt.EventsOn(event, (...data: unknown[]) => cb(data[0] as OpsEvents[E]));
  return typeof off === 'function' ? off : () => rt.EventsOff(event);
}
