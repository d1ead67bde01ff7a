import { createContext, useContext } from 'react';
import type { App } from './stores';

export const AppContext = createContext<App | null>(null);

/** The app's stores and commands (inside App, or a test's AppContext). */
export function useApp(): App {
  const app = useContext(AppContext);
  if (!app) throw new Error('useApp outside an AppContext (render inside <App> or a test app)');
  return app;
}
