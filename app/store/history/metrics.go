package history

import (
	"fmt"
	"slices"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
)

// CallMetrics is one LLM call's size.
type CallMetrics struct {
	Index     int          `json:"index"`
	Request   int          `json:"request"`
	Phase     engine.Phase `json:"phase"`
	Round     *int         `json:"round"`
	Messages  int          `json:"messages"`   // messages the call received
	TokensIn  int          `json:"tokens_in"`  // sum of their tokens
	TokensOut int          `json:"tokens_out"` // tokens of the answer's text
	Error     string       `json:"error,omitempty"`
}

// HookMetrics is what one hook did in one run.
//
// Executions, Successes, Failures, Skipped and TotalDurationMS are the
// per-hook metrics of seed 001 (执行次数、成功次数、失败次数、跳过次数、累计耗时).
// For prompt hooks: an execution is an injection, and it always succeeds;
// skipped counts after_tool_call checkpoints where the hook was active but
// its tool_filter did not match the tool; failures and duration are 0.
// Script hooks will report real values into the same fields.
type HookMetrics struct {
	Hook          string `json:"hook"` // skill/name
	Skill         string `json:"skill"`
	Name          string `json:"name"`
	Timing        string `json:"timing"`
	ContentHash   string `json:"content_hash"` // hex sha256 of the prompt text
	Injected      int    `json:"injected"`     // messages the hook added
	Removed       int    `json:"removed"`      // of those, how many a remove took back
	CallsSeen     int    `json:"calls_seen"`   // LLM calls that received at least one copy
	CopiesSeen    int    `json:"copies_seen"`  // copies over all calls (history copies included)
	TokensTotal   int    `json:"tokens_total"`
	TokensPerCall []int  `json:"tokens_per_call"` // indexed by LLM call

	Executions      int   `json:"executions"`
	Successes       int   `json:"successes"`
	Failures        int   `json:"failures"`
	Skipped         int   `json:"skipped"`
	TotalDurationMS int64 `json:"total_duration_ms"`
}

// ExecTiming starts the Timing of an executable hook's metrics row
// ("exec:process"): the messages it added, counted like a prompt hook's.
const ExecTiming = "exec:"

type metrics struct {
	msgTokens []int
	calls     []CallMetrics
	hooks     []HookMetrics
	tokensIn  int
	tokensOut int
	maxPrompt int
	pending   int // the run's texts not counted yet (runs.tokens_pending)
}

// computeMetrics walks the steps once, keeping each request's running
// prompt size and each hook's live copies, so the cost is steps + messages
// + calls × hooks, never calls × list length (a 1,000-round run has lists
// of thousands of messages). msgTokens are the messages' token counts (by
// id), outTokens the answers' (by call).
func computeMetrics(rec *engine.Record, msgTokens, outTokens []int) (*metrics, error) {
	nm, nh := len(rec.Messages), len(rec.Hooks)
	if len(msgTokens) != nm || len(outTokens) != len(rec.Calls) {
		return nil, fmt.Errorf("token counts for %d messages and %d answers, want %d and %d", len(msgTokens), len(outTokens), nm, len(rec.Calls))
	}
	m := &metrics{msgTokens: msgTokens, calls: make([]CallMetrics, len(rec.Calls)), hooks: make([]HookMetrics, nh)}

	execRow := map[string]int32{}
	hookOf := make([]int32, nm)
	for i := range rec.Messages {
		msg := &rec.Messages[i]
		hookOf[i] = -1
		added := msg.Ref == -1 && (msg.Origin == engine.OriginHook || msg.Origin == engine.OriginHistory && msg.HistoryOf == engine.OriginHook)
		if msg.Edit != 0 && (added || msg.Origin == engine.OriginTool) {
			// added by an executable hook, or a tool result it wrote (a
			// block's reason, an answer in the tool's place, a rewrite): its
			// own row, after the prompt hooks
			if int(msg.Edit) > len(rec.HookCalls) {
				return nil, fmt.Errorf("message %d refers to hook call %d of %d", i, msg.Edit-1, len(rec.HookCalls))
			}
			hc := &rec.HookCalls[msg.Edit-1]
			k := hc.System + "/" + hc.Hook
			x, ok := execRow[k]
			if !ok {
				x = int32(len(m.hooks))
				execRow[k] = x
				m.hooks = append(m.hooks, HookMetrics{Hook: k, Skill: hc.System, Name: hc.Hook, Timing: ExecTiming + hc.System, TokensPerCall: make([]int, len(rec.Calls))})
			}
			hookOf[i] = x
			if msg.Origin == engine.OriginHook {
				m.hooks[x].Injected++
				if msg.Removed >= 0 {
					m.hooks[x].Removed++
				}
			}
			continue
		}
		if msg.Origin == engine.OriginHook || (msg.Origin == engine.OriginHistory && msg.HistoryOf == engine.OriginHook) {
			if msg.Ref < 0 || int(msg.Ref) >= nh {
				return nil, fmt.Errorf("message %d refers to hook %d of %d", i, msg.Ref, nh)
			}
			hookOf[i] = msg.Ref
		}
		if msg.Origin == engine.OriginHook {
			m.hooks[msg.Ref].Injected++
			if msg.Removed >= 0 {
				m.hooks[msg.Ref].Removed++
			}
		}
	}

	for i := range rec.Hooks {
		h := &rec.Hooks[i]
		hm := &m.hooks[i]
		hm.Hook, hm.Skill, hm.Name, hm.Timing = h.ID(), h.Skill, h.Name, string(h.Timing)
		hm.TokensPerCall = make([]int, len(rec.Calls))
		hm.Executions, hm.Successes = hm.Injected, hm.Injected
	}
	for i := range rec.Calls {
		c := &rec.Calls[i]
		out := outTokens[i]
		m.calls[i] = CallMetrics{Index: i, Request: c.Request, Phase: c.Phase, Round: c.Round, TokensOut: out, Error: c.Error}
		m.tokensOut += out
	}

	nh = len(m.hooks) // prompt hooks, then the executable hooks' rows
	var (
		req       int32 = -1
		size      int
		live      int
		liveCount = make([]int, nh)
		liveTok   = make([]int, nh)
	)
	touch := func(id int32, sign int) error {
		if id < 0 || int(id) >= nm {
			return fmt.Errorf("message id %d out of range", id)
		}
		size += sign * m.msgTokens[id]
		live += sign
		if h := hookOf[id]; h >= 0 {
			liveCount[h] += sign
			liveTok[h] += sign * m.msgTokens[id]
		}
		return nil
	}
	for i := range rec.Steps {
		s := &rec.Steps[i]
		if s.Request != req {
			// Each request builds its list afresh.
			req, size, live = s.Request, 0, 0
			clear(liveCount)
			clear(liveTok)
		}
		if s.AddFrom < 0 || s.AddFrom > s.AddTo || int(s.AddTo) > nm || s.RemFrom < 0 || s.RemFrom > s.RemTo || int(s.RemTo) > len(rec.RemovedIDs) {
			return nil, fmt.Errorf("step %d has ranges out of bounds", i)
		}
		for id := s.AddFrom; id < s.AddTo; id++ {
			if err := touch(id, 1); err != nil {
				return nil, err
			}
		}
		for _, id := range rec.RemovedIDs[s.RemFrom:s.RemTo] {
			if err := touch(id, -1); err != nil {
				return nil, err
			}
		}
		switch {
		case s.Kind == engine.StepLLMCall:
			c := int(s.Ref)
			if c < 0 || c >= len(m.calls) {
				return nil, fmt.Errorf("step %d refers to call %d of %d", i, c, len(m.calls))
			}
			// an agent's request holds its tools' definitions too
			in := size + rec.Calls[c].ToolTokens
			m.calls[c].TokensIn, m.calls[c].Messages = in, live
			m.tokensIn += in
			m.maxPrompt = max(m.maxPrompt, in)
			for h := range nh {
				if liveCount[h] > 0 {
					hm := &m.hooks[h]
					hm.CallsSeen++
					hm.CopiesSeen += liveCount[h]
					hm.TokensPerCall[c] = liveTok[h]
					hm.TokensTotal += liveTok[h]
				}
			}
		case s.Kind == engine.StepInject && s.Timing == skills.AfterToolCall && s.Ref >= 0:
			if int(s.Ref) >= len(rec.ToolCalls) {
				return nil, fmt.Errorf("step %d refers to tool call %d of %d", i, s.Ref, len(rec.ToolCalls))
			}
			tool := rec.ToolCalls[s.Ref].Name
			var enabled []string
			if int(s.Request) < len(rec.Requests) {
				enabled = rec.Requests[s.Request].EnabledSkills
			}
			for h := range rec.Hooks {
				hk := &rec.Hooks[h]
				active := enabled == nil || slices.Contains(enabled, hk.Skill)
				if hk.Timing == skills.AfterToolCall && active && !hk.MatchesTool(tool) {
					m.hooks[h].Skipped++
				}
			}
		}
	}
	return m, nil
}
