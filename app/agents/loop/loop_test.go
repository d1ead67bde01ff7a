package loop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/hooks/hooksets"
)

// rect is a node's box on the canvas.
type rect struct{ x0, y0, x1, y1 int }

func boxOf(n Node) rect { return rect{n.X, n.Y, n.X + n.W, n.Y + NodeHeight} }

func (r rect) overlaps(o rect) bool { return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1 }

// anchor is where an edge leaves or enters a node, as the frontend draws it.
func anchor(n Node, side Side, offset int) (Point, error) {
	switch side {
	case Right:
		return Point{n.X + n.W, n.Y + NodeHeight/2 + offset}, nil
	case Left:
		return Point{n.X, n.Y + NodeHeight/2 + offset}, nil
	case Top:
		return Point{n.X + n.W/2 + offset, n.Y}, nil
	case Bottom:
		return Point{n.X + n.W/2 + offset, n.Y + NodeHeight}, nil
	}
	return Point{}, fmt.Errorf("side %q", side)
}

// crosses says whether the axis-parallel segment a–b runs through the
// inside of r (touching its border is fine: arrows end there).
func crosses(a, b Point, r rect) bool {
	if a.X == b.X {
		lo, hi := min(a.Y, b.Y), max(a.Y, b.Y)
		return a.X > r.x0 && a.X < r.x1 && lo < r.y1 && hi > r.y0
	}
	lo, hi := min(a.X, b.X), max(a.X, b.X)
	return a.Y > r.y0 && a.Y < r.y1 && lo < r.x1 && hi > r.x0
}

// problems lists everything wrong with a loop's drawing and rules.
func problems(l *Loop) []string {
	var out []string
	bad := func(f string, a ...any) { out = append(out, fmt.Sprintf(f, a...)) }
	inside := func(what string, x, y int) {
		if x < 0 || y < 0 || x > l.Width || y > l.Height {
			bad("%s at %d,%d is off the %d×%d canvas", what, x, y, l.Width, l.Height)
		}
	}
	if l.NodeHeight != NodeHeight {
		bad("node height %d", l.NodeHeight)
	}
	inside("the title", l.TitleAt.X, l.TitleAt.Y)
	inside("the frame", l.Frame.X, l.Frame.Y)
	inside("the frame's end", l.Frame.X+l.Frame.W, l.Frame.Y+l.Frame.H)
	nodes := map[string]Node{}
	events := map[string]string{}
	for i, n := range l.Nodes {
		if _, dup := nodes[n.ID]; dup || n.ID == "" {
			bad("node %q: its id is empty or taken", n.ID)
		}
		nodes[n.ID] = n
		if !slices.Contains([]Kind{KindEvent, KindStep, KindDecision, KindTerminal}, n.Kind) {
			bad("node %s: kind %q", n.ID, n.Kind)
		}
		if n.Label == "" || n.W <= 0 {
			bad("node %s: no label or width", n.ID)
		}
		if (n.Kind == KindEvent) != (len(n.Events) > 0) {
			bad("node %s: an event node names the events that fire there, and only it", n.ID)
		}
		for _, e := range n.Events {
			if at, dup := events[e]; dup {
				bad("event %s is on %s and %s", e, at, n.ID)
			}
			events[e] = n.ID
			if slices.Contains(l.Elsewhere, e) {
				bad("event %s is drawn and listed as firing elsewhere", e)
			}
		}
		inside("node "+n.ID, n.X, n.Y)
		inside("node "+n.ID+"'s end", n.X+n.W, n.Y+NodeHeight)
		for _, o := range l.Nodes[:i] {
			if boxOf(n).overlaps(boxOf(o)) {
				bad("nodes %s and %s overlap", o.ID, n.ID)
			}
		}
	}
	for i, e := range l.Edges {
		from, ok1 := nodes[e.From]
		to, ok2 := nodes[e.To]
		if !ok1 || !ok2 {
			bad("edge %d %s→%s: no such node", i, e.From, e.To)
			continue
		}
		a, err1 := anchor(from, e.Exit, e.ExitOffset)
		b, err2 := anchor(to, e.Enter, e.EnterOffset)
		if err1 != nil || err2 != nil {
			bad("edge %s→%s: %v %v", e.From, e.To, err1, err2)
			continue
		}
		path := append(append([]Point{a}, e.Via...), b)
		for k := 1; k < len(path); k++ {
			p, q := path[k-1], path[k]
			inside(fmt.Sprintf("edge %s→%s's corner", e.From, e.To), q.X, q.Y)
			if p.X != q.X && p.Y != q.Y {
				bad("edge %s→%s: %v→%v is not horizontal or vertical", e.From, e.To, p, q)
			}
			for _, n := range l.Nodes {
				if n.ID != e.From && n.ID != e.To && crosses(p, q, boxOf(n)) {
					bad("edge %s→%s runs through node %s", e.From, e.To, n.ID)
				}
			}
		}
		if e.LabelAt != nil {
			inside("edge "+e.From+"→"+e.To+"'s label", e.LabelAt.X, e.LabelAt.Y)
		}
	}
	for _, r := range l.rules {
		if _, ok := nodes[r.Node]; !ok {
			bad("a rule places steps on %q: no such node", r.Node)
		}
	}
	if l.ID != SeedID {
		for _, id := range []string{nodePrompt, nodeModel, nodeTools, nodeTool, nodeEnd} {
			if _, ok := nodes[id]; !ok {
				bad("an agent's loop has no %q node", id)
			}
		}
	}
	if len(l.Sources) == 0 {
		bad("no sources")
	}
	return out
}

func TestLoopsAreDrawable(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Loops() {
		if seen[l.ID] {
			t.Errorf("loop %s twice", l.ID)
		}
		seen[l.ID] = true
		for _, p := range problems(l) {
			t.Errorf("%s: %s", l.ID, p)
		}
	}
	if Loops()[0].ID != SeedID || byID(GenericID) == nil {
		t.Errorf("seed 000's loop first and the generic one present")
	}
}

// The checks catch what they are for.
func TestProblemsFindsBadDrawings(t *testing.T) {
	base := byID("claude-code")
	cases := map[string]func(l *Loop){
		"overlap":       func(l *Loop) { l.Nodes[1].X = l.Nodes[0].X },
		"off canvas":    func(l *Loop) { l.Nodes[0].X = l.Width },
		"diagonal":      func(l *Loop) { l.Edges[0].Via = []Point{{1, 1}} },
		"through node":  func(l *Loop) { l.Edges[0].Via = []Point{{0, 77}, {696, 77}} },
		"unknown node":  func(l *Loop) { l.Edges[0].To = "nowhere" },
		"rule":          func(l *Loop) { l.rules = append(l.rules, on().to("nowhere")) },
		"event twice":   func(l *Loop) { l.Nodes[2].Events = l.Nodes[0].Events },
		"event nowhere": func(l *Loop) { l.Elsewhere = append(l.Elsewhere, "PreCompact") },
	}
	for name, spoil := range cases {
		l := *base
		l.Nodes, l.Edges, l.rules = slices.Clone(base.Nodes), slices.Clone(base.Edges), slices.Clone(base.rules)
		l.Elsewhere = slices.Clone(base.Elsewhere)
		spoil(&l)
		if len(problems(&l)) == 0 {
			t.Errorf("%s: not found", name)
		}
	}
}

// Every hook event of each agent is on a node of its loop, or listed as
// firing elsewhere — the events as each agent's source names them.
func TestEveryEventOnANode(t *testing.T) {
	var claudeElsewhere []string
	for _, e := range claudehook.KnownEvents() {
		if !e.Fires() {
			claudeElsewhere = append(claudeElsewhere, string(e))
		}
	}
	var claudeDrawn []string
	for _, e := range claudehook.Simulated {
		claudeDrawn = append(claudeDrawn, string(e))
	}
	cases := []struct {
		loop             string
		drawn, elsewhere []string
	}{
		{"claude-code", claudeDrawn, claudeElsewhere},
		// openai/codex codex-rs/hooks (registry.rs, events/); design-agents.md
		{"codex", []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact",
			"Stop", "SessionEnd"}, []string{"SubagentStart", "SubagentStop"}},
		// google-gemini/gemini-cli docs/hooks/index.md
		{"gemini-cli", []string{"SessionStart", "BeforeAgent", "BeforeModel", "BeforeToolSelection", "AfterModel", "BeforeTool", "AfterTool",
			"AfterAgent", "PreCompress", "SessionEnd", "Notification"}, nil},
		// QwenLM/qwen-code packages/core/src/hooks/types.ts HookEventName
		{"qwen-code", []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
			"PostToolBatch", "Stop", "PreCompact", "PostCompact", "SessionEnd"},
			[]string{"Notification", "UserPromptExpansion", "MessageDisplay", "SubagentStart", "SubagentStop", "SessionDelete", "PermissionDenied",
				"StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"}},
		// docs.github.com Copilot CLI hooks reference; design-agents.md
		{"copilot-cli", []string{"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "errorOccurred", "sessionEnd"},
			[]string{"subagentStop", "notification"}},
		{SeedID, nil, nil},
		{GenericID, nil, nil},
	}
	for _, c := range cases {
		l := byID(c.loop)
		if l == nil {
			t.Errorf("no loop %s", c.loop)
			continue
		}
		var drawn []string
		for _, n := range l.Nodes {
			drawn = append(drawn, n.Events...)
		}
		if !sameSet(drawn, c.drawn) {
			t.Errorf("%s: events on nodes %v, want %v", c.loop, drawn, c.drawn)
		}
		if !sameSet(l.Elsewhere, c.elsewhere) {
			t.Errorf("%s: elsewhere %v, want %v", c.loop, l.Elsewhere, c.elsewhere)
		}
	}
	if len(Loops()) != len(cases) {
		t.Errorf("%d loops, %d checked", len(Loops()), len(cases))
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	sort.Strings(a)
	sort.Strings(b)
	return slices.Equal(a, b)
}

func TestChoose(t *testing.T) {
	cases := []struct {
		name string
		run  Run
		want string
	}{
		{"a capture of Claude Code", Run{Agent: "claude-code@2.1.197"}, "claude-code"},
		{"a capture of Codex", Run{Agent: "codex@0.171.0"}, "codex"},
		{"a Gemini CLI session", Run{Agent: "gemini-cli"}, "gemini-cli"},
		{"a capture of an agent without a loop", Run{Agent: "factory-droid@0.225.2"}, GenericID},
		{"a capture that does not say", Run{}, GenericID},
		{"a capture with hooks in the folder", Run{Systems: []string{"claude-code"}}, GenericID},
		{"simulated, seed 000's hooks and Claude Code's", Run{Simulated: true, PromptHooks: true, Agent: "claude-code@2.1.332", Systems: []string{"claude-code"}}, SeedID},
		{"simulated as Claude Code", Run{Simulated: true, Agent: "claude-code@2.1.332"}, "claude-code"},
		{"simulated as Qwen Code", Run{Simulated: true, Agent: "qwen-code@0.24.4", Systems: []string{"claude-code"}}, "qwen-code"},
		{"simulated, Claude Code's hooks only", Run{Simulated: true, Systems: []string{"claude-code"}}, "claude-code"},
		{"simulated, Claude Code's hooks and jcli's", Run{Simulated: true, Systems: []string{"claude-code", "command"}}, SeedID},
		{"simulated, jcli's hooks", Run{Simulated: true, Systems: []string{"command"}}, SeedID},
		{"simulated, PicoClaw's and request hooks", Run{Simulated: true, Systems: []string{"process", "request"}}, SeedID},
		{"simulated, an unknown system", Run{Simulated: true, Systems: []string{"cline"}}, SeedID},
		{"simulated, an agent without a loop", Run{Simulated: true, Agent: "opencode@1.18.33", Systems: []string{"claude-code"}}, "claude-code"},
		{"simulated, nothing", Run{Simulated: true}, SeedID},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Choose(c.run)
			if got.Loop == nil || got.Loop.ID != c.want || got.Why == "" {
				t.Fatalf("got %+v, want %s with why", got, c.want)
			}
		})
	}
}

func ptr(n int) *int { return &n }

func hookCall(point engine.Point, system, event string) engine.Step {
	return engine.Step{Kind: engine.StepHookCall, Phase: engine.PhaseAgent, Round: ptr(0), HookCall: &engine.HookCall{System: system, Point: point, Event: event}}
}

func TestPlace(t *testing.T) {
	agent := func(round int, kind engine.StepKind) engine.Step {
		return engine.Step{Kind: kind, Phase: engine.PhaseAgent, Round: ptr(round)}
	}
	outside := func(kind engine.StepKind, timing string) engine.Step {
		return engine.Step{Kind: kind, Phase: engine.PhaseAgent, Timing: timing}
	}
	cases := []struct {
		loop string
		step engine.Step
		want string
	}{
		// seed 000 (as the flowchart was drawn before it was data)
		{SeedID, engine.Step{Kind: engine.StepBuildMessages}, "input"},
		{SeedID, engine.Step{Kind: engine.StepLLMCall, Phase: engine.PhasePlanning}, "plan"},
		{SeedID, engine.Step{Kind: engine.StepLLMCall, Phase: engine.PhaseDirect}, "direct"},
		{SeedID, agent(1, engine.StepLLMCall), "agent"},
		{SeedID, engine.Step{Kind: engine.StepInjectPrompt, Prompt: engine.PromptPlanning, Phase: engine.PhasePlanning}, "plan"},
		{SeedID, engine.Step{Kind: engine.StepInjectPrompt, Prompt: engine.PromptFirstStep, Phase: engine.PhaseAgent, Round: ptr(0)}, "agent"},
		{SeedID, engine.Step{Kind: engine.StepInject, Timing: "after_user_input", Checkpoint: 1}, "cp1"},
		{SeedID, engine.Step{Kind: engine.StepRemove, Timing: "before_planning", Checkpoint: 2}, "plan"},
		{SeedID, engine.Step{Kind: engine.StepRemove, Timing: "before_each_agent", Round: ptr(1)}, "cp3"},
		{SeedID, outside(engine.StepRemove, "before_first_agent"), "exit"},
		{SeedID, outside(engine.StepRemove, "after_tool_call"), "exit"},
		{SeedID, engine.Step{Kind: engine.StepRemove, Timing: "after_tool_call", Round: ptr(2)}, "cp5"},
		{SeedID, engine.Step{Kind: engine.StepYield, Timing: "before_each_agent", Round: ptr(0)}, "cp3"},
		{SeedID, agent(0, engine.StepAppend), "run"},
		{SeedID, agent(0, engine.StepToolCall), "run"},
		{SeedID, engine.Step{Kind: engine.StepReply}, "end"},
		{SeedID, engine.Step{Kind: engine.StepCompact}, "cp3"},
		{SeedID, engine.Step{Kind: engine.StepRestore, Phase: engine.PhasePlanning}, "plan"},
		{SeedID, hookCall(engine.PointBeforeTool, "command", "pre_tool_execution"), "run"},
		{SeedID, hookCall(engine.PointSessionStart, "command", "session_start"), "input"},
		{SeedID, hookCall(engine.PointStop, "command", "stop"), "exit"},
		{SeedID, engine.Step{Kind: engine.StepHookCall, Phase: engine.PhaseDirect, HookCall: &engine.HookCall{Point: engine.PointStop}}, "end"},
		{SeedID, engine.Step{Kind: engine.StepHookCall, Phase: engine.PhasePlanning, HookCall: &engine.HookCall{Point: engine.PointBeforeLLM}}, "plan"},
		{SeedID, hookCall(engine.PointAfterLLM, "process", "hook.after_llm"), "agent"},
		{SeedID, hookCall(engine.PointBeforeCompact, "command", "pre_auto_compact"), "cp3"},
		{SeedID, hookCall(engine.PointSessionEnd, "command", "session_end"), "end"},
		{SeedID, hookCall(engine.PointBeforeTool, "claude-code", "PreToolUse:Bash"), "run"},
		// Claude Code: its events at their nodes, whatever the point
		{"claude-code", hookCall(engine.PointBeforeTool, "claude-code", "PreToolUse:Bash"), "PreToolUse"},
		{"claude-code", hookCall(engine.PointAfterTool, "claude-code", "PostToolUseFailure:Bash"), "PostToolUseFailure"},
		{"claude-code", hookCall(engine.PointAfterTool, "claude-code", "PostToolUse:Edit"), "PostToolUse"},
		{"claude-code", hookCall(engine.PointStop, "claude-code", "Stop"), "Stop"},
		{"claude-code", hookCall(engine.PointBeforeSend, "claude-code", "UserPromptSubmit"), "UserPromptSubmit"},
		{"claude-code", hookCall(engine.PointApproveTool, "claude-code", "PermissionRequest:Bash"), "PermissionRequest"},
		{"claude-code", hookCall(engine.PointAfterTools, "claude-code", "PostToolBatch"), "PostToolBatch"},
		{"claude-code", hookCall(engine.PointBeforeCompact, "claude-code", "PreCompact"), "PreCompact"},
		// … another system's hook at a point: its event's node, else where the point is
		{"claude-code", hookCall(engine.PointBeforeTool, "command", "pre_tool_execution"), "PreToolUse"},
		{"claude-code", hookCall(engine.PointBeforeLLM, "command", "pre_llm_request"), "model"},
		{"claude-code", hookCall(engine.PointAfterSend, "command", "post_send_message"), "prompt"},
		// … and the simulated agent's own steps where they happen in Claude Code's loop
		{"claude-code", engine.Step{Kind: engine.StepBuildMessages}, "prompt"},
		{"claude-code", engine.Step{Kind: engine.StepInject, Timing: "after_user_input", Checkpoint: 1}, "prompt"},
		{"claude-code", engine.Step{Kind: engine.StepLLMCall, Phase: engine.PhasePlanning}, "model"},
		{"claude-code", engine.Step{Kind: engine.StepInject, Timing: "before_each_agent", Round: ptr(1), Checkpoint: 3}, "model"},
		{"claude-code", agent(1, engine.StepAppend), "tools"},
		{"claude-code", agent(1, engine.StepToolCall), "tool"},
		{"claude-code", engine.Step{Kind: engine.StepInject, Timing: "after_tool_call", Round: ptr(1), Checkpoint: 5}, "tool"},
		{"claude-code", outside(engine.StepRemove, "after_tool_call"), "end"},
		{"claude-code", engine.Step{Kind: engine.StepReply}, "end"},
		{"claude-code", engine.Step{Kind: engine.StepCompact}, "compact"},
		// Gemini CLI: the model's own hook events, compaction at its compress node
		{"gemini-cli", hookCall(engine.PointBeforeLLM, "gemini-cli", "BeforeModel"), "BeforeModel"},
		{"gemini-cli", hookCall(engine.PointBeforeLLM, "gemini-cli", "BeforeToolSelection"), "BeforeToolSelection"},
		{"gemini-cli", hookCall(engine.PointBeforeTool, "command", "pre_tool_execution"), "BeforeTool"},
		{"gemini-cli", hookCall(engine.PointAfterTools, "command", "post_tools"), "tool"},
		{"gemini-cli", engine.Step{Kind: engine.StepCompact}, "compact"},
		// Copilot CLI: a compaction has no node of its own: before the call
		{"copilot-cli", hookCall(engine.PointBeforeTool, "copilot-cli", "preToolUse"), "preToolUse"},
		{"copilot-cli", engine.Step{Kind: engine.StepCompact}, "model"},
		{"copilot-cli", hookCall(engine.PointApproveTool, "command", "approve"), "tool"},
		// no native event of another agent lands on a node by its name alone
		{"copilot-cli", hookCall(engine.PointBeforeTool, "claude-code", "PreToolUse:Bash"), "preToolUse"},
	}
	for _, c := range cases {
		l := byID(c.loop)
		got := l.Place([]engine.Step{c.step}, nil, nil)[0]
		name := "none"
		if got >= 0 {
			name = l.Nodes[got].ID
		}
		if name != c.want {
			t.Errorf("%s: %s %s %v → %s, want %s", c.loop, c.step.Kind, c.step.Timing, c.step.HookCall, name, c.want)
		}
	}
}

// A real agent's run is calls only: each call's list is built where the
// request stands — the prompt, or the tools' results going back.
func TestPlaceACapture(t *testing.T) {
	steps := []engine.Step{
		{Kind: engine.StepBuildMessages, Request: 0, Round: ptr(0)},
		{Kind: engine.StepLLMCall, Request: 0, Round: ptr(0), Call: ptr(0)},
		{Kind: engine.StepBuildMessages, Request: 0, Round: ptr(1)},
		{Kind: engine.StepLLMCall, Request: 0, Round: ptr(1), Call: ptr(1)},
		{Kind: engine.StepBuildMessages, Request: 0, Round: ptr(2)},
		{Kind: engine.StepLLMCall, Request: 0, Round: ptr(2), Call: ptr(2)},
		{Kind: engine.StepBuildMessages, Request: 1, Round: ptr(0)}, // a side request: a conversation of its own
		{Kind: engine.StepLLMCall, Request: 1, Round: ptr(0), Call: ptr(3)},
	}
	calls := []engine.LLMCall{{ToolCalls: []engine.ToolCall{{Name: "Bash"}}}, {Content: "blocked"}, {Content: "done"}, {Content: "a title"}}
	for _, id := range []string{"claude-code", "codex", "gemini-cli", "qwen-code", "copilot-cli", GenericID} {
		l := byID(id)
		var got []string
		for _, i := range l.Place(steps, calls, nil) {
			got = append(got, l.Nodes[i].ID)
		}
		want := []string{"prompt", "model", "tool", "model", "prompt", "model", "prompt", "model"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}

// A capture's hooks are seen by their words: a step that adds them goes
// at the node of their event (the last one it adds), on the loop of the
// agent whose event it is.
func TestPlaceACapturesHookWords(t *testing.T) {
	steps := []engine.Step{
		{Kind: engine.StepBuildMessages, Round: ptr(0), Added: []int{0, 1, 2}}, // system, prompt, UserPromptSubmit's context
		{Kind: engine.StepLLMCall, Round: ptr(0), Call: ptr(0)},
		{Kind: engine.StepBuildMessages, Round: ptr(1), Added: []int{3, 4}}, // the tool call, PreToolUse's reason in the result
		{Kind: engine.StepLLMCall, Round: ptr(1), Call: ptr(1)},
		{Kind: engine.StepBuildMessages, Round: ptr(2), Added: []int{5, 6}}, // the answer, Stop's feedback
		{Kind: engine.StepLLMCall, Round: ptr(2), Call: ptr(2)},
		{Kind: engine.StepBuildMessages, Round: ptr(3), Added: []int{7, 8}}, // an answer, a hook of another agent
	}
	calls := []engine.LLMCall{{ToolCalls: []engine.ToolCall{{Name: "Bash"}}}, {Content: "blocked"}, {Content: "done"}}
	hooks := map[int]string{2: "UserPromptSubmit", 4: "PreToolUse:Bash", 6: "Stop", 8: "BeforeAgent"}
	hookOf := func(id int) string { return hooks[id] }
	cases := map[string][]string{
		"claude-code": {"UserPromptSubmit", "model", "PreToolUse", "model", "Stop", "model", "prompt"},
		"gemini-cli":  {"prompt", "model", "tool", "model", "prompt", "model", "BeforeAgent"},
		GenericID:     {"prompt", "model", "tool", "model", "prompt", "model", "prompt"},
	}
	for id, want := range cases {
		l := byID(id)
		var got []string
		for _, i := range l.Place(steps, calls, hookOf) {
			got = append(got, l.Nodes[i].ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", id, got, want)
		}
	}
}

// Codex's PreToolUse and PostToolUse context stand alike in its request:
// words that could be either's go at the first the loop has.
func TestPlaceWordsOfSeveralEvents(t *testing.T) {
	steps := []engine.Step{
		{Kind: engine.StepBuildMessages, Round: ptr(0), Added: []int{0, 1}},
		{Kind: engine.StepLLMCall, Round: ptr(0), Call: ptr(0)},
		{Kind: engine.StepBuildMessages, Round: ptr(1), Added: []int{2, 3, 4}}, // the call, its result, the hook's words
		{Kind: engine.StepLLMCall, Round: ptr(1), Call: ptr(1)},
	}
	calls := []engine.LLMCall{{ToolCalls: []engine.ToolCall{{Name: "exec_command"}}}, {Content: "done"}}
	for _, c := range []struct{ loop, words, want string }{
		{"codex", "PostToolUse/PreToolUse:exec_command", "PostToolUse"},
		{"codex", "PermissionRequest/PreToolUse:exec_command", "PermissionRequest"},
		{"gemini-cli", "PostToolUse/AfterTool", "AfterTool"},
		{"codex", "AfterTool/BeforeTool", "tool"},
	} {
		l := byID(c.loop)
		got := l.Place(steps, calls, func(id int) string {
			if id == 4 {
				return c.words
			}
			return ""
		})
		if n := l.Nodes[got[2]].ID; n != c.want {
			t.Errorf("%s: %q at %s, want %s", c.loop, c.words, n, c.want)
		}
	}
}

// Every step of every example's trace has a node on the loop it gets, and
// Claude Code's example lights its events.
func TestPlaceTheExamples(t *testing.T) {
	files, err := filepath.Glob("../../../cmd/hookctl/testdata/traces/*.json")
	if err != nil || len(files) < 20 {
		t.Fatalf("the trace goldens: %v (%d)", err, len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc engine.Document
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var systems []string
		for _, s := range doc.Steps {
			if s.HookCall != nil && !slices.Contains(systems, s.HookCall.System) {
				systems = append(systems, s.HookCall.System)
			}
		}
		fl := For(Run{Simulated: true, Systems: systems}, doc.Steps, nil, nil)
		for i, n := range fl.Steps {
			if n < 0 {
				t.Errorf("%s on %s: step %d (%s %s) has no node", filepath.Base(f), fl.Loop.ID, i, doc.Steps[i].Kind, doc.Steps[i].Timing)
			}
		}
		if filepath.Base(f) != "skills.claude-guard.release.json" {
			continue
		}
		if fl.Loop.ID != "claude-code" {
			t.Fatalf("claude-guard's release is drawn on %s (%s)", fl.Loop.ID, fl.Why)
		}
		lit := map[string]bool{}
		for i, n := range fl.Steps {
			if doc.Steps[i].Kind == engine.StepHookCall {
				lit[fl.Loop.Nodes[n].ID] = true
			}
		}
		for _, want := range []string{"PreToolUse", "PostToolUse", "Stop"} {
			if !lit[want] {
				t.Errorf("claude-guard's release: %s not lit (%v)", want, lit)
			}
		}
	}
}

// The hook systems each loop owns are the registry's: a system registered
// for an agent (registry.System.Agent) is that agent's loop's, the seeds'
// executable systems are seed 000's, and a run of one system's hooks is
// drawn on its loop.
func TestSystemsAreTheRegistrys(t *testing.T) {
	for _, sys := range hooksets.Registry(hooksets.RegistryOptions{}).Systems() {
		want := sys.Agent
		if want == "" {
			want = SeedID
		}
		if sys.Load == nil || sys.CheckOnly {
			continue // seed 000's prompt hooks (the simulated agent's own) and hooks never simulated: no hook calls
		}
		if got := systemOwner(sys.Name); got == nil || got.ID != want {
			t.Errorf("system %s (agent %q) belongs to loop %v, want %s", sys.Name, sys.Agent, got, want)
		}
		if got := Choose(Run{Simulated: true, Systems: []string{sys.Name}}); got.Loop.ID != want {
			t.Errorf("a run of %s's hooks is drawn on %s", sys.Name, got.Loop.ID)
		}
	}
	for _, l := range Loops() {
		for _, name := range l.systems {
			if sys, ok := hooksets.Registry(hooksets.RegistryOptions{}).System(name); ok && sys.Agent != "" && sys.Agent != l.ID {
				t.Errorf("loop %s owns %s, registered for %s", l.ID, name, sys.Agent)
			}
		}
	}
}
