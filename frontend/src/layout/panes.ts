// Pane sizes of the simulator: what the user asked for (remembered) fitted to the window it
// opens in. The step list is the debugger's main view: it keeps room for STEP_ROWS rows
// whatever else asks for height, and the flowchart and the bottom panel give way first.
import type { SavedLayout } from '../lib/api/layout';

/** Height of a step row (StepList's ROW) and the rows the step list always keeps. */
export const ROW = 26;
export const STEP_ROWS = 8;
/** A splitter's thickness. */
export const SPLIT = 5;
/** The debug bar and the request tabs above the step list (their usual height). */
export const CENTRE_CHROME = 96;
/** A collapsed flowchart's bar and a collapsed bottom panel's tab bar. */
export const FLOW_BAR = 24;
export const TABS_BAR = 34;
/** The smallest open flowchart and bottom panel. */
export const FLOW_MIN = 64;
export const BOTTOM_MIN = 96;
/** Heights as fractions of the main area when the user set none. */
export const FLOW_DEFAULT = 0.25;
export const BOTTOM_DEFAULT = 0.25;
/** The flowchart is never taller than its drawing needs (viewBox 700×252 at 100 %). */
export const FLOW_MAX = 300;

/** Widths. */
export const CENTRE_MIN = 420;
export const SKILLS_MIN = 200;
export const SKILLS_DEFAULT = 280;
export const EDITOR_MIN = 360;
export const MESSAGES_MIN = 300;

/** Defaults that depend on the window's width. */
export const messagesDefault = (width: number) => Math.max(380, Math.round(width * 0.32));
export const editorDefault = (width: number) => Math.max(540, Math.round(width * 0.44));

export interface Widths { left: number; messages: number }
export interface Heights { flow: number; bottom: number; steps: number }

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * Fits the side panes to a main area `width` px wide: the centre keeps CENTRE_MIN; when the
 * two side panes ask for more, both give way in proportion, down to their minimums.
 */
export function fitWidths(width: number, l: SavedLayout, editing: boolean): Widths {
  const leftMin = editing ? EDITOR_MIN : SKILLS_MIN;
  let left = (editing ? l.editor_width : l.skills_width) || (editing ? editorDefault(width) : SKILLS_DEFAULT);
  let messages = l.messages_width || messagesDefault(width);
  left = Math.max(left, leftMin);
  messages = Math.max(messages, MESSAGES_MIN);
  const room = width - CENTRE_MIN - 2 * SPLIT;
  const over = left + messages - room;
  if (over > 0) {
    const give = (left - leftMin) + (messages - MESSAGES_MIN);
    const k = give > 0 ? Math.min(1, over / give) : 0;
    left = Math.round(left - (left - leftMin) * k);
    messages = Math.round(messages - (messages - MESSAGES_MIN) * k);
  }
  return { left, messages };
}

/** The height the step list keeps for its rows. */
export const stepsMin = () => STEP_ROWS * ROW + 4;

/**
 * Fits the flowchart and the bottom panel to a main area `height` px high. The step list keeps
 * stepsMin(); when the two panes ask for more, both give way in proportion, down to their
 * minimums. Collapsed panes take their bar's height.
 */
export function fitHeights(height: number, l: SavedLayout): Heights {
  const flowOpen = !l.flow_collapsed;
  const bottomOpen = !l.bottom_collapsed;
  let flow = flowOpen ? clamp(Math.round((l.flow_height || FLOW_DEFAULT) * height), FLOW_MIN, FLOW_MAX) : FLOW_BAR;
  let bottom = bottomOpen ? Math.max(Math.round((l.bottom_height || BOTTOM_DEFAULT) * height), BOTTOM_MIN) : TABS_BAR;
  const splitters = (flowOpen ? SPLIT : 0) + (bottomOpen ? SPLIT : 0);
  const room = height - CENTRE_CHROME - stepsMin() - splitters;
  const over = flow + bottom - room;
  if (over > 0) {
    const give = (flowOpen ? flow - FLOW_MIN : 0) + (bottomOpen ? bottom - BOTTOM_MIN : 0);
    const k = give > 0 ? Math.min(1, over / give) : 0;
    if (flowOpen) flow = Math.round(flow - (flow - FLOW_MIN) * k);
    if (bottomOpen) bottom = Math.round(bottom - (bottom - BOTTOM_MIN) * k);
  }
  return { flow, bottom, steps: Math.max(0, height - CENTRE_CHROME - splitters - flow - bottom) };
}

/** The sizes a splitter can set: from its pane's minimum to what leaves the others theirs. */
export interface Range { min: number; max: number }

export function flowRange(height: number, bottom: number): Range {
  return { min: FLOW_MIN, max: Math.max(FLOW_MIN, Math.min(FLOW_MAX, height - CENTRE_CHROME - stepsMin() - 2 * SPLIT - bottom)) };
}
export function bottomRange(height: number, flow: number): Range {
  return { min: BOTTOM_MIN, max: Math.max(BOTTOM_MIN, height - CENTRE_CHROME - stepsMin() - 2 * SPLIT - flow) };
}
export function leftRange(width: number, messages: number, editing: boolean): Range {
  const min = editing ? EDITOR_MIN : SKILLS_MIN;
  return { min, max: Math.max(min, width - CENTRE_MIN - 2 * SPLIT - messages) };
}
export function messagesRange(width: number, left: number): Range {
  return { min: MESSAGES_MIN, max: Math.max(MESSAGES_MIN, width - CENTRE_MIN - 2 * SPLIT - left) };
}

/** A height in px as the fraction kept (the backend accepts 0..0.9). */
export function toFraction(px: number, height: number): number {
  if (height <= 0) return 0;
  return Math.min(0.9, Math.max(0.01, Math.round((px / height) * 1000) / 1000));
}

/** What a splitter's key does to its size: arrows move by 16 px (64 with Shift), Home/End go to the ends. */
export function keySize(key: string, shift: boolean, size: number, range: Range, grows: 'up' | 'down' | 'left' | 'right'): number | null {
  const step = shift ? 64 : 16;
  const forward: Record<typeof grows, string> = { up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight' };
  const back: Record<typeof grows, string> = { up: 'ArrowDown', down: 'ArrowUp', left: 'ArrowRight', right: 'ArrowLeft' };
  if (key === forward[grows]) return clamp(size + step, range.min, range.max);
  if (key === back[grows]) return clamp(size - step, range.min, range.max);
  if (key === 'Home') return range.min;
  if (key === 'End') return range.max;
  return null;
}

/** Sizes the backend would refuse are dropped (they return to their defaults). */
export function sanitize(l: SavedLayout | null | undefined): SavedLayout {
  if (!l || typeof l !== 'object') return {};
  const out: SavedLayout = {};
  const width = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 8000 ? Math.round(v) : undefined);
  const frac = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 0.9 ? v : undefined);
  const set = <K extends keyof SavedLayout>(k: K, v: SavedLayout[K] | undefined) => { if (v !== undefined) out[k] = v; };
  set('skills_width', width(l.skills_width));
  set('editor_width', width(l.editor_width));
  set('messages_width', width(l.messages_width));
  set('flow_height', frac(l.flow_height));
  set('bottom_height', frac(l.bottom_height));
  if (l.flow_collapsed === true) out.flow_collapsed = true;
  if (l.bottom_collapsed === true) out.bottom_collapsed = true;
  if (typeof l.trust_read === 'string' && l.trust_read.length <= 256) out.trust_read = l.trust_read;
  if (l.agent_context === true) out.agent_context = true;
  return out;
}
