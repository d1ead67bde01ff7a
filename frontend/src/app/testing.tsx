// Tests: a component rendered inside an app of its own (the stores over the mock backends), with the
// window's keys going through the app's commands while it is mounted.
import { useEffect, type ReactElement } from 'react';
import { render } from '@testing-library/react';
import { AppContext } from './context';
import { createApp, type App, type Backends } from './stores';

function Keys({ app }: { app: App }) {
  useEffect(() => app.commands.listen(), [app]);
  return null;
}

export function renderInApp(ui: ReactElement, opts: { app?: App; backends?: Backends } = {}) {
  const app = opts.app ?? createApp(opts.backends);
  return { app, ...render(<AppContext.Provider value={app}><Keys app={app} />{ui}</AppContext.Provider>) };
}
