// The hook systems the backend hosts (its registry, Studio.HookSystems): each one's trace name, the badge
// the app shows for it and the agent CLI it belongs to. Nothing here switches over systems: a system the
// backend registers is named as it says. Until the backend answers (and without it: vite dev, tests) the
// registry as app/services/bind's TestHookSystems wrote it (src/fixtures/hook-systems.json).
import written from '../../fixtures/hook-systems.json';
import type { registry } from './models';
import { hasBackend, Studio } from './wails';

/** A hook system as the backend names it: name (as traces say it), label (its badge), title, agent ("" none). */
export type HookSystemInfo = registry.SystemInfo;

let systems = new Map<string, HookSystemInfo>();
/** Name systems by these from now on (the backend's HookSystems; tests give their own). */
export function setHookSystems(list: readonly HookSystemInfo[]) {
  systems = new Map(list.map((s) => [s.name, s]));
}
setHookSystems(written);

let loading: Promise<void> | null = null;
/** Read the backend's hook systems once; without the backend the written registry stays. */
export function loadHookSystems(): Promise<void> {
  if (!hasBackend()) return Promise.resolve();
  loading ??= Studio.HookSystems().then(setHookSystems, () => { loading = null; });
  return loading;
}
void loadHookSystems();

/** The badge of a system ("Gemini CLI", "cmd"); a system nobody registered is its name. */
export const systemLabel = (name: string): string => systems.get(name)?.label || name;
/** The agent CLI a system is ("gemini-cli"), "" for the simulated agent's own hook systems. */
export const systemAgent = (name: string): string => systems.get(name)?.agent ?? '';
