package engine

import "hookstudio/app/hooks/skills"

// Checkpoint is a seed-000 checkpoint firing: the timing, and for
// after_tool_call the tool the call was for.
type Checkpoint struct {
	Timing skills.Timing
	Tool   int32 // tool-call index in the trace, or -1
}

// HookManager is the seed's HookManager over one request's message list:
// inject and remove hooks by timing, inject and remove built-in prompts.
type HookManager struct {
	t     *Trace
	hooks []int32 // indices into t.Hooks, in load order
	pos   *at     // the runner's position
	// injected holds, per timing, the messages non-persistent hooks added
	// and that are still in the list: remove takes exactly these.
	injected map[skills.Timing][]int32
}

func newHookManager(t *Trace, hooks []int32, pos *at) *HookManager {
	return &HookManager{t: t, hooks: hooks, pos: pos, injected: map[skills.Timing][]int32{}}
}

// Inject appends one message per matching hook (never deduplicated) and
// returns the messages of persistent hooks, which the flow yields.
func (m *HookManager) Inject(ev Checkpoint) (persistent []int32) {
	m.t.begin(StepInject, *m.pos, ev.Timing, ev.Tool)
	for _, hi := range m.hooks {
		h := &m.t.Hooks[hi]
		if h.Timing != ev.Timing {
			continue
		}
		if ev.Timing == skills.AfterToolCall && !h.MatchesTool(m.t.toolCalls[ev.Tool].Name) {
			continue
		}
		id := m.t.add(msg{content: h.Content, role: h.Role, origin: OriginHook, ref: hi, req: m.pos.req})
		if h.Persistent {
			persistent = append(persistent, id)
		} else {
			m.injected[ev.Timing] = append(m.injected[ev.Timing], id)
		}
	}
	return persistent
}

// Remove takes out every message non-persistent hooks injected at timing in
// this request; persistent hooks stay, so for them it is a no-op.
func (m *HookManager) Remove(timing skills.Timing) {
	m.t.begin(StepRemove, *m.pos, timing, -1)
	for _, id := range m.injected[timing] {
		m.t.remove(m.t.current(id))
	}
	m.injected[timing] = m.injected[timing][:0]
}

// InjectPrompt appends a built-in prompt and returns its reference.
func (m *HookManager) InjectPrompt(p int32, content string) int32 {
	m.t.begin(StepInjectPrompt, *m.pos, "", p)
	return m.t.add(msg{content: content, role: skills.System, origin: OriginPrompt, ref: p, req: m.pos.req})
}

// RemovePrompt removes a built-in prompt by reference.
func (m *HookManager) RemovePrompt(ref int32) {
	m.t.begin(StepRemovePrompt, *m.pos, "", m.t.msgs[ref].ref)
	m.t.remove(m.t.current(ref))
}
