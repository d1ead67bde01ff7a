// Typed calls for window.go.bind.Requests (seed 004 request hooks): the request inspector's rows —
// each model request's attempts, timings, usage and hook outcomes — for the simulation on screen or
// a stored run. Like the rest of src/lib/api this is the only code that touches window.go for them;
// without the Go backend the rows are gathered here from the view's hook_call steps, exactly as
// app/hooks/reqhook.Inspect does.
import { binding } from './wails';
import type { HookOutcome, TraceView } from './types';

/** app/hooks/reqhook.AttemptInfo: one try of the request (a retry adds one). */
export interface AttemptInfo {
  cred_id: string;
  email_masked: string;
  status_code?: number;
  reason?: string;
  timestamp: string; // RFC 3339
}

/** app/hooks/reqhook.Usage */
export interface RequestUsage {
  prompt_tokens: number;
  completion_tokens: number;
  thinking_tokens: number;
  cached_tokens: number;
  total_tokens: number;
  counted?: boolean;
}

/** app/hooks/reqhook.RequestContext: what start and end hooks receive on stdin. */
export interface RequestContext {
  request_id: string;
  route: string;
  model: string;
  is_streaming: boolean;
  current_credential_id: string;
  current_credential_email: string;
  attempts: AttemptInfo[];
  usage_metadata: RequestUsage | null;
  start_time: string;
  first_byte_time: string | null;
  end_time: string | null;
  success: boolean;
  error: string;
  http_status: number;
  call: number;
  request: number;
  phase: string;
  round: number;
}

/** app/hooks/reqhook.RowHook */
export interface RequestRowHook {
  step: number;
  event: string;
  hook: string;
  source?: string;
  outcome: HookOutcome;
  duration_ms: number;
  error?: string;
}

/** app/hooks/reqhook.Row: one model request. */
export interface RequestRow {
  call: number;
  request: number;
  phase: string;
  round: number;
  context: RequestContext | null;
  hooks: RequestRowHook[];
}

/** app/store/history.ModelUsage */
export interface ModelUsage {
  model: string;
  requests: number;
  successes: number;
  failures: number;
  attempts: number;
  prompt_tokens: number;
  completion_tokens: number;
  thinking_tokens: number;
  cached_tokens: number;
}

/** app/store/history.ExecHookMetrics: seed 001's per-hook metrics of one executable hook in one run. */
export interface ExecHookMetrics {
  system: string;
  hook: string;
  executions: number;
  successes: number;
  failures: number;
  skipped: number;
  total_duration_ms: number;
}

/** bind.RequestsView */
export interface RequestsView {
  rows: RequestRow[];
  usage: ModelUsage[];
  /** a stored run's executable hooks (empty for the simulation on screen) */
  exec_hooks?: ExecHookMetrics[];
}

interface RequestsBinding {
  Current(): Promise<RequestsView>;
  Run(id: number): Promise<RequestsView>;
  ExportOTLP(scenario: string, endpoint: string): Promise<number>;
  Policy(): Promise<PolicyConfig>;
  SetPolicy(cfg: PolicyConfig): Promise<void>;
}

/** app/hooks/reqhook.PolicyConfig: the settings' request policy hook; zero values do not limit. */
export interface PolicyConfig {
  rate_limit_per_minute?: number;
  token_quota?: number;
  allow?: string[];
  deny?: string[];
}

function realBinding(): RequestsBinding | undefined {
  if (!binding()) return undefined;
  return (window.go?.bind as { Requests?: RequestsBinding } | undefined)?.Requests;
}

/** The rows of a view's request hook invocations (app/hooks/reqhook.Inspect), in call order. */
export function requestsOf(view: TraceView): RequestsView {
  const rows: RequestRow[] = [];
  const byCall = new Map<number, RequestRow>();
  for (const st of view.steps) {
    const hc = st.hook_call;
    if (!hc || hc.system !== 'request' || !hc.input || typeof hc.input !== 'object') continue;
    const rc = hc.input as RequestContext;
    let row = byCall.get(rc.call);
    if (!row) {
      row = { call: rc.call, request: rc.request, phase: rc.phase, round: rc.round, context: null, hooks: [] };
      byCall.set(rc.call, row);
      rows.push(row);
    }
    if (!row.context || (hc.event === 'request_end' && !row.context.end_time)) row.context = rc;
    row.hooks.push({ step: st.index, event: hc.event, hook: hc.hook, source: hc.source, outcome: hc.outcome, duration_ms: hc.duration_ms, error: hc.error });
  }
  return { rows, usage: usageOf(rows) };
}

/** Usage statistics per model over finished requests, as the history stores them. */
export function usageOf(rows: readonly RequestRow[]): ModelUsage[] {
  const out: ModelUsage[] = [];
  for (const r of rows) {
    const c = r.context;
    if (!c || !c.end_time) continue;
    let u = out.find((x) => x.model === c.model);
    if (!u) {
      u = { model: c.model, requests: 0, successes: 0, failures: 0, attempts: 0, prompt_tokens: 0, completion_tokens: 0, thinking_tokens: 0, cached_tokens: 0 };
      out.push(u);
    }
    u.requests++;
    u.attempts += c.attempts.length;
    if (c.success) u.successes++;
    else u.failures++;
    const m = c.usage_metadata;
    if (m) {
      u.prompt_tokens += m.prompt_tokens;
      u.completion_tokens += m.completion_tokens;
      u.thinking_tokens += m.thinking_tokens;
      u.cached_tokens += m.cached_tokens;
    }
  }
  return out;
}

/** The inspector for the simulation on screen: the bound service's, or gathered from the view. */
export async function currentRequests(view: TraceView): Promise<RequestsView> {
  const b = realBinding();
  return b ? b.Current() : requestsOf(view);
}

/** The inspector for a stored run (rejects without the Go backend). */
export async function runRequests(id: number): Promise<RequestsView> {
  const b = realBinding();
  if (!b) throw new Error('the run history needs the app');
  return b.Run(id);
}

/** Sends the newest stored run of the scenario to an OpenTelemetry collector (OTLP/HTTP); its run number. */
export async function exportOTLP(scenario: string, endpoint: string): Promise<number> {
  const b = realBinding();
  if (!b) throw new Error('exporting needs the app');
  return b.ExportOTLP(scenario, endpoint);
}

const OTLP_KEY = 'hookstudio.otlpEndpoint';

/** The collector URL the user last sent to (a setting kept by the app's web view). */
export function otlpEndpoint(): string {
  try {
    return localStorage.getItem(OTLP_KEY) ?? 'http://localhost:4318';
  } catch {
    return 'http://localhost:4318';
  }
}

export function setOtlpEndpoint(url: string): void {
  try {
    localStorage.setItem(OTLP_KEY, url);
  } catch {
    /* private mode: not remembered */
  }
}

/** The settings' request policy, or null without the app. */
export async function requestPolicy(): Promise<PolicyConfig | null> {
  const b = realBinding();
  return b ? b.Policy() : null;
}

/** Saves the settings' request policy; the next run uses it. */
export async function setRequestPolicy(cfg: PolicyConfig): Promise<void> {
  const b = realBinding();
  if (!b) throw new Error('the request policy needs the app');
  return b.SetPolicy(cfg);
}
