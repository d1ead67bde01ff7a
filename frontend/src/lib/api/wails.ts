// Typings of what the Wails v2 runtime puts on window. Only src/lib/api reads them.
import type { StudioBinding } from './types';

export interface WailsRuntime {
  /** Returns a function that removes this listener (Wails v2.15). */
  EventsOn(name: string, cb: (...data: unknown[]) => void): (() => void) | void;
  EventsOff(name: string, ...more: string[]): void;
  WindowSetTitle?(title: string): void;
}

declare global {
  interface Window {
    go?: { bind?: { Studio?: StudioBinding } };
    runtime?: WailsRuntime;
  }
}

export function binding(): StudioBinding | undefined {
  return typeof window === 'undefined' ? undefined : window.go?.bind?.Studio;
}
export function runtime(): WailsRuntime | undefined {
  return typeof window === 'undefined' ? undefined : window.runtime;
}
