// Whether the message list shows an agent's own messages (its system prompt and context) in full
// or a line each: the user's choice, remembered with the layout (agent_context in layout.json).
import { useMemo } from 'react';
import { useApp } from '../app/context';
import { useStore } from '../lib/store';

export function useAgentContextShown(): { shown: boolean; onShow: (shown: boolean) => void } {
  const { layout } = useApp();
  const shown = !!useStore(layout).layout.agent_context;
  return useMemo(() => ({ shown, onShow: (s: boolean) => layout.update({ agent_context: s || undefined }, true) }), [shown, layout]);
}
