// The app's state lives in small per-area stores (src/app/stores.ts wires them): each holds one
// immutable snapshot, replaces it on change and tells its listeners; React reads a snapshot with
// useStore (useSyncExternalStore), so a component re-renders only when its store changed.
import { useSyncExternalStore } from 'react';

export interface Readable<S> {
  get(): S;
  subscribe(listener: () => void): () => void;
}

export class Store<S> implements Readable<S> {
  private listeners = new Set<() => void>();
  constructor(private state: S) {}

  get = (): S => this.state;
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  };
  /** Replace the snapshot (a function gets the current one); the same object tells no one. */
  protected set(next: S | ((s: S) => S)): void {
    const s = typeof next === 'function' ? (next as (s: S) => S)(this.state) : next;
    if (Object.is(s, this.state)) return;
    this.state = s;
    for (const l of [...this.listeners]) l();
  }
  /** Merge a patch into an object snapshot. */
  protected patch(p: Partial<S>): void {
    this.set((s) => ({ ...s, ...p }));
  }
  /** How many listen (tests check every subscription is undone). */
  get listening(): number { return this.listeners.size; }
}

/** A store's snapshot, re-rendering on every change. */
export function useStore<S>(store: Readable<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Undo functions collected as they are made, undone together (last first). */
export class Subscriptions {
  private undos: (() => void)[] = [];
  add(undo: () => void): void { this.undos.push(undo); }
  undoAll(): void { for (const u of this.undos.splice(0).reverse()) u(); }
  get size(): number { return this.undos.length; }
}
