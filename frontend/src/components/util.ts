import type { Skill } from '../lib/api';
import { CHECKPOINT_GLYPHS } from '../lib/api';

export const glyph = (n: number | undefined): string => (n ? CHECKPOINT_GLYPHS[n] ?? '' : '');

/** skill name → css colour, with a stable fallback for skills the state does not list */
export function skillColors(skills: readonly Skill[] | undefined): (skill: string | undefined) => string {
  const m = new Map((skills ?? []).map((s) => [s.name, s.color]));
  return (skill) => {
    if (!skill) return 'var(--muted)';
    const c = m.get(skill);
    if (c) return c;
    let h = 0;
    for (const ch of skill) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    return `hsl(${h % 360} 60% 50%)`;
  };
}

// one formatter: Number#toLocaleString builds a new one (locale lookup included) on every call
const numberFormat = new Intl.NumberFormat('en-US');
export const fmt = (n: number): string => numberFormat.format(n);
/** A number in a narrow column: 9,999 as is, then 12.3k, 6.96M. */
export function fmtShort(n: number): string {
  const a = Math.abs(n);
  if (a < 10_000) return fmt(n);
  if (a < 1_000_000) return `${(n / 1000).toFixed(a < 100_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(a < 10_000_000 ? 2 : a < 100_000_000 ? 1 : 0)}M`;
}
export const cx = (...c: (string | false | null | undefined)[]): string => c.filter(Boolean).join(' ');
