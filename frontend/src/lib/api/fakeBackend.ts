// Tests: the globals the Wails window gives the generated bindings (window.go.bind.<Service>.<Method>
// and the runtime's events), filled with fakes; removeFakeBackend takes them away again.
type Service = 'About' | 'Agents' | 'Capture' | 'History' | 'Layout' | 'Ops' | 'Requests' | 'Studio';
type Callback = (...data: unknown[]) => void;

export interface FakeBackend {
  /** deliver an event to its listeners, as the runtime does */
  emit(event: string, payload: unknown): void;
  /** the listeners per event (an undone subscription is gone) */
  listeners: Map<string, Set<Callback>>;
}

interface WailsGlobals { go?: { bind: Partial<Record<Service, object>> }; runtime?: object }

export function fakeBackend(services: Partial<Record<Service, object>>): FakeBackend {
  const listeners = new Map<string, Set<Callback>>();
  const w = window as unknown as WailsGlobals;
  w.go = { bind: services };
  w.runtime = {
    EventsOnMultiple(name: string, cb: Callback) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(cb);
      return () => { set.delete(cb); };
    },
    EventsOff(name: string) { listeners.delete(name); },
  };
  return { emit: (event, payload) => listeners.get(event)?.forEach((cb) => cb(payload)), listeners };
}

export function removeFakeBackend(): void {
  const w = window as unknown as WailsGlobals;
  delete w.go;
  delete w.runtime;
}
