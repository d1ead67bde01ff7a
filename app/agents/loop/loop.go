// Package loop is each agent's loop as data: the nodes and edges of its
// flowchart, which of its hook events fire at which node, and which node
// each step of a run belongs to. The frontend draws whatever loop a run is
// given, so an agent is a table here (loops.go), not a component; Choose
// says which loop a run gets.
package loop

import (
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
)

// Kind is what a node is.
type Kind string

const (
	KindEvent    Kind = "event"    // one or more of the agent's hook events fire here
	KindStep     Kind = "step"     // the agent does something: builds the list, calls the model, runs a tool
	KindDecision Kind = "decision" // a branch (drawn as a diamond)
	KindTerminal Kind = "terminal" // where a request starts or ends (drawn as a pill)
)

// Side is a side of a node's box an edge leaves or enters by.
type Side string

const (
	Right  Side = "right"
	Left   Side = "left"
	Top    Side = "top"
	Bottom Side = "bottom"
)

// NodeHeight is every node's height on the canvas.
const NodeHeight = 30

// Point is a place on the canvas.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Node is one box of the flowchart, NodeHeight high, at X, Y (its top left).
type Node struct {
	ID    string `json:"id"`
	Kind  Kind   `json:"kind"`
	Label string `json:"label"`
	Sub   string `json:"sub,omitempty"`
	X     int    `json:"x"`
	Y     int    `json:"y"`
	W     int    `json:"w"`
	// Events are the agent's hook events that fire here, by their native
	// names ("PreToolUse"); a breakpoint on the node stops at the first.
	Events []string `json:"events,omitempty"`
	// Points are the simulated agent's hook points whose executable hooks
	// the rules place here (the node's hook tag lists them).
	Points []engine.Point `json:"points,omitempty"`
	// Checkpoint is seed 000's ①–⑤ (0: none): where its prompt hooks act.
	Checkpoint int `json:"checkpoint,omitempty"`
}

// Edge is an arrow from one node to another: it leaves From by Exit,
// passes the Via corners and enters To by Enter (offset along the side
// from its middle, so two arrows can enter one side).
type Edge struct {
	From        string  `json:"from"`
	To          string  `json:"to"`
	Exit        Side    `json:"exit"`
	Enter       Side    `json:"enter"`
	ExitOffset  int     `json:"exit_offset,omitempty"`
	EnterOffset int     `json:"enter_offset,omitempty"`
	Via         []Point `json:"via,omitempty"`
	Label       string  `json:"label,omitempty"`
	LabelAt     *Point  `json:"label_at,omitempty"`
	// Dashed is a way taken only sometimes (a hook's block, a full context).
	Dashed bool `json:"dashed,omitempty"`
}

// Frame is the box around the agent's loop; the round is shown after Label.
type Frame struct {
	X       int    `json:"x"`
	Y       int    `json:"y"`
	W       int    `json:"w"`
	H       int    `json:"h"`
	Label   string `json:"label"`
	LabelAt Point  `json:"label_at"`
}

// Loop is one agent's loop.
type Loop struct {
	// ID is the agent's name as profiles and capture's identify call it
	// ("claude-code"), or SeedID / GenericID.
	ID      string `json:"id"`
	Title   string `json:"title"`
	TitleAt Point  `json:"title_at"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	// NodeHeight is NodeHeight, for the frontend.
	NodeHeight int    `json:"node_height"`
	Frame      Frame  `json:"frame"`
	Nodes      []Node `json:"nodes"`
	Edges      []Edge `json:"edges"`
	// Elsewhere are the agent's hook events that never fire in the loop
	// drawn (subagents, notifications, …).
	Elsewhere []string `json:"elsewhere"`
	// Sources are where its events and their order were read or seen.
	Sources []string `json:"sources"`

	// systems are the hook systems whose hooks are this agent's: a run
	// whose executable hooks are all of them is drawn on this loop.
	systems []string
	// rules place the steps that are not one of the agent's own events.
	rules []Rule
}

// Rule places a step: the first rule whose every given field matches (a
// list: any of its values; empty: anything) names the step's node.
type Rule struct {
	Kind   []engine.StepKind
	Phase  []engine.Phase
	Timing []string
	Prompt []engine.Prompt
	Point  []engine.Point // a hook_call step's point
	Round  []Round
	After  []After
	Node   string
}

// Round is where a step is in its request's rounds.
type Round string

const (
	RoundNone  Round = "none"  // outside the agent loop (round null)
	RoundFirst Round = "first" // round 0
	RoundLater Round = "later" // round 1 or later
)

// After is what the request's previous LLM call answered, before a step.
type After string

const (
	AfterNothing   After = "nothing"    // no call yet in this request
	AfterToolCalls After = "tool_calls" // tool calls: their results go back next
	AfterAnswer    After = "answer"     // text only
)

// Run is what a run tells about the loop it went through.
type Run struct {
	// Agent is the agent the run names ("claude-code@2.1.332", "codex"):
	// the agent a capture's or an imported session's calls came from, or
	// the one a simulated run renders hook output as; "" none.
	Agent string
	// Simulated is true for a run of the simulated agent (the app, hookctl);
	// false for a real agent's calls (a capture, an imported session).
	Simulated bool
	// PromptHooks is true when seed 000's prompt hooks took part.
	PromptHooks bool
	// Systems are the executable hook systems of the run: those that ran,
	// else those it would run ("command", "claude-code", …).
	Systems []string
}

// Choice is the loop a run is drawn on, and why.
type Choice struct {
	Loop *Loop
	Why  string
}

// Choose says which loop a run is drawn on: a real agent's calls on that
// agent's loop (an unknown agent's on the generic one); a simulated run
// on seed 000's loop when seed 000's prompt hooks took part (they act at
// its checkpoints), else on the loop of the agent it names, else on the
// loop of the one agent whose hook systems it ran, else on seed 000's.
func Choose(r Run) Choice {
	name, _, _ := strings.Cut(r.Agent, "@")
	agent := byID(name)
	switch {
	case !r.Simulated && agent != nil:
		return Choice{agent, "the calls came from " + r.Agent}
	case !r.Simulated && name != "":
		return Choice{byID(GenericID), "the calls came from " + r.Agent + ", whose loop is not known here"}
	case !r.Simulated:
		return Choice{byID(GenericID), "the calls do not say which agent sent them"}
	case r.PromptHooks:
		return Choice{byID(SeedID), "seed 000's prompt hooks act at its checkpoints"}
	case agent != nil:
		return Choice{agent, "the run renders hook output as " + r.Agent}
	}
	if l := ownerOf(r.Systems); l != nil {
		return Choice{l, "its executable hooks are " + l.Title + "'s"}
	}
	return Choice{byID(SeedID), "the simulated agent of seed 000"}
}

// ownerOf is the loop whose agent all systems belong to (nil: none, or
// systems of several).
func ownerOf(systems []string) *Loop {
	var owner *Loop
	for _, s := range systems {
		l := systemOwner(s)
		if l == nil || (owner != nil && l != owner) {
			return nil
		}
		owner = l
	}
	return owner
}

func systemOwner(system string) *Loop {
	for i := range loops {
		if slices.Contains(loops[i].systems, system) {
			return &loops[i]
		}
	}
	return nil
}

// Loops lists every loop, seed 000's first. They are shared: read only.
func Loops() []*Loop {
	out := make([]*Loop, len(loops))
	for i := range loops {
		out[i] = &loops[i]
	}
	return out
}

func byID(id string) *Loop {
	for i := range loops {
		if loops[i].ID == id {
			return &loops[i]
		}
	}
	return nil
}

// Flow is a run's loop and the node of each of its steps.
type Flow struct {
	Loop *Loop  `json:"loop"`
	Why  string `json:"why"`
	// Steps holds, per step of the run, the index of its node in
	// Loop.Nodes (-1: none).
	Steps []int `json:"steps"`
}

// For draws a run: the loop Choose gives it, each step placed on it.
func For(r Run, steps []engine.Step, calls []engine.LLMCall, hookOf HookOf) Flow {
	c := Choose(r)
	return Flow{Loop: c.Loop, Why: c.Why, Steps: c.Loop.Place(steps, calls, hookOf)}
}

// HookOf names the hook event whose words message id is ("PreToolUse:Bash"
// as a capture names them; "" for a message no hook wrote). nil: none.
type HookOf func(message int) string

// Place gives each step its node's index (-1: none): a hook call at the
// node of its native event; a step that builds a call's list from a real
// agent's request, at the node of the last of the agent's events whose
// words it added (a capture has no hook calls: its hooks are seen by their
// words); else the first rule that matches.
func (l *Loop) Place(steps []engine.Step, calls []engine.LLMCall, hookOf HookOf) []int {
	index := make(map[string]int, len(l.Nodes))
	for i, n := range l.Nodes {
		index[n.ID] = i
	}
	after := map[int]After{} // per request: what its last LLM call answered
	out := make([]int, len(steps))
	for i := range steps {
		s := &steps[i]
		a, ok := after[s.Request]
		if !ok {
			a = AfterNothing
		}
		out[i] = l.place(s, a, index, hookOf)
		if s.Kind == engine.StepLLMCall && s.Call != nil && *s.Call < len(calls) {
			if len(calls[*s.Call].ToolCalls) > 0 {
				after[s.Request] = AfterToolCalls
			} else {
				after[s.Request] = AfterAnswer
			}
		}
	}
	return out
}

func (l *Loop) place(s *engine.Step, a After, index map[string]int, hookOf HookOf) int {
	if hc := s.HookCall; s.Kind == engine.StepHookCall && hc != nil {
		if i := l.nodeOfEvent(hc.Event); i >= 0 {
			return i
		}
	}
	if s.Kind == engine.StepBuildMessages && hookOf != nil {
		for k := len(s.Added) - 1; k >= 0; k-- {
			if i := l.nodeOfEvent(hookOf(s.Added[k])); i >= 0 {
				return i
			}
		}
	}
	for _, r := range l.rules {
		if r.matches(s, a) {
			return index[r.Node]
		}
	}
	return -1
}

// nodeOfEvent is the index of the node where event fires (-1: none). Claude
// Code names a tool event with its tool ("PreToolUse:Bash"); words that
// could be any of several events' ("PostToolUse/PreToolUse:exec_command":
// Codex's stand alike) go at the first of them the loop has, the event an
// imported session gives their hook.
func (l *Loop) nodeOfEvent(event string) int {
	event, _, _ = strings.Cut(event, ":")
	for e := range strings.SplitSeq(event, "/") {
		if e == "" {
			continue
		}
		for i, n := range l.Nodes {
			if slices.Contains(n.Events, e) {
				return i
			}
		}
	}
	return -1
}

func (r *Rule) matches(s *engine.Step, a After) bool {
	var point engine.Point
	if s.HookCall != nil {
		point = s.HookCall.Point
	}
	if len(r.Point) > 0 && (s.Kind != engine.StepHookCall || s.HookCall == nil) {
		return false
	}
	round := RoundNone
	if s.Round != nil {
		round = RoundFirst
		if *s.Round > 0 {
			round = RoundLater
		}
	}
	return anyOf(r.Kind, s.Kind) && anyOf(r.Phase, s.Phase) && anyOf(r.Timing, s.Timing) && anyOf(r.Prompt, s.Prompt) &&
		anyOf(r.Point, point) && anyOf(r.Round, round) && anyOf(r.After, a)
}

// anyOf says whether v is one of the values, or there are none to match.
func anyOf[T comparable](values []T, v T) bool { return len(values) == 0 || slices.Contains(values, v) }
