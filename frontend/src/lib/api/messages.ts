import type { Message, Origin, Step, TraceView } from './types';
import { systemLabel } from './systems';

/** Conformance tag notation of a message (design.md): system, user, hook:NAME, prompt:NAME, assistant, tool:NAME, h.*. */
export function tag(m: Pick<Message, 'origin' | 'history_of' | 'hook' | 'prompt' | 'tool'> & { system?: string }): string {
  const base = (o: Origin | undefined): string => {
    switch (o) {
      case 'system_prompt': return 'system';
      case 'user_input': return 'user';
      case 'hook': return m.system ? `${m.system}:${m.hook ?? ''}` : `hook:${m.hook ?? ''}`;
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
  /** an executable hook moved (replaced in place) or hid a message of this request */
  moved: boolean;
}
interface ViewIndex {
  requests: Map<number, RequestIndex>;
  byId?: Map<number, Message>;
  /** listAt results by step, least recently used first */
  lists?: Map<number, ListAt>;
  carried?: Map<number, { messages: number; hookCopies: number }>;
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
      if (!cur) { cur = { msgs: [], moved: false }; requests.set(curReq, cur); }
    }
    cur!.msgs.push(m);
    if (m.pos !== undefined || m.hidden) cur!.moved = true;
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

/** A call-only hook change hides the message at step i (hidden [from, to), to -1 open). */
export function hiddenAt(m: Message, i: number): boolean {
  if (!m.hidden) return false;
  for (const [from, to] of m.hidden) if (from <= i && (to < 0 || to > i)) return true;
  return false;
}
/** The step at which a hidden message was brought back, if it is i. */
const restoredAt = (m: Message, i: number) => !!m.hidden?.some(([, to]) => to === i);
const hiddenHere = (m: Message, i: number) => !!m.hidden?.some(([from]) => from === i);
const place = (m: Message) => m.pos ?? m.id;
function byPlace<T>(rows: T[], msg: (r: T) => Message): T[] {
  return rows.sort((a, b) => place(msg(a)) - place(msg(b)) || msg(a).id - msg(b).id);
}

/**
 * The message list at step i of its request (docs/trace-view.md): messages of that request with
 * created <= i, not yet removed and not hidden by a call-only hook change, in list order (id order
 * unless an executable hook replaced a message in place: then by pos). For an llm_call step it is
 * what the call receives.
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
    if ((m.removed === null || m.removed > stepIndex) && !(r.moved && hiddenAt(m, stepIndex))) out.push(m);
  }
  return r.moved ? byPlace(out, (m) => m) : out;
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
    const live = m.removed === null || m.removed > stepIndex;
    if (r.moved && live && hiddenAt(m, stepIndex)) {
      if (hiddenHere(m, stepIndex)) out.push({ message: m, injected: false, removedHere: true });
      continue;
    }
    if (live) out.push({ message: m, injected: m.created === stepIndex || (r.moved && restoredAt(m, stepIndex)), removedHere: false });
    else if (m.removed === stepIndex) out.push({ message: m, injected: false, removedHere: true });
  }
  return r.moved ? byPlace(out, (row) => row.message) : out;
}

/** The rows at a step with the figures the message list shows, computed in one pass. */
export interface ListAt {
  rows: readonly MessageRow[];
  /** rows that are not ghosts: the messages the step's list holds */
  live: number;
  /** sum of the live messages' tokens */
  tokens: number;
  /** rows injected by this step */
  added: number;
  /** ghost rows (removed by this step) */
  removed: number;
  /** index of the first injected or removed row, -1 if none */
  firstChange: number;
}

/** Steps whose ListAt is kept per view (stepping back and forth, re-renders). */
export const LIST_CACHE_STEPS = 8;

/** rowsAt plus its figures, cached per view and step (LRU of LIST_CACHE_STEPS steps). */
export function listAt(view: TraceView, stepIndex: number): ListAt {
  const ix = index(view);
  const lists = (ix.lists ??= new Map());
  const hit = lists.get(stepIndex);
  if (hit) {
    lists.delete(stepIndex);
    lists.set(stepIndex, hit);
    return hit;
  }
  const rows = rowsAt(view, stepIndex);
  let live = 0, tokens = 0, added = 0, removed = 0, firstChange = -1;
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    if (r.removedHere) removed++;
    else { live++; tokens += r.message.tokens; }
    if (r.injected) added++;
    if (firstChange < 0 && (r.injected || r.removedHere)) firstChange = k;
  }
  const out: ListAt = { rows, live, tokens, added, removed, firstChange };
  lists.set(stepIndex, out);
  if (lists.size > LIST_CACHE_STEPS) lists.delete(lists.keys().next().value!);
  return out;
}

/** The history messages a request carries in, counted (cached per view). */
export function carriedIn(view: TraceView, request: number): { messages: number; hookCopies: number } {
  const ix = index(view);
  if (!ix.carried) {
    ix.carried = new Map();
    for (const m of view.messages) {
      if (m.origin !== 'history') continue;
      let c = ix.carried.get(m.request);
      if (!c) { c = { messages: 0, hookCopies: 0 }; ix.carried.set(m.request, c); }
      c.messages++;
      if (m.history_of === 'hook') c.hookCopies++;
    }
  }
  return ix.carried.get(request) ?? { messages: 0, hookCopies: 0 };
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
    case 'hook_call': return s.hook_call ? `${systemLabel(s.hook_call.system)} ${s.hook_call.event} ${s.hook_call.hook}` : 'hook call';
    case 'restore': return 'restore (call-only hook changes undone)';
    case 'compact': return 'compact the conversation';
  }
}
