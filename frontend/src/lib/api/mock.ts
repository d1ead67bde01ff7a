// Stand-in backend for `vite dev` / `vite preview` without Go: serves the fixtures so the
// UI can be looked at in a plain browser. `?big=10000` serves a generated trace with that
// many messages at one checkpoint (for render measurements); `?empty` starts with no folder.
import seed from '../../fixtures/seed-diagrams.json';
import invalid from '../../fixtures/invalid-trace.json';
import stateFixture from '../../fixtures/studio-state.json';
import { bigTrace } from '../../fixtures/big';
import type { StudioBinding, StudioEventName, StudioEvents, StudioState, TraceView } from './types';
import { emptyTrace } from './types';

type Listener = (payload: unknown) => void;

export function createMockBackend(search = ''): { binding: StudioBinding; on: (n: StudioEventName, cb: Listener) => () => void; emit: <E extends StudioEventName>(n: E, p: StudioEvents[E]) => void } {
  const params = new URLSearchParams(search);
  const listeners = new Map<string, Set<Listener>>();
  let state: StudioState = structuredClone(stateFixture as StudioState);
  const big = Number(params.get('big') ?? 0);
  if (params.has('empty')) state = { ...state, root: '', skills: [], scenarios: [], selected: '', errors: 0, warnings: 0, diagnostics: [] };
  const traceFor = (file: string): TraceView => {
    if (!file) return emptyTrace();
    const info = state.scenarios.find((s) => s.file === file);
    if (info && !info.valid) return { ...(invalid as TraceView), file, scenario: info.name, diagnostics: info.diagnostics };
    if (big > 0) return bigTrace(big);
    return seed as TraceView;
  };
  let trace = traceFor(state.selected);
  const emit = <E extends StudioEventName>(n: E, p: StudioEvents[E]) => listeners.get(n)?.forEach((cb) => cb(p));
  const binding: StudioBinding = {
    State: async () => state,
    OpenFolder: async (path) => {
      state = { ...structuredClone(stateFixture as StudioState), root: path, recent: [path, ...state.recent.filter((r) => r !== path)].slice(0, 8) };
      trace = traceFor(state.selected);
      return state;
    },
    ChooseFolder: async () => binding.OpenFolder(state.root || (stateFixture as StudioState).root),
    SelectScenario: async (file) => {
      state = { ...state, selected: file };
      trace = traceFor(file);
      emit('studio:state', state);
      return trace;
    },
    SetSkillEnabled: async (skill, enabled) => {
      state = { ...state, skills: state.skills.map((s) => (s.name === skill ? { ...s, enabled } : s)) };
      emit('studio:state', state);
      trace = { ...trace, revision: trace.revision + 1, changes: [] };
      return trace;
    },
    Trace: async () => trace,
  };
  const on = (n: StudioEventName, cb: Listener) => {
    let set = listeners.get(n);
    if (!set) { set = new Set(); listeners.set(n, set); }
    set.add(cb);
    return () => { set.delete(cb); };
  };
  return { binding, on, emit };
}
