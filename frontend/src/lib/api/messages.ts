import type { Message, Origin, Step, TraceView } from './types';

/** Conformance tag notation of a message (design.md): system, user, hook:NAME, prompt:NAME, assistant, tool:NAME, h.*. */
export function tag(m: Pick<Message, 'origin' | 'history_of' | 'hook' | 'prompt' | 'tool'>): string {
  const base = (o: Origin | undefined): string => {
    switch (o) {
      case 'system_prompt': return 'system';
      case 'user_input': return 'user';
      case 'hook': return `hook:${m.hook ?? ''}`;
      case 'prompt': return `prompt:${m.prompt ?? ''}`;
      case 'tool': return `tool:${m.tool ?? ''}`;
      case 'assistant': return 'assistant';
      default: return String(o);
    }
  };
  return m.origin === 'history' ? `h.${base(m.history_of)}` : base(m.origin);
}

interface RequestIndex {
  /** the request's messages in id order; created is non-decreasing along it */
  msgs: Message[];
}
interface ViewIndex {
  requests: Map<number, RequestIndex>;
  byId?: Map<number, Message>;
}

const cache = new WeakMap<TraceView, ViewIndex>();

function index(view: TraceView): ViewIndex {
  let ix = cache.get(view);
  if (ix) return ix;
  const requests = new Map<number, RequestIndex>();
  let sorted = true;
  for (let i = 1; i < view.messages.length; i++) {
    if (view.messages[i]!.id < view.messages[i - 1]!.id) { sorted = false; break; }
  }
  const all = sorted ? view.messages : [...view.messages].sort((a, b) => a.id - b.id);
  let cur: RequestIndex | undefined, curReq = NaN;
  for (const m of all) {
    if (m.request !== curReq) {
      curReq = m.request;
      cur = requests.get(curReq);
      if (!cur) { cur = { msgs: [] }; requests.set(curReq, cur); }
    }
    cur!.msgs.push(m);
  }
  ix = { requests };
  cache.set(view, ix);
  return ix;
}

/** Number of messages of a request list whose created <= step (binary search: created grows with id). */
function upperBound(msgs: Message[], step: number): number {
  let lo = 0, hi = msgs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (msgs[mid]!.created <= step) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * The message list at step i of its request (docs/trace-view.md): messages of that request with
 * created <= i and not yet removed, in id order. For an llm_call step it is what the call receives.
 */
export function messagesAt(view: TraceView, stepIndex: number): Message[] {
  const step = view.steps[stepIndex];
  if (!step) return [];
  const r = index(view).requests.get(step.request);
  if (!r) return [];
  const n = upperBound(r.msgs, stepIndex);
  const out: Message[] = [];
  for (let k = 0; k < n; k++) {
    const m = r.msgs[k]!;
    if (m.removed === null || m.removed > stepIndex) out.push(m);
  }
  return out;
}

export interface MessageRow {
  message: Message;
  /** added by this step */
  injected: boolean;
  /** removed by this step: shown as a ghost row at its old position */
  removedHere: boolean;
}

/** messagesAt plus the messages removed by this very step, at their old positions, flagged. */
export function rowsAt(view: TraceView, stepIndex: number): MessageRow[] {
  const step = view.steps[stepIndex];
  if (!step) return [];
  const r = index(view).requests.get(step.request);
  if (!r) return [];
  const n = upperBound(r.msgs, stepIndex);
  const out: MessageRow[] = [];
  for (let k = 0; k < n; k++) {
    const m = r.msgs[k]!;
    if (m.removed === null || m.removed > stepIndex) out.push({ message: m, injected: m.created === stepIndex, removedHere: false });
    else if (m.removed === stepIndex) out.push({ message: m, injected: false, removedHere: true });
  }
  return out;
}

export function messageById(view: TraceView, id: number): Message | undefined {
  const ix = index(view);
  ix.byId ??= new Map(view.messages.map((m) => [m.id, m]));
  return ix.byId.get(id);
}

export function totalTokens(msgs: readonly Message[]): number {
  let t = 0;
  for (const m of msgs) t += m.tokens;
  return t;
}

/** A short human label of a step ("inject ① after_user_input", "LLM call #2", ...). */
export function stepLabel(s: Step): string {
  switch (s.kind) {
    case 'build_messages': return 'build messages';
    case 'inject': return `inject ${s.timing ?? ''}${s.tool ? ` (${s.tool})` : ''}`;
    case 'remove': return `remove ${s.timing ?? ''}`;
    case 'inject_prompt': return `inject prompt ${s.prompt ?? ''}`;
    case 'remove_prompt': return `remove prompt ${s.prompt ?? ''}`;
    case 'llm_call': return s.call === null ? 'LLM call' : `LLM call #${s.call + 1}`;
    case 'append': return 'append assistant tool calls';
    case 'tool_call': return `tool ${s.tool ?? ''}`;
    case 'yield': return `yield ${(s.hooks ?? []).join(', ')}`;
    case 'reply': return 'reply';
  }
}
