// One registry of the app's commands: what each is called, its keys, when it applies and what it
// does. The window's key handling (KeyDispatch) and the shortcuts help (HelpOverlay) both read it,
// so a shortcut that works is one the help lists, and the other way round.
//
// Keys are written as the help shows them: modifiers then the key, joined by "+". "Ctrl" is the
// Control key; "Mod" is Control or ⌘ (shown as Ctrl); "Shift", "Alt"; keys are KeyboardEvent.key
// names ("F10", "Home"), "Esc", "Space", or one character ("?", "J"). Modifiers must be exactly
// the ones written, except Shift with a character that is not a letter ("?" is typed with Shift).

export interface Command {
  /** stable name, "area.action" */
  id: string;
  /** what it does, for the help */
  label: string;
  keys: readonly string[];
  /** the help's section */
  group: string;
  /** applies now (default: always); a key whose command does not apply goes to the next one */
  when?: (e: KeyboardEvent) => boolean;
  /** absent: the key belongs to a widget (an editor's completion, a menu); listed in the help only */
  run?: (e: KeyboardEvent) => void;
  /** also while a text field has the focus (never for a character without Ctrl or Alt: that is text) */
  typing?: boolean;
  /** before the focused element sees the key (the window's capture phase), e.g. so the editor's
   *  own undo does not run as well */
  early?: boolean;
}

interface Chord { key: string; ctrl: boolean; mod: boolean; shift: boolean; alt: boolean }

const ALIASES: Record<string, string> = { Esc: 'Escape', Space: ' ' };

export function parseKey(spec: string): Chord {
  const parts = spec.split('+');
  const key = parts.pop() ?? '';
  const c: Chord = { key: ALIASES[key] ?? key, ctrl: false, mod: false, shift: false, alt: false };
  for (const m of parts) {
    if (m === 'Ctrl') c.ctrl = true;
    else if (m === 'Mod') c.mod = true;
    else if (m === 'Shift') c.shift = true;
    else if (m === 'Alt') c.alt = true;
    else throw new Error(`key "${spec}": unknown modifier "${m}" (Ctrl, Mod, Shift, Alt)`);
  }
  return c;
}

const isChar = (k: string) => k.length === 1;
const isLetter = (k: string) => isChar(k) && k.toLowerCase() !== k.toUpperCase();
/** A character without Ctrl or Alt: in a text field, that is text. */
const isText = (c: Chord) => isChar(c.key) && !c.ctrl && !c.mod && !c.alt;

type KeyFields = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

export function matches(e: KeyFields, c: Chord): boolean {
  const letter = isLetter(c.key);
  if (letter ? e.key.toLowerCase() !== c.key.toLowerCase() : e.key !== c.key) return false;
  if (c.ctrl ? !e.ctrlKey : c.mod ? !(e.ctrlKey || e.metaKey) : e.ctrlKey || e.metaKey) return false;
  if (c.ctrl && e.metaKey) return false;
  if (e.altKey !== c.alt) return false;
  return isChar(c.key) && !letter ? true : e.shiftKey === c.shift;
}

/** The focus is in a text field: keys are text there, not shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  if (!t || typeof t.tagName !== 'string') return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA') return true;
  return t.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit', 'range', 'color', 'file'].includes((t as HTMLInputElement).type);
}

/** The key as the help shows it ("Mod" is Ctrl). */
export const keyLabel = (spec: string): string => spec.split('+').map((p) => (p === 'Mod' ? 'Ctrl' : p)).join('+');

export class CommandRegistry {
  private readonly list: Command[] = [];
  private readonly chords = new Map<Command, Chord[]>();
  // an event an early command took is not handled again when it bubbles back to the window
  private readonly handled = new WeakSet<Event>();

  constructor(commands: readonly Command[] = []) {
    for (const c of commands) this.add(c);
  }

  add(c: Command): void {
    if (this.list.some((x) => x.id === c.id)) throw new Error(`command ${c.id} is registered twice`);
    this.list.push(c);
    this.chords.set(c, c.keys.map(parseKey));
  }

  /** Every command, in the order they were registered (which decides between two on one key). */
  get commands(): readonly Command[] { return this.list; }

  byId(id: string): Command | undefined { return this.list.find((c) => c.id === id); }

  /** The command a key runs now, or undefined. */
  find(e: KeyboardEvent, early: boolean): Command | undefined {
    const typing = isTyping(e.target);
    for (const c of this.list) {
      if (!c.run || !!c.early !== early) continue;
      const chord = this.chords.get(c)!.find((k) => matches(e, k));
      if (!chord) continue;
      if (typing && (!c.typing || isText(chord))) continue;
      if (c.when && !c.when(e)) continue;
      return c;
    }
    return undefined;
  }

  /** Runs the command for a key, if any; true when one ran. */
  handle(e: KeyboardEvent, early = false): boolean {
    if (this.handled.has(e)) return false;
    const c = this.find(e, early);
    if (!c) return false;
    this.handled.add(e);
    e.preventDefault();
    c.run!(e);
    return true;
  }

  /** Handles the window's keys (capture phase for early commands); returns the undo. */
  listen(target: Window = window): () => void {
    const early = (e: KeyboardEvent) => { this.handle(e, true); };
    const late = (e: KeyboardEvent) => { this.handle(e, false); };
    target.addEventListener('keydown', early, true);
    target.addEventListener('keydown', late);
    return () => {
      target.removeEventListener('keydown', early, true);
      target.removeEventListener('keydown', late);
    };
  }

  /** The help's rows: each group's commands with their keys. */
  groups(): { group: string; commands: Command[] }[] {
    const out: { group: string; commands: Command[] }[] = [];
    for (const c of this.list) {
      let g = out.find((x) => x.group === c.group);
      if (!g) out.push((g = { group: c.group, commands: [] }));
      g.commands.push(c);
    }
    return out;
  }
}
