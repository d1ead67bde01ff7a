package scenario

import (
	"go.yaml.in/yaml/v3"
)

// Subagent is a sub-agent a scripted tool call starts — Claude Code's
// Agent tool (formerly Task): the agent runs a loop of its own with its
// own system prompt and tools, its SubagentStart hooks before its first
// request and its SubagentStop hooks where it would end, and the call's
// result is its last answer, handed back in the agent's words.
//
//	rounds:
//	  - tool_calls:
//	      - name: Agent
//	        arguments: {description: Look at the build, prompt: Find what is in the build folder, subagent_type: Explore}
//	        subagent:
//	          rounds:
//	            - tool_calls: [{name: Bash, arguments: {command: ls build}, result: "main.o"}]
//	            - content: The build folder holds main.o.
//
// Its rounds answer the sub-agent's model calls in order, as a request's
// answer the session's: tool calls, or content that ends its loop (a
// round after it answers once a SubagentStop hook blocked it). The
// session's rounds are not used by it. A sub-agent's tool call may start
// a sub-agent of its own.
type Subagent struct {
	Rounds []Round `json:"rounds"`
	Line   int     `json:"line"` // where it starts in the file
}

// subagentPos is where a sub-agent's parts were written.
type subagentPos struct {
	node, rounds *yaml.Node // the subagent value, its rounds key
	roundList    []roundPos
}

func (d *decoder) subagentField(c *ToolCall, cp *callPos) field {
	return field{name: "subagent", decode: func(k, v *yaml.Node, path string) {
		sa := &Subagent{Line: v.Line}
		sp := &subagentPos{node: v}
		if d.object(v, path, d.subagentFields(sa, sp)) {
			c.Subagent, cp.sub = sa, sp
		}
	}}
}

func (d *decoder) subagentFields(sa *Subagent, sp *subagentPos) []field {
	return []field{
		{name: "rounds", required: true, hint: "the sub-agent's answers, e.g. rounds: [{content: done}]", decode: func(k, v *yaml.Node, path string) {
			sp.rounds = k
			d.list(v, path, func(i int, item *yaml.Node, p string) {
				var rd Round
				pos := roundPos{node: item}
				if d.object(item, p, d.roundFields(&rd, &pos)) && !pos.hasContent && !pos.callsFailed && len(rd.ToolCalls) == 0 {
					d.errorf(item, CodeEmptyRound, "%s has neither content nor tool_calls; give it content (the sub-agent's answer) or tool_calls", p)
				}
				sa.Rounds = append(sa.Rounds, rd)
				sp.roundList = append(sp.roundList, pos)
			})
		}},
	}
}

// checkSubagent checks a sub-agent's script as a request's (path: the
// call's), then its calls as the session's are.
func (d *decoder) checkSubagent(s *Scenario, c *ToolCall, cp callPos, rp *requestPos, path string, declared []string) {
	sp := cp.sub
	if c.Result != "" {
		d.warnf(cp.node, CodeSubagentResult, "%s has a result and a subagent: the call's result is the sub-agent's last answer, so result is never used; remove it", path)
	}
	if c.Error != "" {
		d.warnf(cp.node, CodeSubagentResult, "%s has an error and a subagent: the sub-agent runs and its last answer is the call's result, so error is never used; remove it", path)
	}
	spath := path + ".subagent"
	switch n := len(c.Subagent.Rounds); {
	case n == 0 && sp.rounds != nil:
		d.errorf(sp.rounds, CodeNoRounds, "%s.rounds is empty: script at least the sub-agent's answer (a round with content)", spath)
	case n > 0 && len(c.Subagent.Rounds[n-1].ToolCalls) > 0:
		d.warnf(sp.roundList[n-1].node, CodeNoFinalAnswer, "%s's last round calls tools, so the mock will end the sub-agent with a default answer; add a final round with content", spath)
	}
	d.checkRounds(s, c.Subagent.Rounds, sp.roundList, rp, spath, declared, true)
}
