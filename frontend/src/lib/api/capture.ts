// Typed calls for window.go.bind.Capture: the app as a real agent's model endpoint
// (app/capture). Without the Go backend (vite dev, tests) a mock plays the endpoint.
import { binding, runtime } from './wails';
import recipesFixture from '../../fixtures/recipes.json';

/** capture.SessionOptions: answers from the file, manual (the user answers each request), or forwarded to a model profile */
export interface CaptureOptions { port: number; answers_file: string; manual?: boolean; profile?: string }
/** capture.UpstreamCall: the profile a forwarding capture relays to (never its key) */
export interface CaptureForward { profile: string; host: string; model: string }
/** capture.Message */
export interface CaptureMessage { role: string; content: string; origin: string; hook?: string; tool_calls?: { id: string; name: string; arguments: unknown }[]; is_error?: boolean }
/** capture.PendingRequest: a request waiting for the user's answer */
export interface CapturePending { n: number; api: string; model: string; messages: CaptureMessage[]; tools: string[] }
/** capture.Answer */
export interface CaptureAnswer { content?: string; tool_calls?: { id?: string; name: string; arguments: unknown }[] }
/** capture.CallSummary; agent: the agent CLI that sent it, when it tells */
export interface CaptureCall {
  n: number; api: CaptureAPI; path: string; status: number; error?: string;
  messages: number; input_tokens: number; hooks: string[]; answer: string; agent?: string;
}
/** capture.API */
export type CaptureAPI = 'anthropic' | 'openai' | 'responses' | 'gemini';
/** recipe.File: a config file of a recipe; ~/ is the user's home, else the project */
export interface RecipeFile { path: string; content: string; merge?: boolean; format: string }
/** recipe.Recipe: how to run one agent CLI against this capture (app/agents/recipe, one table for the app, hookctl and the docs) */
export interface Recipe {
  agent: string; name: string; package: string; version: string; proprietary?: boolean; api: CaptureAPI;
  env: { name: string; value: string }[]; files: RecipeFile[]; before: string[][]; run: string[];
  /** where its hooks go, and why one may not run (Markdown code spans) */
  hooks: string; trap: string; notes: string[];
  /** what to paste, one shell line each */
  lines: string[];
}
/** capture.SessionState */
export interface CaptureState {
  running: boolean; base_url?: string; lines: string[]; recipes?: Recipe[]; answers_file?: string; answers: number;
  calls: CaptureCall[]; run_id?: number; error?: string; manual?: boolean; pending?: CapturePending;
  forward?: CaptureForward;
  /** Orders the copies: events and answers race, the newest is kept (newer). */
  seq?: number;
}

/** bind.SavedScenario: where a capture was saved as a scenario, and what it does not replay */
export interface SavedScenario { path: string; notes: string[] }

interface CaptureBinding {
  SaveScenario(runId: number, path: string): Promise<SavedScenario>;
  State(): Promise<CaptureState>;
  Start(opts: CaptureOptions): Promise<CaptureState>;
  Stop(): Promise<CaptureState>;
  Reply(n: number, answer: CaptureAnswer): Promise<CaptureState>;
}

function real(): CaptureBinding | undefined {
  if (!binding()) return undefined;
  return (window.go?.bind as { Capture?: CaptureBinding } | undefined)?.Capture;
}

type Listener = (s: CaptureState) => void;

/** The mock: an endpoint that records what tests push through mockCaptureCall. */
export function createCaptureMock() {
  const listeners = new Set<Listener>();
  let state: CaptureState = { running: false, lines: [], answers: 0, calls: [] };
  let runs = 0;
  const replies: { n: number; answer: CaptureAnswer }[] = [];
  const started: CaptureOptions[] = [];
  const savedScenarios: { runId: number; path: string }[] = [];
  const emit = () => { for (const l of [...listeners]) l(state); };
  const api: CaptureBinding = {
    State: async () => state,
    Start: async (opts) => {
      if (!opts.answers_file && !opts.manual && !opts.profile) throw 'choose an answers file, a profile to forward to, or answer each request yourself';
      if (state.running) throw `a capture is running at ${state.base_url}; stop it first`;
      const url = `http://127.0.0.1:${opts.port || 41237}`;
      const anthropic = `ANTHROPIC_BASE_URL=${url} ANTHROPIC_API_KEY=capture CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`;
      state = { running: true, base_url: url, answers_file: opts.profile ? '' : opts.answers_file, answers: opts.manual || opts.profile ? 0 : 3, manual: !!opts.manual, calls: [],
        lines: opts.profile ? [anthropic] : [anthropic, `OPENAI_BASE_URL=${url}/v1 OPENAI_API_KEY=capture`],
        recipes: recipesFor(url).filter((r) => !opts.profile || r.api === 'anthropic'),
        forward: opts.profile ? { profile: opts.profile, host: 'api.anthropic.com', model: 'claude-sonnet-4-5' } : undefined };
      started.push(opts);
      emit();
      return state;
    },
    Reply: async (n, answer) => {
      if (!state.pending || state.pending.n !== n) throw `request #${n + 1}: no request is waiting for that answer`;
      if (!answer.content && !answer.tool_calls?.length) throw "write the answer's text, or give a tool call";
      replies.push({ n, answer });
      state = { ...state, pending: undefined };
      emit();
      return state;
    },
    SaveScenario: async (runId, path) => {
      if (!path.startsWith('/')) throw `"${path}": give the scenario file's full path`;
      if (!/\.ya?ml$/.test(path)) throw `${path}: a scenario file ends in .yaml or .yml`;
      savedScenarios.push({ runId, path });
      return { path, notes: state.calls.filter((c) => c.status !== 200).map((c) => `call #${c.n + 1} is not replayed: it got no answer (${c.error ?? c.status})`) };
    },
    Stop: async () => {
      if (!state.running) throw 'no capture is running';
      state = { ...state, running: false, run_id: state.calls.length ? ++runs : undefined };
      emit();
      return state;
    },
  };
  return {
    api,
    on: (l: Listener) => { listeners.add(l); return () => { listeners.delete(l); }; },
    call: (c: CaptureCall) => { state = { ...state, calls: [...state.calls, c] }; emit(); },
    wait: (p: CapturePending) => { state = { ...state, pending: p }; emit(); },
    replies,
    started,
    savedScenarios,
  };
}

/** The backend's recipes (fixtures/recipes.json, written from app/agents/recipe for the docs' URL) for url. */
function recipesFor(url: string): Recipe[] {
  const text = JSON.stringify(recipesFixture).replaceAll('http://127.0.0.1:41237', url);
  return JSON.parse(text) as Recipe[];
}

let mock: ReturnType<typeof createCaptureMock> | null = null;
/** The mock backend (tests reset it). */
export function captureMock() { return (mock ??= createCaptureMock()); }
export function resetCaptureMock() { mock = createCaptureMock(); return mock; }

const api = (): CaptureBinding => real() ?? captureMock().api;
export const captureState = (): Promise<CaptureState> => api().State();
export const startCapture = (opts: CaptureOptions): Promise<CaptureState> => api().Start(opts);
export const stopCapture = (): Promise<CaptureState> => api().Stop();
export const saveCaptureScenario = (runId: number, path: string): Promise<SavedScenario> => api().SaveScenario(runId, path);
export const replyCapture = (n: number, answer: CaptureAnswer): Promise<CaptureState> => api().Reply(n, answer);

/** Listens to capture:state; returns the function that stops listening. */
export function onCaptureState(cb: Listener): () => void {
  const rt = runtime();
  if (real() && rt) {
    const off = rt.EventsOn('capture:state', (...data: unknown[]) => cb(data[0] as CaptureState));
    return typeof off === 'function' ? off : () => rt.EventsOff('capture:state');
  }
  return captureMock().on(cb);
}
