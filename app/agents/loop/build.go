package loop

import "hookstudio/app/agent/engine"

// What the tables in loops.go are written with.

func eventNode(event string, x, y, w int, sub string, points ...engine.Point) Node {
	return Node{ID: event, Kind: KindEvent, Label: event, Sub: sub, X: x, Y: y, W: w, Events: []string{event}, Points: points}
}

func stepNode(id, label, sub string, x, y, w int) Node {
	return Node{ID: id, Kind: KindStep, Label: label, Sub: sub, X: x, Y: y, W: w}
}

func decisionNode(id, label string, x, y, w int) Node {
	return Node{ID: id, Kind: KindDecision, Label: label, X: x, Y: y, W: w}
}

func terminalNode(id, label, sub string, x, y, w int) Node {
	return Node{ID: id, Kind: KindTerminal, Label: label, Sub: sub, X: x, Y: y, W: w}
}

// edge leaves from's right side for to's left side unless told otherwise.
func edge(from, to string) Edge { return Edge{From: from, To: to, Exit: Right, Enter: Left} }

func (e Edge) sides(exit, enter Side) Edge { e.Exit, e.Enter = exit, enter; return e }

// via adds corners, given as x, y pairs.
func (e Edge) via(xy ...int) Edge {
	for i := 0; i+1 < len(xy); i += 2 {
		e.Via = append(e.Via, Point{xy[i], xy[i+1]})
	}
	return e
}

func (e Edge) label(text string, x, y int) Edge { e.Label, e.LabelAt = text, &Point{x, y}; return e }

func (e Edge) enterAt(offset int) Edge { e.EnterOffset = offset; return e }

func (e Edge) dashed() Edge { e.Dashed = true; return e }

func on(kinds ...engine.StepKind) Rule { return Rule{Kind: kinds} }

func (r Rule) phase(p ...engine.Phase) Rule   { r.Phase = p; return r }
func (r Rule) timing(t ...string) Rule        { r.Timing = t; return r }
func (r Rule) prompt(p ...engine.Prompt) Rule { r.Prompt = p; return r }
func (r Rule) point(p ...engine.Point) Rule   { r.Point = p; return r }
func (r Rule) round(x ...Round) Rule          { r.Round = x; return r }
func (r Rule) after(a ...After) Rule          { r.After = a; return r }
func (r Rule) to(node string) Rule            { r.Node = node; return r }

// Nodes every agent's loop has, so they share one set of rules.
const (
	nodePrompt  = "prompt"  // the user's turn: the message list is built
	nodeModel   = "model"   // the LLM call
	nodeTools   = "tools"   // did the model ask for tools?
	nodeTool    = "tool"    // a tool runs; its result goes back
	nodeEnd     = "end"     // the answer
	nodeCompact = "compact" // the conversation is compacted
)

// agentRules place the steps of an agent's loop that are not one of its
// own hook events (a hook call of another system at the point of one of
// its event nodes goes there). A capture's or an imported session's run is built
// steps and LLM calls only: the steps that build a call's list go where
// the request stands (the prompt, or the results of the tools it asked
// for). A simulated run has seed 000's steps too (its planning call, its
// checkpoints, with or without prompt hooks): each goes where it happens
// in the agent's loop. Executable hooks at a point none of the agent's
// events covers go to the node that point is about.
func agentRules(nodes []Node) []Rule {
	var rules []Rule
	compaction := false
	for _, n := range nodes {
		if n.Kind == KindEvent && len(n.Points) > 0 {
			rules = append(rules, on(engine.StepHookCall).point(n.Points...).to(n.ID))
		}
		compaction = compaction || n.ID == nodeCompact
	}
	rules = append(rules,
		on(engine.StepBuildMessages).after(AfterToolCalls).to(nodeTool),
		on(engine.StepBuildMessages).to(nodePrompt),
		on(engine.StepInject, engine.StepYield).timing("after_user_input").to(nodePrompt),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("after_tool_call").round(RoundFirst, RoundLater).to(nodeTool),
		on(engine.StepRemove).round(RoundNone).timing("before_first_agent", "after_tool_call").to(nodeEnd),
		on(engine.StepInject, engine.StepRemove, engine.StepYield, engine.StepInjectPrompt, engine.StepRemovePrompt).to(nodeModel),
		on(engine.StepLLMCall, engine.StepRestore).to(nodeModel),
		on(engine.StepAppend).to(nodeTools),
		on(engine.StepToolCall).to(nodeTool),
		on(engine.StepReply).to(nodeEnd),
		on(engine.StepHookCall).point(engine.PointSessionStart, engine.PointBeforeSend, engine.PointAfterSend).to(nodePrompt),
		on(engine.StepHookCall).point(engine.PointBeforeLLM, engine.PointAfterLLM).to(nodeModel),
		on(engine.StepHookCall).point(engine.PointBeforeTool, engine.PointApproveTool, engine.PointAfterTool, engine.PointAfterTools).to(nodeTool),
		on(engine.StepHookCall).point(engine.PointStop, engine.PointSessionEnd).to(nodeEnd),
	)
	compact := nodeModel // an agent without a compaction node compacts before its call
	if compaction {
		compact = nodeCompact
	}
	return append(rules,
		on(engine.StepCompact).to(compact),
		on(engine.StepHookCall).point(engine.PointBeforeCompact, engine.PointAfterCompact).to(compact))
}
