// Which form field a validator diagnostic belongs to, from the positions InspectHooks reports.
import type { Diagnostic, HookEntry } from '../lib/api';

export interface Placed {
  /** diagnostics by entry index, then by field key ('' = the entry as a whole) */
  byEntry: Map<number, Map<string, Diagnostic[]>>;
  /** diagnostics outside every entry (syntax errors, top-level fields) */
  file: Diagnostic[];
}

const entryLine = (e: HookEntry): number => e.pos.line;

export function placeDiagnostics(entries: readonly HookEntry[], diagnostics: readonly Diagnostic[]): Placed {
  const byEntry = new Map<number, Map<string, Diagnostic[]>>();
  const file: Diagnostic[] = [];
  const sorted = [...entries].sort((a, b) => entryLine(a) - entryLine(b));
  const add = (i: number, key: string, d: Diagnostic) => {
    let m = byEntry.get(i);
    if (!m) { m = new Map(); byEntry.set(i, m); }
    m.set(key, [...(m.get(key) ?? []), d]);
  };
  for (const d of diagnostics) {
    let placed = false;
    // 1. exactly at a field's value
    for (const e of entries) {
      const k = Object.entries(e.fields ?? {}).find(([, p]) => p.line === d.line && p.column === d.column)?.[0];
      if (k !== undefined) { add(e.index, k, d); placed = true; break; }
    }
    if (placed) continue;
    // 2. on a field's line (e.g. an element inside tool_filter, or the key itself)
    for (const e of entries) {
      const k = Object.entries(e.fields ?? {}).find(([, p]) => p.line === d.line)?.[0];
      if (k !== undefined) { add(e.index, k, d); placed = true; break; }
    }
    if (placed) continue;
    // 3. inside an entry (a missing field is reported at its '{')
    let owner: HookEntry | undefined;
    for (const e of sorted) if (entryLine(e) > 0 && entryLine(e) <= d.line) owner = e;
    const last = sorted[sorted.length - 1];
    const maxLine = owner && owner === last ? Math.max(entryLine(owner), ...Object.values(owner.fields ?? {}).map((p) => p.line)) + 1 : Infinity;
    if (owner && d.line <= maxLine) add(owner.index, '', d);
    else file.push(d);
  }
  return { byEntry, file };
}

export const fieldDiags = (p: Placed, index: number, key: string): Diagnostic[] => p.byEntry.get(index)?.get(key) ?? [];
export const entryDiags = (p: Placed, index: number): Diagnostic[] => [...(p.byEntry.get(index)?.values() ?? [])].flat();
