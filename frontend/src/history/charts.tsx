// Small SVG charts for the run history: a bar chart (tokens per LLM call of a run) and a line
// chart (a hook's cost across runs, prompt size over time). No library: scales, axes, ticks
// and a hover tooltip drawn here. Colours come from the CSS variables, so both themes work.
import { useId, useState, type ReactNode } from 'react';
import type { HookPoint, PromptPoint } from '../lib/api/history';
import type { RunSource } from '../paged/source';
import { useSource } from '../paged/source';

/** Round tick values covering [0, max]: 1, 2 or 5 times a power of ten apart. */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

export const fmtTokens = (n: number): string => (Math.abs(n) >= 10_000 ? `${(n / 1000).toFixed(Math.abs(n) >= 100_000 ? 0 : 1)}k` : String(n));

const W = 520, H = 200;
const M = { top: 14, right: 14, bottom: 40, left: 50 };
const PW = W - M.left - M.right, PH = H - M.top - M.bottom;

interface Tip { x: number; y: number; lines: string[] }

function Tooltip({ tip }: { tip: Tip | null }) {
  if (!tip) return null;
  const w = Math.max(...tip.lines.map((l) => l.length)) * 6.2 + 14, h = tip.lines.length * 14 + 8;
  const x = Math.min(Math.max(tip.x - w / 2, 2), W - w - 2);
  const y = tip.y - h - 8 < 2 ? tip.y + 10 : tip.y - h - 8;
  return (
    <g className="chart-tip" pointerEvents="none" data-testid="chart-tip">
      <rect x={x} y={y} width={w} height={h} rx={4} />
      {tip.lines.map((l, i) => <text key={i} x={x + 7} y={y + 16 + i * 14}>{l}</text>)}
    </g>
  );
}

function Frame({ title, yLabel, xLabel, ticks, yMax, children, empty, legend }: {
  title: string; yLabel: string; xLabel: string; ticks: number[]; yMax: number; children: ReactNode; empty?: string; legend?: ReactNode;
}) {
  const id = useId();
  const y = (v: number) => M.top + PH - (yMax > 0 ? (v / yMax) * PH : 0);
  return (
    <figure className="chart">
      <figcaption id={id}>{title}{legend}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={id} preserveAspectRatio="xMidYMid meet">
        {ticks.map((t) => (
          <g key={t} className="tick">
            <line className="grid" x1={M.left} x2={M.left + PW} y1={y(t)} y2={y(t)} />
            <text className="ylab" x={M.left - 6} y={y(t) + 3.5} textAnchor="end">{fmtTokens(t)}</text>
          </g>
        ))}
        <line className="axis" x1={M.left} x2={M.left} y1={M.top} y2={M.top + PH} />
        <line className="axis" x1={M.left} x2={M.left + PW} y1={M.top + PH} y2={M.top + PH} />
        <text className="axis-title" transform={`translate(12 ${M.top + PH / 2}) rotate(-90)`} textAnchor="middle">{yLabel}</text>
        <text className="axis-title" x={M.left + PW / 2} y={H - 4} textAnchor="middle">{xLabel}</text>
        {empty ? <text className="chart-empty" x={M.left + PW / 2} y={M.top + PH / 2} textAnchor="middle">{empty}</text> : children}
      </svg>
    </figure>
  );
}

/** `ghost`: a second value drawn as an outline behind the bar (e.g. the other run of a comparison). */
export interface Bar { label: string; value: number; tip: string[]; highlight?: boolean; ghost?: number }

export function BarChart({ title, bars, yLabel, xLabel, onBar, empty = 'no data', legend }: {
  title: string; bars: Bar[]; yLabel: string; xLabel: string; onBar?: (i: number) => void; empty?: string; legend?: ReactNode;
}) {
  const [tip, setTip] = useState<Tip | null>(null);
  const ticks = niceTicks(Math.max(0, ...bars.map((b) => Math.max(b.value, b.ghost ?? 0))));
  const yMax = ticks[ticks.length - 1] ?? 0;
  const slot = bars.length ? PW / bars.length : PW;
  const bw = Math.max(2, Math.min(48, slot * 0.7));
  const every = Math.max(1, Math.ceil(bars.length / 16)); // thin the x labels
  return (
    <Frame title={title} yLabel={yLabel} xLabel={xLabel} ticks={ticks} yMax={yMax} empty={bars.length ? undefined : empty} legend={legend}>
      {bars.map((b, i) => {
        const h = yMax > 0 ? (b.value / yMax) * PH : 0;
        const x = M.left + i * slot + (slot - bw) / 2, y = M.top + PH - h;
        const gh = b.ghost !== undefined && yMax > 0 ? (b.ghost / yMax) * PH : 0;
        return (
          <g key={i}>
            <rect className={b.highlight ? 'bar is-hl' : 'bar'} x={x} y={y} width={bw} height={Math.max(h, 0.5)} rx={2} pointerEvents="none" />
            {/* the bar's whole column takes the pointer: a thin bar is easy to miss */}
            <rect
              className="bar-hit" data-testid="bar" x={M.left + i * slot} y={M.top} width={slot} height={PH}
              onMouseEnter={() => setTip({ x: x + bw / 2, y, lines: b.tip })} onMouseLeave={() => setTip(null)}
              onClick={onBar ? () => onBar(i) : undefined} style={onBar ? { cursor: 'pointer' } : undefined}
            >
              <title>{b.tip.join('\n')}</title>
            </rect>
            {b.ghost !== undefined && <rect className="bar-ghost" data-testid="bar-ghost" x={x - 2} y={M.top + PH - gh} width={bw + 4} height={Math.max(gh, 0.5)} rx={2} pointerEvents="none" />}
            {i % every === 0 && <text className="xlab" x={x + bw / 2} y={M.top + PH + 14} textAnchor="middle">{b.label}</text>}
          </g>
        );
      })}
      <Tooltip tip={tip} />
    </Frame>
  );
}

export interface Series { name: string; className: string; values: number[] }
export interface LinePoint { label: string; tip: string[]; marker?: string /* a reason to mark this x, e.g. "prompt edited" */ }

export function LineChart({ title, points, series, yLabel, xLabel, empty = 'no data' }: {
  title: string; points: LinePoint[]; series: Series[]; yLabel: string; xLabel: string; empty?: string;
}) {
  const [tip, setTip] = useState<Tip | null>(null);
  const ticks = niceTicks(Math.max(0, ...series.flatMap((s) => s.values)));
  const yMax = ticks[ticks.length - 1] ?? 0;
  const n = points.length;
  const x = (i: number) => M.left + (n <= 1 ? PW / 2 : 8 + (i * (PW - 16)) / (n - 1));
  const y = (v: number) => M.top + PH - (yMax > 0 ? (v / yMax) * PH : 0);
  const every = Math.max(1, Math.ceil(n / 8));
  const legend = series.length > 1 || points.some((p) => p.marker) ? (
    <span className="legend">
      {series.map((s) => <span key={s.name} className={`key ${s.className}`}><i />{s.name}</span>)}
      {points.some((p) => p.marker) && <span className="key marker-key"><i />prompt edited</span>}
    </span>
  ) : null;
  return (
    <Frame title={title} yLabel={yLabel} xLabel={xLabel} ticks={ticks} yMax={yMax} empty={n ? undefined : empty} legend={legend}>
      {points.map((p, i) => p.marker && (
        <g key={`m${i}`} className="edit-marker" data-testid="edit-marker">
          <line x1={x(i)} x2={x(i)} y1={M.top} y2={M.top + PH} />
          <path d={`M${x(i)} ${M.top - 1} l5 -7 h-10 z`}><title>{p.marker}</title></path>
        </g>
      ))}
      {series.map((s) => (
        <g key={s.name} className={`series ${s.className}`}>
          {n > 1 && <polyline points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(' ')} />}
          {s.values.map((v, i) => (
            <circle
              key={i} data-testid="point" cx={x(i)} cy={y(v)} r={3.5}
              onMouseEnter={() => setTip({ x: x(i), y: y(v), lines: [`${s.name}: ${v.toLocaleString()}`, ...points[i]!.tip] })}
              onMouseLeave={() => setTip(null)}
            >
              <title>{[`${s.name}: ${v}`, ...points[i]!.tip].join('\n')}</title>
            </circle>
          ))}
        </g>
      ))}
      {points.map((p, i) => i % every === 0 && (
        <text key={`l${i}`} className="xlab" x={x(i)} y={M.top + PH + 14} textAnchor={n > 2 && i === n - 1 ? 'end' : n > 2 && i === 0 ? 'start' : 'middle'}>{p.label}</text>
      ))}
      <Tooltip tip={tip} />
    </Frame>
  );
}

const shortDate = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
};

/** Tokens per LLM call across one run (prompt tokens of each call). */
/** Bars the tokens-per-call chart draws at most: a run of more calls shows each span's largest prompt. */
export const CHART_BARS = 80;

export function TokensPerCallChart({ source, title = 'Prompt tokens per LLM call', onCall }: { source: RunSource | null; title?: string; onCall?: (call: number) => void }) {
  useSource(source, 'head', 'bars');
  const spans = source?.bars(CHART_BARS) ?? [];
  const bars: Bar[] = spans.map((b) => {
    const calls = b.first === b.last ? `LLM call #${b.first + 1}` : `LLM calls #${b.first + 1}–#${b.last + 1}`;
    return {
      label: `#${b.first + 1}`, value: Math.max(b.max, 0),
      tip: [`${calls}: ${b.max.toLocaleString()} tokens${b.first === b.last ? '' : ` (the largest, #${b.max_call + 1})`}`, ...(b.pending ? ['tokens still being counted'] : [])],
    };
  });
  const loading = source !== null && source.head().calls > 0 && spans.length === 0;
  return <BarChart title={title} bars={bars} yLabel="tokens" xLabel="LLM call" onBar={onCall ? (i) => onCall(spans[i]!.max_call) : undefined}
    empty={loading ? 'loading…' : 'this run made no LLM calls'} />;
}

/** A hook's token cost across runs; a marker where its text changed (the prompt was edited). */
export function HookCostChart({ hook, points }: { hook: string; points: HookPoint[] }) {
  const lp: LinePoint[] = points.map((p, i) => ({
    label: `#${p.run}`,
    tip: [`run #${p.run} · ${shortDate(p.started)} · ${p.source}`, `seen by ${p.calls_seen} calls, ${p.copies_seen} copies`],
    ...(i > 0 && p.content_hash !== points[i - 1]!.content_hash ? { marker: `run #${p.run}: the prompt text changed` } : {}),
  }));
  return (
    <LineChart
      title={`Token cost of ${hook || 'a hook'} across runs`} points={lp} yLabel="tokens" xLabel="run"
      series={[{ name: 'tokens (all calls)', className: 's1', values: points.map((p) => p.tokens_total) }]}
      empty={hook ? 'no runs used this hook yet' : 'pick a hook'}
    />
  );
}

/** A scenario's prompt size over its runs: total prompt tokens and the largest call. */
export function PromptSizeChart({ scenario, points }: { scenario: string; points: PromptPoint[] }) {
  const days = new Set(points.map((p) => new Date(p.started).toDateString()));
  const label = (iso: string) => (days.size <= 1 ? new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }) : shortDate(iso).replace(/,.*$/, ''));
  const lp: LinePoint[] = points.map((p) => ({ label: label(p.started), tip: [`run #${p.run} · ${shortDate(p.started)} · ${p.source}`, `${p.llm_calls} LLM calls`] }));
  return (
    <LineChart
      title={`Prompt size over time${scenario ? ` — ${scenario}` : ''}`} points={lp} yLabel="tokens" xLabel="run (oldest → newest)"
      series={[
        { name: 'tokens in (all calls)', className: 's1', values: points.map((p) => p.tokens_in) },
        { name: 'largest prompt', className: 's2', values: points.map((p) => p.max_prompt_tokens) },
      ]}
      empty={scenario ? 'no runs of this scenario yet' : 'pick a scenario'}
    />
  );
}
