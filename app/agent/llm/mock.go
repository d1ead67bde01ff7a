// Package llm provides the models the engine calls: the scripted mock that
// plays a scenario file, and (later) real providers.
package llm

import (
	"context"
	"fmt"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// ScriptEndedReply is what the mock answers once a request's scripted rounds
// run out, so the agent loop always ends.
const ScriptEndedReply = "(the scenario's scripted rounds ran out; the mock model ends the loop here)"

// Mock plays a scenario's scripted answers. It is deterministic and never
// looks at the messages, which keeps simulated runs cheap.
type Mock struct {
	sc *scenario.Scenario
}

// NewMock returns a mock model for sc.
func NewMock(sc *scenario.Scenario) *Mock { return &Mock{sc: sc} }

// Complete answers with the scripted reply for the call's place in the flow.
func (m *Mock) Complete(ctx context.Context, call engine.Call) (engine.Reply, error) {
	if err := ctx.Err(); err != nil {
		return engine.Reply{}, err
	}
	if call.Subagent != nil { // a sub-agent's call: its own rounds
		return roundReply(call.Subagent.Rounds, call.Round), nil
	}
	if call.Request < 0 || call.Request >= len(m.sc.Requests) {
		return engine.Reply{}, fmt.Errorf("mock: no request %d in scenario %q", call.Request, m.sc.Name)
	}
	req := &m.sc.Requests[call.Request]
	switch call.Phase {
	case engine.PhaseDirect:
		return engine.Reply{Content: req.Reply}, nil
	case engine.PhasePlanning:
		if req.Planning != nil {
			return engine.Reply{Content: req.Planning.Content, NeedTool: req.Planning.NeedTool}, nil
		}
		return engine.Reply{NeedTool: len(req.Rounds) > 0}, nil
	}
	return roundReply(req.Rounds, call.Round), nil
}

// roundReply is round i of rounds as the model's answer (once the rounds
// ran out, the answer that ends the loop).
func roundReply(rounds []scenario.Round, i int) engine.Reply {
	if i < 0 || i >= len(rounds) {
		return engine.Reply{Content: ScriptEndedReply}
	}
	rd := &rounds[i]
	rep := engine.Reply{Content: rd.Content}
	for _, tc := range rd.ToolCalls {
		rep.ToolCalls = append(rep.ToolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result, Error: tc.Error,
			Subagent: tc.Subagent})
	}
	return rep
}

// Play makes m answer from sc instead: the run's scenario once the run's
// values are written into its placeholders (scenario.Expand).
func (m *Mock) Play(sc *scenario.Scenario) { m.sc = sc }
