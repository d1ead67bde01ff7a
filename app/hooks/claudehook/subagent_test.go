package claudehook

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// subagentScenario: the session asks a sub-agent (the Agent tool), which
// runs a tool and answers twice (its first answer may be blocked).
const subagentScenario = `name: sub
tools:
  - {name: Bash, description: Run a command., parameters: {type: object, properties: {command: {type: string}}}}
  - {name: Agent, description: Ask a sub-agent., parameters: {type: object, properties: {prompt: {type: string}}}}
requests:
  - user: clean the build folder
    rounds:
      - tool_calls:
          - name: Agent
            arguments: {description: Look at the build, prompt: Find what is in the build folder, subagent_type: Explore}
            subagent:
              rounds:
                - tool_calls: [{name: Bash, arguments: {command: ls build}, result: main.o}]
                - content: The build folder holds main.o.
                - content: The fixtures are fine too.
      - content: The helper is done.
`

// subagentHooks: SubagentStart gives context; SubagentStop (matching the
// sub-agent's kind) blocks the sub-agent's first answer; every event's
// stdin is kept.
func subagentHooks(dir string) string {
	keep := `{"type": "command", "command": "cat > ` + dir + `/$(date +%s%N).json"}`
	return settings(`{
 "SubagentStart": [{"matcher": "Explore", "hooks": [` + keep + `, {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"the fixtures are in testdata\"}}'"}]}],
 "SubagentStop": [{"matcher": "Explore", "hooks": [` + keep + `, {"type": "command", "command": "f=\"$CLAUDE_PROJECT_DIR/substop\"; if [ -e \"$f\" ]; then exit 0; fi; touch \"$f\"; echo '{\"decision\":\"block\",\"reason\":\"Check the fixtures too.\"}'"}]}],
 "PreToolUse": [{"hooks": [` + keep + `]}]}`)
}

// TestSubagentHooks: a scripted sub-agent runs as a request of its own
// nested under the Agent call; its SubagentStart hook's words reach its
// first model call and its SubagentStop block makes it answer again,
// worded as Claude Code words them (docs/claude-code-hooks.md); its
// answer is the Agent call's result; hooks read what the CLI sends
// (measured on 2.1.197 and 2.1.332 with a foreground sub-agent).
func TestSubagentHooks(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{".claude/settings.json": subagentHooks(dir)}
	tr, _ := run(t, files, subagentScenario)
	if len(tr.Requests) != 2 || tr.Requests[1].Subagent == nil {
		t.Fatalf("%d requests, the second's sub-agent %v", len(tr.Requests), tr.Requests)
	}
	sub := tr.Requests[1].Subagent
	asked := sub.Call >= 0 && sub.Call < len(tr.Calls) && slices.ContainsFunc(tr.Calls[sub.Call].ToolCalls, func(tc engine.ToolCall) bool {
		return tc.Name == "Agent" && tc.ID == sub.ToolUseID
	})
	if sub.Parent != 0 || !asked || sub.Type != "Explore" || sub.Description != "Look at the build" || sub.ToolUseID == "" {
		t.Errorf("sub-agent %+v", sub)
	}
	if got := tr.Requests[0].Reply; got != "The helper is done." {
		t.Errorf("the session's reply %q", got)
	}
	var events []string
	for _, st := range tr.Steps() {
		if hc := st.HookCall; hc != nil && st.Request == 1 {
			events = append(events, hc.Event+"/"+string(hc.Outcome))
		}
	}
	for _, w := range []string{"SubagentStart/modified", "SubagentStop/blocked", "PreToolUse:Bash/ok"} {
		if !slices.Contains(events, w) {
			t.Errorf("no %s hook call in the sub-agent's request: %v", w, events)
		}
	}
	// its calls: the context after its prompt from the first; the block's
	// feedback after its first answer in the last
	subCalls := tr.Requests[1].Calls
	if len(subCalls) != 3 {
		t.Fatalf("the sub-agent made %d model calls, want 3", len(subCalls))
	}
	first := tr.CallMessages(subCalls[0])
	if i := slices.IndexFunc(first, func(m engine.Message) bool { return m.Origin == engine.OriginUserInput }); i < 0 ||
		first[i].Content != "Find what is in the build folder" {
		t.Errorf("the sub-agent's prompt is not its task: %+v", first)
	}
	if !slices.ContainsFunc(first, func(m engine.Message) bool {
		return m.Origin == engine.OriginHook && m.Role == "system" && m.Content == "SubagentStart hook additional context: the fixtures are in testdata"
	}) {
		t.Errorf("SubagentStart's context is not in the sub-agent's first call: %+v", first)
	}
	last := tr.CallMessages(subCalls[2])
	if m := last[len(last)-1]; m.Origin != engine.OriginHook || m.Role != "user" || m.Content != "Stop hook feedback:\nCheck the fixtures too." {
		t.Errorf("the last message of the sub-agent's last call: %s %s %q", m.Origin, m.Role, m.Content)
	}
	// the session never reads the sub-agent's hooks; the Agent call's
	// result is the sub-agent's last answer
	own := tr.Requests[0].Calls
	for _, m := range tr.CallMessages(own[len(own)-1]) {
		if m.Origin == engine.OriginHook {
			t.Errorf("the session's call holds a sub-agent hook's words: %q", m.Content)
		}
		if m.Role == "tool" && m.Content != "The fixtures are fine too." {
			t.Errorf("the Agent call's result %q", m.Content)
		}
	}

	want := map[string][]string{
		"SubagentStart": {"session_id", "transcript_path", "cwd", "prompt_id", "agent_id", "agent_type", "hook_event_name"},
		"SubagentStop": {"session_id", "transcript_path", "cwd", "prompt_id", "permission_mode", "agent_id", "agent_type", "effort", "hook_event_name",
			"stop_hook_active", "agent_transcript_path", "last_assistant_message", "background_tasks", "session_crons"},
		"PreToolUse": {"session_id", "transcript_path", "cwd", "prompt_id", "permission_mode", "agent_id", "agent_type", "effort", "hook_event_name",
			"tool_name", "tool_input", "tool_use_id"},
	}
	kept, _ := os.ReadDir(dir)
	var stops []bool
	seen := map[string]bool{}
	for _, e := range kept {
		data, err := os.ReadFile(dir + "/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		var in map[string]any
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		event := in["hook_event_name"].(string)
		if event == "PreToolUse" && in["tool_name"] != "Bash" { // the session's Agent call
			if _, ok := in["agent_id"]; ok {
				t.Errorf("the session's PreToolUse names a sub-agent: %s", data)
			}
			continue
		}
		seen[event] = true
		if got := keysOf(data); !slices.Equal(got, want[event]) {
			t.Errorf("%s stdin keys %v, the CLI's %v", event, got, want[event])
		}
		if in["agent_id"] != sub.AgentID || in["agent_type"] != "Explore" {
			t.Errorf("%s names sub-agent %v %v, want %s Explore", event, in["agent_id"], in["agent_type"], sub.AgentID)
		}
		if event == "SubagentStop" {
			stops = append(stops, in["stop_hook_active"].(bool))
			p := in["agent_transcript_path"].(string)
			if data, err := os.ReadFile(p); err != nil || !strings.Contains(string(data), "Find what is in the build folder") || !strings.HasSuffix(p, "/subagents/agent-"+sub.AgentID+".jsonl") {
				t.Errorf("the sub-agent's transcript %s: %v %s", p, err, data)
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("events seen: %v", seen)
	}
	if !slices.Equal(stops, []bool{false, true}) && !slices.Equal(stops, []bool{true, false}) {
		t.Errorf("SubagentStop's stop_hook_active: %v, want one false then one true", stops)
	}
}

// TestSubagentMatcher: a SubagentStart matcher filters on the sub-agent's
// kind.
func TestSubagentMatcher(t *testing.T) {
	files := map[string]string{".claude/settings.json": settings(`{
 "SubagentStart": [{"matcher": "Plan", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"never\"}}'"}]}]}`)}
	tr, _ := run(t, files, subagentScenario)
	for _, hc := range tr.HookCalls {
		if hc.Event == "SubagentStart" {
			t.Errorf("a SubagentStart hook matching Plan ran for an Explore sub-agent: %+v", hc)
		}
	}
}

// keysOf is a JSON object's keys in order.
func keysOf(data []byte) []string {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	_, _ = dec.Token()
	var order []string
	for dec.More() {
		k, _ := dec.Token()
		order = append(order, k.(string))
		var skip json.RawMessage
		_ = dec.Decode(&skip)
	}
	return order
}
