// The "Requests" tab of the bottom panel: the request inspector, shown when request hooks ran.
import type { PanelTab } from '../components/BottomPanel';
import { RequestInspector } from './RequestInspector';

/** The tab when n request hook invocations ran, else none. */
export function requestTabs(n: number, onJump: (step: number) => void): PanelTab[] {
  if (n === 0) return [];
  return [{ id: 'requests', label: 'Requests', count: null, render: (v) => <RequestInspector view={v} onJump={onJump} /> }];
}
