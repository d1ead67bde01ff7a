// The bound Requests service (seed 004 request hooks): the request inspector's rows — each model
// request's attempts, timings, usage and hook outcomes — for the simulation on screen or a stored
// run. Without the Go backend the rows are gathered here from the view's hook_call steps, exactly as
// app/hooks/reqhook.Inspect does.
import type { bind, history, reqhook } from './models';
import type { HookOutcome, Refine, TraceView } from './types';
import { hasBackend, Requests } from './wails';

/** app/hooks/reqhook.AttemptInfo: one try of the request (a retry adds one); timestamp RFC 3339 */
export type AttemptInfo = Refine<reqhook.AttemptInfo, { timestamp: string }>;
export type RequestUsage = reqhook.Usage;
/** app/hooks/reqhook.RequestContext: what start and end hooks receive on stdin (times RFC 3339). */
export type RequestContext = Refine<reqhook.RequestContext, {
  attempts: AttemptInfo[]; usage_metadata: RequestUsage | null; start_time: string; first_byte_time: string | null; end_time: string | null;
}>;
export type RequestRowHook = Refine<reqhook.RowHook, { outcome: HookOutcome }>;
/** app/hooks/reqhook.Row: one model request. */
export type RequestRow = Refine<reqhook.Row, { context: RequestContext | null; hooks: RequestRowHook[] }>;
export type ModelUsage = history.ModelUsage;
/** app/store/history.ExecHookMetrics: seed 001's per-hook metrics of one executable hook in one run. */
export type ExecHookMetrics = history.ExecHookMetrics;
/** exec_hooks: a stored run's executable hooks (empty for the simulation on screen) */
export type RequestsView = Refine<bind.RequestsView, { rows: RequestRow[]; exec_hooks?: ExecHookMetrics[] }>;
/** app/hooks/reqhook.PolicyConfig: the settings' request policy hook; zero values do not limit. */
export type PolicyConfig = reqhook.PolicyConfig;

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
  return hasBackend() ? (Requests.Current() as Promise<RequestsView>) : requestsOf(view);
}

/** The inspector for a stored run (rejects without the Go backend). */
export async function runRequests(id: number): Promise<RequestsView> {
  if (!hasBackend()) throw new Error('the run history needs the app');
  return Requests.Run(id) as Promise<RequestsView>;
}

/** Sends the newest stored run of the scenario to an OpenTelemetry collector (OTLP/HTTP); its run number. */
export async function exportOTLP(scenario: string, endpoint: string): Promise<number> {
  if (!hasBackend()) throw new Error('exporting needs the app');
  return Requests.ExportOTLP(scenario, endpoint);
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
  return hasBackend() ? Requests.Policy() : null;
}

/** Saves the settings' request policy; the next run uses it. */
export async function setRequestPolicy(cfg: PolicyConfig): Promise<void> {
  if (!hasBackend()) throw new Error('the request policy needs the app');
  return Requests.SetPolicy(cfg);
}
