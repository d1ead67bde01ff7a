// A run under an agent CLI is that agent's request (issue 33): its own messages (system prompt
// blocks and the context it adds around the prompt, pieces of its request model — placeholders of
// the right size when the model is a bundled shape), the tools each call offered and what of each
// call is whose (TokenSplit). Reading them out of a view, and the call's request body as the agent
// sends it (Studio.CallBody), which only the Go backend writes.
import type { LLMCall, Message, RequestModelKind, TokenSplit, TraceView } from './types';
import { systemLabel } from './systems';
import { hasBackend, Studio } from './wails';

/** The agent's own message: its system prompt's or context's pieces (carried into later requests as history too). */
export function isAgentOwn(m: Message): boolean {
  if (!m.pieces?.length) return false;
  const o = m.origin === 'history' ? m.history_of : m.origin;
  return o === 'system_prompt' || o === 'agent_context';
}

/** Whether an agent's own message is of its system prompt (else of the context around the prompt). */
export const isAgentSystem = (m: Message): boolean => (m.origin === 'history' ? m.history_of : m.origin) === 'system_prompt';

/** The agent's name as its badge says it ("Claude Code"); an agent nobody registered is its name. */
export const agentLabel = (agent: string): string => systemLabel(agent);

/** The command that calibrates an agent's CLI: its rendering profile and its request model, into the data folder. */
export const calibrateCommand = (agent: string): string => `hookctl calibrate ${agent}`;

/** Where the run's request model came from; null when the run is no agent's (seed 000's flow). */
export function requestKind(view: Pick<TraceView, 'agent'>): RequestModelKind | null {
  const a = view.agent;
  if (!a) return null;
  return a.request === 'calibrated' || a.request === 'bundled' ? a.request : 'none';
}

/** The parts of a split in the order the bar draws them, with their labels. */
export const SPLIT_PARTS = [
  { key: 'agent', label: "agent's own", title: "the agent's system prompt and the context it adds" },
  { key: 'tools', label: 'tools', title: "the definitions of the tools it offers" },
  { key: 'hooks', label: 'hooks', title: "your hooks' words: the messages they added and the tool results they wrote" },
  { key: 'conversation', label: 'conversation', title: "the user's prompts, the model's answers and the tools' results" },
] as const satisfies readonly { key: keyof TokenSplit; label: string; title: string }[];

export const splitTotal = (s: TokenSplit): number => s.agent + s.tools + s.hooks + s.conversation;

/** n of total as a percentage a reader can tell apart from zero: one decimal below 10 %, "<0.1%" for a sliver. */
export function share(n: number, total: number): string {
  if (total <= 0 || n <= 0) return '0%';
  const p = (100 * n) / total;
  if (p < 0.1) return '<0.1%';
  return p < 10 ? `${p.toFixed(1)}%` : `${Math.round(p)}%`;
}

const numberFormat = new Intl.NumberFormat('en-US');

/** The split in words, one part a line (a tooltip's text). */
export function splitText(s: TokenSplit): string {
  const total = splitTotal(s);
  return SPLIT_PARTS.map((p) => `${p.label}: ${numberFormat.format(s[p.key])} tokens (${share(s[p.key], total)})`).join('\n');
}

/** The first words of a text on one line, cut at a word near max characters. */
export function firstWords(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return `${flat.slice(0, cut > max / 2 ? cut : max)}…`;
}

/** The pieces a message holds, as named in its request model ("system.3", "turn.5 + turn.7"). */
export const pieceNames = (m: Message): string => (m.pieces ?? []).join(' + ');

/** Whether the call is an agent's (it has a split: seed 000's calls have none). */
export const isAgentCall = (c: LLMCall | undefined): c is LLMCall & { split: TokenSplit } => !!c?.split;

/** The request body call sends (its agent's API's shape, indented), of the live simulation at revision. */
export function callBody(revision: number, call: number): Promise<string> {
  if (!hasBackend()) return Promise.reject(new Error('the request body is written by the Go backend: open the app (or run hookctl simulate --json)'));
  return Studio.CallBody(revision, call);
}
