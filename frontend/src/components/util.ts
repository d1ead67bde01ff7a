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
export const cx = (...c: (string | false | null | undefined)[]): string => c.filter(Boolean).join(' ');
