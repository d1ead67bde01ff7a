// The generated Wails bindings (wailsjs/, scripts/bindings.sh): one function per bound Go method,
// and the runtime's events. Only src/lib/api imports them (an ESLint rule keeps it so); the other
// modules here call them, or a mock when there is no Go backend (plain `vite dev`, tests).
export * as About from '../../../wailsjs/go/bind/About';
export * as Agents from '../../../wailsjs/go/bind/Agents';
export * as Capture from '../../../wailsjs/go/bind/Capture';
export * as History from '../../../wailsjs/go/bind/History';
export * as Layout from '../../../wailsjs/go/bind/Layout';
export * as Ops from '../../../wailsjs/go/bind/Ops';
export * as Requests from '../../../wailsjs/go/bind/Requests';
export * as Search from '../../../wailsjs/go/bind/Search';
export * as Sessions from '../../../wailsjs/go/bind/Sessions';
export * as Studio from '../../../wailsjs/go/bind/Studio';
import { EventsOn } from '../../../wailsjs/runtime/runtime';

/** True inside the Wails window (or its dev server), where window.go holds the bound services. */
export function hasBackend(): boolean {
  return typeof window !== 'undefined' && (window as { go?: { bind?: unknown } }).go?.bind !== undefined;
}

/** Listen to a backend event (its first payload); returns the function that stops listening. */
export function on<T>(event: string, cb: (payload: T) => void): () => void {
  return EventsOn(event, (...data: unknown[]) => cb(data[0] as T));
}
