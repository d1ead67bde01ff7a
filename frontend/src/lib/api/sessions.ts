// The bound Sessions service: the agents' sessions on this machine (Claude Code's and Codex's
// transcripts, Gemini CLI's, Qwen Code's and Copilot CLI's logs), imported into the run history (app/capture/sessions). Without the Go backend an
// in-memory mock lists a few sessions and "imports" them, so the view can be tried and tested.
import type { bind, sessions } from './models';
import type { Refine } from './types';
import { hasBackend, on, Sessions } from './wails';

export type SessionAgent = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'copilot-cli';
/** the agents whose sessions are listed: their name, and the folder each keeps them in (SessionLocations' field, what it is, its default) */
export const SESSION_AGENTS: { id: SessionAgent; name: string; folder: keyof SessionLocations; label: string; where: string }[] = [
  { id: 'claude-code', name: 'Claude Code', folder: 'claude', label: 'Claude Code projects folder', where: '~/.claude/projects' },
  { id: 'codex', name: 'Codex', folder: 'codex', label: 'Codex sessions folder', where: '$CODEX_HOME/sessions' },
  { id: 'gemini-cli', name: 'Gemini CLI', folder: 'gemini', label: 'Gemini CLI chats folder', where: '~/.gemini/tmp' },
  { id: 'qwen-code', name: 'Qwen Code', folder: 'qwen', label: 'Qwen Code projects folder', where: '~/.qwen/projects' },
  { id: 'copilot-cli', name: 'Copilot CLI', folder: 'copilot', label: 'Copilot CLI sessions folder', where: '~/.copilot/session-state' },
];
/** sessions.Summary: a session as listed; started/ended/modified are RFC 3339 */
export type SessionSummary = Refine<sessions.Summary, { agent: SessionAgent; started: string; ended: string; modified: string }>;
/** sessions.Filter; empty fields do not filter */
export type SessionFilter = Refine<sessions.Filter, { agent: SessionAgent | '' }>;
export type SessionLocations = sessions.Locations;
/** sessions.Session: what an import read (calls exact or rebuilt, notes, record types not shown) */
export type SessionInfo = Refine<sessions.Session, { agent: SessionAgent; started: string; ended: string; calls: Refine<sessions.CallInfo, { params?: unknown }>[]; unknown: Refine<sessions.Unknown, { sample?: unknown }>[] }>;
export type Imported = Refine<bind.Imported, { session: SessionInfo }>;
// The events' payloads (bind.SessionProgress, bind.SessionUpdate): no bound method returns them,
// so the generator does not write them; field for field as in Go.
/** an import's progress: bytes read of the file's */
export interface SessionProgress { file: string; read: number; total: number }
/** a followed session kept again as run (session: what is read so far), a problem following it, or the follow's end */
export interface SessionUpdate { file: string; run: number; session?: SessionInfo; error?: string; following: boolean }

interface SessionsBinding {
  Locations(): Promise<SessionLocations>;
  SetLocations(l: SessionLocations): Promise<SessionLocations>;
  List(f: SessionFilter): Promise<SessionSummary[]>;
  Import(file: string): Promise<Imported>;
  Follow(file: string): Promise<string[]>;
  Unfollow(file: string): Promise<string[]>;
  Following(): Promise<string[]>;
}

const bound: SessionsBinding = {
  Locations: () => Sessions.Locations(),
  SetLocations: (l) => Sessions.SetLocations(l),
  List: (f) => Sessions.List(f as sessions.Filter) as Promise<SessionSummary[]>,
  Import: (file) => Sessions.Import(file) as Promise<Imported>,
  Follow: (file) => Sessions.Follow(file),
  Unfollow: (file) => Sessions.Unfollow(file),
  Following: () => Sessions.Following(),
};

export const PROGRESS_EVENT = 'sessions:progress';
export const UPDATE_EVENT = 'sessions:update';

type Events = { [PROGRESS_EVENT]: SessionProgress; [UPDATE_EVENT]: SessionUpdate };

/** The mock: sessions tests set, imports that tell their progress in two steps. */
export function createSessionsMock() {
  const listeners = { [PROGRESS_EVENT]: new Set<(p: SessionProgress) => void>(), [UPDATE_EVENT]: new Set<(u: SessionUpdate) => void>() };
  const emit = <E extends keyof Events>(e: E, v: Events[E]) => { for (const l of [...listeners[e]] as ((v: Events[E]) => void)[]) l(v); };
  let locations: SessionLocations = { claude: '/home/user/.claude/projects', codex: '/home/user/.codex/sessions', gemini: '/home/user/.gemini/tmp',
    qwen: '/home/user/.qwen/projects', copilot: '/home/user/.copilot/session-state' };
  let list: SessionSummary[] = [];
  const following = new Set<string>();
  const imported: string[] = [];
  let runs = 0;
  const info = (s: SessionSummary): SessionInfo => ({
    agent: s.agent, version: s.version, id: s.id, file: s.file, project: s.project, started: s.started, ended: s.ended, model: s.model, prompt: s.prompt,
    turns: s.turns, calls: [], hooks: s.hooks.reduce((n: number, h: sessions.HookCount) => n + h.count, 0), lines: 0, bytes: s.size, notes: [], unknown: [],
  });
  const api: SessionsBinding = {
    Locations: async () => locations,
    SetLocations: async (l) => { locations = l; return l; },
    List: async (f) => list.filter((s) => (!f.agent || s.agent === f.agent) && (!f.project || s.project.startsWith(f.project)) &&
      (!f.search || [s.project, s.prompt, s.model, s.id, s.agent, s.version, ...s.hooks.map((h: sessions.HookCount) => h.label)].some((x) => x.toLowerCase().includes(f.search.toLowerCase())))),
    Import: async (file) => {
      const s = list.find((x) => x.file === file);
      if (!s) throw `${file}: no such session`;
      emit(PROGRESS_EVENT, { file, read: Math.floor(s.size / 2), total: s.size });
      emit(PROGRESS_EVENT, { file, read: s.size, total: s.size });
      imported.push(file);
      return { run: ++runs, session: info(s) };
    },
    Follow: async (file) => { following.add(file); emit(UPDATE_EVENT, { file, run: ++runs, following: true, session: info(list.find((x) => x.file === file)!) }); return [...following]; },
    Unfollow: async (file) => { following.delete(file); emit(UPDATE_EVENT, { file, run: 0, following: false }); return [...following]; },
    Following: async () => [...following],
  };
  return {
    api,
    on: <E extends keyof Events>(e: E, l: (v: Events[E]) => void) => { (listeners[e] as Set<typeof l>).add(l); return () => { (listeners[e] as Set<typeof l>).delete(l); }; },
    emit,
    setSessions: (s: SessionSummary[]) => { list = s; },
    imported,
    listeners,
  };
}

let mock: ReturnType<typeof createSessionsMock> | null = null;
/** The mock backend (tests reset it). */
export function sessionsMock() { return (mock ??= createSessionsMock()); }
export function resetSessionsMock() { mock = createSessionsMock(); return mock; }

const api = (): SessionsBinding => (hasBackend() ? bound : sessionsMock().api);
export const sessionLocations = (): Promise<SessionLocations> => api().Locations();
export const setSessionLocations = (l: SessionLocations): Promise<SessionLocations> => api().SetLocations(l);
export const listSessions = (f: Partial<SessionFilter> = {}): Promise<SessionSummary[]> =>
  api().List({ agent: f.agent ?? '', project: f.project ?? '', search: f.search ?? '' });
export const importSession = (file: string): Promise<Imported> => api().Import(file);
export const followSession = (file: string): Promise<string[]> => api().Follow(file);
export const unfollowSession = (file: string): Promise<string[]> => api().Unfollow(file);
export const followedSessions = (): Promise<string[]> => api().Following();

/** Listens to an import's progress; returns the function that stops listening. */
export function onSessionProgress(cb: (p: SessionProgress) => void): () => void {
  return hasBackend() ? on<SessionProgress>(PROGRESS_EVENT, cb) : sessionsMock().on(PROGRESS_EVENT, cb);
}

/** Listens to followed sessions kept again (and the end of a follow). */
export function onSessionUpdate(cb: (u: SessionUpdate) => void): () => void {
  return hasBackend() ? on<SessionUpdate>(UPDATE_EVENT, cb) : sessionsMock().on(UPDATE_EVENT, cb);
}
