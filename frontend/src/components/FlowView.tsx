// The seed's flowchart (000 §5) with the node of the current step highlighted.
import type { HookPoint, Step, TraceView } from '../lib/api';
import { systemLabel } from '../lib/api';
import { hookCallsOf } from '../exec/hookcalls';
import type { BreakpointId } from '../debugger/machine';
import { cx } from './util';

export type NodeId = 'input' | 'cp1' | 'tools' | 'direct' | 'cp2' | 'plan' | 'need' | 'cp3' | 'cp4' | 'agent' | 'tc' | 'run' | 'cp5' | 'exit' | 'end';

const timingNode: Record<string, NodeId> = {
  after_user_input: 'cp1', before_planning: 'cp2', before_each_agent: 'cp3', before_first_agent: 'cp4', after_tool_call: 'cp5',
};

/** The node where executable hooks of a point fire (design-hooks.md's flow around ①–⑤). */
export function nodeOfPoint(point: HookPoint, phase?: Step['phase']): NodeId {
  const llm: NodeId = phase === 'direct' ? 'direct' : phase === 'planning' ? 'plan' : 'agent';
  switch (point) {
    case 'session_start': case 'before_send': case 'after_send': return 'input';
    case 'before_llm': case 'after_llm': return llm;
    case 'before_tool': case 'approve_tool': case 'after_tool': case 'after_tools': return 'run';
    case 'stop': return phase === 'agent' ? 'exit' : 'end';
    case 'before_compact': case 'after_compact': return 'cp3';
    case 'session_end': return 'end';
  }
}
/** Hook points drawn at each node; a click on a node's hook tag breaks on the first. */
export const NODE_POINTS: Partial<Record<NodeId, HookPoint[]>> = {
  input: ['before_send', 'after_send', 'session_start'],
  direct: ['before_llm', 'after_llm', 'stop'], plan: ['before_llm', 'after_llm'], agent: ['before_llm', 'after_llm'],
  run: ['before_tool', 'approve_tool', 'after_tool', 'after_tools'], exit: ['stop'], end: ['session_end', 'stop'], cp3: ['before_compact', 'after_compact'],
};

/** Which flowchart node a step belongs to. */
export function nodeOf(s: Step | undefined): NodeId | null {
  if (!s) return null;
  switch (s.kind) {
    case 'hook_call': return s.hook_call ? nodeOfPoint(s.hook_call.point, s.phase) : null;
    case 'restore': return s.phase === 'direct' ? 'direct' : s.phase === 'planning' ? 'plan' : 'agent';
    case 'compact': return 'cp3';
    case 'build_messages': return 'input';
    case 'reply': return 'end';
    case 'append': case 'tool_call': return 'run';
    case 'llm_call': return s.phase === 'direct' ? 'direct' : s.phase === 'planning' ? 'plan' : 'agent';
    case 'inject_prompt': case 'remove_prompt': return s.prompt === 'planning' ? 'plan' : 'agent';
    case 'remove':
      if (s.timing === 'before_planning') return 'plan';
      if (s.timing === 'before_first_agent' || (s.timing === 'after_tool_call' && s.round === null)) return 'exit';
      return s.timing ? timingNode[s.timing] ?? null : null;
    case 'inject': case 'yield':
      return s.timing ? timingNode[s.timing] ?? null : null;
  }
}

/** For each request: the first step at which each node is reached (computed once per view). */
const firstVisits = new WeakMap<TraceView, Map<number, Map<NodeId, number>>>();

/** The nodes the request of step `cursor` has passed through, up to and including that step. */
export function visitedAt(view: TraceView, cursor: number): Set<NodeId> {
  const visited = new Set<NodeId>();
  const step = view.steps[cursor];
  const req = step ? view.requests[step.request] : undefined;
  if (!step || !req) return visited;
  let byReq = firstVisits.get(view);
  if (!byReq) { byReq = new Map(); firstVisits.set(view, byReq); }
  let first = byReq.get(step.request);
  if (!first) {
    first = new Map();
    for (let i = req.first_step; i <= req.last_step && i < view.steps.length; i++) {
      const n = nodeOf(view.steps[i]);
      if (n && !first.has(n)) first.set(n, i);
    }
    byReq.set(step.request, first);
  }
  for (const [n, i] of first) if (i <= cursor) visited.add(n);
  return visited;
}

interface N { id: NodeId; x: number; y: number; w: number; label: string; sub?: string; cp?: number; shape?: 'diamond' | 'pill' }
const H = 30;
const NODES: N[] = [
  { id: 'input', x: 4, y: 52, w: 80, label: 'user input', sub: 'build messages', shape: 'pill' },
  { id: 'cp1', x: 98, y: 52, w: 118, label: '① after_user_input', cp: 1 },
  { id: 'tools', x: 228, y: 52, w: 58, label: 'tools?', shape: 'diamond' },
  { id: 'direct', x: 330, y: 6, w: 150, label: 'direct LLM call', sub: 'no planning, no loop' },
  { id: 'cp2', x: 300, y: 52, w: 114, label: '② before_planning', cp: 2 },
  { id: 'plan', x: 428, y: 52, w: 104, label: 'planning LLM', sub: 'prompt · call · remove' },
  { id: 'need', x: 546, y: 52, w: 74, label: 'need_tool?', shape: 'diamond' },
  { id: 'end', x: 634, y: 52, w: 62, label: 'end', sub: 'yield · reply', shape: 'pill' },
  { id: 'cp3', x: 14, y: 126, w: 132, label: '③ before_each_agent', sub: 'remove · inject', cp: 3 },
  { id: 'cp4', x: 158, y: 126, w: 134, label: '④ before_first_agent', sub: 'round 0 only', cp: 4 },
  { id: 'agent', x: 304, y: 126, w: 112, label: 'LLM with tools', sub: 'step prompt · call' },
  { id: 'tc', x: 428, y: 126, w: 78, label: 'tool calls?', shape: 'diamond' },
  { id: 'run', x: 428, y: 190, w: 78, label: 'run tools', sub: 'assistant + tool' },
  { id: 'cp5', x: 262, y: 190, w: 154, label: '⑤ after_tool_call', sub: 'remove · inject per tool', cp: 5 },
  { id: 'exit', x: 530, y: 126, w: 116, label: 'leave loop', sub: 'remove ④ and ⑤' },
];
const byId = Object.fromEntries(NODES.map((n) => [n.id, n])) as Record<NodeId, N>;
const right = (n: NodeId) => [byId[n].x + byId[n].w, byId[n].y + H / 2] as const;
const left = (n: NodeId) => [byId[n].x, byId[n].y + H / 2] as const;
const top = (n: NodeId) => [byId[n].x + byId[n].w / 2, byId[n].y] as const;
const bottom = (n: NodeId) => [byId[n].x + byId[n].w / 2, byId[n].y + H] as const;
const h = (a: NodeId, b: NodeId) => `M${right(a).join(',')} L${left(b).join(',')}`;

const EDGES: { d: string; label?: string; lx?: number; ly?: number }[] = [
  { d: h('input', 'cp1') },
  { d: h('cp1', 'tools') },
  { d: h('tools', 'cp2'), label: 'yes', lx: 285, ly: 62 },
  { d: `M${top('tools').join(',')} L${top('tools')[0]},21 L${left('direct').join(',')}`, label: 'no', lx: 262, ly: 32 },
  { d: `M${right('direct').join(',')} L${top('end')[0]},21 L${top('end').join(',')}` },
  { d: h('cp2', 'plan') },
  { d: h('plan', 'need') },
  { d: h('need', 'end'), label: 'no', lx: 620, ly: 62 },
  { d: `M${bottom('need').join(',')} L${bottom('need')[0]},92 L${top('cp3')[0]},92 L${top('cp3').join(',')}`, label: 'yes', lx: 588, ly: 90 },
  { d: h('cp3', 'cp4') },
  { d: h('cp4', 'agent') },
  { d: h('agent', 'tc') },
  { d: `M${bottom('tc').join(',')} L${top('run').join(',')}`, label: 'yes', lx: 472, ly: 178 },
  { d: `M${left('run').join(',')} L${right('cp5').join(',')}` },
  { d: `M${left('cp5').join(',')} L${bottom('cp3')[0]},${left('cp5')[1]} L${bottom('cp3').join(',')}`, label: 'next round', lx: 92, ly: 201 },
  { d: h('tc', 'exit'), label: 'no', lx: 510, ly: 136 },
  { d: `M${right('exit').join(',')} L${bottom('end')[0]},${right('exit')[1]} L${bottom('end').join(',')}` },
];

/** Hook invocations per node in the request of step `cursor` (computed once per view and request). */
const hookCounts = new WeakMap<TraceView, Map<number, Map<NodeId, number>>>();
function hooksAtNodes(view: TraceView, request: number): Map<NodeId, number> {
  let byReq = hookCounts.get(view);
  if (!byReq) { byReq = new Map(); hookCounts.set(view, byReq); }
  let m = byReq.get(request);
  if (!m) {
    m = new Map();
    for (const e of hookCallsOf(view)) {
      if (e.request !== request) continue;
      const n = nodeOfPoint(e.call.point, view.steps[e.step]?.phase);
      m.set(n, (m.get(n) ?? 0) + 1);
    }
    byReq.set(request, m);
  }
  return m;
}

interface Props {
  view: TraceView;
  cursor: number;
  breakpoints: readonly BreakpointId[];
  onToggleCheckpoint: (cp: number) => void;
  /** toggles a breakpoint on a hook point (executable hooks) */
  onToggleEvent?: (point: HookPoint) => void;
}

export function FlowView({ view, cursor, breakpoints, onToggleCheckpoint, onToggleEvent }: Props) {
  const step = view.steps[cursor];
  const current = nodeOf(step);
  const visited = visitedAt(view, cursor);
  const round = step?.round;
  const withHooks = hookCallsOf(view).length > 0 || (view.exec?.hooks.length ?? 0) > 0;
  const counts = withHooks && step ? hooksAtNodes(view, step.request) : null;
  const hc = step?.kind === 'hook_call' ? step.hook_call : undefined;
  const hookNode = hc ? current : null;
  return (
    <div className="flow" aria-label="Request flow">
      <svg viewBox={`0 0 700 ${withHooks ? 252 : 236}`} role="img" aria-label={`flowchart, current node ${current ?? 'none'}${hc ? `, hook ${hc.event}` : ''}`} preserveAspectRatio="xMidYMid meet">
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" className="arrowhead" />
          </marker>
        </defs>
        <rect x="4" y="100" width="692" height="132" rx="10" className="loopbox" />
        <text x="14" y="116" className="looplabel">
          agent loop{round !== null && round !== undefined ? ` · round ${round}` : ''}
        </text>
        {EDGES.map((e, i) => (
          <g key={i}>
            <path d={e.d} className="edge" markerEnd="url(#arrow)" />
            {e.label && <text x={e.lx} y={e.ly} className="edgelabel">{e.label}</text>}
          </g>
        ))}
        {NODES.map((n) => {
          const armed = n.cp ? breakpoints.includes(`checkpoint:${n.cp}`) : false;
          const cls = cx('node', n.shape && `shape-${n.shape}`, !!n.cp && 'is-cp', n.id === current && 'is-current', visited.has(n.id) && 'is-visited');
          return (
            <g
              key={n.id}
              className={cls}
              data-node={n.id}
              onClick={n.cp ? () => onToggleCheckpoint(n.cp!) : undefined}
              style={n.cp ? { cursor: 'pointer' } : undefined}
            >
              <title>{n.cp ? `${n.label} — click to ${armed ? 'remove the' : 'set a'} breakpoint on this checkpoint` : n.label}</title>
              {n.shape === 'diamond' ? (
                <polygon points={`${n.x},${n.y + H / 2} ${n.x + n.w / 2},${n.y - 2} ${n.x + n.w},${n.y + H / 2} ${n.x + n.w / 2},${n.y + H + 2}`} />
              ) : (
                <rect x={n.x} y={n.y} width={n.w} height={H} rx={n.shape === 'pill' ? H / 2 : 6} />
              )}
              <text x={n.x + n.w / 2} y={n.y + (n.sub ? 13 : 19)} className="nlabel" textAnchor="middle">{n.label}</text>
              {n.sub && <text x={n.x + n.w / 2} y={n.y + 25} className="nsub" textAnchor="middle">{n.sub}</text>}
              {armed && <circle cx={n.x + 2} cy={n.y + 2} r={5} className="bpdot" />}
            </g>
          );
        })}
        {counts && NODES.filter((n) => NODE_POINTS[n.id]).map((n) => {
          const count = counts.get(n.id) ?? 0;
          const points = NODE_POINTS[n.id]!;
          const lit = hookNode === n.id;
          const armed = points.some((p) => breakpoints.includes(`event:${p}`));
          return (
            <g
              key={`hk-${n.id}`}
              className={cx('hooktag', lit && 'is-lit', count > 0 && 'has-calls', armed && 'armed')}
              data-hooknode={n.id}
              onClick={onToggleEvent ? () => onToggleEvent(points[0]!) : undefined}
              style={onToggleEvent ? { cursor: 'pointer' } : undefined}
            >
              <title>{`executable hooks here: ${points.join(', ')} — ${count} invocation(s) in this request${onToggleEvent ? `; click to ${armed ? 'remove the' : 'set a'} breakpoint on ${points[0]}` : ''}`}</title>
              <rect x={n.x + n.w - 16} y={n.y - 8} width={count > 9 ? 26 : 20} height={13} rx={6} />
              <text x={n.x + n.w - 12} y={n.y + 2} className="hooktag-label">ϟ{count > 0 ? count : ''}</text>
            </g>
          );
        })}
        {withHooks && (
          <text x={692} y={247} textAnchor="end" className={cx('hookcaption', hc && 'is-lit')} data-testid="flow-hook-caption">
            {hc ? `ϟ ${systemLabel(hc.system)} ${hc.event} · ${hc.hook} → ${hc.outcome}` : 'ϟ executable hook invocations per node (this request)'}
          </text>
        )}
      </svg>
    </div>
  );
}
