package loop

import "hookstudio/app/agent/engine"

// IDs of the loops that are not a real agent's.
const (
	SeedID    = "seed-000" // the simulated agent: seed 000's flowchart (§5)
	GenericID = "agent"    // a real agent that did not say which it is
)

// loops is every loop, seed 000's first. Each agent's events and their
// order were read in its source and seen on its CLI against capture
// (Sources; docs/agents/). Coordinates are on a Width × Height canvas.
var loops = []Loop{seedLoop(), claudeCodeLoop(), codexLoop(), geminiLoop(), qwenLoop(), copilotLoop(), genericLoop()}

// The frame every loop but Gemini CLI's draws around its tool loop.
var agentFrame = Frame{X: 4, Y: 100, W: 692, H: 132, Label: "agent loop", LabelAt: Point{14, 226}}

// seedLoop is the simulated agent's flow: seed 000 §5, its checkpoints
// ①–⑤ where prompt hooks act, and the points where executable hooks of
// the other hosted systems (jcli, PicoClaw, request hooks) fire.
func seedLoop() Loop {
	cp := func(id, label, sub string, x, y, w, n int) Node {
		return Node{ID: id, Kind: KindStep, Label: label, Sub: sub, X: x, Y: y, W: w, Checkpoint: n}
	}
	withPoints := func(n Node, p ...engine.Point) Node { n.Points = p; return n }
	llm := func(phase engine.Phase) string {
		switch phase {
		case engine.PhaseDirect:
			return "direct"
		case engine.PhasePlanning:
			return "plan"
		}
		return "agent"
	}
	var byPhase []Rule // a step of each phase at its LLM call's node
	for _, ph := range []engine.Phase{engine.PhaseDirect, engine.PhasePlanning, engine.PhaseAgent} {
		byPhase = append(byPhase,
			on(engine.StepHookCall).point(engine.PointBeforeLLM, engine.PointAfterLLM).phase(ph).to(llm(ph)),
			on(engine.StepRestore, engine.StepLLMCall).phase(ph).to(llm(ph)))
	}
	rules := []Rule{
		on(engine.StepHookCall).point(engine.PointSessionStart, engine.PointBeforeSend, engine.PointAfterSend).to("input"),
		on(engine.StepHookCall).point(engine.PointBeforeTool, engine.PointApproveTool, engine.PointAfterTool, engine.PointAfterTools).to("run"),
		on(engine.StepHookCall).point(engine.PointStop).phase(engine.PhaseAgent).to("exit"),
		on(engine.StepHookCall).point(engine.PointStop, engine.PointSessionEnd).to("end"),
		on(engine.StepHookCall).point(engine.PointBeforeCompact, engine.PointAfterCompact).to("cp3"),
	}
	rules = append(rules, byPhase...)
	rules = append(rules,
		on(engine.StepHookCall, engine.StepRestore, engine.StepLLMCall).to("agent"),
		on(engine.StepCompact).to("cp3"),
		on(engine.StepBuildMessages).to("input"),
		on(engine.StepReply).to("end"),
		on(engine.StepAppend, engine.StepToolCall).to("run"),
		on(engine.StepInjectPrompt, engine.StepRemovePrompt).prompt(engine.PromptPlanning).to("plan"),
		on(engine.StepInjectPrompt, engine.StepRemovePrompt).to("agent"),
		on(engine.StepRemove).timing("before_planning").to("plan"),
		on(engine.StepRemove).timing("before_first_agent").to("exit"),
		on(engine.StepRemove).timing("after_tool_call").round(RoundNone).to("exit"),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("after_user_input").to("cp1"),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("before_planning").to("cp2"),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("before_each_agent").to("cp3"),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("before_first_agent").to("cp4"),
		on(engine.StepInject, engine.StepRemove, engine.StepYield).timing("after_tool_call").to("cp5"),
	)
	return Loop{
		ID: SeedID, Title: "the simulated agent (seed 000)", TitleAt: Point{4, 14}, Width: 700, Height: 236, NodeHeight: NodeHeight,
		Frame: agentFrame.withLabelAt(14, 116),
		Nodes: []Node{
			withPoints(terminalNode("input", "user input", "build messages", 4, 52, 80), engine.PointBeforeSend, engine.PointAfterSend, engine.PointSessionStart),
			cp("cp1", "① after_user_input", "", 98, 52, 118, 1),
			decisionNode("tools", "tools?", 228, 52, 58),
			withPoints(stepNode("direct", "direct LLM call", "no planning, no loop", 330, 6, 150), engine.PointBeforeLLM, engine.PointAfterLLM, engine.PointStop),
			cp("cp2", "② before_planning", "", 300, 52, 114, 2),
			withPoints(stepNode("plan", "planning LLM", "prompt · call · remove", 428, 52, 104), engine.PointBeforeLLM, engine.PointAfterLLM),
			decisionNode("need", "need_tool?", 546, 52, 74),
			withPoints(terminalNode("end", "end", "yield · reply", 634, 52, 62), engine.PointSessionEnd, engine.PointStop),
			withPoints(cp("cp3", "③ before_each_agent", "remove · inject", 14, 126, 132, 3), engine.PointBeforeCompact, engine.PointAfterCompact),
			cp("cp4", "④ before_first_agent", "round 0 only", 158, 126, 134, 4),
			withPoints(stepNode("agent", "LLM with tools", "step prompt · call", 304, 126, 112), engine.PointBeforeLLM, engine.PointAfterLLM),
			decisionNode("tc", "tool calls?", 428, 126, 78),
			withPoints(stepNode("run", "run tools", "assistant + tool", 428, 190, 78), engine.PointBeforeTool, engine.PointApproveTool, engine.PointAfterTool, engine.PointAfterTools),
			cp("cp5", "⑤ after_tool_call", "remove · inject per tool", 262, 190, 154, 5),
			withPoints(stepNode("exit", "leave loop", "remove ④ and ⑤", 530, 126, 116), engine.PointStop),
		},
		Edges: []Edge{
			edge("input", "cp1"),
			edge("cp1", "tools"),
			edge("tools", "cp2").label("yes", 285, 62),
			edge("tools", "direct").sides(Top, Left).via(257, 21).label("no", 262, 32),
			edge("direct", "end").sides(Right, Top).via(665, 21),
			edge("cp2", "plan"),
			edge("plan", "need"),
			edge("need", "end").label("no", 620, 62),
			edge("need", "cp3").sides(Bottom, Top).via(583, 92, 80, 92).label("yes", 588, 90),
			edge("cp3", "cp4"),
			edge("cp4", "agent"),
			edge("agent", "tc"),
			edge("tc", "run").sides(Bottom, Top).label("yes", 472, 178),
			edge("run", "cp5").sides(Left, Right),
			edge("cp5", "cp3").sides(Left, Bottom).via(80, 205).label("next round", 92, 201),
			edge("tc", "exit").label("no", 510, 136),
			edge("exit", "end").sides(Right, Bottom).via(665, 141),
		},
		Elsewhere: []string{},
		Sources:   []string{"seeds/000 §5 (the flowchart)", "design-hooks.md (where each hook point fires)"},
		systems:   []string{"command", "process", "request"},
		rules:     rules,
	}
}

func (f Frame) withLabelAt(x, y int) Frame { f.LabelAt = Point{x, y}; return f }

// claudeLike is the layout Claude Code and the agents that took its hook
// shape share: compaction above the model, the user's turn and the stop
// on one line, the tool loop in the frame below, right to left.
type claudeLike struct {
	id, title       string
	prompt, stop    string // the events of the user's turn and of the end of the turn
	preTool         string
	permission      string // "" none
	postTool        string
	postToolFailure string // "" none
	postBatch       string // "" none
	subagents       bool   // SubagentStart/SubagentStop fire around a sub-agent's loop, under the tool
}

func (c claudeLike) nodes() []Node {
	ns := []Node{
		eventNode("PreCompact", 142, 8, 80, "context full", engine.PointBeforeCompact),
		stepNode(nodeCompact, "compact", "summary", 236, 8, 60),
		eventNode("PostCompact", 310, 8, 84, "", engine.PointAfterCompact),
		eventNode("SessionStart", 4, 62, 80, "startup", engine.PointSessionStart),
		terminalNode(nodePrompt, "user prompt", "build messages", 96, 62, 80),
		eventNode(c.prompt, 188, 62, 112, "", engine.PointBeforeSend),
		stepNode(nodeModel, "model", "LLM call", 314, 62, 76),
		decisionNode(nodeTools, "tool calls?", 404, 62, 78),
		eventNode(c.stop, 502, 62, 48, "", engine.PointStop),
		terminalNode(nodeEnd, "end", "answer", 562, 62, 48),
		eventNode("SessionEnd", 622, 62, 74, "", engine.PointSessionEnd),
		eventNode(c.preTool, 440, 150, 84, "", engine.PointBeforeTool),
		stepNode(nodeTool, "tool", "runs", 254, 150, 46),
	}
	if c.permission != "" {
		ns = append(ns, eventNode(c.permission, 312, 150, 116, "when it asks", engine.PointApproveTool))
	}
	if c.subagents {
		ns = append(ns,
			eventNode("SubagentStart", 256, 196, 96, "Agent tool", engine.PointSubagentStart),
			eventNode("SubagentStop", 372, 196, 92, "its answer", engine.PointSubagentStop))
	}
	if c.postToolFailure == "" {
		return append(ns, eventNode(c.postTool, 154, 150, 84, "", engine.PointAfterTool))
	}
	return append(ns,
		eventNode(c.postTool, 122, 126, 116, "", engine.PointAfterTool),
		eventNode(c.postToolFailure, 122, 178, 116, "", engine.PointAfterTool),
		eventNode(c.postBatch, 14, 152, 86, "", engine.PointAfterTools))
}

// edges are the loop's arrows; back is where the tool results and a
// blocked stop go next (the model, or the prompt's event).
func (c claudeLike) edges(back string, backX int) []Edge {
	es := []Edge{
		edge("PreCompact", nodeCompact).dashed(),
		edge(nodeCompact, "PostCompact").dashed(),
		edge("PostCompact", nodeModel).sides(Bottom, Top).dashed(),
		edge("SessionStart", nodePrompt),
		edge(nodePrompt, c.prompt),
		edge(c.prompt, nodeModel),
		edge(nodeModel, nodeTools),
		edge(nodeTools, c.stop).label("no", 486, 72),
		edge(c.stop, nodeEnd),
		edge(nodeEnd, "SessionEnd"),
		edge(c.stop, back).sides(Top, Top).via(526, 50, backX+16, 50).enterAt(16).label("block", 456, 46).dashed(),
		edge(nodeTools, c.preTool).sides(Bottom, Top).enterAt(-39).label("yes", 448, 128),
	}
	if c.permission != "" {
		es = append(es, edge(c.preTool, c.permission).sides(Left, Right), edge(c.permission, nodeTool).sides(Left, Right))
	} else {
		es = append(es, edge(c.preTool, nodeTool).sides(Left, Right))
	}
	if c.subagents { // the sub-agent runs this loop of its own between them
		es = append(es,
			edge(nodeTool, "SubagentStart").sides(Bottom, Top).enterAt(-27).dashed(),
			edge("SubagentStart", "SubagentStop").label("its loop", 356, 192).dashed(),
			edge("SubagentStop", nodeTool).sides(Top, Bottom).via(418, 188, 286, 188).enterAt(9).dashed())
	}
	if c.postToolFailure == "" {
		return append(es,
			edge(nodeTool, c.postTool).sides(Left, Right),
			edge(c.postTool, back).sides(Top, Bottom).via(196, 112, backX, 112).label("results go back", 204, 108))
	}
	return append(es,
		edge(nodeTool, c.postTool).sides(Left, Right).via(246, 165, 246, 141).label("ok", 249, 139),
		edge(nodeTool, c.postToolFailure).sides(Left, Right).via(246, 165, 246, 193).label("failed", 249, 202),
		edge(c.postTool, c.postBatch).sides(Left, Right).via(111, 141, 111, 167),
		edge(c.postToolFailure, c.postBatch).sides(Left, Right).via(111, 193, 111, 167),
		edge(c.postBatch, back).sides(Top, Bottom).via(57, 112, backX, 112).label("results go back", 120, 108))
}

func (c claudeLike) loop(back string, backX int, elsewhere, sources []string) Loop {
	ns := c.nodes()
	return Loop{
		ID: c.id, Title: c.title, TitleAt: Point{4, 20}, Width: 700, Height: 236, NodeHeight: NodeHeight,
		Frame: agentFrame, Nodes: ns, Edges: c.edges(back, backX),
		Elsewhere: elsewhere, Sources: sources, systems: []string{c.id}, rules: agentRules(ns),
	}
}

// claudeCodeLoop: the events of the simulated agent's Claude Code hooks
// (design-claude-hooks.md), in the order the CLI fires them; a Stop that
// blocks sends its reason to the model, which goes on.
func claudeCodeLoop() Loop {
	return claudeLike{id: "claude-code", title: "Claude Code", prompt: "UserPromptSubmit", stop: "Stop", preTool: "PreToolUse",
		permission: "PermissionRequest", postTool: "PostToolUse", postToolFailure: "PostToolUseFailure", postBatch: "PostToolBatch",
		subagents: true}.
		loop(nodeModel, 352,
			[]string{"Notification", "TaskCreated", "TaskCompleted", "FileChanged", "WorktreeCreate",
				"WorktreeRemove", "InstructionsLoaded", "ConfigChange", "TeammateIdle", "Elicitation", "ElicitationResult", "StopFailure",
				"PermissionDenied", "CwdChanged", "Setup", "UserPromptExpansion"},
			[]string{"code.claude.com hooks reference (2026-08, v2.1.240)", "claude -p 2.1.197 and 2.1.332 against capture (design-claude-hooks.md, design-agents.md)"})
}

// codexLoop: Claude Code's names without PostToolUseFailure and
// PostToolBatch; a Stop that blocks sends its reason as a <hook_prompt>
// user message and the model goes on.
func codexLoop() Loop {
	return claudeLike{id: "codex", title: "Codex CLI", prompt: "UserPromptSubmit", stop: "Stop", preTool: "PreToolUse",
		permission: "PermissionRequest", postTool: "PostToolUse"}.
		loop(nodeModel, 352, []string{"SubagentStart", "SubagentStop"},
			[]string{"openai/codex codex-rs/hooks/src/registry.rs, src/events/*.rs (permission_request.rs: in the approval path, after PreToolUse)",
				"codex exec 0.171.0 against capture (docs/agents/codex.md)"})
}

// qwenLoop: Claude Code's names and shape, but UserPromptSubmit fires
// again (prompt "") when the tool results go back and on the new user
// message a blocked Stop sends, so both go back through it.
func qwenLoop() Loop {
	return claudeLike{id: "qwen-code", title: "Qwen Code", prompt: "UserPromptSubmit", stop: "Stop", preTool: "PreToolUse",
		permission: "PermissionRequest", postTool: "PostToolUse", postToolFailure: "PostToolUseFailure", postBatch: "PostToolBatch"}.
		loop("UserPromptSubmit", 244,
			[]string{"Notification", "UserPromptExpansion", "MessageDisplay", "SubagentStart", "SubagentStop", "SessionDelete",
				"PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"},
			[]string{"QwenLM/qwen-code packages/core/src/hooks/types.ts (HookEventName), hookEventHandler.ts",
				"qwen 0.24.4 against capture: UserPromptSubmit fires again when tool results go back (docs/agents/qwen-code.md)"})
}

// copilotLoop: camelCase events, no matchers, no permission event; an
// agentStop that blocks sends its reason as a new prompt, on which
// userPromptSubmitted fires again. errorOccurred fires on an error.
func copilotLoop() Loop {
	ns := []Node{
		eventNode("errorOccurred", 560, 8, 92, "on an error"),
		eventNode("sessionStart", 4, 62, 80, "", engine.PointSessionStart),
		terminalNode(nodePrompt, "user prompt", "build messages", 96, 62, 80),
		eventNode("userPromptSubmitted", 186, 62, 124, "", engine.PointBeforeSend),
		stepNode(nodeModel, "model", "LLM call", 322, 62, 66),
		decisionNode(nodeTools, "tool calls?", 400, 62, 78),
		eventNode("agentStop", 498, 62, 60, "", engine.PointStop),
		terminalNode(nodeEnd, "end", "answer", 570, 62, 44),
		eventNode("sessionEnd", 624, 62, 72, "", engine.PointSessionEnd),
		eventNode("preToolUse", 399, 150, 80, "", engine.PointBeforeTool),
		stepNode(nodeTool, "tool", "runs", 315, 150, 52),
		eventNode("postToolUse", 215, 150, 84, "", engine.PointAfterTool),
	}
	return Loop{
		ID: "copilot-cli", Title: "Copilot CLI", TitleAt: Point{4, 20}, Width: 700, Height: 236, NodeHeight: NodeHeight, Frame: agentFrame,
		Nodes: ns,
		Edges: []Edge{
			edge("sessionStart", nodePrompt),
			edge(nodePrompt, "userPromptSubmitted"),
			edge("userPromptSubmitted", nodeModel),
			edge(nodeModel, nodeTools),
			edge(nodeTools, "agentStop").label("no", 482, 72),
			edge("agentStop", nodeEnd),
			edge(nodeEnd, "sessionEnd"),
			edge("agentStop", "userPromptSubmitted").sides(Top, Top).via(528, 50, 264, 50).enterAt(16).label("block: a new prompt", 300, 46).dashed(),
			edge(nodeTools, "preToolUse").sides(Bottom, Top).label("yes", 444, 128),
			edge("preToolUse", nodeTool).sides(Left, Right),
			edge(nodeTool, "postToolUse").sides(Left, Right),
			edge("postToolUse", nodeModel).sides(Top, Bottom).via(257, 112, 355, 112).label("results go back", 266, 108),
		},
		Elsewhere: []string{"subagentStop", "notification"},
		Sources: []string{"docs.github.com Copilot CLI hooks reference (its source is not public)",
			"copilot -p 1.0.102 against capture (docs/agents/copilot-cli.md)"},
		systems: []string{"copilot-cli"},
		rules:   agentRules(ns),
	}
}

// geminiLoop: BeforeAgent once per prompt; each model turn asks
// BeforeModel (which may answer in the model's place) and
// BeforeToolSelection (which may narrow the tools); tool results go back
// to BeforeModel; AfterAgent when the model asks for no more tools, and
// when it blocks the prompt is asked again. PreCompress before a
// compression, Notification when a tool asks to be allowed.
func geminiLoop() Loop {
	ns := []Node{
		eventNode("SessionStart", 4, 22, 80, "startup", engine.PointSessionStart),
		terminalNode(nodePrompt, "user prompt", "build messages", 96, 22, 80),
		eventNode("BeforeAgent", 188, 22, 84, "", engine.PointBeforeSend),
		eventNode("PreCompress", 292, 22, 80, "context full", engine.PointBeforeCompact),
		stepNode(nodeCompact, "compress", "", 384, 22, 52),
		eventNode("AfterAgent", 478, 22, 78, "", engine.PointStop),
		terminalNode(nodeEnd, "end", "answer", 568, 22, 48),
		eventNode("SessionEnd", 628, 22, 68, "", engine.PointSessionEnd),
		eventNode("BeforeModel", 14, 84, 84, "", engine.PointBeforeLLM),
		eventNode("BeforeToolSelection", 110, 84, 122, ""),
		stepNode(nodeModel, "model", "LLM call", 244, 84, 56),
		eventNode("AfterModel", 312, 84, 80, "", engine.PointAfterLLM),
		decisionNode(nodeTools, "tool calls?", 410, 84, 78),
		eventNode("BeforeTool", 407, 172, 84, "", engine.PointBeforeTool),
		eventNode("Notification", 301, 172, 92, "asks to allow", engine.PointApproveTool),
		stepNode(nodeTool, "tool", "runs", 237, 172, 52),
		eventNode("AfterTool", 141, 172, 84, "", engine.PointAfterTool),
	}
	return Loop{
		ID: "gemini-cli", Title: "Gemini CLI", TitleAt: Point{4, 12}, Width: 700, Height: 236, NodeHeight: NodeHeight,
		Frame: Frame{X: 4, Y: 62, W: 692, H: 170, Label: "agent loop", LabelAt: Point{14, 226}},
		Nodes: ns,
		Edges: []Edge{
			edge("SessionStart", nodePrompt),
			edge(nodePrompt, "BeforeAgent"),
			edge("BeforeAgent", "PreCompress").dashed(),
			edge("PreCompress", nodeCompact).dashed(),
			edge(nodeCompact, "BeforeModel").sides(Bottom, Top).via(410, 68, 56, 68).dashed(),
			edge("BeforeAgent", "BeforeModel").sides(Bottom, Top).via(230, 68, 56, 68),
			edge("BeforeModel", "BeforeToolSelection"),
			edge("BeforeToolSelection", nodeModel),
			edge(nodeModel, "AfterModel"),
			edge("AfterModel", nodeTools),
			edge(nodeTools, "AfterAgent").sides(Right, Bottom).via(517, 99).label("no", 494, 95),
			edge("AfterAgent", nodeEnd),
			edge(nodeEnd, "SessionEnd"),
			edge("AfterAgent", "BeforeAgent").sides(Top, Top).via(517, 13, 230, 13).label("block: asked again", 330, 10).dashed(),
			edge(nodeTools, "BeforeTool").sides(Bottom, Top).label("yes", 454, 150),
			edge("BeforeTool", "Notification").sides(Left, Right),
			edge("Notification", nodeTool).sides(Left, Right),
			edge(nodeTool, "AfterTool").sides(Left, Right),
			edge("AfterTool", "BeforeModel").sides(Left, Bottom).via(56, 187).label("results go back", 62, 199),
		},
		Elsewhere: []string{},
		Sources: []string{"google-gemini/gemini-cli docs/hooks/index.md, reference.md; packages/core/src/core/client.ts (BeforeAgent once per prompt, AfterAgent on the outermost call), geminiChat.ts (BeforeModel, then BeforeToolSelection, then the model, then AfterModel), coreToolHookTriggers.ts, context/chatCompressionService.ts",
			"gemini -p 0.61.0 against capture (docs/agents/gemini-cli.md)"},
		systems: []string{"gemini-cli"},
		rules:   agentRules(ns),
	}
}

// genericLoop is drawn for a real agent that did not say which it is: the
// calls the capture saw, the tools between them, no hook events.
func genericLoop() Loop {
	ns := []Node{
		terminalNode(nodePrompt, "user prompt", "build messages", 96, 62, 80),
		stepNode(nodeModel, "model", "LLM call", 314, 62, 76),
		decisionNode(nodeTools, "tool calls?", 404, 62, 78),
		terminalNode(nodeEnd, "end", "answer", 554, 62, 54),
		stepNode(nodeTool, "tool", "runs", 415, 150, 56),
	}
	return Loop{
		ID: GenericID, Title: "an agent that did not say which", TitleAt: Point{4, 20}, Width: 700, Height: 236, NodeHeight: NodeHeight,
		Frame: agentFrame, Nodes: ns,
		Edges: []Edge{
			edge(nodePrompt, nodeModel),
			edge(nodeModel, nodeTools),
			edge(nodeTools, nodeEnd).label("no", 500, 72),
			edge(nodeTools, nodeTool).sides(Bottom, Top).label("yes", 448, 128),
			edge(nodeTool, nodeModel).sides(Left, Bottom).via(352, 165).label("results", 362, 160),
		},
		Elsewhere: []string{},
		Sources:   []string{"what capture records of any agent: its calls and the tools between them (docs/capture.md)"},
		rules:     agentRules(ns),
	}
}
