// Stand-in backend for `vite dev` / `vite preview` without Go: serves the fixtures so the
// UI can be looked at in a plain browser. `?big=10000` serves a generated trace with that
// many messages at one checkpoint (for render measurements); `?calls=2000` a session of that many
// LLM calls (the paged views: the matrix's columns, the step list); `?empty` starts with no folder.
import seed from '../../fixtures/seed-diagrams.json';
import invalid from '../../fixtures/invalid-trace.json';
import stateFixture from '../../fixtures/studio-state.json';
import { bigTrace } from '../../fixtures/big';
import { manyCalls } from '../../fixtures/manyCalls';
import execTrace from '../../fixtures/exec-trace.json';
import execState from '../../fixtures/exec-state.json';
import type { Hook, HostBehaviour, Skill, StudioEventName, StudioEvents, StudioState, Timing, TraceView } from './types';
import type { StudioBinding } from './index';
import { emptyTrace } from './types';
import { applyOp, canonical, inspect, merge, MOCK_SCHEMA, mockHash, saveResult, SCHEMA_REF } from './mockEdit';

type Listener = (payload: unknown) => void;

export interface MockBackend {
  binding: StudioBinding;
  on: (n: StudioEventName, cb: Listener) => () => void;
  emit: <E extends StudioEventName>(n: E, p: StudioEvents[E]) => void;
  /** the in-memory "disk" (root-relative path → text) */
  files: Map<string, string>;
  /** change a file "on disk" (undefined deletes it) and emit studio:state, as the watcher would */
  writeDisk: (file: string, text: string | undefined) => void;
}

export function createMockBackend(search = ''): MockBackend {
  const params = new URLSearchParams(search);
  const listeners = new Map<string, Set<Listener>>();
  let state: StudioState = structuredClone(stateFixture as StudioState);
  let hostMode: HostBehaviour = 'code';
  const big = Number(params.get('big') ?? 0);
  const sessionCalls = Number(params.get('calls') ?? 0);
  if (params.has('empty')) state = { ...state, root: '', skills: [], scenarios: [], selected: '', errors: 0, warnings: 0, diagnostics: [] };
  // `?exec` serves a run with executable hooks (command and process hooks); `?exec=untrusted` before trusting
  const exec = params.has('exec');
  if (exec) state = structuredClone(execState as unknown as StudioState);
  if (exec && params.get('exec') === 'untrusted') state = { ...state, exec: { ...state.exec!, trusted: false } };
  const traceFor = (file: string): TraceView => {
    if (!file) return emptyTrace();
    const info = state.scenarios.find((s) => s.file === file);
    if (info && !info.valid) return { ...(invalid as TraceView), file, scenario: info.name, diagnostics: info.diagnostics };
    if (big > 0) return bigTrace(big);
    if (sessionCalls > 0) return manyCalls(sessionCalls, 3);
    if (exec) return execTrace as unknown as TraceView;
    return seed as TraceView;
  };
  // as the backend: every view handed out is a newer revision than the one before, whatever its scenario
  let revision = 0;
  const issue = (v: TraceView): TraceView => ({ ...v, revision: ++revision });
  let trace = issue(traceFor(state.selected));
  const emit = <E extends StudioEventName>(n: E, p: StudioEvents[E]) => listeners.get(n)?.forEach((cb) => cb(p));

  // ---- the editing half: files on an in-memory disk, drafts over them ----
  const files = new Map<string, string>();
  const seedFiles = () => {
    files.clear();
    for (const sk of state.skills) {
      if (!sk.has_hooks) continue;
      const hooks = sk.hooks.map((h) => ({ name: h.name, file: h.file, timing: h.timing, role: h.role, persistent: h.persistent, ...(h.tool_filter ? { tool_filter: h.tool_filter } : {}) }));
      files.set(`${sk.dir}/hooks/hooks.json`, JSON.stringify({ hooks }, null, 2) + '\n');
      for (const h of sk.hooks) files.set(`${sk.dir}/hooks/${h.file}`, h.content + '\n');
    }
  };
  seedFiles();
  const drafts = new Map<string, string>();
  const read = (f: string) => drafts.get(f) ?? files.get(f);
  const skillFromFiles = (sk: Skill, view: (f: string) => string | undefined): Skill => {
    const file = `${sk.dir}/hooks/hooks.json`;
    const text = view(file);
    if (text === undefined) return { ...sk, has_hooks: false, hooks: [], diagnostics: [], broken: false };
    const ins = inspect(file, text, (md) => view(`${sk.dir}/hooks/${md}`));
    const hooks: Hook[] = ins.entries.filter((e) => e.ok).map((e) => ({
      skill: sk.name, name: e.name, file: e.file, timing: e.timing as Timing, role: e.role as 'system' | 'user', persistent: e.persistent,
      ...(e.tool_filter ? { tool_filter: e.tool_filter } : {}), content: (view(`${sk.dir}/hooks/${e.file}`) ?? '').trim(), line: e.pos.line,
    }));
    const diagnostics = ins.diagnostics.map((d) => ({ ...d, file }));
    return { ...sk, has_hooks: true, hooks, diagnostics, broken: diagnostics.some((d) => d.severity === 'error') && hooks.length === 0 && ins.entries.length === 0 };
  };
  // only skills whose files were edited are recomputed: the others keep the fixture's data
  const touched = new Set<string>();
  const touch = (file: string) => touched.add(file.split('/')[0]!);
  const refreshState = () => {
    if (touched.size === 0) { state = { ...state, drafts: [...drafts.keys()].sort() }; return; }
    const skills = state.skills.map((sk) => (touched.has(sk.dir) ? skillFromFiles(sk, (f) => files.get(f)) : sk));
    const all = [...skills.flatMap((k) => k.diagnostics), ...state.scenarios.flatMap((x) => x.diagnostics), ...state.diagnostics];
    state = { ...state, skills, drafts: [...drafts.keys()].sort(), errors: all.filter((d) => d.severity === 'error').length, warnings: all.filter((d) => d.severity === 'warning').length };
  };
  const resimulate = (): TraceView => {
    const base = traceFor(state.selected);
    const byHook = new Map<string, string>();
    for (const sk of state.skills) if (touched.has(sk.dir)) for (const h of skillFromFiles(sk, read).hooks) byHook.set(`${sk.name}/${h.name}`, h.content);
    const messages = base.messages.map((m) => {
      if (m.origin !== 'hook' && m.history_of !== 'hook') return m;
      const c = byHook.get(`${m.skill}/${m.hook}`);
      return c !== undefined && c !== m.content ? { ...m, content: c } : m;
    });
    trace = { ...base, messages, revision: ++revision, changes: [], draft: drafts.size > 0, tools: toolsOf(base) };
    return trace;
  };
  const toolsOf = (v: TraceView): string[] => [...new Set([...v.steps.flatMap((s) => (s.tool ? [s.tool] : [])), ...v.calls.flatMap((c) => c.tool_calls?.map((t) => t.name) ?? [])])].sort();
  const inHooks = (file: string) => {
    const p = file.split('/');
    if (p.length < 3 || p[1] !== 'hooks' || p.some((x) => x === '..' || x === '')) throw `${file} is not inside <skill>/hooks/`;
  };
  const writeDisk = (file: string, text: string | undefined) => {
    if (text === undefined) files.delete(file); else files.set(file, text);
    touch(file);
    refreshState();
    emit('studio:state', state);
    emit('studio:trace', resimulate());
  };
  trace = { ...trace, draft: false, tools: toolsOf(trace) };
  state = { ...state, drafts: [] };

  const binding: StudioBinding = {
    State: async () => state,
    OpenFolder: async (path) => {
      state = { ...structuredClone(stateFixture as StudioState), root: path, recent: [path, ...state.recent.filter((r) => r !== path)].slice(0, 8) };
      trace = issue(traceFor(state.selected));
      return state;
    },
    ChooseFolder: async () => binding.OpenFolder(state.root || (stateFixture as StudioState).root),
    SelectScenario: async (file) => {
      state = { ...state, selected: file };
      trace = issue(traceFor(file));
      emit('studio:state', state);
      return trace;
    },
    SetSkillEnabled: async (skill, enabled) => {
      state = { ...state, skills: state.skills.map((s) => (s.name === skill ? { ...s, enabled } : s)) };
      emit('studio:state', state);
      trace = { ...issue(trace), changes: [] };
      return trace;
    },
    Trace: async () => trace,
    SetDraft: async (file, content) => {
      inHooks(file);
      drafts.set(file, content);
      touch(file);
      refreshState();
      emit('studio:state', state);
      return resimulate();
    },
    DiscardDraft: async (file) => {
      drafts.delete(file);
      refreshState();
      emit('studio:state', state);
      return resimulate();
    },
    OpenFile: async (file) => {
      const t = files.get(file);
      return { file, content: t ?? '', hash: mockHash(t ?? ''), exists: t !== undefined };
    },
    InspectHooks: async (file, text) => {
      const skill = file.split('/')[0];
      return inspect(file, text, (md) => read(`${skill}/hooks/${md}`));
    },
    EditHooks: async (file, text, op) => {
      let out: string;
      try { out = applyOp(text, op); } catch (e) { throw e instanceof Error ? e.message : String(e); }
      return binding.InspectHooks(file, out);
    },
    SaveFile: async (file, text, baseHash) => {
      inHooks(file);
      const disk = files.get(file);
      if (disk === undefined && baseHash !== '' && baseHash !== mockHash('')) return saveResult('deleted', '');
      if (disk !== undefined && mockHash(disk) !== baseHash) return saveResult('conflict', mockHash(disk), disk);
      files.set(file, text);
      drafts.delete(file);
      touch(file);
      refreshState();
      emit('studio:state', state);
      emit('studio:trace', resimulate());
      const r = saveResult('saved', mockHash(text));
      if (file.endsWith('/hooks.json')) r.diagnostics = (await binding.InspectHooks(file, text)).diagnostics;
      return r;
    },
    MergeFile: async (_file, base, mine, theirs) => merge(base, mine, theirs),
    CreateSkill: async (name) => {
      if (!name.trim() || /[/\\:*?"<>|]/.test(name) || name.startsWith('.')) throw `invalid-skill-name: "${name}" cannot be a skill folder name`;
      if (state.skills.some((k) => k.name === name) && files.has(`${name}/hooks/hooks.json`)) throw `skill "${name}" already exists`;
      files.set(`${name}/hooks/hooks.json`, JSON.stringify({ $schema: SCHEMA_REF, hooks: [] }, null, 2) + '\n');
      const palette = ['#0ea5e9', '#a855f7', '#f97316', '#14b8a6', '#e11d48'];
      state = { ...state, skills: [...state.skills, { name, dir: name, has_hooks: true, hooks: [], diagnostics: [], broken: false, enabled: true, color: palette[state.skills.length % palette.length]! }] };
      touch(name);
      refreshState();
      emit('studio:state', state);
      return state;
    },
    ExportSkill: async (skill, zip) => {
      const sk = state.skills.find((k) => k.name === skill);
      if (!sk) throw `no skill "${skill}"`;
      if (sk.diagnostics.some((d) => d.severity === 'error')) throw `${skill} has errors; fix them before exporting`;
      return zip ? `/tmp/${skill}.zip` : `/tmp/${skill}`;
    },
    HooksJSONText: async (skill) => {
      const t = files.get(`${skill}/hooks/hooks.json`);
      if (t === undefined) throw `skill "${skill}" has no hooks.json`;
      return canonical(t);
    },
    ImportSkills: async () => state,
    HooksSchema: async () => JSON.stringify(MOCK_SCHEMA, null, 2),
    TrustFolder: async () => {
      if (!state.exec?.present) throw 'this folder has no executable hooks';
      state = { ...state, exec: { ...state.exec, trusted: true, changed: false } };
      emit('studio:state', state);
      return state;
    },
    UntrustFolder: async () => {
      if (state.exec) state = { ...state, exec: { ...state.exec, trusted: false, changed: false } };
      emit('studio:state', state);
      return state;
    },
    HostBehaviour: async () => hostMode,
    SetHostBehaviour: async (mode) => {
      if (mode !== 'code' && mode !== 'document') throw `unknown host behaviour "${String(mode)}": use code or document`;
      hostMode = mode;
      emit('studio:state', state);
      return state;
    },
    CancelSimulation: async () => {
      emit('studio:progress', { active: false, file: state.selected, started_ms: 0, elapsed_ms: 0, steps: 0, hook_calls: 0, status: 'cancelled' });
    },
    Progress: async () => ({ active: false, file: state.selected, started_ms: 0, elapsed_ms: 0, steps: 0, hook_calls: 0 }),
  };
  const on = (n: StudioEventName, cb: Listener) => {
    let set = listeners.get(n);
    if (!set) { set = new Set(); listeners.set(n, set); }
    set.add(cb);
    return () => { set.delete(cb); };
  };
  return { binding, on, emit, files, writeDisk };
}
