// The run's loop — its agent's (Claude Code, Codex, …) or the simulated agent's (seed 000 §5) — as the
// backend gives it (the flow of a view, or a paged run's head; app/agents/loop): nodes, edges, the hook events at each node, and the
// node of each step. The current step's node is lit; a click on a checkpoint or an event sets a breakpoint.
import type { FlowEdge, FlowLoop, FlowNode, FlowSide } from '../lib/api';
import { subagentLabel, subagentOf, systemLabel } from '../lib/api';
import type { BreakpointId } from '../debugger/machine';
import type { RunSource } from '../paged/source';
import { useSource } from '../paged/source';
import { cx } from './util';

/** The node of step i of the source's run, or null (also while its step is fetched). */
export function nodeAt(source: RunSource, i: number): FlowNode | null {
  const n = source.step(i)?.node;
  return n === undefined || n < 0 ? null : source.head().loop.nodes[n] ?? null;
}

/** The ids of the nodes the request of step `cursor` has passed through, up to and including that step. */
export function visitedAt(source: RunSource, cursor: number): Set<string> {
  const visited = new Set<string>();
  const step = source.step(cursor);
  const v = step ? source.visits(step.request) : undefined;
  if (v) for (const [n, i] of Object.entries(v.first)) if (i <= cursor) visited.add(n);
  return visited;
}

/** Where an edge leaves or enters a node: the middle of a side, moved along it by offset. */
function anchor(n: FlowNode, side: FlowSide, offset: number, h: number): [number, number] {
  switch (side) {
    case 'right': return [n.x + n.w, n.y + h / 2 + offset];
    case 'left': return [n.x, n.y + h / 2 + offset];
    case 'top': return [n.x + n.w / 2 + offset, n.y];
    case 'bottom': return [n.x + n.w / 2 + offset, n.y + h];
  }
}

function edgePath(loop: FlowLoop, byId: Map<string, FlowNode>, e: FlowEdge): string | null {
  const from = byId.get(e.from), to = byId.get(e.to);
  if (!from || !to) return null;
  const h = loop.node_height;
  const pts = [anchor(from, e.exit, e.exit_offset ?? 0, h), ...(e.via ?? []).map((p) => [p.x, p.y] as const), anchor(to, e.enter, e.enter_offset ?? 0, h)];
  return pts.map(([x, y], i) => `${i ? 'L' : 'M'}${x},${y}`).join(' ');
}

/** What a node's hook tag breaks on: its first event (the agent's own), else its first engine point. */
const tagKeys = (n: FlowNode): string[] => (n.events?.length ? n.events : n.points ?? []);

interface Props {
  source: RunSource;
  cursor: number;
  breakpoints: readonly BreakpointId[];
  onToggleCheckpoint: (cp: number) => void;
  /** toggles a breakpoint on an event: an agent's hook event ("PreToolUse") or an engine point ("before_tool") */
  onToggleEvent?: (event: string) => void;
}

export function FlowView({ source, cursor, breakpoints, onToggleCheckpoint, onToggleEvent }: Props) {
  useSource(source, 'head', 'steps');
  const head = source.head();
  const { loop, why } = head;
  const h = loop.node_height;
  const byId = new Map(loop.nodes.map((n) => [n.id, n]));
  const step = source.step(cursor);
  const current = nodeAt(source, cursor);
  const visited = visitedAt(source, cursor);
  const round = step?.round;
  const withHooks = head.hookCalls > 0 || head.execHooks > 0;
  const counts = withHooks && step ? source.visits(step.request)?.hooks ?? null : null;
  const hc = step?.kind === 'hook_call' ? step.hook_call : undefined;
  // a sub-agent runs the same loop, nested under the call that started it
  const nested = step ? subagentOf(head.requests, step.request) : null;
  const armedEvent = (keys: readonly string[]) => keys.some((k) => breakpoints.includes(`event:${k}`));
  const about = `${loop.title} — ${why}.\nRead in: ${loop.sources.join('; ')}.${loop.elsewhere.length ? `\nNever fire in this loop: ${loop.elsewhere.join(', ')}.` : ''}`;
  return (
    <div className="flow" aria-label="Request flow" data-loop={loop.id}>
      <svg viewBox={`0 0 ${loop.width} ${loop.height + (withHooks ? 16 : 0)}`} role="img"
        aria-label={`flowchart of ${loop.title}, current node ${current?.id ?? 'none'}${hc ? `, hook ${hc.event}` : ''}`} preserveAspectRatio="xMidYMid meet">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="arrowhead" />
          </marker>
        </defs>
        <text x={loop.title_at.x} y={loop.title_at.y} className="looptitle" data-testid="flow-title"><title>{about}</title>{loop.title}</text>
        <rect x={loop.frame.x} y={loop.frame.y} width={loop.frame.w} height={loop.frame.h} rx="10" className="loopbox" />
        {nested && (
          <text x={loop.width - 8} y={loop.title_at.y} textAnchor="end" className="looptitle subagent-title" data-testid="flow-subagent">
            <title>{`This request is a sub-agent's run — ${subagentLabel(nested.sub)} (${nested.sub.agent_id ?? ''}) — nested under LLM call #${nested.sub.call + 1}: its hooks fire in this loop.`}</title>
            {'↳ '.repeat(nested.depth)}sub-agent {nested.sub.type || ''} · from LLM call #{nested.sub.call + 1}
          </text>
        )}
        <text x={loop.frame.label_at.x} y={loop.frame.label_at.y} className="looplabel">
          {loop.frame.label}{round !== null && round !== undefined ? ` · round ${round}` : ''}
        </text>
        {loop.edges.map((e, i) => {
          const d = edgePath(loop, byId, e);
          return d && (
            <g key={i}>
              <path d={d} className={cx('edge', e.dashed && 'is-dashed')} markerEnd="url(#arrow)" />
              {e.label && e.label_at && <text x={e.label_at.x} y={e.label_at.y} className="edgelabel">{e.label}</text>}
            </g>
          );
        })}
        {loop.nodes.map((n) => {
          const cp = n.checkpoint ?? 0;
          const events = n.events ?? [];
          const armed = cp ? breakpoints.includes(`checkpoint:${cp}`) : armedEvent(events);
          const toggle = cp ? () => onToggleCheckpoint(cp) : events[0] && onToggleEvent ? () => onToggleEvent(events[0]!) : undefined;
          const cls = cx('node', `kind-${n.kind}`, !!cp && 'is-cp', n.id === current?.id && 'is-current', visited.has(n.id) && 'is-visited');
          const what = cp ? 'this checkpoint' : events.length ? events[0] : '';
          return (
            <g key={n.id} className={cls} data-node={n.id} onClick={toggle} style={toggle ? { cursor: 'pointer' } : undefined}>
              <title>{toggle ? `${n.label} — click to ${armed ? 'remove the' : 'set a'} breakpoint on ${what}` : n.label}</title>
              {n.kind === 'decision' ? (
                <polygon points={`${n.x},${n.y + h / 2} ${n.x + n.w / 2},${n.y - 2} ${n.x + n.w},${n.y + h / 2} ${n.x + n.w / 2},${n.y + h + 2}`} />
              ) : (
                <rect x={n.x} y={n.y} width={n.w} height={h} rx={n.kind === 'terminal' ? h / 2 : 6} />
              )}
              <text x={n.x + n.w / 2} y={n.y + (n.sub ? 13 : 19)} className="nlabel" textAnchor="middle">{n.label}</text>
              {n.sub && <text x={n.x + n.w / 2} y={n.y + 25} className="nsub" textAnchor="middle">{n.sub}</text>}
              {armed && <circle cx={n.x + 2} cy={n.y + 2} r={5} className="bpdot" />}
            </g>
          );
        })}
        {counts && loop.nodes.filter((n) => tagKeys(n).length > 0).map((n) => {
          const count = counts[n.id] ?? 0;
          const keys = tagKeys(n);
          const lit = !!hc && current?.id === n.id;
          const armed = armedEvent([...(n.events ?? []), ...(n.points ?? [])]);
          return (
            <g
              key={`hk-${n.id}`}
              className={cx('hooktag', lit && 'is-lit', count > 0 && 'has-calls', armed && 'armed')}
              data-hooknode={n.id}
              onClick={onToggleEvent ? () => onToggleEvent(keys[0]!) : undefined}
              style={onToggleEvent ? { cursor: 'pointer' } : undefined}
            >
              <title>{`executable hooks here: ${keys.join(', ')} — ${count} invocation(s) in this request${onToggleEvent ? `; click to ${armed ? 'remove the' : 'set a'} breakpoint on ${keys[0]}` : ''}`}</title>
              <rect x={n.x + n.w - 16} y={n.y - 8} width={count > 9 ? 26 : 20} height={13} rx={6} />
              <text x={n.x + n.w - 12} y={n.y + 2} className="hooktag-label">ϟ{count > 0 ? count : ''}</text>
            </g>
          );
        })}
        {withHooks && (
          <text x={loop.width - 8} y={loop.height + 11} textAnchor="end" className={cx('hookcaption', hc && 'is-lit')} data-testid="flow-hook-caption">
            {hc ? `ϟ ${systemLabel(hc.system)} ${hc.event} · ${hc.hook} → ${hc.outcome}` : 'ϟ executable hook invocations per node (this request)'}
          </text>
        )}
      </svg>
    </div>
  );
}
