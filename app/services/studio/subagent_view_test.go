package studio

import (
	"path/filepath"
	"testing"
)

// A Claude Code project's run with a scripted sub-agent, as the frontend's
// fixture of a nested run (HOOKSTUDIO_UPDATE_FIXTURES=1 writes it): the
// sub-agent's request says which call started it, and its SubagentStart
// and SubagentStop hooks are steps of it drawn on their nodes of Claude
// Code's loop.
func TestSubagentViewFixture(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".claude/settings.json"), `{"hooks": {
  "SubagentStart": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"the fixtures are in testdata\"}}'"}]}],
  "SubagentStop": [{"hooks": [{"type": "command", "command": "true"}]}]
}}
`)
	write(t, filepath.Join(root, ".hookstudio/scenarios/helper.yaml"), `name: helper
system_prompt: You are Claude Code.
tools:
  - {name: Bash, description: Run a shell command., parameters: {type: object, properties: {command: {type: string}}}}
  - {name: Agent, description: Ask a sub-agent., parameters: {type: object, properties: {prompt: {type: string}}}}
requests:
  - user: Clean the build folder.
    rounds:
      - tool_calls:
          - name: Agent
            arguments: {description: Look at the build, prompt: Find what is in the build folder, subagent_type: Explore}
            subagent:
              rounds:
                - tool_calls: [{name: Bash, arguments: {command: ls build}, result: main.o}]
                - content: The build folder holds main.o.
      - content: The helper found main.o.
`)
	v := claudeCodeView(t, root)
	if len(v.Requests) != 2 || v.Requests[1].Subagent == nil || v.Requests[1].Subagent.Type != "Explore" || v.Requests[1].Subagent.Parent != 0 {
		t.Fatalf("requests %+v", v.Requests)
	}
	nodes := map[string]string{}
	for _, st := range hookCallSteps(v) {
		if st.Request == 1 {
			nodes[st.HookCall.Event] = nodeOfStep(v, st.Index)
		}
	}
	if nodes["SubagentStart"] != "SubagentStart" || nodes["SubagentStop"] != "SubagentStop" {
		t.Fatalf("the sub-agent's hook steps are on nodes %v", nodes)
	}
	writeFixture(t, "subagent-trace.json", v, root)
}
