package main

import (
	"testing"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// TestRequestProblemsByConversation: the CLI sends a sub-agent's calls
// while the session waits on its tool, the simulator lays them out after
// the session's; the comparison reads each conversation in its order, with
// the sub-agents' random ids aside — and still tells calls that differ.
func TestRequestProblemsByConversation(t *testing.T) {
	call := func(agent string, texts ...string) capture.Call {
		c := capture.Call{}
		if agent != "" {
			c.Headers = map[string]string{capture.SubagentHeader: agent}
		}
		for _, s := range texts {
			c.Messages = append(c.Messages, capture.Message{Role: "user", Content: s})
		}
		return c
	}
	real := []capture.Call{call("", "go"), call("a0123456789abcdef", "task"), call("a0123456789abcdef", "task", "more"),
		call("", "go", "helper a0123456789abcdef said")}
	sim := []capture.Call{call("", "go"), call("", "go", "helper afedcba9876543210 said"), call("afedcba9876543210", "task"),
		call("afedcba9876543210", "task", "more")}
	norm := requestNorm(request.Bare("demo", "1.0"))
	if p := requestProblems(sim, real, norm); len(p) != 0 {
		t.Errorf("the same conversations: %q", p)
	}
	sim[3] = call("afedcba9876543210", "task", "other")
	if p := requestProblems(sim, real, norm); len(p) != 1 {
		t.Errorf("a sub-agent's call that differs: %q", p)
	}
}
