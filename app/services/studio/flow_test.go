package studio

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agents/loop"
	"hookstudio/app/capture"
)

// nodeOfStep is the id of the node the view puts step i on ("" none).
func nodeOfStep(v TraceView, i int) string {
	if n := v.Flow.Steps[i]; n >= 0 {
		return v.Flow.Loop.Nodes[n].ID
	}
	return ""
}

// A folder with Claude Code's plugin and seed 000's planner: the plugin's
// scenario is drawn on Claude Code's loop before trust (its hooks would
// run) and after (they ran, each at its event's node); the planner's on
// seed 000's.
func TestViewsAreDrawnOnTheirAgentsLoop(t *testing.T) {
	root := t.TempDir()
	copyTree(t, "../../../skills/claude-guard", filepath.Join(root, "claude-guard"))
	copyTree(t, "../../../skills/planner", filepath.Join(root, "planner"))
	s, rec, ctx := newService(t, appHooksOn)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	selected := func(file string) TraceView {
		from := rec.len()
		if v, err := s.Select(ctx, file); err != nil || !v.Pending {
			return v
		}
		return waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending && v.File == file })
	}
	release := "claude-guard/scenarios/release.yaml"
	v := selected(release)
	if len(v.Steps) == 0 || v.Exec.NotRun != NotRunUntrusted || v.Flow.Loop.ID != "claude-code" || len(v.Flow.Steps) != len(v.Steps) {
		t.Fatalf("untrusted: drawn on %s (%s), %d of %d steps placed", v.Flow.Loop.ID, v.Flow.Why, len(v.Flow.Steps), len(v.Steps))
	}
	planner := selected("planner/scenarios/multi-step-change.yaml")
	if planner.Flow.Loop.ID != loop.SeedID || nodeOfStep(planner, planner.Calls[0].Step) != "plan" {
		t.Fatalf("the planner is drawn on %s (%s)", planner.Flow.Loop.ID, planner.Flow.Why)
	}

	selected(release)
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v = waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending && v.Exec.Ran && v.File == release })
	if v.Flow.Loop.ID != "claude-code" {
		t.Fatalf("trusted: drawn on %s (%s)", v.Flow.Loop.ID, v.Flow.Why)
	}
	lit := map[string]string{}
	for _, st := range hookCallSteps(v) {
		lit[st.HookCall.Event] = nodeOfStep(v, st.Index)
	}
	for event, want := range map[string]string{"PreToolUse:Bash": "PreToolUse", "PostToolUse:Edit": "PostToolUse", "Stop": "Stop"} {
		if lit[event] != want {
			t.Errorf("%s at %q, want %s (%v)", event, lit[event], want, lit)
		}
	}
	if n := nodeOfStep(v, v.Calls[1].Step); n != "model" {
		t.Errorf("an LLM call at %q", n)
	}
}

// A capture opened from the history is drawn as a real agent's calls: on
// the generic loop while it does not say which agent sent them.
func TestCaptureRunIsDrawnAsAnAgentsCalls(t *testing.T) {
	calls := []capture.Call{
		{N: 0, Status: 200, Messages: []capture.Message{{Role: "user", Content: "clean the build folder", Origin: capture.OriginUser}},
			Answer: &capture.Answer{ToolCalls: []capture.ToolCall{{ID: "t1", Name: "Bash", Arguments: json.RawMessage(`{"command":"ls"}`)}}}},
		{N: 1, Status: 200, Messages: []capture.Message{{Role: "user", Content: "clean the build folder", Origin: capture.OriginUser},
			{Role: "assistant", ToolCalls: []capture.ToolCall{{ID: "t1", Name: "Bash", Arguments: json.RawMessage(`{"command":"ls"}`)}}},
			{Role: "tool", ToolCallID: "t1", Content: "build", Origin: capture.OriginToolResult}},
			Answer: &capture.Answer{Content: "done"}},
	}
	tr, err := capture.Trace("capture", calls)
	if err != nil {
		t.Fatal(err)
	}
	v := RunView(tr, "capture", counter(t), RunOrigin{})
	var got []string
	for i := range v.Steps {
		got = append(got, nodeOfStep(v, i))
	}
	if v.Flow.Loop.ID != loop.GenericID || len(got) != 4 || got[0] != "prompt" || got[1] != "model" || got[2] != "tool" || got[3] != "model" {
		t.Fatalf("drawn on %s: %v", v.Flow.Loop.ID, got)
	}
	if sim := RunView(tr, "capture", counter(t), RunOrigin{Simulated: true}); sim.Flow.Loop.ID != loop.SeedID {
		t.Errorf("the same trace as a simulation: %s", sim.Flow.Loop.ID)
	}
	if v.Steps[1].Kind != engine.StepLLMCall {
		t.Errorf("steps %v", v.Steps)
	}
}

// The agent a trace names draws it on that agent's loop when the calls are
// a real agent's (an imported session names the CLI that wrote it), or a
// simulated run was asked to be it (the scenario's agent:, --agent, the
// app's picker); a version picked only to word Claude Code's hooks does not.
func TestTheAgentATraceNames(t *testing.T) {
	calls := []capture.Call{{N: 0, Status: 200, Messages: []capture.Message{{Role: "user", Content: "hi", Origin: capture.OriginUser}},
		Answer: &capture.Answer{Content: "hello"}}}
	for _, c := range []struct {
		name   string
		agent  *engine.Agent
		origin RunOrigin
		want   string
	}{
		{"an imported Codex session", &engine.Agent{Agent: "codex", Version: "0.171.0", By: "transcript"}, RunOrigin{}, "codex"},
		{"its origin first", &engine.Agent{Agent: "codex", Version: "0.171.0", By: "transcript"}, RunOrigin{Agent: "claude-code@2.1.332"}, "claude-code"},
		{"simulated as the scenario says", &engine.Agent{Agent: "qwen-code", Version: "0.24.4", By: profile.ByScenario}, RunOrigin{Simulated: true}, "qwen-code"},
		{"simulated as --agent says", &engine.Agent{Agent: "claude-code", Version: "2.1.197", By: profile.ByFlag}, RunOrigin{Simulated: true}, "claude-code"},
		{"simulated, the installed version", &engine.Agent{Agent: "claude-code", Version: "2.1.197", By: profile.ByInstalled}, RunOrigin{Simulated: true}, loop.SeedID},
		{"simulated, the newest version", &engine.Agent{Agent: "claude-code", Version: "2.1.332", By: profile.ByNewest}, RunOrigin{Simulated: true}, loop.SeedID},
		{"a capture that does not say", nil, RunOrigin{}, loop.GenericID},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := capture.Trace("run", calls)
			if err != nil {
				t.Fatal(err)
			}
			tr.Agent = c.agent
			if v := RunView(tr, "run", counter(t), c.origin); v.Flow.Loop.ID != c.want {
				t.Errorf("drawn on %s (%s), want %s", v.Flow.Loop.ID, v.Flow.Why, c.want)
			}
		})
	}
}

// A Claude Code project's run, as the frontend's fixture of a view drawn on
// Claude Code's loop (HOOKSTUDIO_UPDATE_FIXTURES=1 writes it): a guard that
// blocks a recursive delete at PreToolUse, and a Stop hook.
func TestClaudeCodeViewFixture(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".claude/settings.json"), `{"hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh .claude/hooks/guard.sh"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "true"}]}]
}}
`)
	write(t, filepath.Join(root, ".claude/hooks/guard.sh"), "if grep -q 'rm -rf'; then echo 'Recursive deletes are blocked' >&2; exit 2; fi\n")
	write(t, filepath.Join(root, ".hookstudio/scenarios/clean.yaml"), `name: clean
system_prompt: You are Claude Code.
tools:
  - {name: Bash, description: Run a shell command., parameters: {type: object, properties: {command: {type: string}}}}
requests:
  - user: Clean the build folder.
    rounds:
      - tool_calls: [{name: Bash, arguments: {command: "rm -rf build/"}, result: ""}]
      - content: The guard refused the delete.
`)
	s, rec, ctx := newService(t, appHooksOn)
	if _, err := s.Open(ctx, root); err != nil {
		t.Fatal(err)
	}
	from := rec.len()
	if _, err := s.TrustFolder(ctx); err != nil {
		t.Fatal(err)
	}
	v := waitTrace(t, rec, from, func(v TraceView) bool { return !v.Pending && v.Exec.Ran })
	if v.Flow.Loop.ID != "claude-code" {
		t.Fatalf("drawn on %s (%s)", v.Flow.Loop.ID, v.Flow.Why)
	}
	guard := -1
	for _, st := range hookCallSteps(v) {
		if st.HookCall.Event == "PreToolUse:Bash" {
			guard = st.Index
		}
	}
	if guard < 0 || nodeOfStep(v, guard) != "PreToolUse" {
		t.Fatalf("the guard's step %d at %q", guard, nodeOfStep(v, max(guard, 0)))
	}
	writeFixture(t, "claude-trace.json", v, root)
}
