// The bound Capture service: the app as a real agent's model endpoint (app/capture). Without the
// Go backend (vite dev, tests) a mock plays the endpoint.
import type { bind, capture, recipe } from './models';
import type { Refine } from './types';
import { Capture, hasBackend, on } from './wails';
import recipesFixture from '../../fixtures/recipes.json';

/** capture.SessionOptions: answers from the file, manual (the user answers each request), or forwarded to a model profile */
export type CaptureOptions = capture.SessionOptions;
/** capture.UpstreamCall: the profile a forwarding capture relays to (never its key) */
export type CaptureForward = capture.UpstreamCall;
/** capture.ToolCall; arguments are any JSON (json.RawMessage) */
export type CaptureToolCall = Refine<capture.ToolCall, { arguments: unknown }>;
export type CaptureMessage = Refine<capture.Message, { tool_calls?: CaptureToolCall[] }>;
/** capture.PendingRequest: a request waiting for the user's answer */
export type CapturePending = Refine<capture.PendingRequest, { messages: CaptureMessage[] }>;
/** capture.Answer: the text, or tool calls (an id the endpoint makes up when absent) */
export type CaptureAnswer = Refine<capture.Answer, { tool_calls?: (Omit<CaptureToolCall, 'id'> & { id?: string })[] }>;
/** capture.API */
export type CaptureAPI = 'anthropic' | 'openai' | 'responses' | 'gemini';
/** capture.CallSummary; agent: the agent CLI that sent it, when it tells */
export type CaptureCall = Refine<capture.CallSummary, { api: CaptureAPI }>;
/** recipe.Recipe: how to run one agent CLI against this capture (app/agentdata/recipe, one table for
 * the app, hookctl and the docs); hooks, trap and notes hold Markdown code spans */
export type Recipe = Refine<recipe.Recipe, { api: CaptureAPI }>;
/** capture.SessionState; seq orders the copies: events and answers race, the newest is kept (newer). */
export type CaptureState = Refine<capture.SessionState, { calls: CaptureCall[]; pending?: CapturePending; recipes: Recipe[] }>;
/** bind.SavedScenario: where a capture was saved as a scenario, and what it does not replay */
export type SavedScenario = bind.SavedScenario;

interface CaptureBinding {
  SaveScenario(runId: number, path: string): Promise<SavedScenario>;
  State(): Promise<CaptureState>;
  Start(opts: CaptureOptions): Promise<CaptureState>;
  Stop(): Promise<CaptureState>;
  Reply(n: number, answer: CaptureAnswer): Promise<CaptureState>;
}

const bound: CaptureBinding = {
  SaveScenario: (runId, path) => Capture.SaveScenario(runId, path),
  State: () => Capture.State() as Promise<CaptureState>,
  Start: (opts) => Capture.Start(opts) as Promise<CaptureState>,
  Stop: () => Capture.Stop() as Promise<CaptureState>,
  Reply: (n, answer) => Capture.Reply(n, answer as capture.Answer) as Promise<CaptureState>,
};

type Listener = (s: CaptureState) => void;

/** The mock: an endpoint that records what tests push through mockCaptureCall. */
export function createCaptureMock() {
  const listeners = new Set<Listener>();
  let state: CaptureState = { running: false, lines: [], recipes: [], answers: 0, calls: [], seq: 0 };
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
        forward: opts.profile ? { profile: opts.profile, host: 'api.anthropic.com', model: 'claude-sonnet-4-5' } : undefined, seq: state.seq + 1 };
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

/** The backend's recipes (fixtures/recipes.json, written from app/agentdata/recipe for the docs' URL) for url. */
function recipesFor(url: string): Recipe[] {
  const text = JSON.stringify(recipesFixture).replaceAll('http://127.0.0.1:41237', url);
  return JSON.parse(text) as Recipe[];
}

let mock: ReturnType<typeof createCaptureMock> | null = null;
/** The mock backend (tests reset it). */
export function captureMock() { return (mock ??= createCaptureMock()); }
export function resetCaptureMock() { mock = createCaptureMock(); return mock; }

const api = (): CaptureBinding => (hasBackend() ? bound : captureMock().api);
export const captureState = (): Promise<CaptureState> => api().State();
export const startCapture = (opts: CaptureOptions): Promise<CaptureState> => api().Start(opts);
export const stopCapture = (): Promise<CaptureState> => api().Stop();
export const saveCaptureScenario = (runId: number, path: string): Promise<SavedScenario> => api().SaveScenario(runId, path);
export const replyCapture = (n: number, answer: CaptureAnswer): Promise<CaptureState> => api().Reply(n, answer);

/** Listens to capture:state; returns the function that stops listening. */
export function onCaptureState(cb: Listener): () => void {
  return hasBackend() ? on('capture:state', cb) : captureMock().on(cb);
}
